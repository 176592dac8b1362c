import { z } from 'zod';
import { ErrorCodes, invalidArgument, isBrowserMeshError } from '../errors.js';
import type { ActionStep } from '../operations/act/run-actions.js';
import { stepFields, type StepEntry, type StepInput } from './run-step-table.js';

/**
 * The typed steps of `browser_run { actions }`: each takes the same fields (and the same ref or
 * locator target) as the typed tool it stands for, without sessionId/pageId. Which step takes
 * which field, and its targeting, come from the step table (run-step-table.ts and the steps of the
 * definitions, joined by src/tools/code-parts.ts), in the order it lists them.
 */

export const MAX_ACTIONS = 100;

export type ActionStepInput = StepInput & { action: string };

/** The published schema of a step and the check that turns steps into runners, for one table. */
export interface ActionSteps {
  table: ReadonlyMap<string, StepEntry>;
  schema: z.ZodType<ActionStepInput>;
  /** Checks the cross-field rules (exactly one target, one condition…) before anything runs. */
  toActionSteps(steps: readonly ActionStepInput[]): ActionStep[];
}

export function actionStepsOf(table: ReadonlyMap<string, StepEntry>): ActionSteps {
  const names = [...table.keys()];
  const entries = [...table.values()];
  // One object rather than a union of twelve (a fraction of the bytes in every tools/list); which
  // fields go with which action is checked by toActionSteps, naming the field.
  const schema = z
    .object({ action: z.enum(names as [string, ...string[]]), ...stepFields })
    .strict()
    .describe('A step: an action with the fields of its typed tool.')
    .meta({
      id: 'RunAction',
      shape: `{action, ref? or locator? (as in browser_click), …}: ${entries.map((entry) => entry.shape).join(' | ')}`,
    });
  return {
    table,
    schema,
    toActionSteps: (steps) =>
      steps.map((input, index) => {
        try {
          return toActionStep(table, input);
        } catch (error) {
          throw prefixField(error, `actions.${index}`);
        }
      }),
  };
}

function toActionStep(table: ReadonlyMap<string, StepEntry>, input: ActionStepInput): ActionStep {
  const { action, ...fields } = input;
  const entry = table.get(action);
  if (entry === undefined) throw invalidArgument('action', `unknown action ${action.slice(0, 40)}`);
  const allowed = new Set<string>([
    'action',
    ...entry.fields,
    ...(entry.targeting === 'none' ? [] : ['ref', 'locator']),
  ]);
  const stray = Object.keys(input).find(
    (key) => !allowed.has(key) && input[key as keyof ActionStepInput] !== undefined,
  );
  if (stray !== undefined) throw invalidArgument(stray, `does not go with action ${action}`);
  checkTarget(entry, input);
  return { action, run: entry.prepare(fields, { ref: input.ref, locator: input.locator }) };
}

/** Exactly one of ref or locator where the step acts on an element; at most one where it may. */
function checkTarget({ targeting }: StepEntry, input: { ref?: unknown; locator?: unknown }): void {
  if (targeting === 'none') return;
  const given = (input.ref !== undefined ? 1 : 0) + (input.locator !== undefined ? 1 : 0);
  if (given === 2 || (given === 0 && targeting === 'required'))
    throw invalidArgument(
      'locator',
      `give exactly one of ref or locator (got ${given === 2 ? 'both' : 'neither'})`,
    );
}

/** A step's own INVALID_ARGUMENT, re-issued with the step's path (`actions.3.value`). */
function prefixField(error: unknown, prefix: string): unknown {
  if (!isBrowserMeshError(error) || error.code !== ErrorCodes.INVALID_ARGUMENT) return error;
  const field = typeof error.details?.field === 'string' ? error.details.field : '';
  const message = error.message.startsWith(`${field}: `)
    ? error.message.slice(field.length + 2)
    : error.message;
  return invalidArgument(field === '' ? prefix : `${prefix}.${field}`, message);
}
