import { z } from 'zod';

/**
 * Sub-schemas shared by many tools. Each carries an `id` in its metadata so the published JSON
 * Schema can share it through $defs/$ref instead of repeating it.
 */

export const SessionId = z
  .string()
  .min(1)
  .max(64)
  .describe('From browser_session_create.')
  .meta({ id: 'SessionId' });
export const PageId = z
  .string()
  .min(1)
  .max(64)
  .describe('A page of that session.')
  // Always beside sessionId, whose description says where ids come from: the lean listing publishes
  // it bare in thirty-odd tools, as timeoutMs (the session's result names its pages).
  .meta({ id: 'PageId', leanOmit: ['description'] });
const MAX_TIMEOUT_MS = 600_000;
export const TimeoutMs = z
  .number()
  .int()
  .min(1)
  .max(MAX_TIMEOUT_MS)
  .describe(`Deadline in ms (1-${MAX_TIMEOUT_MS}) from acceptance, queue wait included.`)
  // Its name says what it is and the connect-time instructions say how it counts: the lean listing
  // publishes it bare in thirty-odd tools (the runtime answers an out-of-range value with the range).
  .meta({ id: 'TimeoutMs', leanOmit: ['minimum', 'maximum', 'description'] });

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

/**
 * One line of TypeScript-like notation per nested input object, published instead of its JSON Schema
 * in the lean listing (src/mcp/lean-schema.ts). Every tool that takes a locator carries the line, so
 * it names every strategy; the frame option's own shape is spelled out once, in browser_click (the
 * first element tool), and the others point there: that detail is what a line in a dozen tools cost.
 */
const LOCATOR_STRATEGIES = '{role, name?} or {text|label|placeholder|testId|css}; exact? (default true)';
export const LOCATOR_SHAPE = `${LOCATOR_STRATEGIES}; frame? (as in browser_click)`;
export const LOCATOR_SHAPE_FULL = `${LOCATOR_STRATEGIES}; frame?: {kind: "iframe", chain: [{css|role,name|testId}] outer first}`;

/** Exactly one strategy key (role, text, label, placeholder, testId, css) is allowed; checked at resolve time. */
const LocatorObject = z
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
  .strict();
export const Locator = LocatorObject.describe('Instead of ref:').meta({
  id: 'Locator',
  shape: LOCATOR_SHAPE,
});

/** The same locator, published with the frame option's shape (browser_click's listing). */
export const LocatorWithFrameShape = LocatorObject.describe('Instead of ref:').meta({
  id: 'LocatorFull',
  shape: LOCATOR_SHAPE_FULL,
});

export const Ref = z
  .string()
  .regex(/^@?e\d{1,7}$/, 'a snapshot ref like @e5')
  .describe('@eN from browser_snapshot.')
  .meta({ id: 'Ref' });

/** The shape of a `{ref} | {locator}` target object (drag endpoints, action_and_wait, snapshot scope). */
export const TARGET_SHAPE = `{ref: "@eN"} or {locator: ${LOCATOR_SHAPE}}`;

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
