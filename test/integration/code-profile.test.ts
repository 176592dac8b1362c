import type { ToolProfile } from '../../src/config/config-types.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): { tools: ToolProfile[] } => ({
  tools: ['code'],
}));

describe('--tools code on its own', () => {
  test('publishes a complete small surface: sessions, snapshot, screenshot, run, replay', async ({
    harness: h,
  }) => {
    const names = (await h.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual([
      'browser_session_create',
      'browser_session_list',
      'browser_session_close',
      'browser_snapshot',
      'browser_screenshot',
      'browser_run',
      'browser_replay',
    ]);
  });

  test('drives a session end to end with only those tools', async ({ site, harness: h }) => {
    const s = await h.session();
    const run = await h.ok<{ value: unknown }>('browser_run', {
      ...s,
      code: `await page.goto(${JSON.stringify(site.url('/files/upload'))}); return await page.title();`,
    });
    expect(run.value).toBe('Uploads');
    const snap = await h.call('browser_snapshot', { ...s, interactiveOnly: true });
    expect(snap.isError).toBeFalsy();
    expect(JSON.stringify(snap.content)).toContain('Choose a file');
    const shot = await h.call('browser_screenshot', s);
    expect(shot.content.some((c) => c.type === 'image')).toBe(true);
    const list = await h.ok<{ sessions: Array<{ sessionId: string }> }>('browser_session_list');
    expect(list.sessions.map((x) => x.sessionId)).toContain(s.sessionId);
    await h.ok('browser_session_close', { sessionId: s.sessionId });
    // Tools outside the profile stay unknown.
    await expect(h.call('browser_navigate', { ...s, url: site.url('/') })).rejects.toThrow(/Unknown tool/);
  });
});
