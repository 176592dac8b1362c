import type { ServerResponse } from 'node:http';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };
const held: ServerResponse[] = [];

function html(res: ServerResponse, body: string): void {
  res.setHeader('content-type', 'text/html');
  res.end(`<!doctype html><title>t</title><body>${body}</body>`);
}

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  // Navigates itself shortly after loading: a URL change no action of ours causes.
  site.route('/self-nav', (_req, res) =>
    html(
      res,
      '<p>leaving</p><script>setTimeout(() => (location.href = "/actions/nav-target?via=timer"), 300)</script>',
    ),
  );
  // Its load event waits for an image that is answered only when the test says so.
  site.route('/held-image-page', (_req, res) => html(res, '<p>page</p><img src="/held.png">'));
  site.route('/held.png', (_req, res) => void held.push(res));
  // A fetch whose URL carries a secret-looking query value.
  site.route('/secret-fetch', (_req, res) =>
    html(res, '<button onclick="fetch(\'/api/data?token=abc123&x=1\')">Fetch secret</button>'),
  );
  h = harness;
  s = await h.session();
});
test.afterAll(async () => {
  for (const res of held.splice(0)) res.end();
});

const open = (path: string, waitUntil = 'load'): Promise<unknown> =>
  h.ok('browser_navigate', { ...s, url: site.url(path), waitUntil });
const timedOut = async (args: Record<string, unknown>): Promise<void> => {
  const started = Date.now();
  const error = await h.err('browser_wait', { ...s, timeoutMs: 600, ...args });
  expect(error.code).toBe('OPERATION_TIMEOUT');
  expect(Date.now() - started).toBeLessThan(5000);
};

describe('browser_wait', () => {
  test('url: exact and glob, satisfied and timed out', async () => {
    await open('/self-nav');
    const result = await h.ok<{ satisfied: boolean; elapsedMs: number }>('browser_wait', {
      ...s,
      url: '**/nav-target?via=*',
      timeoutMs: 10_000,
    });
    expect(result.satisfied).toBe(true);
    await h.ok('browser_wait', { ...s, url: site.url('/actions/nav-target?via=timer') });
    await timedOut({ url: '**/never-here' });
  });

  test('loadState: satisfied once the load event fires, timed out while it cannot', async () => {
    await open('/held-image-page', 'domcontentloaded');
    await h.ok('browser_wait', { ...s, loadState: 'domcontentloaded' });
    await timedOut({ loadState: 'load' });
    for (const res of held.splice(0)) res.end();
    await h.ok('browser_wait', { ...s, loadState: 'load', timeoutMs: 10_000 });
  });

  test('element states by locator: visible, hidden, attached, detached, enabled, disabled', async () => {
    await open('/actions/late?ms=300');
    await h.ok('browser_wait', {
      ...s,
      locator: { text: 'Late content ready' },
      state: 'visible',
      timeoutMs: 10_000,
    });
    await h.ok('browser_wait', { ...s, locator: { css: '#late-waiting' }, state: 'detached' });
    await h.ok('browser_wait', { ...s, locator: { css: '#late-waiting' }, state: 'hidden' });
    await h.ok('browser_wait', { ...s, locator: { role: 'button', name: 'Late button' }, state: 'attached' });
    await timedOut({ locator: { css: '#late-waiting' }, state: 'visible' });
    await open('/actions/buttons');
    await h.ok('browser_wait', {
      ...s,
      locator: { role: 'button', name: 'Delayed button' },
      state: 'enabled',
      timeoutMs: 10_000,
    });
    await h.ok('browser_wait', {
      ...s,
      locator: { role: 'button', name: 'Disabled button' },
      state: 'disabled',
    });
    await timedOut({ locator: { role: 'button', name: 'Disabled button' }, state: 'enabled' });
  });

  test('text present and absent (case-sensitive)', async () => {
    await open('/actions/late?ms=300');
    await h.ok('browser_wait', { ...s, text: 'Late content ready', timeoutMs: 10_000 });
    await h.ok('browser_wait', { ...s, text: 'Content arrives after', present: false });
    await timedOut({ text: 'late content READY' });
    await timedOut({ text: 'Late content ready', present: false });
  });

  test('refuses zero or two conditions, and an ambiguous locator', async () => {
    await open('/actions/buttons');
    expect((await h.err('browser_wait', { ...s })).details?.field).toBe('condition');
    expect((await h.err('browser_wait', { ...s, url: '**', text: 'x' })).details?.field).toBe('condition');
    expect((await h.err('browser_wait', { ...s, text: 'x', state: 'visible' })).details?.field).toBe('state');
    expect((await h.err('browser_wait', { ...s, locator: { css: 'button' } })).code).toBe(
      'LOCATOR_AMBIGUOUS',
    );
  });
});

describe('browser_action_and_wait', () => {
  test('waits for the navigation a click causes, however fast (the waiter is armed first)', async () => {
    for (let i = 0; i < 3; i++) {
      await open('/actions/nav');
      const result = await h.ok<{ event: { type: string; url: string } }>('browser_action_and_wait', {
        ...s,
        target: { locator: { role: 'link', name: 'Go to target page' } },
        waitFor: { kind: 'navigation', url: '**/nav-target' },
      });
      expect(result.event).toEqual({ type: 'navigation', url: site.url('/actions/nav-target') });
    }
    await open('/actions/nav');
    // A same-document navigation is over before the click returns: only a pre-armed waiter sees it.
    const pushed = await h.ok<{ event: { url: string } }>('browser_action_and_wait', {
      ...s,
      target: { locator: { role: 'button', name: 'Push state' } },
      waitFor: { kind: 'navigation', url: '**/nav-pushed', loadState: 'commit' },
    });
    expect(pushed.event.url).toBe(site.url('/actions/nav-pushed'));
  });

  test('waits for a response and reports its URL with secrets redacted', async () => {
    await open('/actions/nav');
    const result = await h.ok<{ event: Record<string, unknown> }>('browser_action_and_wait', {
      ...s,
      target: { locator: { role: 'button', name: 'Fetch data' } },
      waitFor: { kind: 'response', url: '**/api/data*', method: 'get', status: 200 },
    });
    expect(result.event).toMatchObject({ type: 'response', status: 200, method: 'GET' });
    await open('/secret-fetch');
    const secret = await h.ok<{ event: { url: string } }>('browser_action_and_wait', {
      ...s,
      target: { locator: { role: 'button', name: 'Fetch secret' } },
      waitFor: { kind: 'response', url: '**/api/data**' },
    });
    expect(secret.event.url).toContain('token=REDACTED');
    expect(secret.event.url).toContain('x=1');
    expect(secret.event.url).not.toContain('abc123');
  });

  test('presses a key as the action, and times out when nothing happens', async () => {
    await open('/actions/keyboard');
    const error = await h.err('browser_action_and_wait', {
      ...s,
      target: { locator: { label: 'Key log input' } },
      action: 'press',
      key: 'Enter',
      waitFor: { kind: 'navigation' },
      timeoutMs: 800,
    });
    expect(error.code).toBe('OPERATION_TIMEOUT');
    expect(
      (
        await h.err('browser_action_and_wait', {
          ...s,
          target: { locator: { label: 'Key log input' } },
          action: 'press',
          waitFor: { kind: 'popup' },
        })
      ).details?.field,
    ).toBe('key');
    expect(
      (await h.err('browser_action_and_wait', { ...s, target: {}, waitFor: { kind: 'popup' } })).details
        ?.field,
    ).toBe('target');
    // Click-only options with a key press are refused, not silently dropped.
    for (const [field, value] of [
      ['button', 'right'],
      ['modifiers', ['Shift']],
    ] as const) {
      const refused = await h.err('browser_action_and_wait', {
        ...s,
        target: { locator: { label: 'Key log input' } },
        action: 'press',
        key: 'Enter',
        [field]: value,
        waitFor: { kind: 'popup' },
      });
      expect([refused.code, refused.details?.field]).toEqual(['INVALID_ARGUMENT', field]);
    }
  });
});
