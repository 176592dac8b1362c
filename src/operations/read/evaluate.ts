import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { redactText } from '../../observability/sanitize.js';
import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { boundText, stripLocations, utf8Bytes } from '../../text.js';

export const MAX_SCRIPT_CHARS = 100_000;
/** A returned value's JSON text is cut to this size; the page cuts first, so a huge value never crosses. */
const MAX_RESULT_BYTES = 16 * 1024;
const OBJECT_GROUP = 'browsermesh-evaluate';

/** The parts of CDP's Runtime.RemoteObject and ExceptionDetails read here. */
interface RemoteObject {
  type: string;
  objectId?: string;
  value?: unknown;
  unserializableValue?: string;
}
interface ExceptionDetails {
  lineNumber: number;
  columnNumber: number;
  text: string;
  exception?: { className?: string; description?: string };
}

export interface EvaluateResult {
  value?: unknown;
  type?: string;
  truncated?: boolean;
}

/**
 * Runs the agent's script in the page's main world (CDP Runtime.evaluate, so page CSP does not
 * block it), awaiting a returned promise, bounded by the operation's deadline. Only with
 * `returnValue` is anything read back, as JSON cut to 16 KB inside the page. A throw becomes
 * SCRIPT_ERROR naming the error class and position, never the page's message text.
 */
export async function evaluateScript(
  ctx: PageOperationContext,
  script: string,
  returnValue: boolean,
): Promise<EvaluateResult> {
  const cdp = await ctx.page.cdp();
  try {
    const evaluated = await withDeadline(
      cdp.send('Runtime.evaluate', {
        expression: script,
        awaitPromise: true,
        returnByValue: false,
        userGesture: true,
        objectGroup: OBJECT_GROUP,
        timeout: ctx.deadline.stepTimeoutMs(),
      }),
      ctx.deadline,
      ctx.signal,
    );
    if (evaluated.exceptionDetails) throw scriptError(evaluated.exceptionDetails);
    if (!returnValue) return {};
    return await readBack(ctx, evaluated.result);
  } finally {
    cdp.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
  }
}

async function readBack(ctx: PageOperationContext, result: RemoteObject): Promise<EvaluateResult> {
  if (!result.objectId) return bound(result.value ?? unserializable(result), result.type);
  const cdp = await ctx.page.cdp();
  const json = await withDeadline(
    cdp.send('Runtime.callFunctionOn', {
      objectId: result.objectId,
      functionDeclaration: `function (cap) {
        try {
          const text = JSON.stringify(this);
          if (text === undefined) return { json: 'null' };
          return text.length > cap ? { json: text.slice(0, cap), cut: true } : { json: text };
        } catch (e) { return { failed: true }; }
      }`,
      arguments: [{ value: MAX_RESULT_BYTES }],
      returnByValue: true,
    }),
    ctx.deadline,
    ctx.signal,
  );
  const read = json.result.value as { json?: string; cut?: boolean; failed?: boolean } | undefined;
  if (!read || read.failed || read.json === undefined) {
    throw new BrowserMeshError(
      ErrorCodes.SCRIPT_ERROR,
      'The result is not JSON-serializable (a cycle or a BigInt)',
      {
        recoveryHint:
          'Return plain data, e.g. element.textContent rather than the element or a structure with cycles.',
      },
    );
  }
  if (read.cut) return cut(read.json, result.type);
  return bound(JSON.parse(read.json) as unknown, result.type);
}

/** A primitive result (possibly a long string) held to the same byte limit. */
function bound(value: unknown, type: string): EvaluateResult {
  const text = JSON.stringify(value) ?? 'null';
  return utf8Bytes(text) <= MAX_RESULT_BYTES ? { value, type } : cut(text, type);
}

/** The start of the JSON text, within the byte limit and never splitting a character. */
function cut(json: string, type: string): EvaluateResult {
  return { value: boundText(json, MAX_RESULT_BYTES, MAX_RESULT_BYTES).text, type, truncated: true };
}

/** NaN, Infinity, -0 and BigInt arrive as text; they are returned as that text. */
function unserializable(result: RemoteObject): unknown {
  return result.unserializableValue ?? null;
}

function scriptError(details: ExceptionDetails): BrowserMeshError {
  const className = details.exception?.className ?? 'Error';
  const safeClass = /^[A-Za-z]{1,40}$/.test(className) ? className : 'Error';
  const message = exceptionMessage(details);
  const at = `line ${details.lineNumber + 1}, column ${details.columnNumber + 1}`;
  return new BrowserMeshError(
    ErrorCodes.SCRIPT_ERROR,
    message === ''
      ? `The script threw ${safeClass} at ${at}`
      : `The script threw ${safeClass} at ${at}: ${message}`,
    {
      details: {
        line: details.lineNumber + 1,
        column: details.columnNumber + 1,
        errorClass: safeClass,
        ...(message === '' ? {} : { errorMessage: message }),
      },
      recoveryHint: 'Fix the script; check names with browser_snapshot first.',
    },
  );
}

const MAX_MESSAGE_CHARS = 300;

/**
 * The exception's own message ("x is not defined"): the agent's own script threw it, so it is what
 * fixes the next call. First line only (no stack), secret-looking values redacted, URLs and absolute
 * file paths replaced, bounded.
 */
function exceptionMessage(details: ExceptionDetails): string {
  const description = details.exception?.description ?? details.text;
  const first = (description.split('\n')[0] ?? '').replace(/^[A-Za-z]{1,40}: /, '');
  return redactText(stripLocations(first)).slice(0, MAX_MESSAGE_CHARS);
}
