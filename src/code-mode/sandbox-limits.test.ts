import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, FakePage, run } from '../../test/helpers/fake-code-backend.js';

// The sandbox's limits, cancellation and isolation (src/code-mode/sandbox.ts); the rest is in
// src/code-mode/sandbox.test.ts.

// After every test, including the ones that blew a limit, a fresh script must still run normally.
afterEach(async () => {
  expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: 42 });
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
