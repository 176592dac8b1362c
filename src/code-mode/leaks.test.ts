import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { CodeModeBackend } from './backend.js';
import { configureSandboxWorkers, runScript, workerStats, type ScriptResult } from './sandbox.js';

/**
 * Every path through the sandbox must dispose every QuickJS handle. This file runs the workers on
 * QuickJS's debug build, which checks for leaked handles and objects after each script; a leak
 * shows up in `workerStats.leaks` (and a failed disposal would retire the worker).
 */

let slowCall: ((signal: AbortSignal) => void) | undefined;
const backend: CodeModeBackend = {
  invoke: (call, signal) => {
    if (call.op === 'click')
      return Promise.reject(new BrowserMeshError(ErrorCodes.ELEMENT_NOT_FOUND, 'No element'));
    if (call.op !== 'waitForTimeout') return Promise.resolve(call.op === 'title' ? 'Title' : null);
    return new Promise((_, reject) => {
      slowCall?.(signal);
      signal.addEventListener('abort', () =>
        reject(new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'aborted')),
      );
    });
  },
};

function run(
  code: string,
  signal = new AbortController().signal,
  // The file's first script pays a debug worker's cold start inside its deadline (seconds under load).
  deadlineMs = 30_000,
): Promise<ScriptResult> {
  return runScript(code, backend, { signal, deadline: Date.now() + deadlineMs, maxOperations: 5 });
}

beforeAll(() => configureSandboxWorkers({ variant: 'debug', maxIdle: 1 }));
afterAll(() => configureSandboxWorkers({}));

describe('no QuickJS handle leaks on any path (debug build)', () => {
  const cases: [string, string, string][] = [
    [
      'success with calls and logs',
      `console.log('x'); await page.goto('https://a.test'); return await page.title()`,
      'ok',
    ],
    ['syntax error', `let = ;`, 'syntax'],
    ['runtime error', `null.x`, 'runtime'],
    ['uncaught host error', `await page.click('#a')`, 'host'],
    ['caught host error', `try { await page.click('#a') } catch (e) { return e.code }`, 'ok'],
    ['refused call', `await page.fill('#a', 1)`, 'host'],
    ['unsupported member', `page.evaluate(() => 1)`, 'runtime'],
    ['deadlock', `await new Promise(() => {})`, 'runtime'],
    ['unawaited call at the end', `page.waitForTimeout(1000); return 1`, 'ok'],
    ['circular result', `const o = {}; o.o = o; return o`, 'runtime'],
    ['too deep result', `let o = {}; for (let i = 0; i < 20000; i++) o = { o }; return o`, 'limit'],
    ['huge result', `return 'x'.repeat(100000)`, 'ok'],
    ['stack overflow', `function f() { return f() } return f()`, 'limit'],
    ['operation cap', `for (;;) { try { await page.title() } catch {} }`, 'limit'],
    ['timeout in a loop', `while (true) {}`, 'timeout'],
  ];
  it.each(cases)('%s', async (_name, code, outcome) => {
    const result = await run(code, undefined, outcome === 'timeout' ? 300 : undefined);
    expect(result.ok ? 'ok' : result.error.kind).toBe(outcome);
    expect(workerStats.leaks).toEqual([]);
  });

  it('cancellation while a host call is pending', async () => {
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => (slowCall = () => resolve()));
    const result = run(`await page.waitForTimeout(600000)`, controller.signal);
    await started;
    controller.abort();
    expect(await result).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    expect(workerStats.leaks).toEqual([]);
  });

  it('never found a worker unhealthy: every disposal succeeded', () => {
    expect(workerStats.unhealthy).toBe(0);
    expect(workerStats.reused).toBeGreaterThan(10);
  });
});
