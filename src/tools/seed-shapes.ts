import { z } from 'zod';

/**
 * Seed 000's argument pieces (AgentBrowser's tool shapes), for the `agent` views on the definitions.
 * They describe only what a view accepts; the definition's own schema validates after the mapping.
 */

export const SeedRef = z.string().min(1).max(32).describe('Element ref from browser_snapshot, e.g. "@e5".');

export const SeedTimeout = z.number().int().min(100).max(600_000);

export const SeedModifier = z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']);

export const SeedModifiers = z.array(SeedModifier).max(4).describe('Modifier keys held during the action.');
