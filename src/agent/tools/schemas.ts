import { z } from 'zod';

/** Shared input and output pieces of the AgentBrowser tools (seed 000's shapes). */

export {
  SeedModifier as Modifier,
  SeedModifiers as Modifiers,
  SeedRef as Ref,
  SeedNavigationOutput as NavigationOutput,
  SeedTimeout as TimeoutInput,
} from '../../tools/seed-shapes.js';

/** Where the current tab is after an action: enough to notice a navigation, nothing more. */
export const PageState = z.object({
  url: z.string(),
  title: z.string(),
});

export const Done = z.object({ done: z.literal(true) });
