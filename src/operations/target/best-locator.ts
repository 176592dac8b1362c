import { randomBytes } from 'node:crypto';
import type { ElementHandle, Frame, Locator } from 'playwright-core';
import type { ManagedPage } from '../../engine/page.js';
import type { BestLocator, LoggedTarget } from '../act/action-log.js';
import { SECRET_AUTOCOMPLETE } from '../../snapshot/roles.js';
import { ROLES } from './locator-spec.js';
import { callOn, type ElementTarget } from './remote-element.js';
import { uniqueInPage, type InPageQuery, type Uniqueness } from './in-page-locate.js';

/**
 * The best locator for an element an action is about to hit, chosen in its frame at that moment:
 * role + accessible name, else label, placeholder, test id, visible text, and only then CSS. Each
 * candidate is built with Playwright's own engine (so shadow roots are pierced as a spec's locators
 * pierce them) and kept only if it matches exactly this element in its frame. Each iframe on the way
 * down gets a CSS selector unique in its parent frame, so a spec's `frameLocator` chain is the
 * element's real frame chain.
 */

/** Facts the page gives about an element in one call (see collectFacts). */
interface Facts {
  label: string;
  placeholder: string;
  testId: string;
  text: string;
  css: string[];
  secretField: boolean;
}

const MAX_TEXT = 80;

/** Describes `target`; undefined when it cannot be (a detached element, a closed frame). */
export async function describeTarget(
  page: ManagedPage,
  target: ElementTarget,
): Promise<LoggedTarget | undefined> {
  // Every action by a logged target waits for this choice, so its round trips count (issue 26): in
  // the main frame, the facts and Chromium's role and name come in one round, the page's verdict on
  // every candidate in the next, and a Playwright handle only when a verdict is missing.
  const inMainFrame = target.frameOwners.length === 0 && target.cdp === (await page.cdp());
  let read: Read | undefined;
  if (inMainFrame) {
    read = await readFacts(target, (opts) => callOn<Facts>(target, FACTS_FUNCTION, [opts]));
    if (read === undefined) return undefined;
    read.known = await uniqueInPage(page, target, read.queries, { timeout: 5000 });
    const chosen = read.known && decided(read.list, read.known.slice(0, read.list.length));
    const css = read.known && decided(read.cssList, read.known.slice(read.list.length));
    if (chosen !== 'ask Playwright' && css !== 'ask Playwright' && read.known !== undefined)
      return logged(read.facts, [], chosen, css);
  }
  const found = await toHandle(page, target);
  if (!found) return undefined;
  const { frame, handle } = found;
  try {
    read ??= await readFacts(target, (opts) => handle.evaluate(collectFacts, opts));
    if (read === undefined) return undefined;
    // One page call answers most candidates with the in-page resolver; the rest ask Playwright.
    const known =
      read.known ??
      (frame === page.page.mainFrame()
        ? await uniqueInPage(page, target, read.queries, { timeout: 5000 })
        : undefined);
    const [chosen, css] = await Promise.all([
      pickUnique(frame, handle, read.list, known?.slice(0, read.list.length)),
      pickUnique(frame, handle, read.cssList, known?.slice(read.list.length)),
    ]);
    return logged(read.facts, await frameChain(frame), chosen, css);
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}

/** What the page told about the element, its candidates, and (once asked) the page's verdicts. */
interface Read {
  facts: Facts;
  list: BestLocator[];
  cssList: BestLocator[];
  queries: (InPageQuery | undefined)[];
  known?: Uniqueness | undefined;
}

type FactsOpts = { maxText: number; secretAutocomplete: string };

/** The facts and Chromium's role and name, sent together; undefined when the element is gone. */
async function readFacts(
  target: ElementTarget,
  collect: (opts: FactsOpts) => Promise<Facts>,
): Promise<Read | undefined> {
  const opts = { maxText: MAX_TEXT, secretAutocomplete: SECRET_AUTOCOMPLETE.source };
  const [facts, role] = await Promise.all([collect(opts).catch(() => undefined), roleAndName(target)]);
  if (facts === undefined) return undefined;
  const list = candidates(role, facts);
  const cssList = facts.css.map((value): BestLocator => ({ by: 'css', value }));
  return { facts, list, cssList, queries: [...list, ...cssList].map(toInPageQuery) };
}

function logged(
  facts: Facts,
  frames: string[],
  chosen: BestLocator | undefined,
  css: BestLocator | undefined,
): LoggedTarget {
  const fallback: BestLocator = { by: 'css', value: facts.css[facts.css.length - 1] ?? '*' };
  return {
    frames,
    element: chosen ?? css ?? fallback,
    css: css?.by === 'css' ? css.value : fallback.value,
    unique: (chosen ?? css) !== undefined,
    secretField: facts.secretField,
  };
}

/** collectFacts as a CDP function declaration on the element (`this`). */
const FACTS_FUNCTION = `function (opts) { return (${collectFacts.toString()})(this, opts); }`;

/** pickUnique's answer from the page's verdicts alone, or 'ask Playwright' at the first it lacks. */
function decided(list: BestLocator[], known: Uniqueness): BestLocator | undefined | 'ask Playwright' {
  for (const [i, candidate] of list.entries()) {
    if (known[i] === true) return candidate;
    if (known[i] === undefined) return 'ask Playwright';
  }
  return undefined;
}

/** The element as a Playwright handle in its own frame (found by a key parked on its window). */
async function toHandle(
  page: ManagedPage,
  target: ElementTarget,
): Promise<{ frame: Frame; handle: ElementHandle } | undefined> {
  const key = `__bmLog${randomBytes(6).toString('hex')}`;
  const href = await callOn<string>(
    target,
    `function (k) { Object.defineProperty(window, k, { value: this, configurable: true }); return location.href; }`,
    [key],
  ).catch(() => undefined);
  if (href === undefined) return undefined;
  for (const frame of page.page.frames().filter((f) => f.url() === href)) {
    const handle = await frame
      .evaluateHandle((k) => {
        const w = window as unknown as Record<string, unknown>;
        const v = w[k];
        if (v !== undefined) delete w[k];
        return v instanceof Element ? v : null;
      }, key)
      .catch(() => undefined);
    const element = handle?.asElement();
    if (element) return { frame, handle: element };
    await handle?.dispose().catch(() => undefined);
  }
  return undefined;
}

/** Chromium's computed role and accessible name (the same tree getByRole is written against). */
async function roleAndName(target: ElementTarget): Promise<{ role: string; name: string } | undefined> {
  const reply = await target.cdp
    .send('Accessibility.getPartialAXTree', { objectId: target.objectId, fetchRelatives: false })
    .catch(() => undefined);
  const node = reply?.nodes[0];
  if (!node || node.ignored) return undefined;
  const raw = String(node.role?.value ?? '');
  const role = raw === 'image' ? 'img' : raw;
  if (!ROLES.has(role) || ['generic', 'none', 'presentation'].includes(role)) return undefined;
  return { role, name: String(node.name?.value ?? '').trim() };
}

function candidates(role: { role: string; name: string } | undefined, facts: Facts): BestLocator[] {
  const out: BestLocator[] = [];
  if (role && role.name.length <= MAX_TEXT) {
    const named = role.name === '' ? {} : { name: role.name };
    out.push({ by: 'role', role: role.role, ...named });
    if (role.name !== '') out.push({ by: 'role', role: role.role, name: role.name, exact: true });
  }
  for (const by of ['label', 'placeholder'] as const) {
    if (facts[by] === '') continue;
    out.push({ by, value: facts[by] }, { by, value: facts[by], exact: true });
  }
  if (facts.testId !== '') out.push({ by: 'testId', value: facts.testId });
  if (facts.text !== '')
    out.push({ by: 'text', value: facts.text }, { by: 'text', value: facts.text, exact: true });
  return out;
}

/**
 * The first candidate that matches exactly `handle` in `frame`, checked one at a time: by the page's
 * answer where it has one (`known`), else by Playwright's engine.
 */
async function pickUnique(
  frame: Frame,
  handle: ElementHandle,
  list: BestLocator[],
  known?: Uniqueness,
): Promise<BestLocator | undefined> {
  for (const [i, candidate] of list.entries()) {
    const verdict = known?.[i];
    if (verdict === true) return candidate;
    if (verdict === false) continue;
    const only = await toLocator(frame, candidate)
      .evaluateAll((els, el) => els.length === 1 && els[0] === el, handle)
      .catch(() => false);
    if (only) return candidate;
  }
  return undefined;
}

/** A candidate as the in-page resolver reads it (it answers unsure where it does not model the page). */
function toInPageQuery(best: BestLocator): InPageQuery | undefined {
  const exact = 'exact' in best && best.exact === true;
  switch (best.by) {
    case 'role':
      return {
        kind: 'role',
        value: best.role,
        exact,
        name: best.name === undefined ? undefined : { text: best.name },
      };
    case 'label':
    case 'placeholder':
      return { kind: best.by, value: '', exact, name: { text: best.value } };
    case 'testId':
      return { kind: 'testId', value: best.value, exact: true };
    case 'css':
      return { kind: 'css', value: best.value, exact: true };
    case 'text':
      return { kind: 'text', value: '', exact, name: { text: best.value } };
  }
}

export function toLocator(frame: Frame, best: BestLocator): Locator {
  const exact = 'exact' in best && best.exact === true ? { exact: true } : {};
  switch (best.by) {
    case 'role': {
      const role = best.role as Parameters<Frame['getByRole']>[0];
      return frame.getByRole(role, best.name === undefined ? {} : { name: best.name, ...exact });
    }
    case 'label':
      return frame.getByLabel(best.value, exact);
    case 'placeholder':
      return frame.getByPlaceholder(best.value, exact);
    case 'text':
      return frame.getByText(best.value, exact);
    case 'testId':
      return frame.getByTestId(best.value);
    case 'css':
      return frame.locator(best.value);
  }
}

/** A CSS selector for each iframe from the page down to `frame`, each unique in its parent frame. */
async function frameChain(frame: Frame): Promise<string[]> {
  const chain: string[] = [];
  for (
    let child = frame, parent = frame.parentFrame();
    parent;
    child = parent, parent = parent.parentFrame()
  ) {
    const owner = await child.frameElement().catch(() => undefined);
    if (!owner) break;
    try {
      const facts = await owner.evaluate(collectFacts, {
        maxText: MAX_TEXT,
        secretAutocomplete: SECRET_AUTOCOMPLETE.source,
      });
      const list = facts.css.map((value): BestLocator => ({ by: 'css', value }));
      const best = await pickUnique(parent, owner, list);
      chain.unshift(best?.by === 'css' ? best.value : (facts.css[facts.css.length - 1] ?? 'iframe'));
    } finally {
      await owner.dispose().catch(() => undefined);
    }
  }
  return chain;
}

/**
 * Runs in the page (Playwright serializes it): the element's label, placeholder, test id, short
 * visible text and CSS candidates (id, attributes, classes, then a structural path that crosses
 * shadow roots with a descendant step, as Playwright's CSS engine pierces them).
 */
function collectFacts(el: Element, opts: { maxText: number; secretAutocomplete: string }): Facts {
  const norm = (s: string | null | undefined): string =>
    String(s ?? '')
      .replace(/\s+/g, ' ')
      .trim();
  const q = (s: string): string => JSON.stringify(s);
  const ident = /^[A-Za-z_][\w-]*$/;
  const tag = el.localName;
  const input = el as HTMLInputElement;
  const labels = 'labels' in input && input.labels && input.labels.length > 0 ? input.labels : null;
  const label = labels ? norm((labels[0] as HTMLElement).innerText) : norm(el.getAttribute('aria-label'));
  const text = norm((el as HTMLElement).innerText ?? el.textContent);
  const auto = String(el.getAttribute('autocomplete') ?? '');
  const secretField =
    tag === 'input' &&
    (String(input.type).toLowerCase() === 'password' || new RegExp(opts.secretAutocomplete, 'i').test(auto));
  const css: string[] = [];
  if (el.id && ident.test(el.id)) css.push(`#${el.id}`);
  for (const attr of ['data-testid', 'name', 'title', 'src', 'aria-label']) {
    const v = el.getAttribute(attr);
    if (v && v.length <= 200) css.push(`${tag}[${attr}=${q(v)}]`);
  }
  const classes = [...el.classList].filter((c) => ident.test(c)).slice(0, 3);
  if (classes.length > 0) css.push(tag + classes.map((c) => `.${c}`).join(''));
  const steps: string[] = [];
  for (let node: Element | null = el; node;) {
    const parent: Element | null = node.parentElement;
    const root = node.getRootNode();
    if (node.id && ident.test(node.id)) {
      steps.unshift(`#${node.id}`);
      if (root instanceof Document) break;
    } else {
      const same = parent ? [...parent.children].filter((c) => c.localName === node?.localName) : [node];
      const nth = same.length > 1 ? `:nth-of-type(${same.indexOf(node) + 1})` : '';
      steps.unshift(node.localName + nth);
    }
    if (parent) {
      steps.unshift('>');
      node = parent;
    } else if (root instanceof ShadowRoot) {
      node = root.host;
    } else break;
  }
  if (steps[0] === '>') steps.shift();
  css.push(steps.join(' '));
  return {
    label: label.length <= opts.maxText ? label : '',
    placeholder: norm(el.getAttribute('placeholder')),
    testId: el.getAttribute('data-testid') ?? '',
    text: text.length <= opts.maxText ? text : '',
    css,
    secretField,
  };
}

/**
 * Whether keyboard focus is in a secret field (password, one-time code, card number), followed into
 * same-origin iframes and open shadow roots; true when it cannot be told, so nothing typed leaks.
 */
export async function focusedIsSecret(page: ManagedPage): Promise<boolean> {
  return page.page
    .evaluate((pattern) => {
      let el: Element | null = document.activeElement;
      for (let i = 0; el && i < 20; i++) {
        const inner: Element | null | undefined =
          el.shadowRoot?.activeElement ?? (el as HTMLIFrameElement).contentDocument?.activeElement;
        if (!inner) break;
        el = inner;
      }
      if (el?.localName === 'iframe') return true;
      if (!el || el.localName !== 'input') return false;
      const input = el as HTMLInputElement;
      return (
        input.type.toLowerCase() === 'password' ||
        new RegExp(pattern, 'i').test(input.getAttribute('autocomplete') ?? '')
      );
    }, SECRET_AUTOCOMPLETE.source)
    .catch(() => true);
}
