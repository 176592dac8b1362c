import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { createMeshOperations, type BrowserMesh, type MeshOperations } from '../../src/index.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { runSpecs, type SpecRun } from './support/playwright-run.js';

// A session's actions exported as a @playwright/test spec, then RUN by Playwright Test
// against the same fixture site.

const SECRET = 'buyer-pass';
/** A spec run starts Playwright Test and its own Chromium: slow on a loaded machine. */
const SPEC_TIMEOUT_MS = 240_000;
let site: FixtureServer;
let mesh: BrowserMesh;
let ops: MeshOperations;
/** What each session's export gave and how its spec ran (both specs in one Playwright Test start). */
let checkout: Exported;
let windows: Exported & { promptStatus: unknown };
let runs: Map<string, SpecRun>;

interface Exported {
  code: string;
  truncated: boolean;
}

// The file's site and mesh come from the shared fixtures.
const test = fixtureTest.extend('meshConfig', { scope: 'file' }, () => ({
  maxSessions: 4,
  timeoutMs: 60_000,
  secrets: { SHOP_PASSWORD: SECRET },
}));

test.beforeAll(async ({ site: fileSite, mesh: fileMesh }) => {
  site = fileSite;
  mesh = fileMesh;
  ops = createMeshOperations(mesh);
  checkout = await recordCheckout();
  windows = await recordWindows();
  runs = await runSpecs(
    { 'checkout.spec.ts': checkout.code, 'windows.spec.ts': windows.code },
    [
      { name: 'checkout', fileName: 'checkout.spec.ts' },
      { name: 'windows', fileName: 'windows.spec.ts' },
    ],
    { SHOP_PASSWORD: SECRET },
  );
}, 2 * SPEC_TIMEOUT_MS);

type Page = { sessionId: string; pageId: string };

async function open(name: string): Promise<Page> {
  const { session, initialPage } = await ops.createSession({ name });
  return { sessionId: session.sessionId, pageId: initialPage.pageId };
}

async function exportOf(page: Page): Promise<Exported> {
  const { code, truncated } = await ops.exportTest({ sessionId: page.sessionId });
  return { code, truncated };
}

/** Logs in with a secret and adds a product to the cart. */
async function recordCheckout(): Promise<Exported> {
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
  return exportOf(p);
}

/** Dialogs, a code-mode step, an upload in an iframe form and a popup. */
async function recordWindows(): Promise<Exported & { promptStatus: unknown }> {
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
  return { ...(await exportOf(p)), promptStatus: ran.value };
}

describe('export a session as a Playwright test', () => {
  test('checkout: role and label locators, a secret from the environment, green under Playwright Test', () => {
    const { code, truncated } = checkout;
    expect(truncated).toBe(false);
    expect(code).toContain("getByRole('textbox', { name: 'Username' }).fill('buyer')");
    expect(code).toContain("secretFromEnv('SHOP_PASSWORD')");
    expect(code).not.toContain(SECRET);
    expect(code).toContain("getByRole('button', { name: 'Sign in' })");
    expect(code).toMatch(/toHaveURL\('http:\/\/127\.0\.0\.1:\d+\/shop\/account'\)/);
    expect(code).not.toMatch(/waitForTimeout|setTimeout/);
    const run = runs.get('checkout')!;
    expect(run.passed, run.output).toBe(true);
  });

  test('dialogs, a code-mode step, an upload in an iframe form and a popup: one spec, green', () => {
    const { code, truncated, promptStatus } = windows;
    expect(promptStatus).toBe('prompt: null');
    expect(truncated).toBe(false);
    expect(code).toContain("page.once('dialog', (dialog) => void dialog.accept());");
    expect(code).toContain("await expect(page.getByRole('status')).toHaveText('prompt: null');");
    expect(code).toContain(
      ".frameLocator('iframe[title=\"Upload frame\"]').getByRole('button', { name: 'Framed file' }).setInputFiles(",
    );
    expect(code).toContain("const page1Promise = page.waitForEvent('popup');");
    expect(code).toContain("await page1.getByRole('button', { name: 'Child button' }).click();");
    const run = runs.get('windows')!;
    expect(run.passed, `${code}\n${run.output}`).toBe(true);
  });
});
