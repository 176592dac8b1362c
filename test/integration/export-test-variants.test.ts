import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createBrowserMesh,
  createMeshOperations,
  type BrowserMesh,
  type MeshOperations,
} from '../../src/index.js';
import { createLogger } from '../../src/engine/logger.js';
import { exportTest } from '../../src/operations/export/export-test.js';
import { readSessionFile } from '../../src/operations/state/files.js';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { testConfig } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { runSpecs } from './support/playwright-run.js';

// A spec with role locators survives a page where the button moved and its CSS class was
// renamed, where the CSS export of the same session fails; a changed text fails the spec's assertion.
// A password typed literally and a configured secret never reach a generated file.

const TYPED_PASSWORD = 'hunter2-typed-literal';
const SECRET = 's3cret-coupon-value';
const SPEC_TIMEOUT_MS = 480_000;

type Variant = 'base' | 'moved' | 'reworded';
/** The header a spec run's browser sends to be served a variant of the order page. */
const VARIANT_HEADER = 'x-order-variant';

/** The order page: 'base', the button 'moved' (and its class renamed), or its result 'reworded'. */
function orderHtml(variant: Variant): string {
  const button =
    variant === 'moved'
      ? '<button class="purchase-button" type="button">Place order</button>'
      : '<button class="buy-btn" type="button">Place order</button>';
  const done = variant === 'reworded' ? 'Order received' : 'Order placed';
  const html = `<!doctype html><title>Order</title><main><h1>Order</h1>
${variant === 'moved' ? '' : `<div class="toolbar">${button}</div>`}
<label for="pw">Password</label><input id="pw" type="password">
<label for="coupon">Coupon</label><input id="coupon">
<p id="result" role="status"></p>
${variant === 'moved' ? `<footer><p>Ready?</p>${button}</footer>` : ''}
<script>document.querySelector('button').addEventListener('click', () => {
  document.getElementById('result').textContent = ${JSON.stringify(done)};
});</script></main>`;
  return html;
}

/** Serves the variant the request's header names (the base page without one). */
function orderPage(req: IncomingMessage, res: ServerResponse): void {
  const asked = req.headers[VARIANT_HEADER];
  const variant: Variant = asked === 'moved' || asked === 'reworded' ? asked : 'base';
  res.setHeader('content-type', 'text/html');
  res.end(orderHtml(variant));
}

let site: FixtureServer;
let mesh: BrowserMesh;
let ops: MeshOperations;

// The MCP harness's settings, on the file's own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files'],
}));

// The site is the file's; the library-face tests drive a runtime of their own (60 s timeout, a secret).
test.beforeAll(({ site: fileSite }) => {
  site = fileSite;
  site.route('/export/order', orderPage);
  mesh = createBrowserMesh({
    config: testConfig({ timeoutMs: 60_000, secrets: { COUPON: SECRET } }),
    logger: createLogger('silent'),
  });
  ops = createMeshOperations(mesh);
});
test.afterAll(async () => {
  await mesh?.shutdown();
});

describe('exported specs on a changed page', () => {
  test(
    'role spec passes where the CSS spec fails; changed text fails the assertion; no secret in the file',
    async () => {
      const { session, initialPage } = await ops.createSession({ name: 'order' });
      const p = { sessionId: session.sessionId, pageId: initialPage.pageId };
      await ops.navigate({ ...p, url: site.url('/export/order') });
      await ops.fill({ ...p, locator: { css: '#pw' }, value: TYPED_PASSWORD });
      await ops.fill({ ...p, locator: { css: '#coupon' }, value: '{{secret:COUPON}}' });
      // The agent used a CSS locator; the log keeps the best one it could find in the page.
      await ops.click({ ...p, locator: { css: '.buy-btn' } });
      await ops.wait({ ...p, text: 'Order placed' });

      const best = await ops.exportTest({ sessionId: p.sessionId });
      const css = await mesh.run(p.sessionId, 'export_test', (ctx) =>
        exportTest(ctx, { locatorStyle: 'css' }),
      );
      const file = await readSessionFile(mesh.getSession(p.sessionId).files, best.fileId, {
        offset: 0,
        maxBytes: 65_536,
      });
      for (const text of [best.code, css.code, file.text ?? '']) {
        expect(text).not.toContain(TYPED_PASSWORD);
        expect(text).not.toContain(SECRET);
      }
      expect(file.text).toBe(best.code);
      expect(best.env).toEqual(['COUPON', 'PASSWORD']);
      expect(best.code).toContain("getByRole('textbox', { name: 'Password' }).fill(secrets.PASSWORD)");
      expect(best.code).toContain("getByRole('button', { name: 'Place order' }).click()");
      expect(css.code).toContain("locator('button.buy-btn').click()");
      const env = { PASSWORD: 'any', COUPON: 'any' };

      // One Playwright Test start for the four runs: each run's browser asks for its page variant.
      const variant = (name: Variant) => ({ [VARIANT_HEADER]: name });
      const runs = await runSpecs(
        { 'role.spec.ts': best.code, 'css.spec.ts': css.code },
        [
          { name: 'role-base', fileName: 'role.spec.ts', headers: variant('base') },
          { name: 'role-moved', fileName: 'role.spec.ts', headers: variant('moved') },
          { name: 'css-moved', fileName: 'css.spec.ts', headers: variant('moved'), expectFailure: true },
          {
            name: 'role-reworded',
            fileName: 'role.spec.ts',
            headers: variant('reworded'),
            expectFailure: true,
          },
        ],
        env,
      );
      const base = runs.get('role-base')!;
      expect(base.passed, base.output).toBe(true);
      const moved = runs.get('role-moved')!;
      expect(moved.passed, moved.output).toBe(true);
      const cssRun = runs.get('css-moved')!;
      expect(cssRun.passed).toBe(false);
      expect(cssRun.output).toContain("locator('button.buy-btn')");
      const reworded = runs.get('role-reworded')!;
      expect(reworded.passed).toBe(false);
      expect(reworded.output).toContain('toBeVisible');
      expect(reworded.output).toContain("getByText('Order placed')");
    },
    SPEC_TIMEOUT_MS,
  );
});

describe('browser_export_test over MCP', () => {
  test('is published in the files profile and returns the spec as text, stored as a session file', async ({
    harness: h,
  }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/export/order') });
    await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Place order' } });
    const result = await h.call('browser_export_test', { sessionId: s.sessionId, language: 'js' });
    expect(result.isError).toBeFalsy();
    const text = (result.content as Array<{ type: string; text?: string }>)[0]?.text ?? '';
    expect(text).toContain("const { test, expect } = require('@playwright/test');");
    expect(text).toContain("await page.getByRole('button', { name: 'Place order' }).click();");
    const files = await h.ok('browser_files', { sessionId: s.sessionId });
    expect(JSON.stringify(files)).toContain('"kind":"spec"');
    const bad = await h.call('browser_export_test', { sessionId: s.sessionId, fromStep: 5, toStep: 2 });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.structuredContent ?? bad.content)).toContain('INVALID_ARGUMENT');
  });
});
