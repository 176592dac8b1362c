import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorOf, FakePage, run } from '../../test/helpers/fake-code-backend.js';
import { configureSandboxWorkers, sandboxPoolState, workersHeld } from './sandbox.js';

// Fair sharing of the sandbox workers between clients, and the CPU budget: a client
// cannot take every worker, a freed worker goes to the client holding the fewest, and a script
// that spins is stopped at its CPU budget long before its deadline, leaving its worker usable.

const LONG = 60_000;
// Every test starts fresh workers (QuickJS compiles per worker): slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

afterEach(async () => {
  configureSandboxWorkers({});
  // A fresh worker may have to start (the test's killed ones are gone): slow on a loaded machine.
  const after = await run('return 6 * 7', undefined, { deadline: Date.now() + LONG });
  expect(after, JSON.stringify(after)).toMatchObject({ ok: true, value: 42 });
  expect(workersHeld().size).toBe(0);
});

describe('CPU budget', () => {
  it('stops a spinning script at its CPU budget, far before its deadline', async () => {
    for (const code of ['while (true) {}', 'for (;;) [3, 1, 2].sort()', 'let n = 0; for (;;) n++']) {
      const result = await run(code, undefined, { deadline: Date.now() + LONG, cpuBudgetMs: 300 });
      expect(errorOf(result)).toEqual({
        kind: 'limit',
        message: 'The script used up its CPU budget (300 ms)',
      });
      expect(result.durationMs).toBeLessThan(LONG / 2);
    }
  });

  it('stops a loop around a slow built-in (rarely interrupted) at its CPU budget too', async () => {
    const code = `const words = Array.from({ length: 2e5 }, (_, i) => String((i * 7919) % 200000));
      for (;;) words.slice().sort();`;
    const result = await run(code, undefined, { deadline: Date.now() + LONG, cpuBudgetMs: 300 });
    expect(errorOf(result)).toMatchObject({ kind: 'limit' });
  });

  it('does not count time spent waiting on page calls', async () => {
    const page = new FakePage();
    const held = page.hold('title');
    // Budgets are generous: on a loaded machine a thread's busy time runs ahead of its CPU time.
    const waiting = run('await page.title(); return "done"', page, {
      cpuBudgetMs: 1_000,
      deadline: Date.now() + LONG,
    });
    await held.started;
    // A spinning script on another worker uses up the same budget meanwhile: a condition, not a sleep.
    const spinner = await run('while (true) {}', undefined, {
      cpuBudgetMs: 2_500,
      deadline: Date.now() + LONG,
    });
    expect(errorOf(spinner)).toMatchObject({ kind: 'limit' });
    held.release();
    const done = await waiting;
    expect(done.ok ? done : errorOf(done)).toMatchObject({ ok: true, value: 'done' });
  });
});

describe('fair sharing between clients', () => {
  it('a client cannot take every worker: another client still runs', async () => {
    configureSandboxWorkers({ maxWorkers: 2 });
    const pageA = new FakePage();
    const heldA = pageA.hold('title');
    const a = { claim: { client: 'A' }, deadline: Date.now() + LONG };
    const first = run('await page.title(); return "a1"', pageA, a);
    await heldA.started;
    const secondPage = new FakePage();
    const second = run('await page.title(); return "a2"', secondPage, a);
    // Client B gets the second worker although A asked first: A is at its cap (half the pool).
    const b = await run('return 1', undefined, { claim: { client: 'B' }, deadline: Date.now() + 10_000 });
    expect(b).toMatchObject({ ok: true, value: 1 });
    expect(secondPage.calls).toHaveLength(0);
    heldA.release();
    expect(await first).toMatchObject({ ok: true, value: 'a1' });
    expect(await second).toMatchObject({ ok: true, value: 'a2' });
  });

  it('a freed worker goes to the client holding the fewest, before earlier arrivals', async () => {
    // No lending here (its slice is longer than the test): only the hand-over order is at stake.
    configureSandboxWorkers({ maxWorkers: 2, sliceMs: LONG });
    const a = { claim: { client: 'A', maxPerClient: 2 }, deadline: Date.now() + LONG };
    const pages = [new FakePage(), new FakePage()];
    const holds = pages.map((page) => page.hold('title'));
    const running = pages.map((page, i) => run(`await page.title(); return ${i}`, page, a));
    await Promise.all(holds.map((held) => held.started));
    const order: string[] = [];
    const third = run('return 3', undefined, a).then((r) => (order.push('A'), r));
    const other = run('return 9', undefined, { claim: { client: 'B' }, deadline: Date.now() + LONG }).then(
      (r) => (order.push('B'), r),
    );
    holds[0]?.release();
    await Promise.all([third, other]);
    expect(order[0]).toBe('B');
    holds[1]?.release();
    expect(await Promise.all(running)).toMatchObject([{ ok: true }, { ok: true }]);
  });

  it('the local client (stdio, library) may use the whole pool', async () => {
    configureSandboxWorkers({ maxWorkers: 2 });
    const pages = [new FakePage(), new FakePage()];
    const holds = pages.map((page) => page.hold('title'));
    const running = pages.map((page) => run('await page.title(); return 1', page));
    await Promise.all(holds.map((held) => held.started));
    expect(workersHeld().get('')).toBe(2);
    for (const held of holds) held.release();
    await Promise.all(running);
  });

  it('a waiter that gives up (deadline) leaves no claim behind', async () => {
    configureSandboxWorkers({ maxWorkers: 1 });
    const page = new FakePage();
    const held = page.hold('title');
    const holder = run('await page.title(); return 1', page, { claim: { client: 'A' } });
    await held.started;
    const late = await run('return 2', undefined, { claim: { client: 'B' }, deadline: Date.now() + 200 });
    expect(errorOf(late)).toMatchObject({ kind: 'timeout' });
    held.release();
    expect(await holder).toMatchObject({ ok: true });
  });

  it('sessions of one client: a short script starts while long ones hold every worker', async () => {
    configureSandboxWorkers({ maxWorkers: 2, sliceMs: 200 });
    const stop = new AbortController();
    const ended: string[] = [];
    const long = { signal: stop.signal, deadline: Date.now() + LONG, cpuBudgetMs: 600_000 };
    const spinners = [0, 1].map((i) =>
      run('while (true) {}', undefined, long).then((result) => (ended.push(`spinner ${i}`), result)),
    );
    await vi.waitFor(() => expect(workersHeld().get('')).toBe(2), { timeout: LONG, interval: 50 });
    // The pool is full of scripts that would spin for minutes; the short one still runs now.
    const short = await run('return 1', undefined, { deadline: Date.now() + LONG });
    expect(short).toMatchObject({ ok: true, value: 1 });
    expect(ended).toEqual([]);
    stop.abort();
    for (const result of await Promise.all(spinners))
      expect(errorOf(result)).toMatchObject({ kind: 'cancelled' });
  });

  it('lends at most maxWorkers more: past twice the pool, a script waits for a worker', async () => {
    configureSandboxWorkers({ maxWorkers: 1, sliceMs: 100 });
    const stop = new AbortController();
    const long = { signal: stop.signal, deadline: Date.now() + LONG, cpuBudgetMs: 600_000 };
    // Each step has its own bound, well inside the test's: a miss says which step and the pool's state.
    const pool = (): string => JSON.stringify({ ...sandboxPoolState(), held: [...workersHeld()] });
    const within = <T>(promise: Promise<T>, what: string): Promise<T> =>
      Promise.race([
        promise,
        new Promise<never>((_, reject) => {
          setTimeout(
            () => reject(new Error(`${what}: not within 15 s; the pool: ${pool()}`)),
            15_000,
          ).unref();
        }),
      ]);
    const holding = (n: number): Promise<void> =>
      vi.waitFor(() => expect(workersHeld().get(''), `${n} held; the pool: ${pool()}`).toBe(n), {
        timeout: 15_000,
        interval: 50,
      });
    const spinners = [run('while (true) {}', undefined, long)];
    await holding(1);
    spinners.push(run('while (true) {}', undefined, long));
    await holding(2);
    const third = await within(run('return 3', undefined, { deadline: Date.now() + 1_500 }), 'the third');
    expect(errorOf(third)).toMatchObject({ kind: 'timeout' });
    stop.abort();
    await within(Promise.all(spinners), 'the spinners after the abort');
  });
});
