import { z } from 'zod';
import {
  emptyScopeText,
  snapshot,
  SNAPSHOT_LIMITS,
  type SnapshotResult,
} from '../operations/read/snapshot.js';
import { logElementRead, logPageRead } from '../operations/read/read-log.js';
import type { LocatorSpec } from '../operations/locate/locator-spec.js';
import { agentView, defineTool, READ_ONLY } from './define.js';
import { Locator, pageAddress, Ref, TARGET_SHAPE } from './schemas.js';
import { SeedRef } from './seed-shapes.js';

const L = SNAPSHOT_LIMITS;

const SnapshotOutput = z.object({
  snapshot: z.string(),
  url: z.string(),
  title: z.string(),
  refCount: z.number(),
  chars: z.number(),
  bytes: z.number(),
  estimatedTokens: z.number(),
  originalChars: z.number(),
  originalBytes: z.number(),
  partial: z.boolean(),
  truncation: z.object({
    truncated: z.boolean(),
    reason: z.enum(['maxChars', 'maxBytes', 'retention']).nullable(),
    limit: z.number().nullable(),
  }),
  limitsApplied: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])),
  omitted: z.record(z.string(), z.number()).describe('Left out on purpose (non-zero counts).'),
  nextCursor: z.string().nullable(),
  // Rare, and said in the text block too: left out of the lean listing.
  empty: z.literal(true).optional().meta({ leanOmit: true }),
  emptyReason: z.enum(['not_rendered', 'no_content']).optional().meta({ leanOmit: true }),
  delta: z
    .object({
      base: z.enum(['previous', 'none']),
      added: z.number(),
      removed: z.number(),
      changed: z.number(),
    })
    .optional(),
});

export const snapshotTool = defineTool({
  name: 'browser_snapshot',
  title: 'Snapshot',
  description:
    'The page as lines `[role @eN state] name`; @eN refs are targets for the action tools. More: cursor=nextCursor.',
  profile: 'core',
  alsoIn: ['code'],
  input: z
    .object({
      ...pageAddress,
      interactiveOnly: z.boolean().optional().describe('Only interactive elements (much smaller).'),
      maxDepth: z.number().int().min(1).max(L.maxDepth).optional(),
      maxChildren: z
        .number()
        .int()
        .min(1)
        .max(L.maxChildren)
        .optional()
        .describe('Per element; the rest becomes "… N more".'),
      scope: z
        .object({ ref: Ref.optional(), locator: Locator.optional() })
        .strict()
        .meta({ shape: TARGET_SHAPE })
        .optional()
        .describe("Only this element's subtree:"),
      includeBoundingBoxes: z.boolean().optional().describe('Add box=x,y,w,h (CSS px) to refs.'),
      includeUrls: z.boolean().optional().describe('url=… on links.'),
      maxChars: z
        .number()
        .int()
        .min(L.minChars)
        .max(L.maxChars)
        .optional()
        .describe(`Default ${L.defaultMaxChars}.`),
      maxBytes: z
        .number()
        .int()
        .min(L.minBytes)
        .max(L.maxBytes)
        .optional()
        .describe(`Default ${L.defaultMaxBytes}.`),
      cursor: z.string().min(1).max(64).optional().describe('A nextCursor; no other option with it.'),
      since: z.literal('previous').optional().describe('Only the lines that changed (+ - ~).'),
      includeRefs: z.boolean().optional().describe('false: no refs; true: up to maxRefs.'),
      maxRefs: z.number().int().min(1).max(L.maxRefs).optional().describe(`Default ${L.defaultMaxRefs}.`),
    })
    .strict(),
  output: SnapshotOutput,
  hints: READ_ONLY,
  agent: agentView({
    name: 'browser_snapshot',
    description:
      'See the current tab as an accessibility tree, one element per line like "[button @e5] Submit". Use the @e refs with the other tools. interactiveOnly keeps only what can be acted on (cheapest); ref shows one element\'s subtree.',
    input: z
      .object({
        interactiveOnly: z
          .boolean()
          .optional()
          .describe('Only interactive elements, with their landmarks (default false).'),
        maxDepth: z
          .number()
          .int()
          .min(1)
          .max(L.maxDepth)
          .optional()
          .describe('Deepest tree level shown (default: all).'),
        ref: SeedRef.optional().describe(
          "Only this element's subtree (a ref from an earlier snapshot: a list, table, form, dialog…), with working refs.",
        ),
      })
      .strict(),
    toArgs: ({ ref, ...args }, at) => ({ ...at, ...args, ...(ref === undefined ? {} : { scope: { ref } }) }),
    output: z.object({
      snapshot: z.string().describe('The tree, one element per line.'),
      url: z.string(),
      title: z.string(),
      refCount: z.number(),
      partial: z
        .boolean()
        .describe('True when the page was larger than the size budget and the tree was cut.'),
      empty: z
        .literal(true)
        .optional()
        .describe('Only with ref: the element shows nothing; snapshot then says why (never an empty text).'),
    }),
    toResult: ({ structured }) => {
      // The fields read here are the operation's own, as it returned them.
      const result = structured as unknown as SnapshotResult;
      const empty = emptyScopeText(result);
      return {
        snapshot: empty ?? result.snapshot,
        ...(empty !== undefined ? { empty: true as const } : {}),
        url: result.url,
        title: result.title,
        refCount: result.refCount,
        partial: result.partial,
      };
    },
    toModelContent(output) {
      // The tree as plain text: JSON would escape every newline and quote of it.
      const cut = output.partial
        ? '\n[cut at the size budget: use interactiveOnly or maxDepth to see the rest]'
        : '';
      return [{ type: 'text', text: `${output.title} — ${output.url}\n${output.snapshot}${cut}` }];
    },
  }),
  async handler(args, { mesh, call }) {
    const { sessionId, pageId, ...input } = args;
    const result = await mesh.runOnPage(
      sessionId,
      pageId,
      'snapshot',
      async (ctx) => {
        const taken = await snapshot(ctx, input);
        // What the agent looked at: an exported spec checks the scope, or the next element acted on.
        const scope = input.scope;
        if (input.cursor !== undefined) return taken;
        if (scope?.ref !== undefined) await logElementRead(ctx, { ref: scope.ref });
        else if (scope?.locator !== undefined)
          await logElementRead(ctx, { locator: scope.locator as LocatorSpec });
        else await logPageRead(ctx, false);
        return taken;
      },
      call,
    );
    const structured = {
      ...result,
      limitsApplied: scalars(result.limitsApplied),
      omitted: counts(result.omitted),
    };
    return { structured, text: toText(result) };
  },
});

type Scalar = number | boolean | string;

function scalars(value: object): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  for (const [key, item] of Object.entries(value) as Array<[string, unknown]>) {
    if (typeof item === 'number' || typeof item === 'boolean' || typeof item === 'string') out[key] = item;
  }
  return out;
}

function counts(value: object): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, item] of Object.entries(scalars(value))) if (typeof item === 'number') out[key] = item;
  return out;
}

/** The snapshot itself (never JSON-escaped), plus one trailer line when there is more to read. */
function toText(result: SnapshotResult): string {
  const body = emptyScopeText(result) ?? result.snapshot;
  const { truncation, nextCursor } = result;
  if (!truncation.truncated && nextCursor === null) return body;
  const cut =
    truncation.reason === null ? 'continued' : `cut at ${truncation.reason} ${truncation.limit ?? ''}`.trim();
  const more = nextCursor === null ? '' : `; more with cursor "${nextCursor}"`;
  return `${body}\n[${cut}: ${result.chars} of ${result.originalChars} chars${more}]`;
}
