import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import { expectGolden, goto, takeSnap } from './snapshot-support.js';

/**
 * Golden snapshot texts of the fixture pages, compared exactly (refs renumbered in order of
 * appearance, fixture origins replaced). Refresh with UPDATE_GOLDEN=1 after a deliberate format change
 * and review the diff of test/integration/__golden__/.
 */

let env: SnapshotSetup;
// The file's site, mesh and first session come from the shared fixtures.
test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
});

async function snapshotOf(path: string, input: Parameters<typeof takeSnap>[2] = {}): Promise<string> {
  await goto(env.mesh, env.page, env.site.url(path));
  return (await takeSnap(env.mesh, env.page, input)).snapshot;
}

describe('golden snapshots', () => {
  test.each([
    ['forms', '/forms'],
    ['table', '/snapshot/table'],
    ['lists', '/snapshot/lists'],
    ['dialog', '/snapshot/dialog'],
    ['iframes', '/snapshot/iframes'],
    ['shadow', '/snapshot/shadow'],
    ['clickable', '/snapshot/clickable'],
    ['hidden', '/snapshot/hidden'],
  ])('%s (%s)', async (name, path) => {
    expectGolden(name, await snapshotOf(path), env.site);
  });

  test('forms, interactive only', async () => {
    expectGolden('forms-interactive', await snapshotOf('/forms', { interactiveOnly: true }), env.site);
  });

  test('never shows a password value, whatever the options', async () => {
    await goto(env.mesh, env.page, env.site.url('/forms'));
    for (const input of [{}, { interactiveOnly: true }, { includeBoundingBoxes: true, includeUrls: true }]) {
      const { snapshot } = await takeSnap(env.mesh, env.page, input);
      expect(snapshot).not.toContain('hunter2');
      expect(snapshot).toMatch(/\[textbox @e\d+ value=••••[^\]]*\] Password/);
    }
  });

  test('reports hidden and aria-hidden content it left out', async () => {
    await goto(env.mesh, env.page, env.site.url('/snapshot/hidden'));
    const result = await takeSnap(env.mesh, env.page);
    expect(result.omitted.hidden).toBeGreaterThanOrEqual(3);
    expect(result.omitted.ariaHidden).toBeGreaterThanOrEqual(1);
    for (const hidden of [
      'Display none button',
      'Visibility hidden button',
      'Aria hidden button',
      'Hidden attribute button',
    ]) {
      expect(result.snapshot).not.toContain(hidden);
    }
  });
});
