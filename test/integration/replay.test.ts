import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { Config } from '../../src/config/load.js';
import type { McpHarness } from '../helpers/harness.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { runSpecs, type SpecRun } from './support/playwright-run.js';

// Do it once with the agent, then for free: an agent-style session (snapshot, fill, click, read the
// page to check) exports a spec with an assertion per check, which runs under @playwright/test and
// replays on fresh sessions with browser_replay, healing a renamed button and a changed label.

const EMAIL = 'ada-replay@example.com';
/** A Playwright Test start with its own Chromium beside the MCP calls: slow on a loaded machine. */
const SPEC_TIMEOUT_MS = 480_000;
const VARIANT_HEADER = 'x-replay-variant';

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files', 'code'],
  timeoutMs: 90_000,
  secrets: { EMAIL },
}));

type Address = { sessionId: string; pageId: string };
interface Exported {
  code: string;
  assertions: number;
  assertionSteps: number[];
  env: string[];
}
interface Replayed {
  passed: boolean;
  steps: number;
  total: number;
  heals: Array<{ step: number; from: string; to: string }>;
  failedAt?: {
    step: number;
    statement: string;
    locator?: string;
    candidates?: string[];
    error: { code: string };
  };
  spec: string;
}

let exported: Exported;
/** The step numbers of the agent's checks (the reads it made), in the action log. */
let checks: number[];

/** The agent's session: look, fill, place the order, read the confirmation. */
async function recordCheckout(h: McpHarness, site: FixtureServer): Promise<Exported> {
  const s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url('/shop/product/3') });
  await h.ok('browser_snapshot', s);
  await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Add to cart' } });
  await h.ok('browser_navigate', { ...s, url: site.url('/replay/checkout') });
  await h.ok('browser_snapshot', s);
  await h.ok('browser_fill', { ...s, locator: { label: 'Full name' }, value: 'Ada Lovelace' });
  await h.ok('browser_fill', { ...s, locator: { label: 'Email' }, value: '{{secret:EMAIL}}' });
  await h.ok('browser_click', { ...s, locator: { role: 'button', name: 'Place order' } });
  await h.ok('browser_visible_text', s);
  checks = [2, 5, 9];
  const result = await h.call('browser_export_test', { sessionId: s.sessionId });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as unknown as Exported;
}

async function replay(h: McpHarness, s: Address, spec: string, extra = {}): Promise<Replayed> {
  const result = await h.call('browser_replay', { ...s, spec, ...extra });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as unknown as Replayed;
}

async function freshOn(h: McpHarness, site: FixtureServer, variant: string): Promise<Address> {
  const s = await h.session();
  await h.ok('browser_navigate', { ...s, url: site.url(`/replay/variant?name=${variant}`) });
  return s;
}

async function ordersOf(site: FixtureServer): Promise<Array<{ fullName: string; email: string }>> {
  const response = await fetch(site.url('/replay/orders'));
  return ((await response.json()) as { orders: Array<{ fullName: string; email: string }> }).orders;
}

test.beforeAll(async ({ harness, site }) => {
  exported = await recordCheckout(harness, site);
}, SPEC_TIMEOUT_MS);

describe('export with assertions, then replay', () => {
  test('the spec asserts each check, reads its secret at the start and never a value', () => {
    const { code, assertions, assertionSteps, env } = exported;
    for (const step of checks) expect(assertionSteps).toContain(step);
    expect(assertions).toBeGreaterThanOrEqual(checks.length);
    expect(code).toContain("await expect(page.locator('body')).toContainText('Thank you for your order');");
    expect(code).toContain("await expect(page.getByRole('textbox', { name: 'Full name' })).toBeVisible();");
    expect(code).toContain("const secrets = { EMAIL: secretFromEnv('EMAIL') };");
    expect(code).not.toContain(EMAIL);
    expect(code).not.toContain("?? ''");
    expect(env).toEqual(['EMAIL']);
  });

  test(
    'browser_replay on fresh sessions: 0 heals; 2 heals on the renamed variant; stops where the target is gone',
    async ({ harness: h, site }) => {
      const before = (await ordersOf(site)).length;
      const base = await replay(h, await h.session(), exported.code);
      expect(base, JSON.stringify(base.failedAt)).toMatchObject({ passed: true, heals: [] });
      expect(base.steps).toBe(base.total);
      const orders = await ordersOf(site);
      expect(orders.length).toBe(before + 1);
      expect(orders.at(-1)).toMatchObject({ fullName: 'Ada Lovelace', email: EMAIL });

      const renamed = await replay(h, await freshOn(h, site, 'renamed'), exported.code);
      expect(renamed.passed, JSON.stringify(renamed.failedAt)).toBe(true);
      expect(renamed.heals.map((x) => x.to).sort()).toEqual([
        "getByRole('button', { name: 'Place your order', exact: true })",
        "getByRole('textbox', { name: 'Your name', exact: true })",
      ]);
      expect(renamed.spec).not.toContain("name: 'Place order'");
      expect(renamed.spec).toContain(
        "getByRole('textbox', { name: 'Your name', exact: true }).fill('Ada Lovelace')",
      );

      const gone = await freshOn(h, site, 'gone');
      const stopped = await replay(h, gone, exported.code);
      expect(stopped.passed).toBe(false);
      expect(stopped.failedAt?.locator).toBe("getByRole('button', { name: 'Place order' })");
      expect(stopped.failedAt?.candidates).toEqual(['Save for later']);
      expect(stopped.steps).toBe((stopped.failedAt?.step ?? 0) - 1);
      // The session keeps working.
      await h.ok('browser_get_url', gone);
      const unhealed = await replay(h, await freshOn(h, site, 'renamed'), exported.code, { heal: false });
      expect(unhealed.passed).toBe(false);
      expect(unhealed.heals).toEqual([]);

      // Under @playwright/test: the spec passes on the site, fails on a changed heading; the healed spec
      // passes on the renamed variant; without its variable the spec fails at its start, by name.
      // The unset run is a copy of the spec whose worker drops the variable before the test starts
      // (the runner loads every file, so not at load time): one Playwright Test start for all four.
      const unsetSpec = `import { test as unset } from '@playwright/test';\nunset.beforeAll(() => { delete process.env.EMAIL; });\n${exported.code}`;
      const runs: Map<string, SpecRun> = await runSpecs(
        {
          'checkout.spec.ts': exported.code,
          'healed.spec.ts': renamed.spec,
          'unset.spec.ts': unsetSpec,
        },
        [
          { name: 'base', fileName: 'checkout.spec.ts' },
          {
            name: 'reworded',
            fileName: 'checkout.spec.ts',
            headers: { [VARIANT_HEADER]: 'reworded' },
            expectFailure: true,
          },
          { name: 'healed', fileName: 'healed.spec.ts', headers: { [VARIANT_HEADER]: 'renamed' } },
          { name: 'unset', fileName: 'unset.spec.ts', expectFailure: true },
        ],
        { EMAIL },
      );
      expect(runs.get('base')?.passed, runs.get('base')?.output).toBe(true);
      expect(runs.get('reworded')?.passed).toBe(false);
      expect(runs.get('reworded')?.output).toContain('toContainText');
      expect(runs.get('healed')?.passed, runs.get('healed')?.output).toBe(true);
      expect(runs.get('unset')?.passed).toBe(false);
      expect(runs.get('unset')?.output).toContain('The environment variable EMAIL is not set');
    },
    SPEC_TIMEOUT_MS,
  );

  test('bad input: a spec with no statement, a secret the session lacks; the session keeps working', async ({
    harness: h,
  }) => {
    const s = await h.session();
    const empty = await h.call('browser_replay', { ...s, spec: '// nothing' });
    expect(empty.isError).toBe(true);
    expect(JSON.stringify(empty.structuredContent ?? empty.content)).toContain('INVALID_ARGUMENT');
    const lacking = await h.call('browser_replay', {
      ...s,
      spec: "test('t', async ({ page }) => {\n  const secrets = { PIN: secretFromEnv('PIN') };\n  await page.getByLabel('Pin').fill(secrets.PIN);\n});\n",
    });
    expect(lacking.isError).toBe(true);
    expect(JSON.stringify(lacking.structuredContent ?? lacking.content)).toContain('INVALID_ARGUMENT');
    const popup = await h.call('browser_replay', {
      ...s,
      spec: "test('t', async ({ page, context }) => {\n  await page.goto('about:blank');\n});\n",
    });
    expect(JSON.stringify(popup.structuredContent ?? popup.content)).toContain('NOT_SUPPORTED');
    await h.ok('browser_get_url', s);
  });
});
