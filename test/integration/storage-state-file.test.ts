import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportState } from '../../src/cli/export-state.js';
import { loadConfig } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { CHROMIUM, McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

// A saved state leaves as a Playwright storageState file (--export-state) and a server starts
// every session from such a file (--storage-state): the round trip through the MCP client.

let site: FixtureServer;
const dataDir = mkdtempSync(join(tmpdir(), 'bm-export-'));

// The site is the file's; each server is the test's own, started from CLI flags on one data directory.
test.beforeAll(({ site: fileSite }) => {
  site = fileSite;
});

async function cookieNames(h: McpHarness, args: Record<string, unknown> = {}): Promise<string[]> {
  const page = await h.session(args);
  await h.ok('browser_navigate', { ...page, url: site.url('/echo-cookies') });
  const { text } = await h.ok<{ text: string }>('browser_visible_text', page);
  await h.ok('browser_session_close', { sessionId: page.sessionId });
  return (JSON.parse(text) as { names: string[] }).names;
}

async function run(argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const { config } = loadConfig(['--data-dir', dataDir, ...argv], {});
  const status = await exportState(
    config,
    (text) => (stdout += text),
    (text) => (stderr += text),
  );
  return { status, stdout, stderr };
}

describe('--export-state and --storage-state', () => {
  test('exports a saved state that a new server then starts every session from', async () => {
    const first = await McpHarness.start(
      loadConfig(['--executable-path', CHROMIUM, '--timeout', '30000', '--data-dir', dataDir], {}).config,
    );
    try {
      const page = await first.session();
      await first.ok('browser_navigate', { ...page, url: site.url('/cookie-set?name=exported&value=1') });
      await first.ok('browser_state_save', { sessionId: page.sessionId, stateId: 'logged-in' });
    } finally {
      await first.close();
    }

    const exported = await run(['--export-state', 'logged-in']);
    expect(exported.status).toBe(0);
    const file = JSON.parse(exported.stdout) as { cookies: Array<{ name: string }>; origins: unknown[] };
    expect(file.cookies.map((cookie) => cookie.name)).toContain('exported');
    expect(Array.isArray(file.origins)).toBe(true);
    const path = join(dataDir, 'exported.json');
    writeFileSync(path, exported.stdout);

    const second = await McpHarness.start(
      loadConfig(
        ['--executable-path', CHROMIUM, '--timeout', '30000', '--data-dir', dataDir, '--storage-state', path],
        {},
      ).config,
    );
    try {
      expect(await cookieNames(second)).toContain('exported');
    } finally {
      await second.close();
    }
  });

  test('reports an unknown or malformed id by code, never printing state', async () => {
    const missing = await run(['--export-state', 'never-saved']);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('STATE_NOT_FOUND');
    expect(() => loadConfig(['--export-state', '../etc/passwd'], {})).toThrow(/^--export-state: must be/);
    expect(loadConfig(['--export-state', 'abc'], {}).command).toBe('export-state');
  });
});
