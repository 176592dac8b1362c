import { z } from 'zod';
import { cookies } from '../operations/state/cookies.js';
import { MAX_STORAGE_VALUE_CHARS, storage } from '../operations/state/storage.js';
import { defineTool, DESTRUCTIVE } from './define.js';
import { pageAddress, sessionAddress } from './schemas.js';

/** One cookie or one storage key at a time: the opt-in `state` profile (whole saved states are in persistence). */

const CookieSchema = z.object({
  name: z.string(),
  value: z.string(),
  domain: z.string(),
  path: z.string(),
  expires: z.number(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(['Strict', 'Lax', 'None']),
  redacted: z.literal(true).optional(),
});

export const cookiesTool = defineTool({
  name: 'browser_cookies',
  title: 'Cookies',
  description:
    "The session's cookies: list (filter by domain/name; credential-like values redacted), get by name, set, delete, clear.",
  profile: 'state',
  input: z
    .object({
      ...sessionAddress,
      action: z.enum(['list', 'get', 'set', 'delete', 'clear']).optional().describe('Default list.'),
      name: z.string().min(1).max(256).optional(),
      value: z.string().max(4096).optional().describe('With set.'),
      url: z.string().min(1).max(4096).optional().describe('set: instead of domain; filters: host.'),
      domain: z.string().min(1).max(253).optional(),
      path: z.string().min(1).max(1024).optional().describe('set: default /.'),
      expires: z.number().optional().describe('Unix seconds; absent = session cookie.'),
      httpOnly: z.boolean().optional(),
      secure: z.boolean().optional(),
      sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
    })
    .strict(),
  output: z.object({
    cookies: z.array(CookieSchema).optional(),
    total: z.number().optional(),
    truncated: z.boolean().optional(),
    set: z.literal(true).optional(),
    removed: z.number().optional(),
  }),
  hints: DESTRUCTIVE,
  handler(args, { mesh, call }) {
    const { sessionId, ...input } = args;
    return mesh.run(
      sessionId,
      'cookies',
      (ctx) => cookies(ctx, { ...input, action: input.action ?? 'list' }),
      call,
    );
  },
});

export const storageTool = defineTool({
  name: 'browser_storage',
  title: 'Web storage',
  description:
    "localStorage or sessionStorage of the page's current origin: list (credential-like values redacted), get, set, delete, clear.",
  profile: 'state',
  input: z
    .object({
      ...pageAddress,
      area: z.enum(['local', 'session']).optional().describe('Default local.'),
      action: z.enum(['list', 'get', 'set', 'delete', 'clear']).optional().describe('Default list.'),
      key: z.string().min(1).max(1024).optional(),
      value: z.string().max(MAX_STORAGE_VALUE_CHARS).optional().describe('With set.'),
    })
    .strict(),
  output: z.object({
    origin: z.string(),
    items: z
      .array(z.object({ key: z.string(), value: z.string(), redacted: z.literal(true).optional() }))
      .optional(),
    total: z.number().optional(),
    truncated: z.boolean().optional(),
    value: z.string().nullable().optional(),
    set: z.literal(true).optional(),
    removed: z.number().optional(),
  }),
  hints: DESTRUCTIVE,
  handler(args, { mesh, call }) {
    const { sessionId, pageId, ...input } = args;
    return mesh.runOnPage(
      sessionId,
      pageId,
      'storage',
      (ctx) => storage(ctx, { ...input, area: input.area ?? 'local', action: input.action ?? 'list' }),
      call,
    );
  },
});
