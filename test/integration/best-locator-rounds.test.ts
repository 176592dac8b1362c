import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../../src/engine/page.js';
import { describeTarget } from '../../src/operations/locate/best-locator.js';
import { locateInPage, type InPageQuery } from '../../src/operations/locate/in-page-locate.js';
import { OBJECT_GROUP, type ElementTarget } from '../../src/operations/locate/remote-element.js';
import { worldContext } from '../../src/snapshot/page-world.js';
import {} from './snapshot-support.js';

/**
 * The action log's locator choice (src/operations/locate/best-locator.ts) for an element the page
 * found: the facts, Chromium's role and name and the page's verdicts come in one round, and the
 * choice is the one the two-round path (facts, then verdicts on Chromium's candidates) makes.
 */

const PAGES: [string, InPageQuery[]][] = [
  [
    '/shop/checkout',
    [
      ...['Full name', 'Email', 'Address', 'City', 'Postal code'].map((text): InPageQuery => ({
        kind: 'label',
        value: '',
        exact: true,
        name: { text },
      })),
      { kind: 'label', value: '', exact: false, name: { text: 'Country' } },
      { kind: 'label', value: '', exact: false, name: { text: 'Express' } },
      { kind: 'label', value: '', exact: false, name: { text: 'I accept the terms' } },
      { kind: 'role', value: 'button', exact: false, name: { text: 'Place order' } },
    ],
  ],
  [
    '/actions/buttons',
    [
      { kind: 'role', value: 'button', exact: false, name: { text: 'Increment' } },
      { kind: 'css', value: '#increment', exact: true },
    ],
  ],
  [
    '/shop/',
    [
      { kind: 'role', value: 'searchbox', exact: false, name: { text: 'Search' } },
      { kind: 'role', value: 'button', exact: false, name: { text: 'Search' } },
    ],
  ],
];

/** Counts the page calls (Runtime.callFunctionOn) made through `cdp` while `fn` runs. */
async function countingCalls<T>(cdp: CDPSession, fn: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const send = cdp.send.bind(cdp);
  let calls = 0;
  cdp.send = ((method: string, ...rest: unknown[]) => {
    if (method === 'Runtime.callFunctionOn') calls++;
    return (send as (m: string, ...r: unknown[]) => Promise<unknown>)(method, ...rest);
  }) as CDPSession['send'];
  try {
    return { value: await fn(), calls };
  } finally {
    cdp.send = send;
  }
}

let env: SnapshotSetup;
// The file's site, mesh and first session come from the shared fixtures.
test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
});

describe("the action log's locator choice for an element the page found", () => {
  test('takes one page call and chooses what the two-round path chooses', async () => {
    let checked = 0;
    for (const [path, queries] of PAGES) {
      await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'rounds', async (ctx) => {
        await ctx.page.page.goto(env.site.url(path), { waitUntil: 'load' });
        for (const q of queries) {
          const target = await found(ctx.page, q);
          const one = await countingCalls(target.cdp, () => describeTarget(ctx.page, target));
          const { inWorld: _inWorld, ...withoutWorld } = target;
          const two = await describeTarget(ctx.page, withoutWorld);
          expect(one.value, `${path} ${JSON.stringify(q)}`).toEqual(two);
          expect(one.value?.unique, `${path} ${JSON.stringify(q)}`).toBe(true);
          expect(one.calls, `${path} ${JSON.stringify(q)}: page calls`).toBe(1);
          checked++;
        }
      });
    }
    expect(checked).toBe(PAGES.reduce((n, [, qs]) => n + qs.length, 0));
  }, 120_000);
});

describe('on a document whose resolver is not built yet (an element found by a snapshot ref)', () => {
  test('builds it in the same call and still chooses what the two-round path chooses', async () => {
    await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'rounds', async (ctx) => {
      for (const css of ['#city', '#email']) {
        await ctx.page.page.goto(env.site.url('/shop/checkout'), { waitUntil: 'load' });
        const target = await inWorldOnly(ctx.page, css);
        const one = await countingCalls(target.cdp, () => describeTarget(ctx.page, target));
        const { inWorld: _inWorld, ...withoutWorld } = target;
        expect(one.value).toEqual(await describeTarget(ctx.page, withoutWorld));
        expect(one.value?.unique).toBe(true);
        // The short call answers "unbuilt", the full one builds the resolver and answers.
        expect(one.calls).toBe(2);
      }
    });
  }, 60_000);
});

/** An element taken in the capture world with no resolver built there (as a ref's lookup takes it). */
async function inWorldOnly(page: ManagedPage, css: string): Promise<ElementTarget> {
  const cdp = await page.cdp();
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const step = { timeout: 10_000 };
  const contextId = await worldContext(page, cdp, frameTree.frame.id, frameTree.frame.loaderId, step, false);
  const { result } = await cdp.send('Runtime.evaluate', {
    contextId,
    expression: `document.querySelector(${JSON.stringify(css)})`,
    objectGroup: OBJECT_GROUP,
  });
  if (!result.objectId) throw new Error(`no ${css}`);
  const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId });
  const { object } = await cdp.send('DOM.resolveNode', {
    backendNodeId: node.backendNodeId,
    objectGroup: OBJECT_GROUP,
  });
  if (!object.objectId) throw new Error(`no main-world ${css}`);
  return { cdp, objectId: object.objectId, inWorld: result.objectId, frameOwners: [], description: css };
}

async function found(page: ManagedPage, q: InPageQuery): Promise<ElementTarget> {
  const answer = await locateInPage(page, q, { timeout: 10_000 });
  if (!answer || !('element' in answer)) throw new Error(`the page did not find ${JSON.stringify(q)}`);
  return { ...answer.element, frameOwners: [], description: JSON.stringify(q) };
}
