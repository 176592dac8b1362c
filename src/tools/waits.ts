import { z } from 'zod';
import { invalidArgument } from '../errors.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { actionAndWait, type AwaitedEvent, type TriggerAction } from '../operations/act/action-and-wait.js';
import { waitForCondition, type WaitCondition } from '../operations/navigate/waits.js';
import { dialogsField, downloadsField, publishDialogs } from './action-runner.js';
import { DialogNoteSchema, KeyName, Modifiers, MouseButton, Target, toTargetSpec } from './action-schemas.js';
import { ACTION, defineTool, READ_ONLY } from './define.js';
import { pageAddress, PageInfoSchema, targetFields } from './schemas.js';

const UrlPattern = z
  .string()
  .min(1)
  .max(2048)
  .describe('Exact URL or glob (* within a path segment, ** anything).');
const WaitText = z.string().min(1).max(1000);
const ElementState = z.enum(['visible', 'hidden', 'attached', 'detached', 'enabled', 'disabled']);

/** The condition fields of browser_wait (also a `wait` step of browser_run's actions). */
export const waitConditionFields = {
  url: UrlPattern.optional(),
  loadState: z.enum(['domcontentloaded', 'load']).optional(),
  ...targetFields,
  state: ElementState.optional().describe('With ref or locator (default visible).'),
  text: z
    .union([WaitText, z.array(WaitText).min(1).max(10)])
    .optional()
    .describe('Any of these; case-sensitive.'),
  present: z.boolean().optional().describe('false: until none shows.'),
};

const waitInput = z.object({ ...pageAddress, ...waitConditionFields }).strict();

/** Exactly one condition; modifiers (state, present) only with their condition. */
export function toWaitCondition(args: z.infer<z.ZodObject<typeof waitConditionFields>>): WaitCondition {
  const given = [
    args.url !== undefined,
    args.loadState !== undefined,
    args.ref !== undefined || args.locator !== undefined,
    args.text !== undefined,
  ].filter(Boolean).length;
  if (given !== 1)
    throw invalidArgument(
      'condition',
      `give exactly one of url, loadState, ref/locator or text (got ${given})`,
    );
  if (args.state !== undefined && args.ref === undefined && args.locator === undefined)
    throw invalidArgument('state', 'goes with ref or locator');
  if (args.present !== undefined && args.text === undefined)
    throw invalidArgument('present', 'goes with text');
  if (args.url !== undefined) return { kind: 'url', pattern: args.url };
  if (args.loadState !== undefined) return { kind: 'loadState', state: args.loadState };
  if (args.text !== undefined)
    return {
      kind: 'text',
      texts: typeof args.text === 'string' ? [args.text] : args.text,
      present: args.present ?? true,
    };
  return { kind: 'element', target: toTargetSpec(args), state: args.state ?? 'visible' };
}

export const waitTool = defineTool({
  name: 'browser_wait',
  title: 'Wait',
  description: 'Wait for exactly one condition: url, loadState, ref/locator + state, or text.',
  profile: 'core',
  input: waitInput,
  output: z.object({
    satisfied: z.literal(true),
    elapsedMs: z.number(),
    matched: z.string().optional(),
    ...dialogsField,
  }),
  hints: READ_ONLY,
  async handler(args, { mesh, call }) {
    const condition = toWaitCondition(args);
    const result = await mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'wait',
      (ctx) => waitForCondition(ctx, condition),
      call,
    );
    return publishDialogs(result);
  },
});

const WaitFor = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('navigation'),
        url: UrlPattern.optional(),
        loadState: z
          .enum(['commit', 'domcontentloaded', 'load'])
          .optional()
          .describe('Default: parsed, load if soon.'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('response'),
        url: UrlPattern,
        method: z
          .string()
          .regex(/^[A-Za-z]{1,16}$/)
          .optional(),
        status: z.number().int().min(100).max(599).optional(),
      })
      .strict(),
    z.object({ kind: z.literal('popup') }).strict(),
    z
      .object({
        kind: z.literal('dialog'),
        type: z
          .enum(['alert', 'confirm', 'prompt', 'beforeunload'])
          .optional()
          .describe('The expected type; another type fails.'),
        accept: z.boolean().optional().describe('Accept (default) or dismiss.'),
        promptText: z
          .string()
          .max(10_000)
          .optional()
          .describe('Text entered into a prompt before accepting.'),
      })
      .strict(),
  ])
  .describe('Set up before the action:')
  .meta({
    shape:
      '{kind: "navigation", url?, loadState?: "commit"|"domcontentloaded"|"load"} | {kind: "response", url, method?, status?} | {kind: "popup"} (returns its pageId) | {kind: "dialog", type?: "alert"|"confirm"|"prompt"|"beforeunload", accept? (default true), promptText?}; url as in browser_wait.',
  });

const ObservedEventSchema = z.object({
  type: z.enum(['navigation', 'response', 'popup', 'dialog']),
  url: z.string().optional().describe('Credentials, fragment and secret-looking query values removed.'),
  status: z.number().optional(),
  method: z.string().optional(),
  page: PageInfoSchema.optional().describe('The popup, a new managed page of this session.'),
  dialog: DialogNoteSchema.optional(),
});

export const actionAndWaitTool = defineTool({
  name: 'browser_action_and_wait',
  title: 'Act and wait',
  description:
    'Click (or press a key on) a target and wait for what it causes: navigation, response, popup or dialog; never misses a fast one.',
  profile: 'core',
  input: z
    .object({
      ...pageAddress,
      target: Target,
      action: z.enum(['click', 'press']).optional().describe('Default click.'),
      key: KeyName.optional().describe('With action press.'),
      button: MouseButton.optional(),
      modifiers: Modifiers.optional(),
      waitFor: WaitFor,
    })
    .strict(),
  output: z.object({ event: ObservedEventSchema, elapsedMs: z.number(), ...dialogsField, ...downloadsField }),
  hints: ACTION,
  async handler(args, { mesh, call }) {
    const action = toTriggerAction(args);
    const awaited: AwaitedEvent =
      args.waitFor.kind === 'dialog'
        ? { ...args.waitFor, accept: args.waitFor.accept ?? true }
        : args.waitFor;
    const run = (ctx: PageOperationContext): ReturnType<typeof actionAndWait> =>
      actionAndWait(ctx, args.target, action, awaited);
    return publishDialogs(await mesh.runOnPage(args.sessionId, args.pageId, 'action_and_wait', run, call));
  },
});

function toTriggerAction(args: {
  action?: 'click' | 'press' | undefined;
  key?: string | undefined;
  button?: 'left' | 'right' | 'middle' | undefined;
  modifiers?: Array<'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift'> | undefined;
}): TriggerAction {
  if ((args.action ?? 'click') === 'press') {
    if (args.key === undefined) throw invalidArgument('key', 'is required with action press');
    // A mouse button or held modifiers would be ignored by a key press: refuse rather than drop them.
    if (args.button !== undefined) throw invalidArgument('button', 'goes with action click');
    if (args.modifiers !== undefined)
      throw invalidArgument(
        'modifiers',
        'goes with action click (write the combination in key, e.g. Control+a)',
      );
    return { kind: 'press', key: args.key };
  }
  if (args.key !== undefined) throw invalidArgument('key', 'goes with action press');
  return { kind: 'click', click: { button: args.button, modifiers: args.modifiers } };
}
