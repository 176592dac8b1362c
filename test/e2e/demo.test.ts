import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from '../helpers/harness.js';

const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));

describe('npm run demo', () => {
  it('logs in as buyer and admin in two isolated sessions and shows nothing leaks', () => {
    const run = spawnSync(process.execPath, [DEMO], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        BROWSERMESH_EXECUTABLE_PATH: CHROMIUM,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stdout).toContain('buyer session is signed in as: buyer');
    expect(run.stdout).toContain('admin session is signed in as: admin');
    expect(run.stdout).toContain('nobody (no cookie leaked into it)');
    expect(run.stdout).toMatch(/Isolation holds: \d+ tool calls, \d+ response characters/);
    expect(run.status).toBe(0);
    // The transcript never shows the session cookie's value.
    expect(run.stdout).not.toMatch(/mesh_session=/);
  });
});
