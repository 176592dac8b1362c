import { BrowserMeshError, ErrorCodes } from '../../src/errors.js';
import type { CodeModeBackend } from '../../src/code-mode/backend.js';
import type { ElementSelector } from '../../src/code-mode/facade-calls.js';
import type { FacadeCall } from '../../src/code-mode/facade-parse.js';
import { runScript, type RunScriptOptions, type ScriptResult } from '../../src/code-mode/sandbox.js';

/**
 * A tiny in-memory page: a login form at /login that leads to /welcome. Elements are addressed by
 * plain CSS ids. `hold(op)` makes the next call with that op hang until the test releases it (or
 * the sandbox aborts it), so tests wait on conditions instead of sleeping.
 */
export class FakePage implements CodeModeBackend {
  readonly calls: FacadeCall[] = [];
  readonly signals: AbortSignal[] = [];
  url = 'about:blank';
  private fields = new Map<string, string>();
  private readonly holds = new Map<string, Held>();

  hold(op: string): Held {
    const held = new Held();
    this.holds.set(op, held);
    return held;
  }

  async invoke(call: FacadeCall, signal: AbortSignal): Promise<unknown> {
    this.calls.push(call);
    this.signals.push(signal);
    const held = this.holds.get(call.op);
    if (held !== undefined) {
      this.holds.delete(call.op);
      await held.wait(signal);
    }
    switch (call.op) {
      case 'goto':
        this.url = call.url;
        this.fields = new Map([
          ['#user', ''],
          ['#password', ''],
          ['#login', ''],
          ['#heading', 'Sign in'],
        ]);
        return null;
      case 'url':
        return this.url;
      case 'title':
        return this.url.endsWith('/welcome') ? 'Welcome' : 'Login';
      case 'fill':
        this.field(call.target);
        this.fields.set(key(call.target), call.value);
        return null;
      case 'click':
        this.field(call.target);
        if (key(call.target) === '#login' && this.fields.get('#password') === 'hunter2') this.welcome();
        return null;
      case 'textContent':
      case 'innerText':
      case 'inputValue':
        return this.field(call.target);
      case 'waitForURL':
        if (
          typeof call.url === 'string'
            ? !this.url.endsWith(call.url.replace('**', ''))
            : !new RegExp(call.url.source, call.url.flags).test(this.url)
        )
          throw new BrowserMeshError(ErrorCodes.OPERATION_TIMEOUT, 'URL did not match');
        return null;
      default:
        return null;
    }
  }

  private welcome(): void {
    this.url = this.url.replace('/login', '/welcome');
    this.fields = new Map([['#heading', `Hello ${this.fields.get('#user') ?? ''}`]]);
  }

  private field(target: ElementSelector): string {
    const value = this.fields.get(key(target));
    if (value === undefined) {
      throw new BrowserMeshError(ErrorCodes.ELEMENT_NOT_FOUND, `No element matches ${key(target)}`, {
        recoveryHint: 'Take a snapshot and use a ref',
      });
    }
    return value;
  }
}

/** A call the test holds open: `started` resolves when the backend receives it. */
export class Held {
  private markStarted: () => void = () => undefined;
  private finish: () => void = () => undefined;
  readonly started = new Promise<void>((resolve) => (this.markStarted = resolve));
  private readonly finished = new Promise<void>((resolve) => (this.finish = resolve));

  release(): void {
    this.finish();
  }

  wait(signal: AbortSignal): Promise<void> {
    this.markStarted();
    return new Promise<void>((resolve, reject) => {
      void this.finished.then(resolve);
      signal.addEventListener('abort', () =>
        reject(new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'aborted')),
      );
    });
  }
}

const key = (target: ElementSelector): string =>
  target.base.kind === 'css' ? target.base.selector : target.base.kind;

export function run(
  code: string,
  backend: CodeModeBackend = new FakePage(),
  options: Partial<RunScriptOptions> = {},
): Promise<ScriptResult> {
  return runScript(code, backend, {
    signal: new AbortController().signal,
    // A file's first script pays a worker's cold start (the worker's TypeScript transpiled, QuickJS
    // compiled) inside its deadline: beside other test files and CPU spinners that took over 10 s.
    // Tests of the deadline itself pass their own.
    deadline: Date.now() + 30_000,
    ...options,
  });
}

export function errorOf(result: ScriptResult): Extract<ScriptResult, { ok: false }>['error'] {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}
