/**
 * The selenium provider against a real Selenium Grid 4 standalone on 127.0.0.1: one Grid session per
 * BrowserMesh session, the fixture checkout on two slots in parallel, no slot left behind after
 * close, failure, a queue timeout or shutdown, and a dead node browser failing only its session.
 */
import { describe, expect, test } from './support/fixtures.js';
import { defaultConfig } from '../../src/config/load.js';
import { BrowserMesh } from '../../src/engine/runtime.js';
import { SeleniumProvider } from '../../src/engine/providers/selenium.js';
import { BrowserMeshError } from '../../src/errors.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { freePort, gridUnavailableReason, startGrid, type Grid } from './support/selenium-grid.js';
import { waitFor } from './support/wait.js';

const missing = gridUnavailableReason();
// CI installs Java and chromedriver: there a missing piece is a failure, never a silent skip.
if (missing && process.env.CI === 'true') throw new Error(`Selenium Grid tests cannot run: ${missing}`);

describe.skipIf(missing !== undefined)('selenium provider (Selenium Grid 4 standalone)', () => {
  let grid: Grid;
  let site: FixtureServer;

  // The site comes from the shared fixtures; the Grid is this describe's own.
  test.beforeAll(async ({ site: fileSite }) => {
    site = fileSite;
    grid = await startGrid({ maxSessions: 2 });
  }, 120_000);

  test.afterAll(async () => {
    await grid?.stop();
  }, 60_000);

  const newMesh = (probeIntervalMs = 15_000): BrowserMesh => {
    const config = defaultConfig({ provider: 'selenium', seleniumUrl: grid.url, timeoutMs: 30_000 });
    return new BrowserMesh({
      config,
      provider: new SeleniumProvider({ url: grid.url, headless: true, probeIntervalMs }),
    });
  };
  const gridEmpty = async (): Promise<boolean> =>
    (await grid.sessions()).length === 0 && (await grid.queueSize()) === 0;
  // The Grid's /status learns of a deleted session through its event bus, a moment after DELETE returns.
  const expectGridEmpty = (): Promise<void> => waitFor(gridEmpty, 5_000, 'the Grid to hold no session');

  test('runs the fixture checkout on two Grid sessions in parallel and leaves no session behind', async () => {
    const mesh = newMesh();
    try {
      const [a, b] = await Promise.all([
        mesh.createSession({ name: 'a' }),
        mesh.createSession({ name: 'b' }),
      ]);
      expect(a.session.placement).toEqual({ provider: 'selenium', node: new URL(grid.url).origin });
      expect((await grid.sessions()).length).toBe(2);
      expect(mesh.runtimeInfo().browser).toMatchObject({
        provider: 'selenium',
        state: 'ready',
        endpoint: grid.url,
      });

      const [orderA, orderB] = await Promise.all([
        checkout(mesh, a.session.sessionId, a.initialPage.pageId, site, 'Ada Buyer'),
        checkout(mesh, b.session.sessionId, b.initialPage.pageId, site, 'Bob Buyer'),
      ]);
      expect(orderA.name).toBe('Ada Buyer');
      expect(orderB.name).toBe('Bob Buyer');
      expect(orderA.orderNumber).not.toBe(orderB.orderNumber);

      await Promise.all([mesh.closeSession(a.session.sessionId), mesh.closeSession(b.session.sessionId)]);
      expect(mesh.getSession(a.session.sessionId).state).toBe('closed');
      await expectGridEmpty();
    } finally {
      await mesh.shutdown();
    }
  });

  test('fails only the session whose node browser died, and gives its Grid slot back', async () => {
    const mesh = newMesh(300);
    try {
      const [a, b] = await Promise.all([mesh.createSession(), mesh.createSession()]);
      const [victim] = await grid.sessions();
      expect(victim?.processId).toBeTypeOf('number');
      process.kill(victim?.processId ?? 0, 'SIGKILL');

      const states = (): string[] => [a, b].map((s) => mesh.getSession(s.session.sessionId).state);
      await waitFor(() => states().includes('failed'), 30_000, 'one session to fail');
      const failed = states().indexOf('failed');
      const survivor = failed === 0 ? b : a;
      expect(states().filter((state) => state === 'failed')).toHaveLength(1);
      expect(mesh.getSession(survivor.session.sessionId).state).toBe('ready');

      // The survivor still drives its browser; the dead one's Grid session is deleted.
      const title = await mesh.runOnPage(
        survivor.session.sessionId,
        survivor.initialPage.pageId,
        'check',
        async ({ page }) => {
          await page.page.goto(site.url('/shop/'));
          return page.page.title();
        },
      );
      expect(title).toBe('Mesh Shop');
      await waitFor(
        async () => (await grid.sessions()).length === 1,
        20_000,
        'the dead Grid session to be deleted',
      );
      const dead = [a, b][failed];
      await expect(mesh.run(dead?.session.sessionId ?? '', 'x', async () => 1)).rejects.toMatchObject({
        code: 'BROWSER_DISCONNECTED',
      });
    } finally {
      await mesh.shutdown();
    }
    await expectGridEmpty();
  });

  test('turns a full Grid into BROWSER_ERROR before the deadline and deletes the session that arrives late', async () => {
    const mesh = newMesh();
    try {
      const [a, b] = await Promise.all([mesh.createSession(), mesh.createSession()]);
      const started = Date.now();
      const error = await mesh.createSession({}, { timeoutMs: 1_500 }).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(error).toBeInstanceOf(BrowserMeshError);
      expect(error).toMatchObject({ code: 'BROWSER_ERROR', details: { reason: 'grid_timeout' } });
      expect(await grid.queueSize()).toBe(1);

      // Freeing a slot lets the Grid serve the abandoned request; the provider deletes it.
      await mesh.closeSession(a.session.sessionId);
      await mesh.closeSession(b.session.sessionId);
      await waitFor(gridEmpty, 30_000, 'the late Grid session to be deleted');
    } finally {
      await mesh.shutdown();
    }
  });

  test('reports a refused request and an unreachable Grid as BROWSER_ERROR with a safe reason', async () => {
    const refusing = new SeleniumProvider({ url: grid.url, capabilities: { browserName: 'firefox' } });
    await expect(refusing.acquire({ timeoutMs: 20_000 })).rejects.toMatchObject({
      code: 'BROWSER_ERROR',
      details: { reason: 'grid_refused' },
    });
    const nowhere = new SeleniumProvider({ url: `http://user:secret-pass@127.0.0.1:${await freePort()}` });
    const error = await nowhere.acquire({ timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BROWSER_ERROR', details: { reason: 'grid_unreachable' } });
    expect(
      JSON.stringify({ message: (error as Error).message, details: (error as BrowserMeshError).details }),
    ).not.toContain('secret-pass');
    expect(nowhere.status().endpoint).not.toContain('secret');
    await Promise.all([refusing.shutdown(), nowhere.shutdown()]);
  });

  test('deletes every Grid session on shutdown', async () => {
    const mesh = newMesh();
    await Promise.all([mesh.createSession(), mesh.createSession()]);
    expect((await grid.sessions()).length).toBe(2);
    await mesh.shutdown();
    await expectGridEmpty();
  });
});

describe.skipIf(missing !== undefined)('selenium provider and the Grid idle timeout', () => {
  let grid: Grid;
  test.beforeAll(async () => {
    grid = await startGrid({ maxSessions: 1, sessionTimeoutS: 4 });
  }, 120_000);
  test.afterAll(async () => {
    await grid?.stop();
  }, 60_000);

  test('keeps an idle agent session alive past the Grid --session-timeout with its probe', async () => {
    const mesh = new BrowserMesh({
      config: defaultConfig({ timeoutMs: 30_000 }),
      provider: new SeleniumProvider({ url: grid.url, probeIntervalMs: 1_000 }),
    });
    try {
      const { session, initialPage } = await mesh.createSession();
      // Idle (no operation) for well over the Grid's timeout and its check period.
      const until = Date.now() + 12_000;
      await waitFor(
        () => Date.now() > until || mesh.getSession(session.sessionId).state !== 'ready',
        20_000,
        'idle time',
      );
      expect(mesh.getSession(session.sessionId).state).toBe('ready');
      expect(await grid.sessions()).toHaveLength(1);
      const sum = await mesh.runOnPage(
        session.sessionId,
        initialPage.pageId,
        'x',
        async ({ page }) => page.page.evaluate(() => 1 + 1),
        {
          timeoutMs: 10_000,
        },
      );
      expect(sum).toBe(2);
    } finally {
      await mesh.shutdown();
    }
  }, 60_000);
});

/** The shop checkout through Playwright steps on the session's page: login, add to cart, order. */
async function checkout(
  mesh: BrowserMesh,
  sessionId: string,
  pageId: string,
  site: FixtureServer,
  fullName: string,
) {
  return mesh.runOnPage(
    sessionId,
    pageId,
    'checkout',
    async ({ page: { page } }) => {
      await page.goto(site.url('/shop/login'));
      await page.fill('#username', 'buyer');
      await page.fill('#password', 'buyer-pass');
      await Promise.all([page.waitForURL('**/shop/account'), page.click('button[type=submit]')]);
      await page.goto(site.url('/shop/product/2'));
      await Promise.all([page.waitForURL('**/shop/product/2?added=1'), page.click('text=Add to cart')]);
      await page.goto(site.url('/shop/checkout'));
      await page.fill('#fullName', fullName);
      await page.fill('#email', 'buyer@example.test');
      await page.fill('#address', '1 Trail Road');
      await page.fill('#city', 'Berlin');
      await page.fill('#postalCode', '10115');
      await page.selectOption('#country', 'DE');
      await page.check('input[name=terms]');
      await Promise.all([page.waitForURL('**/shop/confirmation/*'), page.click('text=Place order')]);
      return {
        orderNumber: await page.textContent('#order-number'),
        name: await page.textContent('#order-name'),
      };
    },
    { timeoutMs: 60_000 },
  );
}
