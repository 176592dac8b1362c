import { z } from 'zod';
import type { Config } from '../config/config-types.js';
import { defineTool, READ_ONLY } from './define.js';

export const runtimeInfo = defineTool({
  name: 'browser_runtime_info',
  title: 'Runtime info',
  description: 'Versions, limits, browser state and session counts; never launches Chromium.',
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
      headless: z.boolean(),
      tools: z.array(z.string()),
      persistence: z.boolean(),
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
        headless: config.headless,
        tools: config.tools,
        persistence: config.persistence,
      },
    };
  },
});

/** The stdio dashboard takes the main token only; over HTTP each tokens-file client opens it with its own. */
function dashboardTokenSource(config: Config): 'none' | 'http-token' | 'tokens-file' {
  if (config.http && config.httpTokens.length > 0) return 'tokens-file';
  return config.httpToken === '' ? 'none' : 'http-token';
}
