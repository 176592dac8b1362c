import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import type { BrowserMeshError } from '../../src/errors.js';
import { clickRef, fillRef, resolveRef, visibleTextOfRef } from '../../src/operations/act/ref-actions.js';
import {
  evaluate,
  goto,
  newSession,
  refOf,
  startSnapshotEnv,
  takeSnap,
  type PageAddress,
} from './snapshot-support.js';

/** Refs as an agent uses them: stable while the element lives, loudly stale otherwise, and acting on the right element. */

let env: SnapshotSetup;
// The file's site, mesh and first session come from the shared fixtures.
test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
});

const click = (ref: string, at: PageAddress = env.page) =>
  env.mesh.runOnPage(at.sessionId, at.pageId, 'click', (ctx) => clickRef(ctx, ref));
const fill = (ref: string, text: string, at: PageAddress = env.page) =>
  env.mesh.runOnPage(at.sessionId, at.pageId, 'fill', (ctx) => fillRef(ctx, ref, text));

async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    const e = error as BrowserMeshError;
    return { code: e.code, details: (e.details ?? {}) as Record<string, unknown> };
  }
  throw new Error('expected a failure');
}

async function open(path: string, at: PageAddress = env.page): Promise<string> {
  await goto(env.mesh, at, env.site.url(path));
  return (await takeSnap(env.mesh, at)).snapshot;
}

describe('ref identity', () => {
  test('keeps the same ref for the same element across snapshots, even after it changes', async () => {
    const first = await open('/snapshot/mutate');
    const target = refOf(first, /@(e\d+) Original name/);
    const rename = refOf(first, /@(e\d+) Rename/);
    const again = (await takeSnap(env.mesh, env.page)).snapshot;
    expect(again).toBe(first);
    await click(rename);
    const after = (await takeSnap(env.mesh, env.page)).snapshot;
    expect(refOf(after, /@(e\d+) Renamed button/)).toBe(target);
  });

  test('resolves through node identity to the element of the right frame', async () => {
    const text = await open('/snapshot/iframes');
    const sameOrigin = await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'resolve', (ctx) =>
      resolveRef(ctx.page, refOf(text, /\[button @(e\d+)\] Frame button/), ctx.deadline),
    );
    expect(sameOrigin.targetKey).toBe('main');
    expect(sameOrigin.frameOwners).toHaveLength(1);
    const cross = [...text.matchAll(/\[button @(e\d+)\] Frame button/g)][1]?.[1];
    const remote = await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'resolve', (ctx) =>
      resolveRef(ctx.page, `@${cross}`, ctx.deadline),
    );
    expect(remote.targetKey).not.toBe('main');
    expect(remote.frameOwners).toHaveLength(1);
  });
});

describe('stale refs', () => {
  test('a removed element', async () => {
    const text = await open('/snapshot/mutate');
    const ref = refOf(text, /@(e\d+) Original name/);
    await evaluate(
      env.mesh,
      env.page,
      `window.kept = document.getElementById('rename-target'); window.kept.remove()`,
    );
    expect(await failure(click(ref))).toMatchObject({
      code: 'STALE_ELEMENT_REFERENCE',
      details: { reason: 'detached' },
    });
  });

  test('a navigation, even back to the same URL', async () => {
    const text = await open('/snapshot/mutate');
    const ref = refOf(text, /@(e\d+) Rename/);
    await goto(env.mesh, env.page, env.site.url('/snapshot/mutate'));
    expect(await failure(click(ref))).toMatchObject({
      code: 'STALE_ELEMENT_REFERENCE',
      details: { reason: 'navigated' },
    });
    const fresh = (await takeSnap(env.mesh, env.page)).snapshot;
    expect(refOf(fresh, /@(e\d+) Rename/)).not.toBe(ref);
    expect(await failure(click(ref))).toMatchObject({ code: 'STALE_ELEMENT_REFERENCE' });
  });

  test('a ref of another page of the same session, or of another session', async () => {
    const text = await open('/snapshot/mutate');
    const ref = refOf(text, /@(e\d+) Rename/);
    const other = await env.mesh.run(
      env.page.sessionId,
      'page',
      async (ctx) => (await ctx.session.createPage()).id,
    );
    const otherPage = { sessionId: env.page.sessionId, pageId: other };
    await open('/snapshot/mutate', otherPage);
    expect(await failure(click(ref, otherPage))).toMatchObject({
      code: 'STALE_ELEMENT_REFERENCE',
      details: { reason: 'unknown' },
    });
    const session = await newSession(env.mesh);
    await open('/snapshot/mutate', session);
    expect(await failure(click(ref, session))).toMatchObject({
      code: 'STALE_ELEMENT_REFERENCE',
      details: { reason: 'unknown' },
    });
  });

  test('a closed page', async () => {
    const other = await env.mesh.run(
      env.page.sessionId,
      'page',
      async (ctx) => (await ctx.session.createPage()).id,
    );
    const page = { sessionId: env.page.sessionId, pageId: other };
    const ref = refOf(await open('/snapshot/mutate', page), /@(e\d+) Rename/);
    await env.mesh.run(page.sessionId, 'close', (ctx) => ctx.session.closePage(other));
    expect(await failure(click(ref, page))).toMatchObject({ code: 'PAGE_NOT_FOUND' });
  });

  test('a ref that was never issued, and a malformed one', async () => {
    await open('/snapshot/mutate');
    expect(await failure(click('@e9999999'))).toMatchObject({
      code: 'STALE_ELEMENT_REFERENCE',
      details: { reason: 'unknown' },
    });
    expect(await failure(click('button'))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'ref' },
    });
  });

  test('an expired ref when refTtlMs is configured (never by default)', async () => {
    const short = await startSnapshotEnv({ refTtlMs: 200 });
    try {
      await goto(short.mesh, short.page, short.site.url('/snapshot/mutate'));
      const ref = refOf((await takeSnap(short.mesh, short.page)).snapshot, /@(e\d+) Rename/);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const result = short.mesh.runOnPage(short.page.sessionId, short.page.pageId, 'click', (ctx) =>
        clickRef(ctx, ref),
      );
      expect(await failure(result)).toMatchObject({
        code: 'STALE_ELEMENT_REFERENCE',
        details: { reason: 'expired' },
      });
    } finally {
      await short.close();
    }
  });
});

describe('acting by ref', () => {
  const frameStatus = (index: number) =>
    env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'read', async (ctx) => {
      const frame = ctx.page.page.frames().filter((f) => f.url().endsWith('/snapshot/frame-child'))[index];
      return frame?.evaluate(
        `[document.getElementById('frame-status').textContent, document.getElementById('frame-input').value]`,
      ) as Promise<[string, string]>;
    });

  test('clicks and fills inside the same-origin and the cross-origin iframe', async () => {
    const text = await open('/snapshot/iframes');
    const buttons = [...text.matchAll(/\[button @(e\d+)\] Frame button/g)].map((m) => `@${m[1]}`);
    const inputs = [...text.matchAll(/\[textbox @(e\d+)\] Frame input/g)].map((m) => `@${m[1]}`);
    expect(buttons).toHaveLength(2);
    for (const [i, origin] of [env.site.origin, env.site.altOrigin].entries()) {
      const frameIndex = await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'which', async (ctx) =>
        ctx.page.page
          .frames()
          .filter((f) => f.url().endsWith('/snapshot/frame-child'))
          .findIndex((f) => f.url().startsWith(origin)),
      );
      await click(buttons[i]!);
      await fill(inputs[i]!, `typed in frame ${i}`);
      expect(await frameStatus(frameIndex)).toEqual(['frame clicked', `typed in frame ${i}`]);
    }
  });

  test('clicks and fills inside (nested) shadow DOM', async () => {
    const text = await open('/snapshot/shadow');
    const status = () =>
      evaluate<string>(env.mesh, env.page, `document.getElementById('shadow-status').textContent`);
    await click(refOf(text, /@(e\d+)\] Shadow button/));
    expect(await status()).toBe('shadow clicked');
    await click(refOf(text, /@(e\d+)\] Nested shadow button/));
    expect(await status()).toBe('nested shadow clicked');
    await fill(refOf(text, /@(e\d+)\] Shadow input/), 'inside the shadow');
    expect(
      await evaluate(
        env.mesh,
        env.page,
        `document.getElementById('card').shadowRoot.getElementById('shadow-input').value`,
      ),
    ).toBe('inside the shadow');
  });

  test('clicks non-semantic clickables by their refs', async () => {
    const text = await open('/snapshot/clickable');
    for (const name of ['Onclick div', 'Pointer span', 'Focusable div'])
      await click(refOf(text, new RegExp(`@(e\\d+) ${name}`)));
    expect(
      await evaluate(
        env.mesh,
        env.page,
        `[...document.querySelectorAll('#click-log li')].map((li) => li.textContent)`,
      ),
    ).toEqual(['clicked: onclick div', 'clicked: pointer span', 'clicked: focusable div']);
  });

  test('scrolls an element below the fold into view before clicking it', async () => {
    const text = await open('/snapshot/hidden');
    await evaluate(
      env.mesh,
      env.page,
      `document.getElementById('below-fold-button').onclick = () => (window.clickedBelow = true)`,
    );
    await click(refOf(text, /@(e\d+)\] Below the fold button/));
    expect(await evaluate(env.mesh, env.page, 'window.clickedBelow')).toBe(true);
  });

  test('fills text, password and date fields and reads the value back', async () => {
    const text = await open('/forms');
    expect(await fill(refOf(text, /@(e\d+) Text/), 'hello')).toMatchObject({ valueMatches: true });
    const password = await fill(refOf(text, /\[textbox @(e\d+) value=••••\] Password/), 'new-secret');
    expect(JSON.stringify(password)).not.toContain('new-secret');
    expect(await fill(refOf(text, /\[date @(e\d+)/), '2025-01-02')).toMatchObject({ valueMatches: true });
    expect(await fill(refOf(text, /\[spinbutton @(e\d+)/), 'not a number')).toMatchObject({
      valueMatches: false,
    });
    const values = await evaluate(
      env.mesh,
      env.page,
      `['text', 'password', 'date'].map((id) => document.getElementById(id).value)`,
    );
    expect(values).toEqual(['hello', 'new-secret', '2025-01-02']);
    expect((await takeSnap(env.mesh, env.page)).snapshot).not.toContain('new-secret');
  });

  test('refuses a covered element, naming what covers it, and clicks nothing', async () => {
    env.site.route('/covered', (req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>Covered</title><button id="under" onclick="window.hit = true">Under</button>
<div id="cookie-banner" style="position:fixed;inset:0;background:rgba(0,0,0,.5)">We use cookies</div>`);
    });
    const text = await open('/covered');
    const error = await failure(click(refOf(text, /@(e\d+)\] Under/)));
    expect(error).toMatchObject({
      code: 'ELEMENT_NOT_INTERACTABLE',
      details: { reason: 'covered', coveredBy: 'div#cookie-banner' },
    });
    expect(await evaluate(env.mesh, env.page, 'window.hit === true')).toBe(false);
  });

  test('reads the text of one element by ref (visible text scope)', async () => {
    const text = await open('/snapshot/dialog');
    const ref = refOf(text, /\[dialog @(e\d+) modal\]/);
    const scoped = await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'text', (ctx) =>
      visibleTextOfRef(ctx, ref, { maxChars: 20, maxBytes: 1000 }),
    );
    expect(scoped).toMatchObject({ chars: 20, truncated: true, truncationReason: 'maxChars' });
    expect(scoped.text).toMatch(/^Delete file\?\s+This c/);
    const stale = env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'text', (ctx) =>
      visibleTextOfRef(ctx, '@e9999997', { maxChars: 20, maxBytes: 1000 }),
    );
    expect(await failure(stale)).toMatchObject({ code: 'STALE_ELEMENT_REFERENCE' });
  });
});
