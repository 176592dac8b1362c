import { z } from 'zod';

/**
 * Seed 000's argument pieces (AgentBrowser's tool shapes), for the `agent` views on the definitions.
 * They describe only what a view accepts; the definition's own schema validates after the mapping.
 */

/** The same check as the MCP tools' ref (a ref with spaces, or a word, is INVALID_ARGUMENT on every face). */
export const SeedRef = z
  .string()
  .regex(/^@?e\d{1,7}$/, 'a snapshot ref like @e5')
  .describe('Element ref from browser_snapshot, e.g. "@e5".');

export const SeedTimeout = z.number().int().min(100).max(600_000);

export const SeedModifier = z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']);

export const SeedModifiers = z.array(SeedModifier).max(4).describe('Modifier keys held during the action.');

/** Seed 000's navigation result (browser_goto, browser_back). */
export const SeedNavigationOutput = z.object({
  url: z.string(),
  title: z.string(),
  status: z.number().nullable().describe('HTTP status of the main document, when there was a response.'),
  loadState: z
    .enum(['load', 'domcontentloaded', 'commit'])
    .describe('State reached: domcontentloaded when the page was readable but load did not come soon.'),
});
