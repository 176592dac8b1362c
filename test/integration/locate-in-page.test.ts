import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import type { CDPSession, Frame, Locator } from 'playwright-core';
import type { ManagedPage } from '../../src/engine/page.js';
import { Deadline } from '../../src/engine/deadline.js';
import { locateInPage, uniqueInPage, type InPageQuery } from '../../src/operations/locate/in-page-locate.js';
import { resolveTarget } from '../../src/operations/locate/locate.js';
import {} from './snapshot-support.js';

/**
 * The accuracy guard of the in-page locator resolver (src/operations/locate/in-page-locate.ts): on
 * every fixture page, for locators built from what the page holds (its names, labels, placeholders,
 * test ids; exact and substring), whenever the page answers one element, Playwright's engine answers
 * exactly that element. Where the page answers a count or nothing, Playwright answers (fallback).
 */

const PAGES = [
  '/',
  '/large',
  '/forms',
  '/snapshot/table',
  '/snapshot/lists',
  '/snapshot/dialog',
  '/snapshot/iframes',
  '/snapshot/shadow',
  '/snapshot/clickable',
  '/snapshot/hidden',
  '/snapshot/mutate',
  '/real/scopes',
  '/real/components',
  '/real/widgets',
  '/real/grid',
  '/shop',
  '/shop/cart',
  '/shop/checkout',
  '/actions/buttons',
  '/actions/checkboxes',
  '/actions/select',
  '/actions/keyboard',
  '/actions/scroll',
  '/actions/covered',
  '/actions/iframe-chain',
  '/actions/ambiguous',
  '/files/upload',
  '/libs/aria-widgets',
  '/libs/material',
  '/libs/csp',
];

/** Runs in the page: role guesses with names, labels, placeholders and test ids found in it. */
const HARVEST = `(() => {
  const roles = [];
  const guess = (el) => {
    const r = el.getAttribute('role');
    if (r) return r.trim().split(/\\s+/)[0];
    const t = el.localName;
    if (t === 'button' || t === 'summary') return 'button';
    if (t === 'a') return 'link';
    if (/^h[1-6]$/.test(t)) return 'heading';
    if (t === 'select') return el.multiple ? 'listbox' : 'combobox';
    if (t === 'textarea') return 'textbox';
    if (t === 'li') return 'listitem';
    if (t === 'option') return 'option';
    if (t === 'img') return 'img';
    if (t === 'nav') return 'navigation';
    if (t === 'dialog') return 'dialog';
    if (t === 'strong') return 'strong';
    if (t === 'em') return 'emphasis';
    if (t === 'input') {
      const ty = (el.getAttribute('type') || 'text').toLowerCase();
      return { checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox', submit: 'button', button: 'button', reset: 'button' }[ty] || 'textbox';
    }
    return undefined;
  };
  const all = [];
  const walk = (root) => { for (const el of root.querySelectorAll('*')) { all.push(el); if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(document);
  const clip = (s) => (s || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
  const labels = new Set(), placeholders = new Set(), testIds = new Set(), css = new Set();
  for (const el of all) {
    const role = guess(el);
    const name = clip(el.getAttribute('aria-label') || el.getAttribute('alt') || el.getAttribute('title') || el.textContent || el.getAttribute('value') || el.getAttribute('placeholder'));
    if (role) roles.push([role, name, Number((/^h([1-6])$/.exec(el.localName) || [])[1] || el.getAttribute('aria-level')) || 0]);
    if (el.localName === 'label') labels.add(clip(el.textContent));
    if (el.getAttribute('aria-label')) labels.add(clip(el.getAttribute('aria-label')));
    if (el.getAttribute('placeholder')) placeholders.add(el.getAttribute('placeholder'));
    if (el.getAttribute('data-testid')) testIds.add(el.getAttribute('data-testid'));
    if (/^[A-Za-z_][\\w-]*$/.test(el.id)) css.add('#' + el.id);
    const cls = [...el.classList].filter((c) => /^[A-Za-z_][\\w-]*$/.test(c))[0];
    if (cls) css.add(el.localName + '.' + cls);
  }
  return { roles: roles.slice(0, 60), labels: [...labels].slice(0, 20), placeholders: [...placeholders].slice(0, 10), testIds: [...testIds].slice(0, 10), css: [...css].slice(0, 20) };
})()`;

interface Harvest {
  roles: [string, string, number][];
  labels: string[];
  placeholders: string[];
  testIds: string[];
  css: string[];
}

function queries(h: Harvest): InPageQuery[] {
  const out: InPageQuery[] = [];
  const seen = new Set<string>();
  const add = (q: InPageQuery): void => {
    const key = JSON.stringify(q);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(q);
    }
  };
  for (const [role, name, level] of h.roles) {
    add({ kind: 'role', value: role, exact: false });
    if ((role === 'heading' || role === 'listitem') && level > 0)
      add({ kind: 'role', value: role, exact: false, level });
    if (name === '') continue;
    add({ kind: 'role', value: role, exact: true, name: { text: name } });
    add({ kind: 'role', value: role, exact: false, name: { text: name.split(' ')[0]?.toLowerCase() ?? '' } });
    add({ kind: 'text', value: '', exact: true, name: { text: name } });
    add({ kind: 'text', value: '', exact: false, name: { text: name.slice(0, 5).toUpperCase() } });
  }
  for (const text of h.labels.filter(Boolean)) {
    add({ kind: 'label', value: '', exact: true, name: { text } });
    add({ kind: 'label', value: '', exact: false, name: { text: text.slice(0, 6).toUpperCase() } });
  }
  for (const text of h.placeholders) {
    add({ kind: 'placeholder', value: '', exact: true, name: { text } });
    add({ kind: 'placeholder', value: '', exact: false, name: { text: text.slice(0, 5).toLowerCase() } });
  }
  for (const id of h.testIds) add({ kind: 'testId', value: id, exact: true });
  for (const css of h.css) add({ kind: 'css', value: css, exact: true });
  return out;
}

/** At most this many locators per page: the big pages (/large, /libs/csp) ask ~150-200 otherwise. */
const PER_PAGE = 80;

/** An evenly spaced, deterministic sample of at most `max` items, in their order. */
function spread<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)] as T);
}

type AriaRole = Parameters<Frame['getByRole']>[0];

function playwrightLocator(frame: Frame, q: InPageQuery): Locator {
  const text = q.name && 'text' in q.name ? q.name.text : '';
  switch (q.kind) {
    case 'role':
      return frame.getByRole(q.value as AriaRole, {
        ...(q.name ? { name: text, exact: q.exact } : {}),
        ...(q.level !== undefined ? { level: q.level } : {}),
      });
    case 'label':
      return frame.getByLabel(text, { exact: q.exact });
    case 'placeholder':
      return frame.getByPlaceholder(text, { exact: q.exact });
    case 'text':
      return frame.getByText(text, { exact: q.exact });
    case 'testId':
      return frame.getByTestId(q.value);
    case 'css':
      return frame.locator(q.value);
  }
}

interface Verdict {
  answered: number;
  unique: number;
  counted: number;
  unsure: number;
  wrong: string[];
}

async function compare(page: ManagedPage, q: InPageQuery, verdict: Verdict): Promise<void> {
  const frame = page.page.mainFrame();
  const answer = await locateInPage(page, q, { timeout: 10_000 });
  const mark = `g${Math.random().toString(36).slice(2)}`;
  if (answer && 'element' in answer) {
    await answer.element.cdp.send('Runtime.callFunctionOn', {
      objectId: answer.element.objectId,
      functionDeclaration: 'function (m) { this.setAttribute("data-locate-guard", m); }',
      arguments: [{ value: mark }],
    });
  }
  const theirs = await playwrightLocator(frame, q).evaluateAll(
    (els, m) => ({
      count: els.length,
      same: els.length === 1 && els[0]?.getAttribute('data-locate-guard') === m,
    }),
    mark,
  );
  if (answer && 'element' in answer) {
    verdict.answered++;
    await frame.evaluate(
      (m) => document.querySelector(`[data-locate-guard="${m}"]`)?.removeAttribute('data-locate-guard'),
      mark,
    );
    // The action log's uniqueness check reads the same code from the element's side.
    const unique = await uniqueInPage(page, { ...answer.element, frameOwners: [], description: '' }, [q], {
      timeout: 10_000,
    });
    if (unique?.[0] === true && !theirs.same)
      verdict.wrong.push(`${JSON.stringify(q)}: unique in the page only`);
    if (unique?.[0] === true) verdict.unique++;
    if (!theirs.same)
      verdict.wrong.push(`${JSON.stringify(q)}: page took one element, Playwright counts ${theirs.count}`);
  } else if (answer) verdict.counted++;
  else verdict.unsure++;
}

let env: SnapshotSetup;
// The file's site, mesh and first session come from the shared fixtures.
test.beforeAll(({ snapshotEnv }) => {
  env = snapshotEnv;
});

describe('locators resolved in the page agree with Playwright', () => {
  test('answers one element only where Playwright answers exactly that element, on every fixture page', async () => {
    const total: Verdict = { answered: 0, unique: 0, counted: 0, unsure: 0, wrong: [] };
    for (const path of PAGES) {
      await env.mesh.runOnPage(
        env.page.sessionId,
        env.page.pageId,
        'guard',
        async (ctx) => {
          await ctx.page.page.goto(env.site.url(path), { waitUntil: 'load' });
          const harvest = (await ctx.page.page.evaluate(HARVEST)) as Harvest;
          const before = total.wrong.length;
          for (const q of spread(queries(harvest), PER_PAGE)) await compare(ctx.page, q, total);
          total.wrong.splice(before, 0, ...(total.wrong.length > before ? [`-- ${path}`] : []));
          // A big page asks a few hundred CDP calls: on a loaded machine that outlasts the default
          // operation deadline, which is not what this test is about.
        },
        { timeoutMs: 120_000 },
      );
    }
    if (process.env.GUARD_OUT)
      (await import('node:fs')).writeFileSync(process.env.GUARD_OUT, total.wrong.join('\n'));
    expect(total.wrong).toEqual([]);
    // The guard is not vacuous: most locators are answered in the page.
    expect(total.answered).toBeGreaterThan(200);
    expect(total.unique).toBe(total.answered);
  }, 300_000);

  test('resolves tools locators through the page and keeps the ambiguity and not-found errors', async () => {
    await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'guard', async (ctx) => {
      await ctx.page.page.goto(env.site.url('/actions/ambiguous'), { waitUntil: 'load' });
      const deadline = new Deadline(10_000);
      const textOf = async (target: { cdp: CDPSession; objectId: string }): Promise<unknown> =>
        (
          await target.cdp.send('Runtime.callFunctionOn', {
            objectId: target.objectId,
            functionDeclaration: 'function () { return this.id || this.textContent.trim(); }',
            returnByValue: true,
          })
        ).result.value;
      const heading = await resolveTarget(
        ctx.page,
        { locator: { role: 'heading', name: 'Profile' } },
        deadline,
        '',
      );
      expect(await textOf(heading)).toBe('profile-heading');
      const input = await resolveTarget(ctx.page, { locator: { label: 'Display name' } }, deadline, '');
      expect(await textOf(input)).toBe('display-name');
      await expect(
        resolveTarget(ctx.page, { locator: { role: 'button', name: 'Save' } }, deadline, ''),
      ).rejects.toMatchObject({ code: 'LOCATOR_AMBIGUOUS', details: { count: 2 } });
      await expect(
        resolveTarget(ctx.page, { locator: { role: 'button', name: 'Nope' } }, new Deadline(300), ''),
      ).rejects.toMatchObject({ code: 'ELEMENT_NOT_FOUND' });
      // The page answered: the same query, asked of it directly, gives that one element.
      const answer = await locateInPage(
        ctx.page,
        { kind: 'label', value: '', exact: true, name: { text: 'Display name' } },
        { timeout: 5000 },
      );
      expect(answer && 'element' in answer).toBe(true);
    });
  });
});
