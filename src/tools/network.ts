import { z } from 'zod';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../errors.js';
import { loadUploadFiles } from '../operations/act/upload-files.js';
import {
  ABORT_REASONS,
  addRoute,
  listRoutes,
  removeRoutes,
  ROUTE_LIMITS,
  type RouteSpec,
} from '../operations/state/routes.js';
import { emulate } from '../operations/state/emulate.js';
import { defineTool, DESTRUCTIVE, IDEMPOTENT_ACTION, type ToolContext } from './define.js';
import { pageAddress, sessionAddress } from './schemas.js';

/** Shaping the session's network: the opt-in `network` profile. */

const RouteInfoSchema = z.object({
  routeId: z.string(),
  url: z.string(),
  method: z.string().optional(),
  resourceType: z.string().optional(),
  action: z.enum(['fulfill', 'abort', 'continue']),
  hits: z.number(),
  regexTimeouts: z.number().optional().describe('URLs the regexp could not decide in time (not matched).'),
});

const RouteInput = z
  .object({
    ...sessionAddress,
    action: z.enum(['add', 'list', 'remove']).optional().describe('Default list.'),
    url: z.string().min(1).max(2048).optional().describe('add: glob (**/api/*) or /regexp/flags.'),
    method: z.string().min(1).max(16).optional(),
    resourceType: z.string().min(1).max(32).optional().describe('document, script, fetch, image, …'),
    status: z.number().int().min(100).max(599).optional().describe('Fulfil with this status.'),
    headers: z
      .record(z.string().max(256), z.string().max(8192))
      .optional()
      .describe('Fulfil, or continue with these.'),
    body: z
      .string()
      .max(ROUTE_LIMITS.maxBodyBytes * 2)
      .optional()
      .describe('Fulfil body (text).'),
    bodyBase64: z
      .string()
      .max(Math.ceil((ROUTE_LIMITS.maxBodyBytes * 4) / 3) + 4)
      .optional(),
    path: z.string().min(1).max(4096).optional().describe('Fulfil body: a file under the upload roots.'),
    contentType: z.string().min(1).max(127).optional(),
    abort: z.enum(ABORT_REASONS).optional().describe('Fail the request with this reason.'),
    delayMs: z.number().int().min(0).max(ROUTE_LIMITS.maxDelayMs).optional(),
    routeId: z.string().min(1).max(16).optional().describe('remove: this one (default all).'),
  })
  .strict();

type RouteArgs = z.infer<typeof RouteInput>;

export const routeTool = defineTool({
  name: 'browser_route',
  title: 'Network routes',
  description:
    "Mock or block the session's requests (every page and popup, across navigations): add a route that fulfils, aborts, delays or continues with headers; list with hit counts; remove. The URL policy still applies first.",
  profile: 'network',
  input: RouteInput,
  output: z.object({
    route: RouteInfoSchema.optional(),
    routes: z.array(RouteInfoSchema).optional(),
    removed: z.number().optional(),
  }),
  hints: DESTRUCTIVE,
  async handler(args, ctx) {
    const { mesh, call } = ctx;
    const action = args.action ?? 'list';
    if (action === 'list') return { routes: listRoutes(mesh.getSession(args.sessionId, call)) };
    if (action === 'remove')
      return {
        removed: await mesh.run(
          args.sessionId,
          'route',
          (op) => removeRoutes(op.session, args.routeId),
          call,
        ),
      };
    const spec = await toSpec(args, ctx);
    return { route: await mesh.run(args.sessionId, 'route', (op) => addRoute(op, spec), call) };
  },
});

async function toSpec(args: RouteArgs, { mesh, clientRoots }: ToolContext): Promise<RouteSpec> {
  if (args.url === undefined) throw invalidArgument('url', 'is required with action add');
  const sources = [args.body, args.bodyBase64, args.path].filter((v) => v !== undefined).length;
  if (sources > 1) throw invalidArgument('body', 'give at most one of body, bodyBase64 or path');
  if (args.abort !== undefined && (sources > 0 || args.status !== undefined))
    throw invalidArgument('abort', 'cannot be combined with a fulfilled response');
  const bytes = await bodyBytes(args, mesh.config.uploadRoots, clientRoots);
  if (bytes !== undefined && bytes.length > ROUTE_LIMITS.maxBodyBytes)
    throw new BrowserMeshError(
      ErrorCodes.LIMIT_EXCEEDED,
      `A fulfilled body is at most ${ROUTE_LIMITS.maxBodyBytes} bytes`,
      {
        details: { field: 'body', limit: ROUTE_LIMITS.maxBodyBytes },
      },
    );
  return {
    url: args.url,
    method: args.method,
    resourceType: args.resourceType,
    status: args.status,
    headers: args.headers,
    // A content type alone fulfils an empty typed response, as Playwright's route.fulfill({ contentType }).
    body:
      bytes === undefined && args.contentType === undefined
        ? undefined
        : { bytes: bytes ?? Buffer.alloc(0), contentType: args.contentType },
    abort: args.abort,
    delayMs: args.delayMs,
  };
}

async function bodyBytes(
  args: RouteArgs,
  uploadRoots: readonly string[],
  clientRoots: ToolContext['clientRoots'],
): Promise<Buffer | undefined> {
  if (args.body !== undefined) return Buffer.from(args.body, 'utf8');
  if (args.bodyBase64 !== undefined) return Buffer.from(args.bodyBase64, 'base64');
  if (args.path === undefined) return undefined;
  const roots = [...uploadRoots, ...((await clientRoots?.()) ?? [])];
  const [file] = await loadUploadFiles([{ path: args.path }], roots, ROUTE_LIMITS.maxBodyBytes);
  return file?.buffer;
}

export const emulateTool = defineTool({
  name: 'browser_emulate',
  title: 'Emulate',
  description:
    'Change an open page: colour scheme, reduced motion, forced colours, media type, offline, network (slow3g, fast3g or custom), CPU throttling, geolocation (+permission), time zone, locale; reset: back to the session settings.',
  profile: 'network',
  input: z
    .object({
      ...pageAddress,
      colorScheme: z.enum(['light', 'dark', 'no-preference']).optional(),
      reducedMotion: z.enum(['reduce', 'no-preference']).optional(),
      forcedColors: z.enum(['active', 'none']).optional(),
      media: z.enum(['screen', 'print']).optional(),
      offline: z.boolean().optional(),
      network: z
        .union([
          z.enum(['slow3g', 'fast3g', 'none']),
          z
            .object({
              latencyMs: z.number().min(0).max(60_000),
              downloadBps: z.number().min(-1).max(1e10),
              uploadBps: z.number().min(-1).max(1e10),
            })
            .strict(),
        ])
        .optional()
        .meta({
          shape: 'slow3g | fast3g | none | {latencyMs, downloadBps, uploadBps} (bytes/s, -1 = unlimited)',
        }),
      cpuThrottling: z.number().min(1).max(20).optional().describe('Slowdown factor (1 = none).'),
      geolocation: z
        .object({
          latitude: z.number().min(-90).max(90),
          longitude: z.number().min(-180).max(180),
          accuracy: z.number().min(0).max(100_000).optional(),
        })
        .strict()
        .optional()
        .meta({ shape: '{latitude, longitude, accuracy?}' }),
      timezoneId: z.string().min(1).max(64).optional().describe('IANA, e.g. Europe/Paris.'),
      locale: z.string().min(2).max(35).optional().describe('e.g. de-DE.'),
      reset: z.literal(true).optional().describe('Alone: back to the session settings.'),
    })
    .strict(),
  output: z.object({ applied: z.array(z.string()) }),
  hints: IDEMPOTENT_ACTION,
  handler(args, { mesh, call }) {
    const { sessionId, pageId, ...input } = args;
    return mesh.runOnPage(sessionId, pageId, 'emulate', (ctx) => emulate(ctx, input), call);
  },
});
