import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from './cli-helpers.js';

const dataDir = { BROWSERMESH_DATA_DIR: '/tmp/bm-doctor-i31-e2e' };

describe('--doctor', () => {
  it('says the given executable path is wrong and names the Chromium it found instead', () => {
    const result = runCli(['--executable-path', '/nope/chrome', '--doctor'], { ...dataDir });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('the given executable path /nope/chrome');
    expect(result.stdout).toMatch(/another Chromium was found at \/\S+/);
    expect(result.stdout).not.toContain('apt-get install');
  });

  it("launches with the sessions' sandbox setting, so a sandbox that cannot start fails here", () => {
    const off = runCli(['--doctor', '--chromium-sandbox', 'off'], baseEnv(dataDir));
    expect(off.stdout).toContain('Chromium sandbox off');
    expect(off.status).toBe(0);
    const on = runCli(['--doctor', '--chromium-sandbox', 'on'], baseEnv(dataDir));
    expect(on.stdout).toContain('Chromium sandbox on');
    // As root (this machine's CI), Chromium refuses its sandbox: doctor must say so, as a session would.
    if (process.getuid?.() === 0) {
      expect(on.status).toBe(1);
      expect(on.stdout).toMatch(/FAIL chromium: .*failed to launch/);
      expect(on.stdout).toContain('--chromium-sandbox off');
    } else {
      expect([0, 1]).toContain(on.status);
    }
  });
});
