import { z } from 'zod';

/**
 * Sub-schemas shared by many tools. Each carries an `id` in its metadata so the published JSON
 * Schema can share it through $defs/$ref instead of repeating it.
 */

export const SessionId = z
  .string()
  .min(1)
  .max(64)
  .describe('Session id from browser_session_create.')
  .meta({ id: 'SessionId' });
export const PageId = z
  .string()
  .min(1)
  .max(64)
  .describe('Page id (sessions start with one; see browser_page_list).')
  .meta({ id: 'PageId' });
const MAX_TIMEOUT_MS = 600_000;
export const TimeoutMs = z
  .number()
  .int()
  .min(1)
  .max(MAX_TIMEOUT_MS)
  .describe(`Deadline in ms (1-${MAX_TIMEOUT_MS}) from acceptance, queue wait included.`)
  // The range is in the description: the lean listing leaves the bounds out of every tool.
  .meta({ id: 'TimeoutMs', leanOmit: ['minimum', 'maximum'] });

export const sessionAddress = { sessionId: SessionId };
export const pageAddress = { sessionId: SessionId, pageId: PageId };

const FrameStep = z
  .object({
    css: z.string().min(1).max(1000).optional(),
    role: z.string().min(1).max(64).optional(),
    name: z.string().max(1000).optional(),
    testId: z.string().min(1).max(256).optional(),
  })
  .strict();

// One object rather than a union (fewer bytes in every listing); `chain` is required with kind iframe
// and refused with main at resolve time (INVALID_ARGUMENT naming locator.frame.chain).
export const Frame = z
  .object({ kind: z.enum(['main', 'iframe']), chain: z.array(FrameStep).min(1).max(5).optional() })
  .strict()
  .describe('Frame scope: main (default) or iframe with a chain of 1-5 iframe selectors, outside-in.')
  .meta({ id: 'Frame' });

/** One line of TypeScript-like notation per nested input object, published instead of its JSON Schema in the lean listing (src/mcp/lean-schema.ts). */
export const LOCATOR_SHAPE =
  '{role?, name?, text?, label?, placeholder?, testId?, css?: string; exact?: boolean; frame?: {kind: "main"} | {kind: "iframe"; chain: {css?, role?, name?, testId?}[]}}';

/** Exactly one strategy key (role, text, label, placeholder, testId, css) is allowed; checked at resolve time. */
export const Locator = z
  .object({
    role: z.string().min(1).max(64).optional().describe('ARIA role, e.g. button; with name.'),
    name: z.string().max(1000).optional().describe('Accessible name for role.'),
    text: z.string().min(1).max(1000).optional(),
    label: z.string().min(1).max(1000).optional(),
    placeholder: z.string().min(1).max(1000).optional(),
    testId: z.string().min(1).max(256).optional(),
    css: z.string().min(1).max(1000).optional(),
    exact: z.boolean().optional().describe('Exact name/text match (default true).'),
    frame: Frame.optional(),
  })
  .strict()
  .describe(
    'Locator (instead of ref): one strategy (role may add name); exact defaults to true; frame.chain: 1-5 iframes, outside-in.',
  )
  .meta({ id: 'Locator', shape: LOCATOR_SHAPE });

export const Ref = z
  .string()
  .regex(/^@?e\d{1,7}$/, 'a snapshot ref like @e5')
  .describe('Element ref from browser_snapshot, e.g. @e5.')
  .meta({ id: 'Ref' });

/** The shape of a `{ref} | {locator}` target object (drag endpoints, action_and_wait, snapshot scope). */
export const TARGET_SHAPE = '{ref?: "@eN", locator?: Locator} (exactly one)';

/** Target fields for element tools: exactly one of `ref` or `locator` (checked by `resolveTargetInput`). */
export const targetFields = { ref: Ref.optional(), locator: Locator.optional() };

export type LocatorInput = z.infer<typeof Locator>;
export type FrameInput = z.infer<typeof Frame>;

export const PageInfoSchema = z
  .object({
    pageId: z.string(),
    sessionId: z.string(),
    url: z.string(),
    title: z.string().optional(),
    isDefault: z.boolean(),
    openerPageId: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'PageInfo' });

export const SessionInfoSchema = z
  .object({
    sessionId: z.string(),
    name: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    state: z.enum(['ready', 'closing', 'closed', 'failed']),
    failureCode: z.string().nullable(),
    createdAt: z.string(),
    pageCount: z.number(),
    placement: z.object({ provider: z.string(), node: z.string().optional() }).nullable(),
    contextSettings: z.record(z.string(), z.unknown()),
    stateId: z.string().nullable(),
  })
  .meta({ id: 'SessionInfo' });
