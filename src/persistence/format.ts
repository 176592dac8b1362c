import { z } from 'zod';

/**
 * The on-disk format of a saved state: a small envelope around Playwright's storage state (cookies
 * and localStorage per origin). Unknown fields are dropped on load, so a hand-edited file can only
 * restore what Playwright's storage state defines. Permissions and context settings are never part
 * of it.
 */

const Cookie = z.object({
  name: z.string(),
  value: z.string(),
  domain: z.string(),
  path: z.string(),
  expires: z.number(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(['Strict', 'Lax', 'None']),
});

const OriginStorage = z.object({
  origin: z.string(),
  localStorage: z.array(z.object({ name: z.string(), value: z.string() })),
});

const StorageStateSchema = z.object({ cookies: z.array(Cookie), origins: z.array(OriginStorage) });

export type StorageState = z.infer<typeof StorageStateSchema>;

const FORMAT = 'browsermesh-state';
const VERSION = 1;

const Envelope = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  savedAt: z.string(),
  storageState: StorageStateSchema,
});

export function toFileText(state: StorageState, savedAt: Date): string {
  // Re-parsed so only known fields (never anything extra a caller attached) reach the disk.
  const storageState = StorageStateSchema.parse(state);
  return JSON.stringify({ format: FORMAT, version: VERSION, savedAt: savedAt.toISOString(), storageState });
}

/** The storage state in a file's text, or undefined when it is not a valid BrowserMesh state. */
export function fromFileText(text: string): StorageState | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = Envelope.safeParse(json);
  return parsed.success ? parsed.data.storageState : undefined;
}
