import type { StepRecord } from './script-host.js';
import type { JSONValue, ScriptError, ScriptOutcome } from './script-types.js';

/**
 * Turns what the sandbox reports (error descriptions, serialized return values) into the public
 * `ScriptError` / value shapes, with positions mapped back to the script as the agent wrote it.
 */

export const SCRIPT_FILENAME = 'script.js';
const MAX_MESSAGE_CHARS = 1_000;

/** The script is the body of an async function, so `return` and top-level `await` work. */
export function wrapScript(code: string): string {
  return `(async () => {\n${code}\n})()`;
}
/** Lines the wrapper adds before the script's first line. */
const WRAPPER_LINES = 1;

/** What the prelude's `describeError` reports about a thrown value. */
export interface DescribedError {
  name: string;
  message: string;
  stack: string;
  code: string | null;
  step: number | null;
  /** The refused argument of a locator the host refused to build. */
  field: string | null;
  /** A thrown non-Error value (its `message` is a rendering of the value). */
  plain: boolean;
}

export interface ErrorContext {
  steps: readonly StepRecord[];
  /** Line count of the script, to clamp positions that point at the wrapper. */
  userLines: number;
  memoryLimitBytes: number;
  maxStackBytes: number;
  /** Whether the sandbox's memory is (nearly) used up; explains errors QuickJS could not even build. */
  memoryFull: () => boolean;
}

/** Stands in for an error the sandbox could not describe (typically: no memory left to do it). */
export const UNREADABLE: DescribedError = {
  name: 'Error',
  message: 'the script failed with an error that could not be read (the sandbox may be out of memory)',
  stack: '',
  code: null,
  step: null,
  field: null,
  plain: false,
};

export function parseDescribed(text: string | undefined): DescribedError | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    if (typeof value !== 'object' || value === null) return undefined;
    const get = (key: string): unknown => (value as Record<string, unknown>)[key];
    const str = (key: string): string => (typeof get(key) === 'string' ? String(get(key)) : '');
    const step = get('step');
    const code = get('code');
    const field = get('field');
    return {
      name: str('name'),
      message: str('message'),
      stack: str('stack'),
      code: typeof code === 'string' ? code : null,
      step: typeof step === 'number' && Number.isInteger(step) ? step : null,
      field: typeof field === 'string' ? field : null,
      plain: get('plain') === true,
    };
  } catch {
    return undefined;
  }
}

/** Classifies an error the script threw (or failed to compile with). */
export function classifyError(error: DescribedError, context: ErrorContext, compiling: boolean): ScriptError {
  const at = locate(error.stack, context.userLines);
  const resource = resourceError(error, context);
  if (resource !== undefined) return { ...resource, ...at };
  if (compiling && error.name === 'SyntaxError')
    return { kind: 'syntax', message: bounded(`SyntaxError: ${error.message}`), ...at };
  const step = error.step === null ? undefined : context.steps[error.step];
  const stepInfo = step === undefined ? undefined : { index: step.index, op: step.op };
  if (step?.failedCode !== undefined && step.failedCode === error.code) {
    return {
      kind: 'host',
      message: bounded(error.message),
      hostCode: step.failedCode,
      step: stepInfo,
      ...at,
    };
  }
  // A refused argument (a call's or a locator's) is INVALID_ARGUMENT naming it, as on every face.
  const refused = step?.invalid === true || (error.step === null && error.field !== null);
  if (refused && error.code === 'INVALID_ARGUMENT') {
    const field = step?.invalidField ?? error.field ?? undefined;
    return {
      kind: 'host',
      message: bounded(error.message),
      hostCode: error.code,
      ...(field === undefined ? {} : { hostDetails: { field } }),
      ...(stepInfo ? { step: stepInfo } : {}),
      ...at,
    };
  }
  const message = error.plain ? `Uncaught ${error.message}` : `${error.name || 'Error'}: ${error.message}`;
  const out: ScriptError = { kind: 'runtime', message: bounded(message + hintFor(error.message)), ...at };
  if (step?.invalid === true) out.step = stepInfo;
  return out;
}

function decodeJsonString(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The return value as the public shape: parsed JSON, or a truncated preview past `maxBytes`. */
export function finishValue(
  text: string | undefined,
  maxBytes: number,
  context: ErrorContext,
): ScriptOutcome {
  const tag = text?.charAt(0);
  const raw = text?.slice(1) ?? '';
  // A string arrives JSON-encoded (NUL-safe); its bound applies to the decoded text.
  const body = tag === 'S' ? decodeJsonString(raw) : raw;
  if ((tag === 'S' && body !== undefined) || tag === 'J') {
    if (Buffer.byteLength(body ?? '', 'utf8') > maxBytes)
      return { ok: true, value: cutUtf8(body ?? '', maxBytes), valueTruncated: true };
    if (tag === 'S') return { ok: true, value: body ?? '' };
    try {
      return { ok: true, value: JSON.parse(raw) as JSONValue };
    } catch {
      // Falls through to the generic error below.
    }
  }
  const described = tag === 'E' ? parseDescribed(raw) : undefined;
  if (described === undefined)
    return { ok: false, error: { kind: 'runtime', message: 'The return value could not be read' } };
  const resource = resourceError(described, context);
  if (resource !== undefined && described.message === 'stack overflow') {
    return {
      ok: false,
      error: { kind: 'limit', message: 'The return value is nested too deeply to serialize' },
    };
  }
  if (resource !== undefined) return { ok: false, error: resource };
  const reason = /circular/i.test(described.message) ? 'it contains a circular reference' : described.message;
  return {
    ok: false,
    error: { kind: 'runtime', message: bounded(`The return value is not JSON-serializable: ${reason}`) },
  };
}

function resourceError(error: DescribedError, context: ErrorContext): ScriptError | undefined {
  // With no memory left QuickJS cannot allocate its "out of memory" error and throws null instead.
  const bare = error.plain && (error.message === 'null' || error.message === 'undefined');
  if ((bare || error === UNREADABLE) && context.memoryFull()) return memoryError(context);
  if (
    error.plain ||
    (error.name !== 'InternalError' && error.name !== 'SyntaxError' && error.name !== 'RangeError')
  ) {
    return undefined;
  }
  if (error.message === 'out of memory') return memoryError(context);
  if (error.message === 'stack overflow') {
    const kib = Math.round(context.maxStackBytes / 1024);
    return {
      kind: 'limit',
      message: `The script nested too deeply for the sandbox stack (${kib} KiB): avoid deep recursion and deeply nested code or data`,
    };
  }
  return undefined;
}

function memoryError(context: ErrorContext): ScriptError {
  const mib = Math.round(context.memoryLimitBytes / (1024 * 1024));
  return { kind: 'memory', message: `The script ran out of sandbox memory (limit ${mib} MiB)` };
}

/** The first position in the script's own file, mapped back to the unwrapped script. */
function locate(stack: string, userLines: number): { line?: number; column?: number } {
  const match = /script\.js:(\d+)(?::(\d+))?/.exec(stack);
  if (match === null) return {};
  const line = Math.min(Math.max(Number(match[1]) - WRAPPER_LINES, 1), Math.max(userLines, 1));
  return match[2] === undefined ? { line } : { line, column: Number(match[2]) };
}

const SANDBOX = 'browser_run scripts run in an isolated sandbox where only page, context and console exist';
const NO_DOM =
  'the script drives the page from outside and has no DOM; use page.textContent(), page.locator() or page.snapshot()';
const SLEEP = 'use await page.waitForTimeout(ms)';
const NAME_HINTS = new Map<string, string>([
  ...['setTimeout', 'setInterval', 'setImmediate', 'requestAnimationFrame'].map((n): [string, string] => [
    n,
    SLEEP,
  ]),
  ...[
    'require',
    'process',
    'fetch',
    'Buffer',
    'module',
    'exports',
    '__dirname',
    'XMLHttpRequest',
    'WebSocket',
  ].map((n): [string, string] => [n, SANDBOX]),
  ...['document', 'window', 'navigator', 'location', 'localStorage', 'sessionStorage'].map(
    (n): [string, string] => [n, NO_DOM],
  ),
  ['browser', 'use the global page'],
  ['expect', 'expect() is not available; compare values and throw an Error yourself'],
]);

function hintFor(message: string): string {
  const name = /^'([^']+)' is not defined$/.exec(message)?.[1];
  const hint = name === undefined ? undefined : NAME_HINTS.get(name);
  if (hint !== undefined) return ` (${hint})`;
  return message.startsWith('could not load module') ? ' (imports are not available in browser_run)' : '';
}

function bounded(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes` (never splits a character). */
function cutUtf8(text: string, maxBytes: number): string {
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(maxBytes));
  return text.slice(0, read);
}
