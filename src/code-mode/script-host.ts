import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle } from 'quickjs-emscripten';
import { ErrorCodes } from '../errors.js';
import type { FacadeCall } from './facade-parse.js';
import { parseFacadeCall, peekCall, type ParsedCall } from './facade-parse.js';
import { parseSelector } from './facade-validate.js';
import { CallArgumentError } from './validate-helpers.js';
import type { CallReply } from './worker-protocol.js';

/**
 * The host side of the three functions the prelude receives. Everything arriving here is untrusted
 * text from the sandbox: it is size-checked, parsed and validated before anything acts on it.
 * Page calls go out one at a time, in the order the script made them, so a script that fires
 * several calls without awaiting still drives the page deterministically.
 */

/** Largest request string accepted from the sandbox (a fill value is at most 100k chars). */
const MAX_REQUEST_CHARS = 256 * 1024;

/**
 * Carries a validated call to the backend (on the main thread) and brings back its reply. `send`
 * never rejects: backend failures come back as error replies; a call still open when the script
 * ends simply never resolves.
 */
export interface CallTransport {
  send(call: FacadeCall, member: string, step: number): Promise<CallReply>;
}

export interface StepRecord {
  index: number;
  op: string;
  /** Set when the backend rejected the call: the code the script saw on the error. */
  failedCode?: string;
  /** Set when the host refused the call's arguments. */
  invalid?: boolean;
  /** The refused argument, when the check named one. */
  invalidField?: string;
}

export interface BridgeLimits {
  maxOperations: number;
  maxLogLines: number;
  maxLogChars: number;
}

export interface BridgeEvents {
  /** Something the driver waits for happened (a call settled). */
  notify(): void;
  /** The script must stop (operation cap). */
  stop(kind: 'limit', message: string): void;
  /** A QuickJS API call failed on the host side; the VM must not be touched again. */
  crash(): void;
  /** A console line was kept. */
  log(line: string): void;
}

export class HostBridge {
  readonly steps: StepRecord[] = [];
  logLines = 0;
  logsTruncated = false;
  inFlight = 0;
  private readonly deferreds = new Set<QuickJSDeferredPromise>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly context: QuickJSContext,
    private readonly transport: CallTransport,
    private readonly limits: BridgeLimits,
    private readonly events: BridgeEvents,
  ) {}

  get operations(): number {
    return this.steps.length;
  }

  /** The host functions, in the order the prelude takes them. The caller disposes the handles. */
  newFunctions(): QuickJSHandle[] {
    const ctx = this.context;
    return [
      ctx.newFunction('hostCall', (json) => this.call(json)),
      ctx.newFunction('hostSelector', (member, json) => this.selector(member, json)),
      ctx.newFunction('hostLog', (level, line) => this.log(level, line)),
    ];
  }

  /** Stops delivering results into the VM and releases the promises the script still waits on. */
  close(vmUsable: boolean): void {
    this.closed = true;
    if (vmUsable) for (const deferred of this.deferreds) deferred.dispose();
    this.deferreds.clear();
  }

  private call(jsonHandle: QuickJSHandle): QuickJSHandle {
    const text = this.readString(jsonHandle, MAX_REQUEST_CHARS);
    const raw = parseJson(text);
    const { member, op } = peekCall(raw);
    const step: StepRecord = { index: this.steps.length, op };
    if (step.index >= this.limits.maxOperations) {
      const message = `The script made more than ${this.limits.maxOperations} page calls`;
      this.events.stop('limit', message);
      return this.reply({ ok: false, error: { code: ErrorCodes.LIMIT_EXCEEDED, message, step: null, op } });
    }
    this.steps.push(step);
    let parsed: ParsedCall;
    try {
      parsed = parseFacadeCall(raw);
    } catch (error) {
      step.invalid = true;
      if (error instanceof CallArgumentError && error.field !== undefined) step.invalidField = error.field;
      const message =
        text === undefined
          ? `${member}: arguments are too large (max ${MAX_REQUEST_CHARS} chars in total)`
          : error instanceof CallArgumentError
            ? error.message
            : `${member}: invalid call`;
      const info = { invalid: true, code: ErrorCodes.INVALID_ARGUMENT, message, step: step.index, op };
      return this.reply({ ok: false, error: info });
    }
    const deferred = this.context.newPromise();
    this.deferreds.add(deferred);
    this.inFlight++;
    this.queue = this.queue.then(() => this.invoke(parsed, step, deferred)).catch(() => this.events.crash());
    return deferred.handle;
  }

  private async invoke(
    parsed: ParsedCall,
    step: StepRecord,
    deferred: QuickJSDeferredPromise,
  ): Promise<void> {
    if (this.closed) return;
    const { reply, failedCode } = await this.transport.send(parsed.call, parsed.member, step.index);
    if (failedCode !== undefined) step.failedCode = failedCode;
    this.inFlight--;
    this.deferreds.delete(deferred);
    if (this.closed) return;
    try {
      this.context.newString(reply).consume((handle) => deferred.resolve(handle));
      deferred.dispose();
    } catch {
      this.events.crash();
    }
    this.events.notify();
  }

  private selector(memberHandle: QuickJSHandle, jsonHandle: QuickJSHandle): QuickJSHandle {
    const member = this.readString(memberHandle, 100) ?? '';
    const safeMember = /^(page|locator)\.[A-Za-z]{1,40}$/.test(member) ? member : 'locator';
    try {
      const selector = parseSelector(
        safeMember,
        parseJson(this.readString(jsonHandle, MAX_REQUEST_CHARS) ?? ''),
      );
      return this.reply({ ok: true, value: selector });
    } catch (error) {
      const message = error instanceof CallArgumentError ? error.message : `${safeMember}: invalid locator`;
      const field = error instanceof CallArgumentError ? error.field : undefined;
      return this.reply({ ok: false, error: { message, code: ErrorCodes.INVALID_ARGUMENT, field } });
    }
  }

  private log(levelHandle: QuickJSHandle, lineHandle: QuickJSHandle): void {
    if (this.logLines >= this.limits.maxLogLines) {
      this.logsTruncated = true;
      return;
    }
    const level = this.readString(levelHandle, 10) ?? '';
    // The prelude sends the line JSON-encoded, so a NUL in it does not end it early.
    const encoded = parseJson(this.readString(lineHandle, MAX_REQUEST_CHARS * 2));
    let line = typeof encoded === 'string' ? encoded : '';
    if (line.length > this.limits.maxLogChars) {
      line = `${line.slice(0, Math.max(0, this.limits.maxLogChars - 1))}…`;
      this.logsTruncated = true;
    }
    this.logLines++;
    this.events.log(level === 'warn' || level === 'error' || level === 'debug' ? `[${level}] ${line}` : line);
  }

  private reply(value: unknown): QuickJSHandle {
    return this.context.newString(JSON.stringify(value));
  }

  /** A string argument from the sandbox ('' if it is not a string, undefined if it is too long). */
  private readString(handle: QuickJSHandle, maxChars: number): string | undefined {
    if (this.context.typeof(handle) !== 'string') return '';
    const text = this.context.getString(handle);
    return text.length <= maxChars ? text : undefined;
  }
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
