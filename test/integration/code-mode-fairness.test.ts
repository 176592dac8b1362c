import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { McpHarness } from '../helpers/harness.js';
import { sandboxPoolState, workerStats } from '../../src/code-mode/sandbox.js';

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, () => ({ scriptCpuMs: 1_000 }));

/**
 * Sandbox fairness through MCP on real Chromium: spinning `browser_run` scripts with a
 * 600 s deadline used to hold every sandbox worker, so a `return 1` in another session timed out.
 * Now each script has a CPU budget (`scriptCpuMs`) far below the deadline: over it the call ends
 * with SCRIPT_ERROR (kind 'limit'), the worker comes back and the session keeps working. And a
 * session does not wait for others' long scripts at all: each lends the pool a worker after half a
 * second (docs/code-mode.md, "Sharing the sandbox workers").
 */

describe('browser_run CPU budget', () => {
  test('ends a spinning script with SCRIPT_ERROR long before its deadline; the session keeps working', async ({
    site,
    harness: h,
  }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/quiet') });
    const error = await h.err('browser_run', { ...s, code: 'for (;;) {}', timeoutMs: 600_000 });
    expect(error.code).toBe('SCRIPT_ERROR');
    expect(error.details).toMatchObject({ kind: 'limit' });
    expect(await h.ok('browser_get_url', s)).toMatchObject({ url: site.url('/quiet') });
    expect(await h.ok('browser_run', { ...s, code: 'return await page.title()' })).toHaveProperty('value');
  });

  test('a fifth session runs while four others spin on every worker, long before their budgets end', async () => {
    // Budgets of minutes: the fifth cannot be waiting for one of them to run out.
    const wide = await McpHarness.start({ scriptCpuMs: 300_000 });
    try {
      const sessions = await Promise.all([1, 2, 3, 4, 5].map(() => wide.session()));
      let ended = 0;
      // The spinners end when their sessions close below; the client must not give up on them first.
      const spinners = sessions
        .slice(0, 4)
        .map((s) =>
          wide
            .call('browser_run', { ...s, code: 'while (true) {}', timeoutMs: 600_000 }, { timeout: 700_000 })
            .finally(() => ended++),
        );
      // Handled here too: if the fifth fails, closing the harness ends them with no one awaiting.
      for (const spinner of spinners) spinner.catch(() => undefined);
      const fifth = sessions[4];
      if (!fifth) throw new Error('no fifth session');
      // Its deadline ends before the test's, so a miss reports what the pool was doing.
      const result = await wide.call('browser_run', { ...fifth, code: 'return 1', timeoutMs: 40_000 });
      const pool = { ...sandboxPoolState(), started: workerStats.started, reused: workerStats.reused };
      const said = JSON.stringify(result.content).slice(0, 500);
      expect(result.structuredContent, `${said}; the pool: ${JSON.stringify(pool)}`).toMatchObject({
        value: 1,
      });
      expect(ended).toBe(0);
      // Closing a session stops its script; every session and worker comes back.
      await Promise.all(sessions.map((s) => wide.ok('browser_session_close', { sessionId: s.sessionId })));
      for (const result of await Promise.all(spinners)) expect(result.isError).toBe(true);
    } finally {
      await wide.close();
    }
  });

  test('refuses a bad budget in the configuration by its source', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config/load.js');
    expect(() => loadConfig(['--script-cpu-ms', '10'], {})).toThrow(ConfigError);
    expect(() => loadConfig([], { BROWSERMESH_SCRIPT_CPU_MS: 'x' })).toThrow(/BROWSERMESH_SCRIPT_CPU_MS/);
    expect(loadConfig(['--script-cpu-ms', '2500'], {}).config.scriptCpuMs).toBe(2_500);
  });
});
