import { afterEach, describe, expect, it } from 'vitest';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { CodeModeBackend } from './backend.js';
import type { ElementSelector, FacadeCall } from './facade-calls.js';
import { runScript, type RunScriptOptions, type ScriptResult } from './sandbox.js';

/**
 * A tiny in-memory page: a login form at /login that leads to /welcome. Elements are addressed by
 * plain CSS ids. `hold(op)` makes the next call with that op hang until the test releases it (or
 * the sandbox aborts it), so tests wait on conditions instead of sleeping.
 */
class FakePage implements CodeModeBackend {
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
        if (!this.url.endsWith(call.url.replace('**', '')))
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
class Held {
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

function run(
  code: string,
  backend: CodeModeBackend = new FakePage(),
  options: Partial<RunScriptOptions> = {},
): Promise<ScriptResult> {
  return runScript(code, backend, {
    signal: new AbortController().signal,
    deadline: Date.now() + 10_000,
    ...options,
  });
}

function errorOf(result: ScriptResult): Extract<ScriptResult, { ok: false }>['error'] {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

// After every test, including the ones that blew a limit, a fresh script must still run normally.
afterEach(async () => {
  expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: 42 });
});

describe('running scripts', () => {
  it('runs a whole login flow in one script', async () => {
    const page = new FakePage();
    const result = await run(
      `await page.goto('https://app.test/login');
       await page.fill('#user', 'ada');
       await page.fill('#password', 'hunter2');
       await page.click('#login');
       await page.waitForURL('**/welcome');
       console.log('logged in');
       return { url: await page.url(), title: await page.title(), heading: await page.textContent('#heading') };`,
      page,
    );
    expect(result).toMatchObject({
      ok: true,
      value: { url: 'https://app.test/welcome', title: 'Welcome', heading: 'Hello ada' },
      logs: ['logged in'],
      logsTruncated: false,
      operations: 8,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('treats the code as an async function body', async () => {
    expect(await run('return await page.title()')).toMatchObject({ ok: true, value: 'Login' });
    expect(await run('const t = await page.url(); t')).toMatchObject({ ok: true, value: null });
    expect(await run('return [undefined, () => 1, new Date(0)]')).toMatchObject({
      ok: true,
      value: [null, null, '1970-01-01T00:00:00.000Z'],
    });
  });

  it('runs backend calls one at a time, in call order, even when not awaited one by one', async () => {
    const page = new FakePage();
    const held = page.hold('hover');
    const result = run(
      `await Promise.all([page.hover('#a'), page.focus('#b'), page.check('#c')]); return 'done'`,
      page,
    );
    await held.started;
    expect(page.calls.map((c) => c.op)).toEqual(['hover']);
    held.release();
    expect(await result).toMatchObject({ ok: true, value: 'done' });
    expect(page.calls.map((c) => c.op)).toEqual(['hover', 'focus', 'check']);
  });

  it('aborts a call the script left running when the script ends', async () => {
    const page = new FakePage();
    const held = page.hold('waitForTimeout');
    const result = await run(`page.waitForTimeout(60000); return 1`, page);
    await held.started;
    expect(result).toMatchObject({ ok: true, value: 1 });
    expect(page.signals[0]?.aborted).toBe(true);
  });

  it('reports a script that waits on a promise that can never settle', async () => {
    expect(errorOf(await run('await new Promise(() => {})'))).toMatchObject({
      kind: 'runtime',
      message: expect.stringContaining('can never settle'),
    });
  });
});

describe('errors', () => {
  it('reports syntax errors with the line and column of the snippet', async () => {
    expect(errorOf(await run('const a = 1;\nconst b = 2;\nlet c = ;'))).toEqual({
      kind: 'syntax',
      message: "SyntaxError: unexpected token in expression: ';'",
      line: 3,
      column: 9,
    });
    expect(errorOf(await run('if (true) {\n  return 1;\n'))).toMatchObject({ kind: 'syntax', line: 3 });
    expect(errorOf(await run(`import fs from 'fs'`))).toMatchObject({ kind: 'syntax', line: 1 });
  });

  it('reports runtime errors with line and column', async () => {
    expect(errorOf(await run('const a = 1;\nnull.x;'))).toMatchObject({
      kind: 'runtime',
      message: "TypeError: cannot read property 'x' of null",
      line: 2,
      column: 5,
    });
    expect(errorOf(await run('function f() {\n  throw new RangeError("bad");\n}\nf();'))).toMatchObject({
      kind: 'runtime',
      message: 'RangeError: bad',
      line: 2,
    });
    expect(errorOf(await run(`throw 'plain'`))).toMatchObject({ kind: 'runtime', message: 'Uncaught plain' });
    expect(errorOf(await run('setTimeout(() => 1, 10)'))).toMatchObject({
      message: "ReferenceError: 'setTimeout' is not defined (use await page.waitForTimeout(ms))",
    });
  });

  it('reports the failing step of a refused call', async () => {
    const result = await run(`await page.goto('https://app.test/login');\nawait page.fill('#user', 42);`);
    expect(errorOf(result)).toMatchObject({
      kind: 'runtime',
      message: "TypeError: page.fill: argument 'value' must be a string, got a number",
      line: 2,
      step: { index: 1, op: 'fill' },
    });
    expect(result.operations).toBe(2);
  });

  it('turns an uncaught host error into kind host with its code, step and line', async () => {
    const page = new FakePage();
    const result = await run(
      `await page.goto('https://app.test/login');\n\nawait page.click('#missing');\nreturn 1;`,
      page,
    );
    expect(errorOf(result)).toEqual({
      kind: 'host',
      message: 'page.click: No element matches #missing',
      hostCode: 'ELEMENT_NOT_FOUND',
      step: { index: 1, op: 'click' },
      line: 3,
      column: 17,
    });
  });

  it('lets scripts catch host errors as Errors with a code', async () => {
    const result = await run(
      `await page.goto('https://app.test/login');
       try { await page.locator('#missing').click(); }
       catch (e) { return [e instanceof Error, e.name, e.code, e.message, e.step, e.op, e.recoveryHint]; }`,
    );
    expect(result).toMatchObject({
      ok: true,
      value: [
        true,
        'BrowserMeshError',
        'ELEMENT_NOT_FOUND',
        'locator.click: No element matches #missing',
        1,
        'click',
        'Take a snapshot and use a ref',
      ],
    });
  });

  it('never passes the text of unexpected backend errors into the sandbox', async () => {
    const backend: CodeModeBackend = { invoke: () => Promise.reject(new Error('token=secret-value')) };
    const result = await run(
      `try { await page.title() } catch (e) { return e.code + ': ' + e.message }`,
      backend,
    );
    expect(result).toMatchObject({
      ok: true,
      value: 'INTERNAL_ERROR: page.title: Unexpected internal error',
    });
  });
});

describe('return value and console bounds', () => {
  it('truncates a long string result to maxResultBytes without splitting characters', async () => {
    const result = await run(`return 'é'.repeat(100)`, undefined, { maxResultBytes: 101 });
    expect(result).toMatchObject({ ok: true, valueTruncated: true, value: 'é'.repeat(50) });
    expect(await run(`return 'x'.repeat(64)`, undefined, { maxResultBytes: 64 })).toMatchObject({
      ok: true,
      value: 'x'.repeat(64),
    });
  });

  it('replaces a huge structured result with the start of its JSON', async () => {
    const result = await run(`return Array.from({ length: 1e5 }, (_, i) => ({ i }))`);
    if (!result.ok) throw new Error('expected ok');
    expect(result.valueTruncated).toBe(true);
    expect(typeof result.value).toBe('string');
    expect(String(result.value).startsWith('[{"i":0},{"i":1},')).toBe(true);
    expect(Buffer.byteLength(String(result.value))).toBeLessThanOrEqual(16 * 1024);
  });

  it('refuses results that are not JSON, or too deep to serialize, without crashing the host', async () => {
    expect(errorOf(await run('const o = {}; o.self = o; return o'))).toMatchObject({
      kind: 'runtime',
      message: expect.stringContaining('circular'),
    });
    expect(errorOf(await run('return 10n'))).toMatchObject({
      kind: 'runtime',
      message: expect.stringContaining('not JSON-serializable'),
    });
    const deep = await run('let o = {}; for (let i = 0; i < 100000; i++) o = { o }; return o');
    expect(errorOf(deep)).toEqual({
      kind: 'limit',
      message: 'The return value is nested too deeply to serialize',
    });
  });

  it('bounds console lines and their length', async () => {
    const result = await run(
      `console.log('a', 1, { b: [2] }, null); console.warn(new TypeError('t')); console.error('x'.repeat(50));
       for (let i = 0; i < 10; i++) console.info('line', i);`,
      undefined,
      { maxLogLines: 4, maxLogChars: 20 },
    );
    expect(result.logs).toEqual([
      'a 1 {"b":[2]} null',
      '[warn] TypeError: t',
      `[error] ${'x'.repeat(19)}…`,
      'line 0',
    ]);
    expect(result.logsTruncated).toBe(true);
  });
});

describe('limits', () => {
  it('stops an infinite loop at the deadline', async () => {
    const result = await run('while (true) {}', undefined, { deadline: Date.now() + 200 });
    expect(errorOf(result)).toMatchObject({ kind: 'timeout' });
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('an infinite loop cannot catch the interrupt', async () => {
    const result = await run(
      'try { while (true) {} } catch (e) { return "caught" } finally { return "finally" }',
      undefined,
      {
        deadline: Date.now() + 200,
      },
    );
    expect(errorOf(result)).toMatchObject({ kind: 'timeout' });
  });

  it('stops a loop around a slow built-in, which QuickJS rarely interrupts, by terminating its worker', async () => {
    const code = `const words = Array.from({ length: 2e5 }, (_, i) => String((i * 7919) % 200000));
      for (;;) words.slice().sort();`;
    const result = await run(code, undefined, { deadline: Date.now() + 300 });
    expect(errorOf(result)).toMatchObject({ kind: 'timeout' });
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('stops memory bombs at the memory limit', async () => {
    const bombs = [
      `let a = []; while (true) a.push('x'.repeat(1e6));`,
      `let a = []; while (true) a.push(new Uint8Array(1e6));`,
      `let a = []; while (true) a.push({ n: [1, 2, 3] });`,
    ];
    for (const bomb of bombs) {
      const result = await run(bomb);
      expect(errorOf(result)).toMatchObject({
        kind: 'memory',
        message: 'The script ran out of sandbox memory (limit 32 MiB)',
      });
      expect(result.durationMs).toBeLessThan(5_000);
    }
    const small = await run(`let a = []; while (true) a.push('x'.repeat(1e6));`, undefined, {
      memoryLimitBytes: 4 * 1024 * 1024,
    });
    expect(errorOf(small)).toMatchObject({
      kind: 'memory',
      message: 'The script ran out of sandbox memory (limit 4 MiB)',
    });
  });

  it('a script may catch running out of memory and carry on once it lets go', async () => {
    const result = await run(
      `let a = []; try { while (true) a.push(new Uint8Array(1e6)); } catch (e) { a = null; return String(e); }`,
    );
    expect(result).toMatchObject({ ok: true, value: 'InternalError: out of memory' });
  });

  it('stops runaway recursion and deeply nested source at the stack limit', async () => {
    expect(errorOf(await run('function f() { return f() + 1 }\nreturn f()'))).toMatchObject({
      kind: 'limit',
      line: 1,
    });
    expect(errorOf(await run('return eval("(".repeat(100000) + "1" + ")".repeat(100000))'))).toMatchObject({
      kind: 'limit',
    });
    expect(errorOf(await run('return JSON.parse("[".repeat(100000) + "]".repeat(100000))'))).toMatchObject({
      kind: 'limit',
    });
  });

  it('caps the number of page calls, even when the script catches the error', async () => {
    const result = await run(
      'for (let i = 0; i < 50; i++) { try { await page.title() } catch {} }',
      undefined,
      { maxOperations: 5 },
    );
    expect(errorOf(result)).toEqual({ kind: 'limit', message: 'The script made more than 5 page calls' });
    expect(result.operations).toBe(5);
  });

  it('refuses an oversized script before running it', async () => {
    expect(errorOf(await run(`// ${'x'.repeat(100_001)}`))).toMatchObject({
      kind: 'limit',
      message: expect.stringContaining('too long'),
    });
  });
});

describe('cancellation and deadlines', () => {
  it('cancels while the script awaits a slow host call', async () => {
    const page = new FakePage();
    const held = page.hold('waitForTimeout');
    const controller = new AbortController();
    const result = run('await page.waitForTimeout(600000); return 1', page, { signal: controller.signal });
    await held.started;
    controller.abort();
    expect(errorOf(await result)).toEqual({ kind: 'cancelled', message: 'The script was cancelled' });
    expect(page.signals[0]?.aborted).toBe(true);
  });

  it('cancels a script that is busy in a loop', async () => {
    const page = new FakePage();
    const held = page.hold('title');
    const controller = new AbortController();
    const result = run('await page.title(); while (true) {}', page, { signal: controller.signal });
    await held.started;
    held.release();
    controller.abort();
    expect(errorOf(await result)).toEqual({ kind: 'cancelled', message: 'The script was cancelled' });
  });

  it('cancels a loop around a slow built-in by terminating its worker', async () => {
    const page = new FakePage();
    const held = page.hold('title');
    const controller = new AbortController();
    const code = `const words = Array.from({ length: 2e5 }, (_, i) => String(i % 977));
      await page.title();
      for (;;) words.slice().sort();`;
    const result = run(code, page, { signal: controller.signal });
    await held.started;
    held.release();
    controller.abort();
    const outcome = await result;
    expect(errorOf(outcome)).toEqual({ kind: 'cancelled', message: 'The script was cancelled' });
    expect(outcome.durationMs).toBeLessThan(5_000);
  });

  it('times out while awaiting a host call that never finishes', async () => {
    const page = new FakePage();
    page.hold('click');
    const result = await run(`await page.click('#x')`, page, { deadline: Date.now() + 100 });
    expect(errorOf(result)).toMatchObject({ kind: 'timeout' });
    expect(page.signals[0]?.aborted).toBe(true);
  });

  it('does not start a script whose signal is already aborted', async () => {
    const page = new FakePage();
    const controller = new AbortController();
    controller.abort();
    expect(await run('await page.title()', page, { signal: controller.signal })).toMatchObject({
      ok: false,
      error: { kind: 'cancelled' },
      operations: 0,
    });
    expect(page.calls).toEqual([]);
  });
});

describe('isolation between scripts', () => {
  it('runs two scripts concurrently without interference', async () => {
    const pageA = new FakePage();
    const pageB = new FakePage();
    const held = pageA.hold('title');
    const a = run(
      `globalThis.who = 'A'; const t = await page.title(); return [who, t, await page.url()]`,
      pageA,
    );
    await held.started;
    const b = await run(
      `await page.goto('https://b.test/login'); return [typeof who, await page.url()]`,
      pageB,
    );
    expect(b).toMatchObject({ ok: true, value: ['undefined', 'https://b.test/login'] });
    held.release();
    expect(await a).toMatchObject({ ok: true, value: ['A', 'Login', 'about:blank'] });
    expect(pageA.calls.map((c) => c.op)).toEqual(['title', 'url']);
  });

  it('gives every script a fresh global environment', async () => {
    await run('globalThis.leftover = 1; Object.prototype.polluted = 1; Array.prototype.push = null');
    expect(await run('return [typeof leftover, ({}).polluted, typeof [].push]')).toMatchObject({
      ok: true,
      value: ['undefined', null, 'function'],
    });
  });
});
