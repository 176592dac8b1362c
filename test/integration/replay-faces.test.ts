import { createMeshOperations } from '../../src/index.js';
import { ToolDriver } from './support/agent.js';
import { describe, expect, test } from './support/fixtures.js';

// browser_replay on its other faces: AgentBrowser's view (the thread's tab) and the library's
// replay(); the same spec heals the same two locators on the renamed variant of the quick checkout.

const specFor = (origin: string): string => `import { test, expect } from '@playwright/test';

test('renamed', async ({ page }) => {
  await page.goto('${origin}/replay/variant?name=renamed');
  await page.goto('${origin}/replay/checkout');
  await page.getByRole('textbox', { name: 'Full name' }).fill('Ada Faces');
  await expect(page.getByRole('textbox', { name: 'Full name' })).toHaveValue('Ada Faces');
  await expect(page.getByRole('button', { name: 'Place order' })).toBeVisible();
});
`;

const HEALED = [
  "getByRole('button', { name: 'Place your order', exact: true })",
  "getByRole('textbox', { name: 'Your name', exact: true })",
];

interface Replayed {
  passed: boolean;
  heals: Array<{ to: string }>;
  spec: string;
}

describe('browser_replay on every face', () => {
  test('AgentBrowser: the thread tab replays and heals', async ({ agentBrowser, site }) => {
    const driver = new ToolDriver(agentBrowser, { threadId: 'replay' });
    const result = await driver.ok<Replayed>('browser_replay', { spec: specFor(site.origin) });
    expect(result.passed).toBe(true);
    expect(result.heals.map((h) => h.to).sort()).toEqual(HEALED);
    expect(result.spec).toContain(".toHaveValue('Ada Faces')");
  });

  test('library: replay() heals, and refuses a spec on another page with NOT_SUPPORTED', async ({
    mesh,
    site,
  }) => {
    const ops = createMeshOperations(mesh);
    const { session, initialPage } = await ops.createSession({});
    const at = { sessionId: session.sessionId, pageId: initialPage.pageId };
    const result = await ops.replay({ ...at, spec: specFor(site.origin) });
    expect(result.passed).toBe(true);
    expect(result.heals.map((h) => h.to).sort()).toEqual(HEALED);
    await expect(
      ops.replay({
        ...at,
        spec: "test('t', async ({ page }) => {\n  page.once('dialog', (d) => void d.accept());\n});\n",
      }),
    ).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });
    await ops.closeSession({ sessionId: at.sessionId });
  });
});
