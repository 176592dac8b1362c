import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

interface Row {
  contender: string;
  na?: string;
  error?: string;
  [field: string]: unknown;
}

interface Report {
  meta: { quick: boolean; contenders: Array<{ id: string; version: string }> };
  scenarios: Record<string, { rows: Row[]; error?: string }>;
  goals: Array<{ id: string; met: boolean | null }>;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-quick-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The harness smoke test: BrowserMesh only, one iteration, against the built CLI (test:e2e builds
// first). It checks that the benchmark still runs end to end and writes its JSON; it never asserts
// a timing, because timings on a shared machine are noise.
describe('npm run bench -- --quick', () => {
  it('runs the quick subset against BrowserMesh and writes its JSON', { timeout: 90_000 }, async () => {
    const json = join(dir, 'quick.json');
    const { stdout } = await run(
      process.execPath,
      ['scripts/bench.mjs', '--quick', '--peers', 'none', '--no-build', '--json', json],
      {
        timeout: 80_000,
        maxBuffer: 4 * 1024 * 1024,
      },
    );
    expect(stdout).toMatch(/Navigation result size/);

    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.meta.quick).toBe(true);
    expect(report.meta.contenders.map((c) => c.id)).toEqual(['browsermesh']);

    for (const [name, scenario] of Object.entries(report.scenarios)) {
      expect(scenario.error, `scenario ${name}`).toBeUndefined();
      for (const row of scenario.rows) {
        // Every row is a measurement or says why it is not one; a harness failure is an error row.
        expect(row.error, `${name}: ${row.contender}`).toBeUndefined();
      }
    }

    const list = report.scenarios.discovery?.rows.find(
      (r) => r.contender === 'BrowserMesh' && r.profile === 'default',
    );
    expect(list?.tools).toBeGreaterThan(0);
    expect(list?.tokens).toBeGreaterThan(0);
    const nav = report.scenarios.navigate?.rows.find((r) => r.contender === 'BrowserMesh');
    expect(nav?.chars).toBeGreaterThan(0);

    expect(report.goals.length).toBeGreaterThan(0);
    for (const goal of report.goals) expect([true, false, null]).toContain(goal.met);
  });
});
