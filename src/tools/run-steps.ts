import { z } from 'zod';
import { ErrorCodes, invalidArgument, isBrowserMeshError } from '../errors.js';
import type { ActionStep } from '../operations/act/run-actions.js';
import { STEP_NAMES, STEP_TABLE, stepFields, type StepEntry, type StepName } from './run-step-table.js';

/**
 * The typed steps of `browser_run { actions }`: each takes the same fields (and the same ref or
 * locator target) as the typed tool it stands for, without sessionId/pageId. Which step takes
 * which field, and its targeting, come from the step table (run-step-table.ts).
 */

export const MAX_ACTIONS = 100;

// One object rather than a union of twelve (a fraction of the bytes in every tools/list); which
// fields go with which action is checked by toActionSteps, naming the field.
export const ActionStepSchema = z
  .object({ action: z.enum(STEP_NAMES), ...stepFields })
  .strict()
  .describe('A step: an action with the fields of its typed tool.')
  .meta({
    id: 'RunAction',
    shape: `{action, ref? or locator? (as in browser_click), …}: ${Object.values(STEP_TABLE)
      .map((entry: StepEntry) => entry.shape)
      .join(' | ')}`,
  });

export type ActionStepInput = z.infer<typeof ActionStepSchema>;

/** Checks the cross-field rules (exactly one target, one condition…) before anything runs. */
export function toActionSteps(steps: readonly ActionStepInput[]): ActionStep[] {
  return steps.map((input, index) => {
    try {
      return toActionStep(input);
    } catch (error) {
      throw prefixField(error, `actions.${index}`);
    }
  });
}

function toActionStep(input: ActionStepInput): ActionStep {
  const { action, ...fields } = input;
  const entry = STEP_TABLE[action];
  const allowed = new Set<string>([
    'action',
    ...entry.fields,
    ...(entry.targeting === 'none' ? [] : ['ref', 'locator']),
  ]);
  const stray = Object.keys(input).find(
    (key) => !allowed.has(key) && input[key as keyof ActionStepInput] !== undefined,
  );
  if (stray !== undefined) throw invalidArgument(stray, `does not go with action ${action}`);
  checkTarget(action, input);
  return { action, run: entry.prepare(fields, { ref: input.ref, locator: input.locator }) };
}

/** Exactly one of ref or locator where the step acts on an element; at most one where it may. */
function checkTarget(action: StepName, input: { ref?: unknown; locator?: unknown }): void {
  const { targeting } = STEP_TABLE[action];
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
