import { Script } from 'node:vm';
import type { CDPSession } from 'playwright-core';
import { GATE_MODULE_PATH, GATE_SOURCE, SOCKET_CHECK_PATH } from './gate-source.js';

export { GATE_SOURCE } from './gate-source.js';

/**
 * WebSockets opened inside workers, where no guard proxy sits in the path: Playwright routes only
 * pages' sockets, and the Fetch domain never sees a WebSocket handshake. The request interceptor
 * therefore rewrites every worker script it passes (dedicated, nested, shared, and the modules they
 * import) so that a gate runs before the script's first statement: it replaces `WebSocket` and
 * `WebSocketStream` in the worker's global scope with constructors that first ask this side, by a
 * synchronous request to {@link SOCKET_CHECK_PATH} on the worker's own origin, which the interceptor
 * answers itself (nothing leaves the browser). A refused socket throws a SecurityError and is never
 * created; an allowed one is the browser's own, created with the URL that was checked.
 */

/** Cross-origin answers too: a worker of an opaque origin asks the fallback origin. */
const ANSWER_HEADERS = [
  { name: 'Access-Control-Allow-Origin', value: '*' },
  { name: 'Cache-Control', value: 'no-store' },
];

/** A socket check the policy allowed: 204, answered by the interceptor itself. */
export function allowSocket(cdp: CDPSession, requestId: string): Promise<unknown> {
  return cdp.send('Fetch.fulfillRequest', { requestId, responseCode: 204, responseHeaders: ANSWER_HEADERS });
}

/** The gate as a module (a worker module with static imports imports it first). */
export function fulfillGateModule(cdp: CDPSession, requestId: string): Promise<unknown> {
  return cdp
    .send('Fetch.fulfillRequest', {
      requestId,
      responseCode: 200,
      responseHeaders: [...ANSWER_HEADERS, { name: 'Content-Type', value: 'text/javascript' }],
      body: Buffer.from(GATE_SOURCE).toString('base64'),
    })
    .catch(() => undefined);
}

/** What the gate reads of a Fetch.requestPaused event at the response stage. */
export interface PausedResponse {
  requestId: string;
  request: { headers: Record<string, string> };
  responseStatusCode?: number;
  responseStatusText?: string;
  responseErrorReason?: string;
  responseHeaders?: Array<{ name: string; value: string }>;
}

/** Headers that described the body as it came; the rewritten body is sent whole and decoded. */
const BODY_HEADERS = /^(?:content-length|content-encoding|transfer-encoding|digest|content-md5)$/i;

/**
 * A response of type Other (worker scripts, the modules they import, favicons, …) paused after its
 * headers: a script body gets the gate in front; anything an image was asked for passes untouched.
 * Chromium runs a dedicated worker's script whatever its MIME type, so the type is not trusted. A
 * body that cannot be read or rewritten is refused: nothing runs ungated.
 */
export async function gateWorkerScript(
  cdp: CDPSession,
  event: PausedResponse,
  /** Runs before a rewritten script is handed over (see local-access.ts). */
  beforeRewrite: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const { requestId } = event;
  const status = event.responseStatusCode ?? 0;
  const accept = Object.entries(event.request.headers).find(([name]) => name.toLowerCase() === 'accept')?.[1];
  const bodiless = status < 200 || status === 204 || status === 304 || status >= 300;
  if (event.responseErrorReason !== undefined || bodiless || /^image\//i.test(accept ?? '')) {
    await cdp.send('Fetch.continueResponse', { requestId }).catch(() => undefined);
    return;
  }
  try {
    const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId });
    const gated = withGate(Buffer.from(body, base64Encoded ? 'base64' : 'utf8'));
    await beforeRewrite().catch(() => undefined);
    await cdp.send('Fetch.fulfillRequest', {
      requestId,
      responseCode: status,
      ...(event.responseStatusText ? { responsePhrase: event.responseStatusText } : {}),
      responseHeaders: (event.responseHeaders ?? []).filter((header) => !BODY_HEADERS.test(header.name)),
      body: gated.toString('base64'),
    });
  } catch {
    await cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
  }
}

/** The socket URL a gated worker asks about, if `url` is such a check; undefined otherwise. */
export function socketCheckTarget(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.pathname !== SOCKET_CHECK_PATH) return undefined;
    return parsed.searchParams.get('u') ?? undefined;
  } catch {
    return undefined;
  }
}

/** Whether `url` is the gate module a rewritten worker module imports. */
export function isGateModule(url: string): boolean {
  try {
    return new URL(url).pathname === GATE_MODULE_PATH;
  } catch {
    return false;
  }
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** A directive prologue ("use strict") must stay first, or the script silently becomes sloppy. */
const PROLOGUE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:(['"])use strict\1\s*;?)?/;

/**
 * The script with the gate in front of its first statement. A module that may have static imports
 * gets an import of the gate module first instead (imports run before the importing module's body); a script
 * that is not UTF-8 or ASCII-compatible (a UTF-16 byte order mark) is replaced by one that throws,
 * so nothing runs ungated.
 */
export function withGate(body: Buffer): Buffer {
  const bom = body.subarray(0, 3).equals(UTF8_BOM) ? UTF8_BOM : Buffer.alloc(0);
  const rest = body.subarray(bom.length);
  if (rest[0] === 0xff || rest[0] === 0xfe) {
    return Buffer.from("throw new Error('A worker script in UTF-16 cannot be checked by the URL policy');");
  }
  const text = rest.toString('latin1');
  if (mayHaveStaticImports(rest.toString('utf8'))) {
    return Buffer.concat([bom, Buffer.from(`import '${GATE_MODULE_PATH}';`), rest]);
  }
  const prologue = PROLOGUE.exec(text)?.[0] ?? '';
  const head = Buffer.from(prologue, 'latin1');
  return Buffer.concat([bom, head, Buffer.from(GATE_SOURCE), rest.subarray(head.length)]);
}

/** HTML-like comments: in a classic script they hide the rest of a line that a module runs. */
const HTML_COMMENT = /<!--|-->/;

/**
 * Whether the script may have static imports (a module whose dependencies run before its body). A
 * worker's request does not say whether it is a module, so only a text that parses as a classic
 * script (compiled without running; it can then hold no import declaration) gets the gate as plain
 * statements. Anything else is treated as a module, whatever the reason the parse failed (`import.meta`,
 * top-level `await`, syntax newer than Node's V8): a classic script Node cannot parse is then broken
 * rather than run ungated.
 */
function mayHaveStaticImports(source: string): boolean {
  if (!/\b(?:import|export)\b/.test(source)) return false;
  if (HTML_COMMENT.test(source)) return true;
  try {
    new Script(source);
    return false;
  } catch {
    return true;
  }
}
