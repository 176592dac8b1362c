import { describe, expect, it } from 'vitest';
import { isBrowserMeshError } from '../errors.js';
import { matchOffLoop, regexWorkerStats, toRegexPattern } from './regex-worker.js';

const CATASTROPHIC = { source: '^(a+)+$', flags: '' };
const EVIL_TEXT = `${'a'.repeat(40)}!`;

describe('regexes off the event loop', () => {
  it('returns the indices of the matching texts', async () => {
    const hits = await matchOffLoop({ source: '^ca', flags: 'i' }, ['Cart', 'Home', 'cat'], {
      timeoutMs: 60_000,
    });
    expect(hits).toEqual([0, 2]);
  });

  it('drops g and y, and refuses an invalid pattern by field', () => {
    expect(toRegexPattern('a', 'giy', 'regex')).toEqual({ source: 'a', flags: 'i' });
    let code = '';
    try {
      toRegexPattern('(', '', 'url');
    } catch (error) {
      if (isBrowserMeshError(error)) code = `${error.code}:${String(error.details?.field)}`;
    }
    expect(code).toBe('INVALID_ARGUMENT:url');
  });

  it('a catastrophic pattern spins on its own worker while other jobs are answered', async () => {
    const controller = new AbortController();
    const slow = matchOffLoop(CATASTROPHIC, [EVIL_TEXT], { timeoutMs: 120_000, signal: controller.signal });
    let slowDone = false;
    const outcome = slow.then(
      () => 'matched',
      (error: unknown) => (isBrowserMeshError(error) ? error.code : 'other'),
    );
    void outcome.then(() => (slowDone = true));
    const other = await matchOffLoop({ source: 'b', flags: '' }, ['abc'], { timeoutMs: 60_000 });
    expect(other).toEqual([0]);
    expect(slowDone).toBe(false);
    controller.abort();
    expect(await outcome).toBe('OPERATION_CANCELLED');
  });

  it('a pattern past its budget is OPERATION_TIMEOUT and its worker is stopped', async () => {
    const killed = regexWorkerStats.killed;
    const job = matchOffLoop(CATASTROPHIC, [EVIL_TEXT], { timeoutMs: 60_000, runMs: 300 });
    await expect(job).rejects.toMatchObject({ code: 'OPERATION_TIMEOUT', details: { field: 'regex' } });
    expect(regexWorkerStats.killed).toBe(killed + 1);
    // The pool still works after a worker was stopped.
    expect(await matchOffLoop({ source: 'x', flags: '' }, ['y', 'x'], { timeoutMs: 60_000 })).toEqual([1]);
  });

  it('a cancelled job stops with OPERATION_CANCELLED', async () => {
    const controller = new AbortController();
    const job = matchOffLoop(CATASTROPHIC, [EVIL_TEXT], { timeoutMs: 60_000, signal: controller.signal });
    controller.abort();
    await expect(job).rejects.toMatchObject({ code: 'OPERATION_CANCELLED' });
  });

  it('a pattern that fails on the text (not on compiling) is INVALID_ARGUMENT for its field', async () => {
    // Each alternative of a long run backtracks; V8 runs out of its backtracking stack.
    const job = matchOffLoop({ source: '^(a|b)*$', flags: '' }, ['ab'.repeat(5_000_000)], {
      timeoutMs: 120_000,
      field: 'url',
    });
    await expect(job).rejects.toMatchObject({ details: { field: 'url' } });
  });
});
