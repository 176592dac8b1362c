import type { Page } from 'playwright-core';
import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import type { SpecLocator } from './spec-locator.js';

/**
 * Finding the element a locator meant on a page that changed: from a fresh look at the page, the
 * elements of the same kind (same role, a labelled field, a test id, a text), the one whose name is
 * closest to the old one. Only one unique candidate heals: a tie, nothing close enough, or a new
 * locator that does not match exactly one element leaves the step failed, with what was seen.
 */

/** How alike two names must be (1 = the same) for one to stand for the other. */
const MIN_LIKENESS = 0.5;
/** Candidates reported when none heals. */
const MAX_REPORTED = 10;
/** Names compared, and their length: the page chooses them, the comparison runs on the server. */
const MAX_NAMES = 500;
const MAX_NAME_CHARS = 200;

export interface HealOutcome {
  /** The new locator, when exactly one candidate fits. */
  healed?: SpecLocator;
  /** What the page offered (names), closest first. */
  candidates: string[];
}

/** The selectors of the elements a role usually comes from (the page may also say role=…). */
const ROLE_SELECTORS: Record<string, string> = {
  button: 'button, input[type=submit], input[type=button], input[type=reset]',
  link: 'a[href]',
  textbox:
    'input:not([type]), input[type=text], input[type=email], input[type=password], input[type=tel], input[type=url], input[type=number], textarea',
  searchbox: 'input[type=search]',
  checkbox: 'input[type=checkbox]',
  radio: 'input[type=radio]',
  combobox: 'select',
  heading: 'h1, h2, h3, h4, h5, h6',
};
const FIELDS = 'input:not([type=hidden]), textarea, select, [role=textbox], [role=combobox]';

/** Names of the visible elements of one kind, in the page's main frame (run in the page). */
const CANDIDATE_NAMES = `(query) => {
  const text = (el) => (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim();
  const byIds = (ids) => ids.split(/\\s+/).map((id) => document.getElementById(id)).filter(Boolean).map(text).join(' ');
  const label = (el) =>
    el.getAttribute('aria-label') ||
    (el.getAttribute('aria-labelledby') ? byIds(el.getAttribute('aria-labelledby')) : '') ||
    (el.labels && el.labels.length > 0 ? text(el.labels[0]) : '');
  const nameOf = (el) => label(el) || (el.tagName === 'INPUT' ? el.value || '' : text(el)) || el.getAttribute('title') || '';
  const visible = (el) => el.getClientRects().length > 0;
  const all = (selector) => [...document.querySelectorAll(selector)].filter(visible).slice(0, ${MAX_NAMES});
  switch (query.by) {
    case 'role':
      return all(query.selector).map(nameOf);
    case 'label':
      return all(${JSON.stringify(FIELDS)}).map(label);
    case 'placeholder':
      return all('[placeholder]').map((el) => el.getAttribute('placeholder') || '');
    case 'testId':
      return all('[data-testid]').map((el) => el.getAttribute('data-testid') || '');
    default:
      return all('body *').filter((el) => el.children.length === 0).map(text);
  }
}`;

export async function heal(ctx: PageOperationContext, locator: SpecLocator): Promise<HealOutcome> {
  const page = ctx.page.page;
  const query =
    locator.by === 'role'
      ? {
          by: 'role',
          selector: [ROLE_SELECTORS[locator.role], `[role=${JSON.stringify(locator.role)}]`]
            .filter(Boolean)
            .join(', '),
        }
      : { by: locator.by };
  const read = page.evaluate(`(${CANDIDATE_NAMES})(${JSON.stringify(query)})`) as Promise<unknown>;
  const raw = await withDeadline(read, ctx.deadline, ctx.signal);
  const names = (Array.isArray(raw) ? raw : [])
    .filter((n): n is string => typeof n === 'string' && n !== '')
    .slice(0, MAX_NAMES)
    .map((n) => n.slice(0, MAX_NAME_CHARS));
  const old = (locator.by === 'role' ? (locator.name ?? '') : locator.value).slice(0, MAX_NAME_CHARS);
  const ranked = [...new Set(names)]
    .map((name) => ({ name, likeness: likeness(old, name), count: names.filter((n) => n === name).length }))
    .sort((a, b) => b.likeness - a.likeness);
  const candidates = ranked.slice(0, MAX_REPORTED).map((c) => c.name);
  const best = ranked[0];
  const tie = ranked[1] !== undefined && ranked[1].likeness === best?.likeness;
  if (!best || best.likeness < MIN_LIKENESS || tie || best.count > 1 || best.name === old)
    return { candidates };
  const healed: SpecLocator =
    locator.by === 'role'
      ? { ...locator, name: best.name, exact: true }
      : { ...locator, value: best.name, exact: true };
  // The page's own engine has the last word: the new locator must match exactly one element.
  const count = await withDeadline(toPlaywright(page, healed).count(), ctx.deadline, ctx.signal).catch(
    () => 0,
  );
  return count === 1 ? { healed, candidates } : { candidates };
}

export function toPlaywright(page: Page, locator: SpecLocator) {
  switch (locator.by) {
    case 'role':
      return page.getByRole(locator.role as Parameters<Page['getByRole']>[0], {
        ...(locator.name !== undefined ? { name: locator.name } : {}),
        exact: locator.exact,
      });
    case 'label':
      return page.getByLabel(locator.value, { exact: locator.exact });
    case 'placeholder':
      return page.getByPlaceholder(locator.value, { exact: locator.exact });
    case 'text':
      return page.getByText(locator.value, { exact: locator.exact });
    case 'testId':
      return page.getByTestId(locator.value);
    case 'css':
      return page.locator(locator.value);
  }
}

/** 1 − edit distance / longer length, ignoring case and spacing (names are cut to MAX_NAME_CHARS). */
export function likeness(a: string, b: string): number {
  const x = a.toLowerCase().replace(/\s+/g, ' ').trim();
  const y = b.toLowerCase().replace(/\s+/g, ' ').trim();
  if (x === '' || y === '') return 0;
  const longer = Math.max(x.length, y.length);
  return 1 - editDistance(x, y) / longer;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
