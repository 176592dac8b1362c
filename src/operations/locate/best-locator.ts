import { randomBytes } from 'node:crypto';
import type { ElementHandle, Frame, Locator } from 'playwright-core';
import type { ManagedPage } from '../../engine/page.js';
import type { BestLocator, LoggedTarget } from '../journal/action-log.js';
import { SECRET_AUTOCOMPLETE } from '../../snapshot/roles.js';
import { ROLES } from './locator-spec.js';
import { callOn, type ElementTarget } from './remote-element.js';
import {
  callResolver,
  uniqueInPage,
  verdictsFrom,
  type InPageQuery,
  type Uniqueness,
} from './in-page-locate.js';
import { withResolver } from './page-locate-source.js';
import {
  collectFacts,
  cssCandidates,
  FACTS_FUNCTION,
  FACTS_OPTS,
  MAX_TEXT,
  type Facts,
  type FactsOpts,
} from './element-facts.js';

/**
 * The best locator for an element an action is about to hit, chosen in its frame at that moment:
 * role + accessible name, else label, placeholder, test id, visible text, and only then CSS. Each
 * candidate is built with Playwright's own engine (so shadow roots are pierced as a spec's locators
 * pierce them) and kept only if it matches exactly this element in its frame. Each iframe on the way
 * down gets a CSS selector unique in its parent frame, so a spec's `frameLocator` chain is the
 * element's real frame chain.
 */

/** Describes `target`; undefined when it cannot be (a detached element, a closed frame). */
export async function describeTarget(
  page: ManagedPage,
  target: ElementTarget,
): Promise<LoggedTarget | undefined> {
  // Every action by a logged target waits for this choice, so its round trips count:
  // in the main frame, Chromium's role and name come in one round with the facts and, where the page
  // found the element, the page's verdicts on the candidates it expects; the verdicts are asked in a
  // second round only when Chromium names the element otherwise; a Playwright handle only when a
  // verdict is missing.
  const inMainFrame = target.frameOwners.length === 0 && target.cdp === (await page.cdp());
  let read: Read | undefined;
  if (inMainFrame) {
    if (target.inWorld !== undefined) read = await readWithVerdicts(target, target.inWorld);
    read ??= await readFacts(target, (opts) => callOn<Facts>(target, FACTS_FUNCTION, [opts]));
    if (read === undefined) return undefined;
    read.known ??= await uniqueInPage(page, target, read.queries, { timeout: 5000 });
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

/** The facts and Chromium's role and name, sent together; undefined when the element is gone. */
async function readFacts(
  target: ElementTarget,
  collect: (opts: FactsOpts) => Promise<Facts>,
): Promise<Read | undefined> {
  const [facts, role] = await Promise.all([collect(FACTS_OPTS).catch(() => undefined), roleAndName(target)]);
  return facts === undefined ? undefined : toRead(facts, role);
}

function toRead(facts: Facts, role: { role: string; name: string } | undefined): Read {
  const list = candidates(role, facts);
  const cssList = cssCandidates(facts);
  return { facts, list, cssList, queries: [...list, ...cssList].map(toInPageQuery) };
}

/**
 * readFacts on the element's capture-world object, where the page also answers its verdicts on the
 * candidates it expects (its own role and name for the element's): `known` is set when they are the
 * candidates Chromium's role and name give. Undefined when the page call failed.
 */
async function readWithVerdicts(target: ElementTarget, inWorld: string): Promise<Read | undefined> {
  const [called, role] = await Promise.all([
    callResolver(
      target.cdp,
      FACTS_AND_VERDICTS,
      { objectId: inWorld, arguments: [{ value: FACTS_OPTS }], returnByValue: true },
      { timeout: 5000 },
    ).catch(() => undefined),
    roleAndName(target),
  ]);
  const answer = called?.exceptionDetails ? undefined : called?.result.value;
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { facts, verdicts } = answer as { facts: Facts; verdicts: [string, number][] };
  const read = toRead(facts, role);
  read.known = verdictsFrom(read.queries, verdicts);
  return read;
}

/**
 * On the element in its capture world: its facts, and the page's verdict on every candidate
 * `candidates` would build from them and from the page's own role and name for it, each keyed
 * as queryKey keys it (in-page-locate.ts).
 */
const FACTS_AND_VERDICTS = withResolver(
  'opts',
  `const facts = (${collectFacts.toString()})(this, opts);
  const [role, name] = api.roleName(this);
  const named = (kind, text) => [
    { kind, value: '', exact: false, name: { text } },
    { kind, value: '', exact: true, name: { text } },
  ];
  const list = [];
  if (role) {
    list.push({ kind: 'role', value: role, exact: false, name: name === '' ? undefined : { text: name } });
    if (name !== '') list.push({ kind: 'role', value: role, exact: true, name: { text: name } });
  }
  if (facts.label) list.push(...named('label', facts.label));
  if (facts.placeholder) list.push(...named('placeholder', facts.placeholder));
  if (facts.testId) list.push({ kind: 'testId', value: facts.testId, exact: true });
  if (facts.text) list.push(...named('text', facts.text));
  for (const value of facts.css) list.push({ kind: 'css', value, exact: true });
  const answers = api.uniques(this, list);
  const keyOf = (q) => JSON.stringify([q.kind, q.value, q.exact, q.name === undefined ? null : q.name.text]);
  return { facts, verdicts: list.map((q, i) => [keyOf(q), answers[i]]) };`,
);

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
      const facts = await owner.evaluate(collectFacts, FACTS_OPTS);
      const list = cssCandidates(facts);
      const best = await pickUnique(parent, owner, list);
      chain.unshift(best?.by === 'css' ? best.value : (facts.css[facts.css.length - 1] ?? 'iframe'));
    } finally {
      await owner.dispose().catch(() => undefined);
    }
  }
  return chain;
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
