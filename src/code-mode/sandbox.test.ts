import { afterEach, describe, expect, it } from 'vitest';
import type { CodeModeBackend } from './backend.js';
import { errorOf, FakePage, run } from '../../test/helpers/fake-code-backend.js';

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
    // A refused argument is the call's INVALID_ARGUMENT, naming the field as every face does.
    expect(errorOf(result)).toMatchObject({
      kind: 'host',
      hostCode: 'INVALID_ARGUMENT',
      hostDetails: { field: 'value' },
      message: "page.fill: argument 'value' must be a string, got a number",
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
