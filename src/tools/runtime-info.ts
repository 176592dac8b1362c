import { z } from 'zod';
import type { Config } from '../config/config-types.js';
import { defineTool, READ_ONLY } from './define.js';

export const runtimeInfo = defineTool({
  name: 'browser_runtime_info',
  title: 'Runtime info',
  description:
    'Versions, the effective limits (deadline, pages, queue, observability, screenshot, visible text, saved states), browser state and session counts; never launches Chromium.',
  profile: 'core',
  timeout: false,
  input: z.object({}).strict(),
  output: z.object({
    versions: z.object({ browsermesh: z.string(), playwright: z.string(), node: z.string() }),
    browser: z.object({
      provider: z.string(),
      state: z.string(),
      browserVersion: z.string().nullable(),
      endpoint: z
        .string()
        .optional()
        .describe('Remote providers: scheme://host:port of the browser endpoint or Grid, never credentials.'),
    }),
    sessions: z.object({ live: z.number(), failed: z.number(), max: z.number() }),
    urlPolicy: z
      .object({
        enforcement: z.enum(['guard_proxy', 'interception', 'none']),
        boundary: z.boolean(),
        detail: z.string(),
      })
      .describe(
        'Whether the browser is guarded: guard_proxy is a boundary; interception (cdp, selenium, --proxy-server) is best effort.',
      ),
    limits: z.object({
      timeoutMs: z.number(),
      maxPages: z.number(),
      maxQueuedOps: z.number().describe('Operations one session may have queued behind the running one.'),
      headless: z.boolean(),
      tools: z.array(z.string()),
      persistence: z.boolean(),
      observability: z
        .object({
          events: z.number(),
          stringChars: z.number(),
          pageSize: z.number(),
          responseBytes: z.number(),
        })
        .describe('Console and network events kept per page, and how much of each is kept and returned.'),
      screenshot: z.object({ maxDimension: z.number(), maxPixels: z.number(), maxBytes: z.number() }),
      visibleText: z.object({ maxChars: z.number(), maxBytes: z.number() }),
      savedStates: z
        .object({ max: z.number(), maxBytes: z.number(), maxTotalBytes: z.number() })
        .describe('Saved browser states: how many, the size of one, and of all together.'),
    }),
    dashboard: z
      .object({
        url: z.string(),
        token: z
          .enum(['none', 'http-token', 'tokens-file'])
          .describe(
            "Where the token to open it comes from (never the token): none = open the URL as is; http-token = the BROWSERMESH_HTTP_TOKEN value; tokens-file = the user's own token from the tokens file. Open it as url#token=….",
          ),
      })
      .optional()
      .describe('--dashboard: where a person watches the sessions live (give the user this URL).'),
  }),
  hints: READ_ONLY,
  async handler(_args, { mesh, services, call }) {
    const info = mesh.runtimeInfo(call);
    const config = mesh.config;
    const dashboardUrl = services.dashboardUrl?.();
    return {
      ...(dashboardUrl === undefined
        ? {}
        : { dashboard: { url: dashboardUrl, token: dashboardTokenSource(config) } }),
      ...info,
      limits: {
        timeoutMs: config.timeoutMs,
        maxPages: config.maxPages,
        maxQueuedOps: config.maxQueuedOps,
        headless: config.headless,
        tools: config.tools,
        persistence: config.persistence,
        observability: {
          events: config.observabilityEvents,
          stringChars: config.observabilityStringChars,
          pageSize: config.observabilityPageSize,
          responseBytes: config.observabilityResponseBytes,
        },
        screenshot: {
          maxDimension: config.screenshotMaxDimension,
          maxPixels: config.screenshotMaxPixels,
          maxBytes: config.screenshotMaxBytes,
        },
        visibleText: { maxChars: config.visibleTextMaxChars, maxBytes: config.visibleTextMaxBytes },
        savedStates: {
          max: config.maxSavedStates,
          maxBytes: config.maxStateBytes,
          maxTotalBytes: config.maxStateTotalBytes,
        },
      },
    };
  },
});

/** The stdio dashboard takes the main token only; over HTTP each tokens-file client opens it with its own. */
function dashboardTokenSource(config: Config): 'none' | 'http-token' | 'tokens-file' {
  if (config.http && config.httpTokens.length > 0) return 'tokens-file';
  return config.httpToken === '' ? 'none' : 'http-token';
}
