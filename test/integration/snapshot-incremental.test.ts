import type { Page } from 'playwright-core';
import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import type { ManagedPage } from '../../src/engine/page.js';
import { ensureListenersHook, worldCall, worldContext } from '../../src/snapshot/page-world.js';
import { takeSnapshot } from '../../src/snapshot/snapshot.js';
import type { SnapshotResult } from '../../src/snapshot/result.js';
import {} from './snapshot-support.js';

/**
 * The accuracy guard of the incremental capture (docs/snapshots.md, "Incremental capture"): on the
 * fixture pages, after each action of a series (typing, toggles, DOM added and removed, dialogs,
 * aria-hidden, text and class changes that hide things), the incremental capture gives exactly the
 * lines of a fresh full capture taken right after it — refs included, not renumbered.
 */

let env: SnapshotSetup;
// The file's site, mesh and first session come from the shared fixtures.
test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
});

const WHOLE = { maxChars: 1_000_000, maxBytes: 4_194_304 };

interface Step {
  name: string;
  act: (page: Page, managed: ManagedPage) => Promise<unknown>;
}

function snap(incremental: boolean): Promise<SnapshotResult> {
  return env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'snapshot', (ctx) =>
    takeSnapshot(ctx.page, WHOLE, { deadline: ctx.deadline, refTtlMs: 0, capture: 'page', incremental }),
  );
}

function inPage(page: Page, script: string): Promise<unknown> {
  return page.evaluate(script);
}

/**
 * Runs the steps; returns how many of them were captured incrementally (and in `spanned`, how many
 * sent fewer nodes over CDP than the capture holds).
 */
async function guard(
  path: string,
  steps: Step[],
  spanned: { count: number } = { count: 0 },
): Promise<number> {
  await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'goto', async (ctx) => {
    await ensureListenersHook(ctx.page);
    await ctx.page.page.goto(env.site.url(path), { waitUntil: 'load' });
  });
  await snap(false);
  let incremental = 0;
  for (const step of steps) {
    await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, step.name, (ctx) =>
      step.act(ctx.page.page, ctx.page),
    );
    const fast = await snap(true);
    const full = await snap(false);
    expect(full.capture, step.name).toBeUndefined();
    expect(fast.snapshot.split('\n'), `${path}: ${step.name}`).toEqual(full.snapshot.split('\n'));
    if (fast.capture) {
      incremental++;
      expect(fast.capture.reusedNodes).toBeLessThanOrEqual(fast.capture.nodes);
      if (fast.capture.sentNodes < fast.capture.nodes) spanned.count++;
    }
  }
  return incremental;
}

describe('incremental capture equals a full capture, line for line', () => {
  test('/forms: typing, toggles, selects, focus, label text, class that hides', async () => {
    const count = await guard('/forms', [
      { name: 'type', act: (p) => p.locator('#text').pressSequentially('hello') },
      { name: 'fill textarea', act: (p) => p.fill('#textarea', 'Line one\nLine two') },
      { name: 'uncheck', act: (p) => p.click('#subscribe') },
      { name: 'check', act: (p) => p.click('#updates') },
      { name: 'select', act: (p) => p.selectOption('#vehicle', { index: 1 }) },
      { name: 'value by script', act: (p) => inPage(p, `document.getElementById('email').value = 'a@b.c'`) },
      {
        name: 'checked by script',
        act: (p) => inPage(p, `document.getElementById('subscribe').checked = true`),
      },
      {
        name: 'label text',
        act: (p) =>
          inPage(p, `document.querySelector('label[for=updates]').textContent = 'Send updates weekly'`),
      },
      {
        name: 'labelledby text',
        act: (p) => inPage(p, `document.getElementById('notes-label').textContent = 'Private notes'`),
      },
      {
        name: 'button click',
        act: async (p) => {
          await p.click('#plain-button');
          await p.waitForFunction(`document.getElementById('form-status').textContent !== ''`);
        },
      },
      { name: 'disable', act: (p) => inPage(p, `document.getElementById('tel').disabled = true`) },
      {
        name: 'class hides a field',
        act: (p) =>
          inPage(
            p,
            `(() => { const s = document.createElement('style'); s.textContent = '.gone { display: none }'; document.head.append(s); document.getElementById('url').closest('div, p, label').classList.add('gone'); })()`,
          ),
      },
      {
        name: 'class on a parent hides it',
        act: (p) => inPage(p, `document.getElementById('search').parentElement.classList.add('gone')`),
      },
      {
        name: 'style attribute hides',
        act: (p) => inPage(p, `document.getElementById('number').style.visibility = 'hidden'`),
      },
      { name: 'editable text', act: (p) => p.locator('#notes').pressSequentially(' more') },
    ]);
    expect(count).toBeGreaterThan(8);
  });

  test('/snapshot/dialog and /snapshot/mutate: dialogs, aria-hidden, DOM added and removed', async () => {
    const dialogs = await guard('/snapshot/dialog', [
      {
        name: 'close native',
        // The dialog's close event (which writes the status) comes in a later task: wait for it.
        act: async (p) => {
          await p.click('#native-dialog button[value=ok]');
          await p.waitForFunction(
            `document.getElementById('dialog-status').textContent.startsWith('dialog closed')`,
          );
        },
      },
      { name: 'reopen modal', act: (p) => inPage(p, `document.getElementById('native-dialog').showModal()`) },
      { name: 'close modal', act: (p) => inPage(p, `document.getElementById('native-dialog').close()`) },
      {
        name: 'aria-hidden on',
        act: (p) => inPage(p, `document.getElementById('aria-modal').setAttribute('aria-hidden', 'true')`),
      },
      {
        name: 'aria-hidden off',
        act: (p) => inPage(p, `document.getElementById('aria-modal').removeAttribute('aria-hidden')`),
      },
      {
        name: 'status text',
        act: (p) => inPage(p, `document.getElementById('dialog-status').textContent = 'Chose wisely'`),
      },
    ]);
    const mutations = await guard('/snapshot/mutate', [
      {
        name: 'add a button',
        act: (p) =>
          inPage(
            p,
            `(() => { const b = document.createElement('button'); b.textContent = 'Fresh'; document.body.append(b); })()`,
          ),
      },
      {
        name: 'rename it',
        act: (p) =>
          inPage(p, `document.querySelector('body > button:last-of-type').firstChild.data = 'Renamed'`),
      },
      {
        name: 'move it first',
        act: (p) => inPage(p, `document.body.prepend(document.querySelector('body > button:last-of-type'))`),
      },
      { name: 'remove it', act: (p) => inPage(p, `document.querySelector('body > button').remove()`) },
      {
        name: 'add a list',
        act: (p) =>
          inPage(
            p,
            `(() => { const ul = document.createElement('ul'); ul.innerHTML = '<li><a href="#a">One</a></li><li><a href="#b">Two</a></li>'; document.body.append(ul); })()`,
          ),
      },
      {
        name: 'aria-label on a link',
        act: (p) => inPage(p, `document.querySelector('a[href="#a"]').setAttribute('aria-label', 'First')`),
      },
      {
        name: 'hidden attribute',
        act: (p) => inPage(p, `document.querySelector('a[href="#b"]').parentElement.hidden = true`),
      },
    ]);
    expect(dialogs + mutations).toBeGreaterThan(5);
  });

  test('/large: text changes, expanded toggles and a removed section', async () => {
    const spanned = { count: 0 };
    const count = await guard(
      '/large',
      [
        {
          name: 'heading text',
          act: (p) => inPage(p, `document.querySelector('h2').textContent = 'Renamed section'`),
        },
        {
          name: 'aria-expanded',
          act: (p) =>
            inPage(
              p,
              `(() => { const b = document.querySelector('button'); b.setAttribute('aria-expanded', b.getAttribute('aria-expanded') === 'true' ? 'false' : 'true'); })()`,
            ),
        },
        { name: 'remove a link', act: (p) => inPage(p, `document.querySelector('main a, a').remove()`) },
        {
          name: 'focus a control',
          act: (p) => inPage(p, `document.querySelector('button, a, input').focus()`),
        },
      ],
      spanned,
    );
    expect(count).toBeGreaterThan(1);
    // The reused nodes came as spans of the last capture's list, not over CDP.
    expect(spanned.count).toBe(count);
  });

  test('CSS that shows content on hover, on :checked and through a sibling combinator', async () => {
    const markup = `<style>.menu { display: none } .trigger:hover + .menu, #toggle:checked ~ .panel, .open + .menu { display: block } .panel { display: none }</style>
      <div><button class="trigger">Account</button><ul class="menu"><li><a href="#p">Profile</a></li></ul></div>
      <div><input type="checkbox" id="toggle"><label for="toggle">More</label><div class="panel"><button>Hidden action</button></div></div>
      <div><button id="opener">Options</button><div class="menu"><button>Option A</button></div></div>`;
    const count = await guard('/snapshot/mutate', [
      {
        name: 'add the widgets',
        act: (p) => inPage(p, `document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(markup)})`),
      },
      { name: 'hover shows a menu', act: (p) => p.hover('.trigger') },
      { name: 'check shows a panel', act: (p) => p.click('#toggle') },
      { name: 'mouse away', act: (p) => p.mouse.move(0, 0) },
      {
        name: 'class on a sibling',
        act: (p) => inPage(p, `document.getElementById('opener').classList.add('open')`),
      },
    ]);
    // State-dependent rules that show content make every capture of this page a full one.
    expect(count).toBe(0);
  });

  test('a class on a sibling that shows content through a + combinator', async () => {
    const markup = `<style>.menu { display: none } .open + .menu { display: block }</style>
      <div><button id="opener">Options</button><div class="menu"><button>Option A</button></div></div>`;
    const count = await guard('/snapshot/mutate', [
      {
        name: 'add the widget',
        act: (p) => inPage(p, `document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(markup)})`),
      },
      { name: 'open', act: (p) => inPage(p, `document.getElementById('opener').classList.add('open')`) },
      { name: 'close', act: (p) => inPage(p, `document.getElementById('opener').classList.remove('open')`) },
    ]);
    expect(count).toBe(2);
  });

  test('reads the page copy of the base when Node does not hold it (a capture whose result was lost)', async () => {
    const spanned = { count: 0 };
    const count = await guard(
      '/snapshot/mutate',
      [
        {
          name: 'a capture Node never sees, then a change',
          act: async (p, managed) => {
            const cdp = await managed.cdp();
            const { frameTree } = await cdp.send('Page.getFrameTree');
            const { frame } = frameTree;
            const contextId = await worldContext(managed, cdp, frame.id, frame.loaderId, { timeout: 10_000 });
            await cdp.send('Runtime.evaluate', { contextId, expression: worldCall('capture', 0, true) });
            await inPage(p, `document.body.insertAdjacentHTML('beforeend', '<button>Late</button>')`);
          },
        },
      ],
      spanned,
    );
    expect(count).toBe(1);
    expect(spanned.count).toBe(0);
  });

  test('/real/components: open shadow roots and slots', async () => {
    const count = await guard('/real/components', [
      {
        name: 'host attribute',
        act: (p) =>
          inPage(
            p,
            `(() => { const h = [...document.querySelectorAll('*')].find((e) => e.shadowRoot); h && h.setAttribute('data-x', '1'); })()`,
          ),
      },
      {
        name: 'slotted text',
        act: (p) =>
          inPage(
            p,
            `(() => { const h = [...document.querySelectorAll('*')].find((e) => e.shadowRoot && e.firstChild); if (h) h.append(' extra'); })()`,
          ),
      },
      {
        name: 'shadow text',
        act: (p) =>
          inPage(
            p,
            `(() => { const h = [...document.querySelectorAll('*')].find((e) => e.shadowRoot); const t = h && h.shadowRoot.querySelector('button, span, p'); if (t) t.append(' inner'); })()`,
          ),
      },
    ]);
    expect(count).toBe(3);
  });
});
