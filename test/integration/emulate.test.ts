import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'network'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  s = await h.session();
});

const emulate = (args: Record<string, unknown>) =>
  h.ok<{ applied: string[] }>('browser_emulate', { ...s, ...args });

/** What the page itself sees. */
function pageView(): Promise<{
  dark: boolean;
  reduced: boolean;
  print: boolean;
  tz: string;
  locale: string;
  online: boolean;
}> {
  return h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
    page.page.evaluate(() => ({
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
      reduced: matchMedia('(prefers-reduced-motion: reduce)').matches,
      print: matchMedia('print').matches,
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
      locale: navigator.language,
      online: navigator.onLine,
    })),
  );
}

describe('browser_emulate', () => {
  test('changes media, time zone, locale and network of an open page, and resets', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    const before = await pageView();
    const result = await emulate({
      colorScheme: 'dark',
      reducedMotion: 'reduce',
      media: 'print',
      timezoneId: 'Asia/Tokyo',
      locale: 'de-DE',
      cpuThrottling: 2,
    });
    expect(result.applied).toEqual(
      expect.arrayContaining([
        'colorScheme',
        'reducedMotion',
        'media',
        'timezoneId',
        'locale',
        'cpuThrottling',
      ]),
    );
    expect(await pageView()).toMatchObject({ dark: true, reduced: true, print: true, tz: 'Asia/Tokyo' });
    await emulate({ offline: true });
    expect((await pageView()).online).toBe(false);
    const fetched = await h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
      page.page.evaluate(() =>
        fetch('/api/data').then(
          () => 'ok',
          () => 'failed',
        ),
      ),
    );
    expect(fetched).toBe('failed');
    await emulate({ network: 'slow3g' });
    expect((await pageView()).online).toBe(true);
    await emulate({ reset: true });
    expect(await pageView()).toMatchObject({
      dark: before.dark,
      reduced: false,
      print: false,
      tz: before.tz,
      online: true,
    });
  });

  test('sets a geolocation with permission for the page origin', async () => {
    await h.ok('browser_navigate', { ...s, url: site.url('/') });
    await emulate({ geolocation: { latitude: 48.85, longitude: 2.35 } });
    const position = await h.mesh.runOnPage(s.sessionId, s.pageId, 'probe', ({ page }) =>
      page.page.evaluate(
        () =>
          new Promise<[number, number]>((resolve, reject) =>
            navigator.geolocation.getCurrentPosition(
              (p) => resolve([p.coords.latitude, p.coords.longitude]),
              reject,
            ),
          ),
      ),
    );
    expect(position).toEqual([48.85, 2.35]);
  });

  test('refuses nothing to do, reset with settings, and an unknown time zone', async () => {
    expect((await h.err('browser_emulate', { ...s })).code).toBe('INVALID_ARGUMENT');
    expect((await h.err('browser_emulate', { ...s, reset: true, offline: true })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await h.err('browser_emulate', { ...s, timezoneId: 'Mars/Olympus' })).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await h.err('browser_emulate', { ...s, cpuThrottling: 0 })).code).toBe('INVALID_ARGUMENT');
    expect((await emulate({ colorScheme: 'light' })).applied).toEqual(['colorScheme']);
  });
});
