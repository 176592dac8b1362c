import { z } from 'zod';
import { observe, observeRequest } from '../operations/read/observe.js';
import { OBSERVE_SOURCES } from '../observability/types.js';
import { defineTool, READ_ONLY, type AnyTool } from './define.js';
import { pageAddress } from './schemas.js';

/** BROWSERMESH_OBSERVABILITY_PAGE_SIZE's default; `configure` republishes the configured value. */
const DEFAULT_PAGE_SIZE = 100;

const ObservedEvent = z.object({
  id: z.number().int(),
  time: z.string(),
  level: z.string().optional(),
  name: z.string().optional(),
  text: z.string().optional(),
  textTruncated: z.boolean().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  stack: z.string().optional(),
  requestId: z.string().optional(),
  method: z.string().optional(),
  url: z.string().optional(),
  resourceType: z.string().optional(),
  status: z.number().int().optional(),
  durationMs: z.number().optional(),
  failure: z.string().optional(),
});

function buildObserveTool(maxLimit: number): AnyTool {
  return defineTool({
    name: 'browser_observe',
    title: 'Observe page',
    description:
      "A page's console, pageError, network (HTTP responses, 4xx/5xx too) or requestFailed events. Check gap before concluding nothing happened.",
    profile: 'observability',
    input: z
      .object({
        ...pageAddress,
        source: z.enum(OBSERVE_SOURCES),
        sinceEventId: z.number().int().min(0).optional().describe('Previous nextCursor (default 0).'),
        limit: z.number().int().min(1).max(maxLimit).optional(),
        includeText: z.boolean().optional().describe('console/pageError: add redacted text (and stack).'),
        requestId: z.string().max(32).optional().describe('Details of one request.'),
      })
      .strict(),
    output: z.object({
      source: z.enum(OBSERVE_SOURCES),
      events: z.array(ObservedEvent),
      nextCursor: z.number().int(),
      hasMore: z.boolean(),
      gap: z.boolean().describe('Events newer than sinceEventId were evicted.'),
      droppedCount: z.number().int(),
      truncated: z.boolean(),
      request: z.object({}).loose().optional().meta({ leanOmit: true }),
    }),
    hints: READ_ONLY,
    configure: (config) => buildObserveTool(config.observabilityPageSize),
    async handler(args, { mesh, call }) {
      const { sessionId, pageId, requestId, ...input } = args;
      return mesh.runOnPage(
        sessionId,
        pageId,
        'observe',
        async (ctx) => {
          const events = observe(ctx, input);
          if (requestId === undefined) return events;
          const request: Record<string, unknown> = { ...(await observeRequest(ctx, requestId)) };
          return { ...events, request };
        },
        call,
      );
    },
  });
}

export const observeTool = buildObserveTool(DEFAULT_PAGE_SIZE);
