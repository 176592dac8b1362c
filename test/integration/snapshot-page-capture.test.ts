import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCaptureKind, type SnapshotCaptureMode } from '../../src/snapshot/capture-mode.js';
import { ensureListenersHook } from '../../src/snapshot/page-world.js';
import { takeSnapshot } from '../../src/snapshot/snapshot.js';
import { renumberRefs, startSnapshotEnv, type SnapshotEnv } from './snapshot-support.js';

/**
 * The accuracy guard of the in-page capture: on every fixture page, the in-page capture and the CDP
 * tree give the same lines (roles, names, states, values, and refs on the same lines).
 */

const PAGES = (process.env.GUARD_PAGES ?? '/,/large,/forms').split(',');

let env: SnapshotEnv;
beforeAll(async () => {
  env = await startSnapshotEnv();
});
afterAll(async () => env?.close());

function snap(mode: SnapshotCaptureMode): Promise<{ text: string; kind: string | undefined }> {
  return env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'snapshot', async (ctx) => {
    const result = await takeSnapshot(
      ctx.page,
      { maxChars: 1_000_000, maxBytes: 4_194_304 },
      { deadline: ctx.deadline, refTtlMs: 0, capture: mode },
    );
    return { text: result.snapshot, kind: lastCaptureKind(ctx.page) };
  });
}

describe('in-page capture vs CDP capture', () => {
  for (const path of PAGES) {
    it(`gives the same lines on ${path}`, async () => {
      await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'goto', async (ctx) => {
        await ensureListenersHook(ctx.page);
        await ctx.page.page.goto(env.site.url(path), { waitUntil: 'load' });
      });
      const cdp = await snap('cdp');
      const page = await snap('page');
      expect(page.kind).toBe('page');
      const a = renumberRefs(cdp.text).split('\n');
      const b = renumberRefs(page.text).split('\n');
      const diff: string[] = [];
      for (let i = 0; i < Math.max(a.length, b.length); i++)
        if (a[i] !== b[i]) diff.push(`${i}\n  cdp:  ${a[i]}\n  page: ${b[i]}`);
      if (process.env.GUARD_PRINT) console.log(path, diff.slice(0, 12).join('\n'));
      expect(b).toEqual(a);
    });
  }
});
