import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import {
  BrowserMeshError,
  createMeshOperations,
  type BrowserMesh,
  type MeshOperations,
} from '../../src/index.js';
import type { FixtureServer } from '../fixtures/server.mjs';

// The library face offers the engine's typed operations (the MCP tools' own definitions)
// without MCP: navigate, snapshot, click, fill, wait, run, observe, saved states.

let site: FixtureServer;
let mesh: BrowserMesh;
let ops: MeshOperations;

// The file's site and mesh come from the shared fixtures.
const test = fixtureTest.extend('meshConfig', { scope: 'file' }, () => ({ maxSessions: 3 }));

test.beforeAll(({ site: fileSite, mesh: fileMesh }) => {
  site = fileSite;
  mesh = fileMesh;
  ops = createMeshOperations(mesh);
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

describe('createMeshOperations', () => {
  test('drives a page with typed operations: navigate, snapshot, fill, click, wait, read', async () => {
    const { session, initialPage } = await ops.createSession({
      name: 'lib',
      contextSettings: { device: 'Pixel 5' },
    });
    const page = { sessionId: session.sessionId, pageId: initialPage.pageId };
    const nav = await ops.navigate({ ...page, url: site.url('/shop/login') });
    expect(nav.status).toBe(200);
    expect(nav.operationId).toMatch(/^op_/);
    const { snapshot } = await ops.snapshot({ ...page, interactiveOnly: true });
    expect(snapshot).toMatch(/@e\d+/);
    expect(snapshot).toContain('Username');
    await ops.fill({ ...page, locator: { label: 'Username' }, value: 'buyer' });
    await ops.fill({ ...page, locator: { label: 'Password' }, value: 'buyer-pass' });
    await ops.click({ ...page, locator: { role: 'button', name: 'Sign in' } });
    await ops.wait({ ...page, url: site.url('/shop/account') });
    const { url } = await ops.getUrl(page);
    expect(url).toBe(site.url('/shop/account'));
    const events = await ops.observe({ ...page, source: 'network' });
    expect(Array.isArray(events.events)).toBe(true);
    const ran = await ops.run({ ...page, code: 'return await page.title();' });
    expect(ran.value).toBe('Account – Mesh Shop');
    const saved = await ops.saveState({ sessionId: page.sessionId, stateId: 'lib-buyer' });
    expect(saved.stateId).toBe('lib-buyer');
    await ops.closeSession({ sessionId: page.sessionId });
  });

  test('throws a BrowserMeshError with the code an MCP client would see, and keeps working', async () => {
    const bad = await rejection(ops.navigate({ sessionId: 'nope', pageId: 'nope', url: site.url('/') }));
    expect(bad.code).toBe('SESSION_NOT_FOUND');
    expect(bad.details?.operationId).toMatch(/^op_/);
    const { session, initialPage } = await ops.createSession({});
    const page = { sessionId: session.sessionId, pageId: initialPage.pageId };
    const invalid = await rejection(ops.navigate({ ...page, url: 'javascript:alert(1)' }));
    expect(invalid.code).toBe('INVALID_ARGUMENT');
    // Arguments are validated like the tools' (wrong types reach the schema, not the browser).
    const wrong = await rejection(
      ops.click({ ...page, ref: 42 } as unknown as Parameters<MeshOperations['click']>[0]),
    );
    expect(wrong.code).toBe('INVALID_ARGUMENT');
    const missing = await rejection(ops.click({ ...page, ref: '@e999' }));
    expect(['STALE_ELEMENT_REFERENCE', 'ELEMENT_NOT_FOUND']).toContain(missing.code);
    const ok = await ops.navigate({ ...page, url: site.url('/quiet') });
    expect(ok.title).toBe('Quiet page');
    await ops.closeSession({ sessionId: page.sessionId });
  });
});
