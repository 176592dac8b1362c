import { z } from 'zod';

/** Shared input and output pieces of the AgentBrowser tools (seed 000's shapes). */

export {
  SeedModifier as Modifier,
  SeedModifiers as Modifiers,
  SeedRef as Ref,
  SeedTimeout as TimeoutInput,
} from '../../tools/seed-shapes.js';

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
