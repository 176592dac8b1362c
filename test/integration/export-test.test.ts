import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBrowserMesh,
  createMeshOperations,
  type BrowserMesh,
  type MeshOperations,
} from '../../src/index.js';
import { createLogger } from '../../src/engine/logger.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { testConfig } from '../helpers/harness.js';
import { runSpec } from './support/playwright-run.js';

// Issue 29: a session's actions exported as a @playwright/test spec, then RUN by Playwright Test
// against the same fixture site.

const SECRET = 'buyer-pass';
/** A spec run starts Playwright Test and its own Chromium: slow on a loaded machine. */
const SPEC_TIMEOUT_MS = 240_000;
let site: FixtureServer;
let mesh: BrowserMesh;
let ops: MeshOperations;

beforeAll(async () => {
  site = await startFixtureServer();
  mesh = createBrowserMesh({
    config: testConfig({ maxSessions: 4, timeoutMs: 60_000, secrets: { SHOP_PASSWORD: SECRET } }),
    logger: createLogger('silent'),
  });
  ops = createMeshOperations(mesh);
});
afterAll(async () => {
  await mesh?.shutdown();
  await site?.close();
});

type Page = { sessionId: string; pageId: string };

async function open(name: string): Promise<Page> {
  const { session, initialPage } = await ops.createSession({ name });
  return { sessionId: session.sessionId, pageId: initialPage.pageId };
}

async function specOf(page: Page): Promise<string> {
  const exported = await ops.exportTest({ sessionId: page.sessionId });
  expect(exported.truncated).toBe(false);
  return exported.code;
}

describe('export a session as a Playwright test', () => {
  it(
    'checkout: role and label locators, a secret as process.env, green under Playwright Test',
    async () => {
      const p = await open('checkout');
      await ops.navigate({ ...p, url: site.url('/shop/login') });
      await ops.fill({ ...p, locator: { label: 'Username' }, value: 'buyer' });
      await ops.fill({ ...p, locator: { css: '#password' }, value: '{{secret:SHOP_PASSWORD}}' });
      await ops.click({ ...p, locator: { role: 'button', name: 'Sign in' } });
      await ops.wait({ ...p, url: site.url('/shop/account') });
      await ops.navigate({ ...p, url: site.url('/shop/') });
      await ops.click({ ...p, locator: { role: 'link', name: 'Water Bottle' } });
      await ops.click({ ...p, locator: { role: 'button', name: 'Add to cart' } });
      await ops.wait({ ...p, text: 'Added to cart' });
      const code = await specOf(p);
      expect(code).toContain("getByRole('textbox', { name: 'Username' }).fill('buyer')");
      expect(code).toContain('process.env.SHOP_PASSWORD');
      expect(code).not.toContain(SECRET);
      expect(code).toContain("getByRole('button', { name: 'Sign in' })");
      expect(code).toMatch(/toHaveURL\('http:\/\/127\.0\.0\.1:\d+\/shop\/account'\)/);
      expect(code).not.toMatch(/waitForTimeout|setTimeout/);
      const run = await runSpec(code, { SHOP_PASSWORD: SECRET });
      expect(run.passed, run.output).toBe(true);
    },
    SPEC_TIMEOUT_MS,
  );

  it(
    'dialogs, a code-mode step, an upload in an iframe form and a popup: one spec, green',
    async () => {
      const p = await open('windows');
      await ops.navigate({ ...p, url: site.url('/actions/dialogs') });
      await ops.actionAndWait({
        ...p,
        target: { locator: { role: 'button', name: 'Show confirm' } },
        waitFor: { kind: 'dialog', accept: true },
      });
      await ops.wait({ ...p, text: 'confirm: true' });
      const ran = await ops.run({
        ...p,
        code: "await page.getByRole('button', { name: 'Show prompt' }).click(); return await page.locator('#dialog-status').textContent();",
      });
      expect(ran.value).toBe('prompt: null');
      await ops.navigate({ ...p, url: site.url('/files/upload') });
      const frame = { kind: 'iframe' as const, chain: [{ css: 'iframe[title="Upload frame"]' }] };
      await ops.upload({
        ...p,
        locator: { label: 'Framed file', frame },
        files: [
          { name: 'note.txt', mimeType: 'text/plain', base64: Buffer.from('hello spec').toString('base64') },
        ],
      });
      await ops.wait({ ...p, locator: { text: 'note.txt', exact: false, frame }, state: 'visible' });
      await ops.navigate({ ...p, url: site.url('/actions/popup') });
      const opened = await ops.actionAndWait({
        ...p,
        target: { locator: { role: 'button', name: 'Open popup' } },
        waitFor: { kind: 'popup' },
      });
      const child = { sessionId: p.sessionId, pageId: opened.event.page?.pageId ?? '' };
      await ops.click({ ...child, locator: { role: 'button', name: 'Child button' } });
      await ops.wait({ ...child, text: 'child clicked' });
      const code = await specOf(p);
      expect(code).toContain("page.once('dialog', (dialog) => void dialog.accept());");
      expect(code).toContain("await expect(page.getByRole('status')).toHaveText('prompt: null');");
      expect(code).toContain(
        ".frameLocator('iframe[title=\"Upload frame\"]').getByRole('button', { name: 'Framed file' }).setInputFiles(",
      );
      expect(code).toContain("const page1Promise = page.waitForEvent('popup');");
      expect(code).toContain("await page1.getByRole('button', { name: 'Child button' }).click();");
      const run = await runSpec(code);
      expect(run.passed, `${code}\n${run.output}`).toBe(true);
    },
    SPEC_TIMEOUT_MS,
  );
});
