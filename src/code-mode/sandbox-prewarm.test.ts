import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePage, run } from '../../test/helpers/fake-code-backend.js';
import { waitFor } from '../../test/integration/support/wait.js';
import { configureSandboxWorkers, prewarmSandbox, workerStats } from './sandbox.js';

// The release build: only it runs the warm-up (the debug build accounts every allocation).
beforeAll(() => configureSandboxWorkers({ variant: 'release', maxIdle: 1 }));
afterAll(() => configureSandboxWorkers({}));

describe('a prewarmed sandbox worker', () => {
  it('takes a script sent while it is still starting, instead of starting another', async () => {
    configureSandboxWorkers({ variant: 'release', maxIdle: 1 });
    const started = workerStats.started;
    const reused = workerStats.reused;
    prewarmSandbox();
    // Sent at once: the script waits for the prewarmed worker (and at most one throwaway run).
    const result = await run('return [await page.title(), [1, 2, 3].map((x) => x * 2)]', new FakePage());
    expect(result).toMatchObject({ ok: true, value: ['Login', [2, 4, 6]], operations: 1 });
    expect(workerStats.started).toBe(started + 1);
    expect(workerStats.reused).toBe(reused + 1);
    // The worker goes back to the pool healthy: the next script runs on it too.
    expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: 42 });
    expect(workerStats.started).toBe(started + 1);
  });

  it('finishes its throwaway runs when left alone, and the next script reuses it', async () => {
    configureSandboxWorkers({ variant: 'release', maxIdle: 1 });
    const warmRuns = workerStats.warmUpRuns;
    const started = workerStats.started;
    const reused = workerStats.reused;
    prewarmSandbox();
    await waitFor(() => workerStats.warmUpRuns >= warmRuns + 3, 60_000, 'the three throwaway runs');
    const result = await run("console.log('hi'); return await page.url()", new FakePage());
    expect(result).toMatchObject({ ok: true, value: 'about:blank', logs: ['hi'] });
    expect(workerStats.started).toBe(started + 1);
    expect(workerStats.reused).toBe(reused + 1);
  });
});

describe('a worker that does not start in time', () => {
  it('is stopped: its script fails with a clear error, a prewarm is given up, the next start works', async () => {
    // Too short for any start: every worker is stopped before it is ready.
    configureSandboxWorkers({ variant: 'release', maxIdle: 1, startupLimitMs: 1 });
    prewarmSandbox();
    await expect(run('return 1')).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      cause: { message: 'sandbox worker did not start within 1 ms' },
    });
    // The prewarm failed the same way; nothing waits for it, and a normal start works again.
    configureSandboxWorkers({ variant: 'release', maxIdle: 1 });
    expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: 42 });
  });
});
