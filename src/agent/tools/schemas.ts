import { z } from 'zod';

/** Shared input and output pieces of the AgentBrowser tools (seed 000's shapes). */

export const Ref = z.string().min(1).max(32).describe('Element ref from browser_snapshot, e.g. "@e5".');

export const TimeoutInput = z.number().int().min(100).max(600_000);

export const Modifier = z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']);

export const Modifiers = z.array(Modifier).max(4).describe('Modifier keys held during the action.');

/** Where the current tab is after an action: enough to notice a navigation, nothing more. */
export const PageState = z.object({
  url: z.string(),
  title: z.string(),
});

export const NavigationOutput = z.object({
  url: z.string(),
  title: z.string(),
  status: z.number().nullable().describe('HTTP status of the main document, when there was a response.'),
  loadState: z
    .enum(['load', 'domcontentloaded', 'commit'])
    .describe('State reached: domcontentloaded when the page was readable but load did not come soon.'),
});

export const Done = z.object({ done: z.literal(true) });
