import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import {
  BrowserMeshError,
  createMeshOperations,
  type BrowserMesh,
  type MeshOperations,
} from '../../src/index.js';
import type { FixtureServer } from '../fixtures/server.mjs';

// Session state and text selection on the library face: find, one cookie or storage key, routes, emulation and
// text selection are typed operations over the MCP tools' own definitions.

let site: FixtureServer;
let mesh: BrowserMesh;
let ops: MeshOperations;
let page: { sessionId: string; pageId: string };

// The file's site and mesh come from the shared fixtures.
const test = fixtureTest.extend('meshConfig', { scope: 'file' }, () => ({ maxSessions: 2 }));

test.beforeAll(async ({ site: fileSite, mesh: fileMesh }) => {
  site = fileSite;
  mesh = fileMesh;
  ops = createMeshOperations(mesh);
  const { session, initialPage } = await ops.createSession({ name: 'lib-state' });
  page = { sessionId: session.sessionId, pageId: initialPage.pageId };
});

async function rejection(promise: Promise<unknown>): Promise<BrowserMeshError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BrowserMeshError);
    return error as BrowserMeshError;
  }
  throw new Error('expected a BrowserMeshError');
}

/** What the page itself sees, read with Playwright on the session's queue. */
function probe<T>(fn: () => T | Promise<T>): Promise<T> {
  return mesh.runOnPage(page.sessionId, page.pageId, 'probe', ({ page: p }) => p.page.evaluate(fn));
}

describe('createMeshOperations: find, state, network, selection', () => {
  test('finds a button with a usable ref, and clicks it', async () => {
    await ops.navigate({ ...page, url: site.url('/shop/product/2') });
    const found = await ops.find({ ...page, role: 'button', name: 'Add to cart' });
    expect(found.total).toBe(1);
    expect(found.operationId).toMatch(/^op_/);
    const ref = /\[button (@e\d+)[^\]]*\] Add to cart/.exec(found.text)?.[1];
    expect(ref, found.text).toBeDefined();
    await ops.click({ ...page, ref: ref ?? '' });
    await ops.wait({ ...page, text: 'Cart (1)' });
    const none = await ops.find({ ...page, text: 'no such words anywhere' });
    expect(none.total).toBe(0);
    const bad = await rejection(ops.find({ ...page, text: 'a', regex: 'b' }));
    expect(bad.code).toBe('INVALID_ARGUMENT');
  });

  test('sets, lists (credential-named value redacted), gets and clears cookies; storage by key', async () => {
    const url = site.url('/');
    await ops.cookies({ sessionId: page.sessionId, action: 'set', name: 'theme', value: 'dark', url });
    await ops.cookies({
      sessionId: page.sessionId,
      action: 'set',
      name: 'auth_token',
      value: 'tok-991',
      url,
    });
    const listed = await ops.cookies({ sessionId: page.sessionId, action: 'list' });
    const byName = new Map(listed.cookies?.map((c) => [c.name, c]));
    expect(byName.get('theme')?.value).toBe('dark');
    expect(byName.get('auth_token')).toMatchObject({ value: '[redacted]', redacted: true });
    expect(JSON.stringify(listed)).not.toContain('tok-991');
    const got = await ops.cookies({ sessionId: page.sessionId, action: 'get', name: 'auth_token' });
    expect(got.cookies?.[0]?.value).toBe('tok-991');
    const missing = await rejection(
      ops.cookies({ sessionId: page.sessionId, action: 'set', value: 'x', url }),
    );
    expect(missing.code).toBe('INVALID_ARGUMENT');
    // The shop's own cart cookie from the first test goes too.
    expect(
      (await ops.cookies({ sessionId: page.sessionId, action: 'clear' })).removed,
    ).toBeGreaterThanOrEqual(2);
    expect((await ops.cookies({ sessionId: page.sessionId, action: 'list' })).total).toBe(0);

    await ops.navigate({ ...page, url });
    await ops.storage({ ...page, action: 'set', key: 'cart', value: '3 items' });
    expect(await probe(() => localStorage.getItem('cart'))).toBe('3 items');
    expect((await ops.storage({ ...page, action: 'get', key: 'cart' })).value).toBe('3 items');
    await ops.storage({ ...page, area: 'session', action: 'set', key: 'step', value: '2' });
    expect(await probe(() => sessionStorage.getItem('step'))).toBe('2');
    expect((await ops.storage({ ...page, action: 'clear' })).removed).toBe(1);
  });

  test('routes a request to a fulfilled body, lists its hits and removes it', async () => {
    const added = await ops.route({
      sessionId: page.sessionId,
      action: 'add',
      url: '**/lib-mocked',
      status: 200,
      body: '<title>Mocked</title><p>from a route</p>',
      contentType: 'text/html',
    });
    expect(added.route?.action).toBe('fulfill');
    await ops.navigate({ ...page, url: site.url('/lib-mocked') });
    expect((await ops.visibleText(page)).text).toContain('from a route');
    const { routes } = await ops.route({ sessionId: page.sessionId, action: 'list' });
    expect(routes).toEqual([expect.objectContaining({ routeId: added.route?.routeId, hits: 1 })]);
    expect((await ops.route({ sessionId: page.sessionId, action: 'remove' })).removed).toBe(1);
    const noUrl = await rejection(ops.route({ sessionId: page.sessionId, action: 'add' }));
    expect(noUrl.code).toBe('INVALID_ARGUMENT');
  });

  test('emulates a dark colour scheme and offline on the open page, then resets', async () => {
    await ops.navigate({ ...page, url: site.url('/') });
    const applied = await ops.emulate({ ...page, colorScheme: 'dark', offline: true });
    expect(applied.applied).toEqual(expect.arrayContaining(['colorScheme', 'offline']));
    expect(await probe(() => [matchMedia('(prefers-color-scheme: dark)').matches, navigator.onLine])).toEqual(
      [true, false],
    );
    await ops.emulate({ ...page, reset: true });
    expect(await probe(() => navigator.onLine)).toBe(true);
  });

  test('selects a word in a contenteditable by its text (focus selectText)', async () => {
    await ops.navigate({ ...page, url: site.url('/widgets/editable') });
    await ops.focus({ ...page, locator: { css: '#para' }, selectText: 'brown', occurrence: 2 });
    expect(await probe(() => getSelection()?.toString())).toBe('brown');
    const absent = await rejection(ops.focus({ ...page, locator: { css: '#para' }, selectText: 'cat' }));
    expect(absent.code).toBe('INVALID_ARGUMENT');
  });
});
