import { z } from 'zod';
import { dialogsField, snapshotOutputFields } from './action-runner.js';
import { Locator, Ref, TARGET_SHAPE } from './schemas.js';

/** Shared input and output pieces of the interaction tools. */

/** A target object (drag endpoints, action_and_wait): exactly one of ref or locator, checked at resolve time. */
export const Target = z
  .object({ ref: Ref.optional(), locator: Locator.optional() })
  .strict()
  .describe('The element:')
  .meta({ id: 'Target', shape: TARGET_SHAPE });

/** A drag's drop target: the same form as its source, said in fewer words than the shape again. */
export const DropTarget = Target.meta({ description: 'Where to drop:', shape: 'same form as source.' });

/** Where in the drop target a drag settles (sortable lists decide by the half the pointer is in). */
export const DropPositionInput = z
  .union([z.enum(['before', 'after']), z.object({ x: z.number().min(0), y: z.number().min(0) }).strict()])
  .describe("Where in the target: 'before', 'after' or {x,y} px from its top-left. Default centre.");

export const ModifierKey = z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']);
export const Modifiers = z.array(ModifierKey).max(4).describe('Keys held down.');
export const MouseButton = z.enum(['left', 'right', 'middle']).describe('Mouse button (default left).');

export const KeyName = z
  .string()
  .min(1)
  .max(64)
  .describe('Key or combination: Enter, Tab, ArrowDown, a, Control+a, Shift+ArrowLeft.');

export const DialogNoteSchema = z.object({
  type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
  message: z.string(),
  messageTruncated: z.boolean(),
  action: z.enum(['accepted', 'dismissed']),
});

/**
 * What an action waited for before returning (operations/act/action-settle.ts): absent when the action
 * caused nothing, otherwise only the facts that are true (navigation: true, non-zero counts, waitedMs,
 * complete: false). It rides on every action tool, so the lean listing leaves it out (leanOmit) and the
 * README explains it once; --full-schemas and every result that has one show it.
 */
export const SettledOutput = z
  .object({
    navigation: z.literal(true).optional(),
    requests: z.number().optional(),
    mutations: z.number().optional(),
    waitedMs: z.number(),
    complete: z.literal(false).optional(),
  })
  .optional()
  .meta({ leanOmit: true });

/** What every interaction returns: completed, the new URL only if it changed, and dialog notes. */
export const ActionOutput = z.object({
  completed: z.literal(true),
  settled: SettledOutput,
  url: z.string().optional().describe('Only when the action changed it.'),
  ...dialogsField,
  ...snapshotOutputFields,
});

/** A tool's ref/locator pair lifted into the operations' target shape. */
export function toTargetSpec(args: {
  ref?: string | undefined;
  locator?: z.infer<typeof Locator> | undefined;
}): {
  ref?: string | undefined;
  locator?: z.infer<typeof Locator> | undefined;
} {
  return { ref: args.ref, locator: args.locator };
}
