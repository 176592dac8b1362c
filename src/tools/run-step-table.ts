import { z } from 'zod';
import { invalidArgument } from '../errors.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { click, scroll, MAX_SCROLL_DELTA } from '../operations/act/actions.js';
import type { ActionResult } from '../operations/act/action-scope.js';
import { fill, selectOption, toOptionCriteria } from '../operations/act/forms.js';
import type { TargetSpec } from '../operations/locate/locator-spec.js';
import { navigate } from '../operations/navigate/navigation.js';
import { waitForQuiet } from '../operations/navigate/quiet.js';
import type { StepOut, StepRun } from '../operations/act/run-actions.js';
import { snapshot } from '../operations/read/snapshot.js';
import { MAX_TYPE_DELAY_MS, press, typeText } from '../operations/act/typing.js';
import { waitForCondition } from '../operations/navigate/waits.js';
import { KeyName, Modifiers, MouseButton } from './action-schemas.js';
import { targetFields } from './schemas.js';
import { toWaitCondition, waitConditionFields } from './waits.js';

/**
 * The steps of `browser_run { actions }`, one entry each: the fields it takes, its targeting and
 * how it runs (the typed operation its tool runs). STEP_TABLE holds the steps written here; a tool
 * definition brings its own (`code: codeParts({ steps })`, src/tools/code-parts.ts), which joins
 * both. The step names, the fields allowed per step and the ref/locator rules of run-steps.ts are
 * read from the joined table, so a step is added in one place.
 */

const MAX_SLEEP_MS = 600_000;
const OneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(100)]);
const Delta = z.number().int().min(-MAX_SCROLL_DELTA).max(MAX_SCROLL_DELTA).optional();

/** Every field a step may carry besides `action` (one object: see ActionStepSchema). */
export const stepFields = {
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
  loadState: waitConditionFields.loadState,
  state: waitConditionFields.state,
  present: waitConditionFields.present,
  interactiveOnly: z.boolean().optional(),
  maxChars: z.number().int().min(100).max(1_000_000).optional(),
};

export type StepInput = z.infer<z.ZodObject<typeof stepFields>>;
export type StepField = Exclude<keyof StepInput, 'ref' | 'locator'>;

/** none: no ref/locator; optional: at most one (focused element / page); required: exactly one. */
export type StepTargeting = 'none' | 'optional' | 'required';

export interface StepEntry {
  /** The step in the schema's one-line summary (`RunAction`'s shape): its name and fields. */
  shape: string;
  fields: readonly StepField[];
  targeting: StepTargeting;
  /** Checks the cross-field rules and returns the step's runner; throws INVALID_ARGUMENT. */
  prepare(input: StepInput, target: TargetSpec): StepRun;
}

type Acted = (ctx: PageOperationContext, field: string) => Promise<ActionResult>;
/** An action whose only report is the dialogs it handled. */
export const acted =
  (run: Acted): StepRun =>
  async (ctx, field, dialogs) => {
    dialogs.push(...((await run(ctx, field)).dialogs ?? []));
    return undefined;
  };

export function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw invalidArgument(field, 'is required with this action');
  return value;
}

function prepareWait(input: StepInput): StepRun {
  const { ms, ...condition } = input;
  const conditions = Object.values(condition).filter((v) => v !== undefined).length;
  if (ms !== undefined && conditions > 0) throw invalidArgument('ms', 'give ms or a condition, not both');
  if (ms !== undefined) return async (ctx): Promise<StepOut> => waitForQuiet(ctx, { maxMs: ms });
  if (condition.text !== undefined && condition.text.length > 1000)
    throw invalidArgument('text', 'is too long (max 1000)');
  const parsed = toWaitCondition(condition);
  return async (ctx, _field, dialogs) => {
    dialogs.push(...((await waitForCondition(ctx, parsed)).dialogs ?? []));
    return undefined;
  };
}

/**
 * The published order of the `action` enum (tools/list is byte-identical from release to release):
 * frozen. A step added later comes after these, in the order of its definition in ALL_TOOLS.
 */
export const PUBLISHED_STEPS = [
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

/**
 * The steps written here; the element actions' (check, hover, …) come with their rows' tools
 * (src/tools/element-actions.ts), the others' with their definitions.
 */
export const STEP_TABLE: Readonly<Record<string, StepEntry>> = {
  goto: {
    shape: 'goto url, waitUntil?',
    fields: ['url', 'waitUntil'],
    targeting: 'none',
    prepare: (input) => {
      const url = required(input.url, 'url');
      return async (ctx) => {
        const { title, status, loadState } = await navigate(ctx, url, input.waitUntil);
        // Said only when it is news: the page was usable but its load event had not come.
        return { title, status, ...(loadState === 'load' ? {} : { loadState }) };
      };
    },
  },
  click: {
    shape: 'click button?, clickCount?, modifiers?',
    fields: ['button', 'clickCount', 'modifiers'],
    targeting: 'required',
    prepare: ({ button, clickCount, modifiers }, target) =>
      acted((ctx, field) => click(ctx, target, field, { button, clickCount, modifiers })),
  },
  fill: {
    shape: 'fill value',
    fields: ['value'],
    targeting: 'required',
    prepare: ({ value }, target) => {
      if (typeof value !== 'string') throw invalidArgument('value', 'is required (a string) with fill');
      return acted((ctx, field) => fill(ctx, target, field, value));
    },
  },
  type: {
    shape: 'type text, delayMs?',
    fields: ['text', 'delayMs'],
    targeting: 'optional',
    prepare: (input, target) => {
      const text = required(input.text, 'text');
      return acted((ctx, field) => typeText(ctx, target, field, text, input.delayMs ?? 0));
    },
  },
  press: {
    shape: 'press key',
    fields: ['key'],
    targeting: 'optional',
    prepare: (input, target) => {
      const key = required(input.key, 'key');
      return acted((ctx, field) => press(ctx, target, field, key));
    },
  },
  select: {
    shape: 'select value|label|index',
    fields: ['value', 'label', 'index'],
    targeting: 'required',
    prepare: (input, target) => {
      const criteria = toOptionCriteria(input);
      return async (ctx, field, dialogs) => {
        const result = await selectOption(ctx, target, field, criteria);
        dialogs.push(...(result.dialogs ?? []));
        return { selected: result.selected };
      };
    },
  },
  scroll: {
    shape: 'scroll deltaX?, deltaY?',
    fields: ['deltaX', 'deltaY'],
    targeting: 'optional',
    prepare: ({ deltaX, deltaY }, target) =>
      acted((ctx, field) => scroll(ctx, target, field, deltaX ?? 0, deltaY ?? 0)),
  },
  wait: {
    shape: 'wait ms (ends once quiet) | url | loadState | state? | text, present?',
    fields: ['ms', 'url', 'loadState', 'state', 'text', 'present'],
    targeting: 'optional',
    prepare: prepareWait,
  },
  snapshot: {
    shape: 'snapshot interactiveOnly?, maxChars?',
    fields: ['interactiveOnly', 'maxChars'],
    targeting: 'none',
    prepare:
      ({ interactiveOnly, maxChars }) =>
      async (ctx) => {
        const taken = await snapshot(ctx, { interactiveOnly, maxChars });
        return { snapshot: taken.snapshot, ...(taken.partial ? { snapshotPartial: true } : {}) };
      },
  },
};
