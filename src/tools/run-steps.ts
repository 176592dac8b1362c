import { z } from 'zod';
import { ErrorCodes, invalidArgument, isBrowserMeshError } from '../errors.js';
import { toOptionCriteria } from '../operations/forms.js';
import type { ActionStep } from '../operations/run-actions.js';
import { MAX_SCROLL_DELTA } from '../operations/actions.js';
import { MAX_TYPE_DELAY_MS } from '../operations/typing.js';
import { KeyName, Modifiers, MouseButton } from './action-schemas.js';
import { targetFields } from './schemas.js';
import { toWaitCondition, waitConditionFields } from './waits.js';

/**
 * The typed steps of `browser_run { actions }`: each takes the same fields (and the same ref or
 * locator target) as the typed tool it stands for, without sessionId/pageId.
 */

export const MAX_ACTIONS = 100;
const MAX_SLEEP_MS = 600_000;

const OneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(100)]);
const Delta = z.number().int().min(-MAX_SCROLL_DELTA).max(MAX_SCROLL_DELTA).optional();
const ACTIONS = [
  'goto',
  'click',
  'fill',
  'type',
  'press',
  'select',
  'check',
  'uncheck',
  'hover',
  'scroll',
  'wait',
  'snapshot',
] as const;

/** The fields each action accepts besides `action` (ref/locator where TARGETED). */
const FIELDS: Record<(typeof ACTIONS)[number], readonly string[]> = {
  goto: ['url', 'waitUntil'],
  click: ['button', 'clickCount', 'modifiers'],
  fill: ['value'],
  type: ['text', 'delayMs'],
  press: ['key'],
  select: ['value', 'label', 'index'],
  check: [],
  uncheck: [],
  hover: [],
  scroll: ['deltaX', 'deltaY'],
  wait: ['ms', 'url', 'loadState', 'state', 'text', 'present'],
  snapshot: ['interactiveOnly', 'maxChars'],
};
const TARGETED = new Set([
  'click',
  'fill',
  'type',
  'press',
  'select',
  'check',
  'uncheck',
  'hover',
  'scroll',
  'wait',
]);

// One object rather than a union of twelve (a fraction of the bytes in every tools/list); which
// fields go with which action is checked by toActionSteps, naming the field.
export const ActionStepSchema = z
  .object({
    action: z.enum(ACTIONS),
    ...targetFields,
    url: z.string().min(1).max(8192).optional().describe('goto: the URL; wait: a URL glob.'),
    waitUntil: z.enum(['load', 'domcontentloaded', 'commit']).optional(),
    value: z.union([z.string().max(100_000), z.array(z.string().max(1000)).min(1).max(100)]).optional(),
    label: OneOrMany(z.string().max(1000)).optional(),
    index: OneOrMany(z.number().int().min(0).max(100_000)).optional(),
    text: z.string().min(1).max(10_000).optional(),
    delayMs: z.number().int().min(0).max(MAX_TYPE_DELAY_MS).optional(),
    key: KeyName.optional(),
    button: MouseButton.optional(),
    clickCount: z.number().int().min(1).max(3).optional(),
    modifiers: Modifiers.optional(),
    deltaX: Delta,
    deltaY: Delta,
    ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_SLEEP_MS)
      .optional()
      .describe('wait: sleep until the page is quiet 500 ms, at most ms.'),
    ...pick(waitConditionFields, ['loadState', 'state', 'present'] as const),
    interactiveOnly: z.boolean().optional(),
    maxChars: z.number().int().min(100).max(1_000_000).optional(),
  })
  .strict()
  .describe('A step: an action with the fields of its typed tool.')
  .meta({
    id: 'RunAction',
    shape:
      '{action, ref? or locator? (as in browser_click), …}: goto url, waitUntil? | click button?, clickCount?, modifiers? | fill value | type text, delayMs? | press key | select value|label|index | check | uncheck | hover | scroll deltaX?, deltaY? | wait ms (ends once quiet) | url | loadState | state? | text, present? | snapshot interactiveOnly?, maxChars?',
  });

function pick<T extends Record<string, z.ZodType>, K extends keyof T>(
  shape: T,
  keys: readonly K[],
): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, shape[key]])) as Pick<T, K>;
}

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

const NEEDS_TARGET = new Set(['click', 'fill', 'select', 'check', 'uncheck', 'hover']);

function toActionStep(input: ActionStepInput): ActionStep {
  const allowed = new Set([
    'action',
    ...FIELDS[input.action],
    ...(TARGETED.has(input.action) ? ['ref', 'locator'] : []),
  ]);
  const stray = Object.keys(input).find(
    (key) => !allowed.has(key) && input[key as keyof ActionStepInput] !== undefined,
  );
  if (stray !== undefined) throw invalidArgument(stray, `does not go with action ${input.action}`);
  checkTarget(input);
  const target = { ref: input.ref, locator: input.locator };
  switch (input.action) {
    case 'goto':
      return { action: 'goto', url: required(input.url, 'url'), waitUntil: input.waitUntil };
    case 'click':
      return {
        action: 'click',
        ...target,
        button: input.button,
        clickCount: input.clickCount,
        modifiers: input.modifiers,
      };
    case 'fill':
      if (typeof input.value !== 'string') throw invalidArgument('value', 'is required (a string) with fill');
      return { action: 'fill', ...target, value: input.value };
    case 'type':
      return { action: 'type', ...target, text: required(input.text, 'text'), delayMs: input.delayMs };
    case 'press':
      return { action: 'press', ...target, key: required(input.key, 'key') };
    case 'select':
      return { action: 'select', ...target, criteria: toOptionCriteria(input) };
    case 'check':
    case 'uncheck':
    case 'hover':
      return { action: input.action, ...target };
    case 'scroll':
      return { action: 'scroll', ...target, deltaX: input.deltaX, deltaY: input.deltaY };
    case 'wait':
      return toWaitStep(input);
    case 'snapshot':
      return { action: 'snapshot', interactiveOnly: input.interactiveOnly, maxChars: input.maxChars };
  }
}

function toWaitStep(input: ActionStepInput): ActionStep {
  const { action: _action, ms, ...condition } = input;
  const conditions = Object.values(condition).filter((v) => v !== undefined).length;
  if (ms !== undefined && conditions > 0) throw invalidArgument('ms', 'give ms or a condition, not both');
  if (ms !== undefined) return { action: 'wait', ms };
  if (condition.text !== undefined && condition.text.length > 1000)
    throw invalidArgument('text', 'is too long (max 1000)');
  return { action: 'wait', condition: toWaitCondition(condition) };
}

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw invalidArgument(field, 'is required with this action');
  return value;
}

/** Exactly one of ref or locator where the step acts on an element; at most one where it may. */
function checkTarget(input: { action: string; ref?: unknown; locator?: unknown }): void {
  if (!TARGETED.has(input.action)) return;
  const given = (input.ref !== undefined ? 1 : 0) + (input.locator !== undefined ? 1 : 0);
  if (given === 2 || (given === 0 && NEEDS_TARGET.has(input.action)))
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
