import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createBrowserMesh } from '../../src/create-mesh.js';
import { createLogger } from '../../src/engine/logger.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import type { Config } from '../../src/config/load.js';
import { snapshot, type SnapshotInput, type SnapshotResult } from '../../src/operations/read/snapshot.js';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { testConfig } from '../helpers/harness.js';

/** Shared setup for the snapshot integration tests: one fixture site, one runtime, helpers per page. */

export interface PageAddress {
  sessionId: string;
  pageId: string;
}

export interface SnapshotEnv {
  site: FixtureServer;
  mesh: BrowserMesh;
  page: PageAddress;
  close(): Promise<void>;
}

export async function startSnapshotEnv(overrides: Partial<Config> = {}): Promise<SnapshotEnv> {
  const site = await startFixtureServer();
  const mesh = createBrowserMesh({
    config: testConfig({ timeoutMs: 30_000, ...overrides }),
    logger: createLogger('silent'),
  });
  const page = await newSession(mesh);
  return {
    site,
    mesh,
    page,
    async close() {
      await mesh.shutdown();
      await site.close();
    },
  };
}

export async function newSession(mesh: BrowserMesh): Promise<PageAddress> {
  const { session, initialPage } = await mesh.createSession();
  return { sessionId: session.sessionId, pageId: initialPage.pageId };
}

export function takeSnap(
  mesh: BrowserMesh,
  at: PageAddress,
  input: SnapshotInput = {},
): Promise<SnapshotResult> {
  return mesh.runOnPage(at.sessionId, at.pageId, 'snapshot', (ctx) => snapshot(ctx, input));
}

/** Loads a URL and waits until the page (and its iframes) finished loading. */
export async function goto(mesh: BrowserMesh, at: PageAddress, url: string): Promise<void> {
  await mesh.runOnPage(at.sessionId, at.pageId, 'goto', async (ctx) => {
    await ctx.page.page.goto(url, { waitUntil: 'load' });
  });
}

/** Runs a function in the page's main frame (test setup and checks only). */
export function evaluate<T>(mesh: BrowserMesh, at: PageAddress, fn: string): Promise<T> {
  return mesh.runOnPage(
    at.sessionId,
    at.pageId,
    'evaluate',
    (ctx) => ctx.page.page.evaluate(fn) as Promise<T>,
  );
}

/** The ref on the line that matches `pattern`, e.g. refOf(text, /\[button @(e\d+)\] Submit/). */
export function refOf(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`no line matches ${pattern}\n${text}`);
  return `@${match[1]}`;
}

/** Ref numbers depend on what ran before; goldens store them renumbered in order of appearance. */
export function renumberRefs(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(/@e\d+/g, (ref) => {
    let name = seen.get(ref);
    if (!name) seen.set(ref, (name = `@e${seen.size + 1}`));
    return name;
  });
}

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '__golden__');

/**
 * Compares with the stored golden text exactly (after renumbering refs and replacing the fixture
 * origins, whose ports change per run); UPDATE_GOLDEN=1 (re)writes it.
 */
export function expectGolden(name: string, text: string, site: FixtureServer): void {
  const file = join(GOLDEN_DIR, `${name}.txt`);
  const actual = `${renumberRefs(text).replaceAll(site.origin, 'http://ORIGIN').replaceAll(site.altOrigin, 'http://ALT-ORIGIN')}\n`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, actual);
    if (process.env.UPDATE_GOLDEN !== '1')
      throw new Error(`golden ${name} was missing and has been written; check it and re-run`);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
