import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../../engine/page.js';
import type { StepOptions } from '../../snapshot/step.js';
import { dropWorld, worldContext } from '../../snapshot/page-world.js';
import type { CheckedLocator } from './locator-spec.js';
import { LOCATE_FUNCTION, UNBUILT, UNIQUES_FUNCTION, type InPageQuery } from './page-locate-source.js';
import { OBJECT_GROUP, type ElementTarget, type RemoteElement } from './remote-element.js';

export type { InPageQuery } from './page-locate-source.js';

/**
 * Locators answered in the page (docs/performance.md, "Locators resolved in the page"): the main
 * frame's capture world runs the in-page role/name code, so no Playwright engine is built in a new
 * document. Only a single, sure match is taken here; none, several, or unsure go to Playwright's
 * engine, which then gives today's answer (its wait, its ambiguity error). The accuracy guard
 * (test/integration/locate-in-page.test.ts) compares both resolvers on every fixture page.
 */

/** Roles whose Playwright and in-page answers agree on the fixture pages; others go to Playwright. */
const FAST_ROLES: ReadonlySet<string> = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'heading',
  'slider',
  'spinbutton',
  'dialog',
  'alertdialog',
  'navigation',
  'main',
  'img',
  'list',
  'listitem',
  'progressbar',
  'switch',
  'tab',
  'tabpanel',
  'tablist',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'strong',
  'emphasis',
]);

/** FAST_ROLES that take getByRole's `level` (Playwright refuses it on any other role). */
const LEVEL_ROLES: ReadonlySet<string> = new Set(['heading', 'listitem']);

/**
 * A selector Playwright reads as CSS: not an engine prefix (`text=`, `xpath=`, `id=`…), not a
 * quoted text or XPath shorthand, no `>>` chain. Pseudo-classes only Playwright knows (:has-text,
 * :visible…) make querySelectorAll throw in the page, which answers "unsure" then.
 */
function isPlainCss(selector: string): boolean {
  const s = selector.trim();
  if (s === '' || s.includes('>>')) return false;
  if (/^[a-zA-Z][\w-]*=/.test(s)) return false;
  return !/^(["'/]|\.\.)/.test(s);
}

/** A tools locator as an in-page query, when it is one the page can answer (main frame, common kinds). */
export function inPageQueryOf(checked: CheckedLocator): InPageQuery | undefined {
  if (checked.chain.length > 0) return undefined;
  const { strategy, value, exact } = checked;
  if (strategy === 'role') {
    if (!FAST_ROLES.has(value)) return undefined;
    return {
      kind: 'role',
      value,
      exact,
      name: checked.name === undefined ? undefined : { text: checked.name },
    };
  }
  if (strategy === 'label' || strategy === 'placeholder' || strategy === 'text')
    return { kind: strategy, value: '', exact, name: { text: value } };
  if (strategy === 'testId') return { kind: 'testId', value, exact: true };
  if (strategy === 'css' && isPlainCss(value)) return { kind: 'css', value, exact: true };
  return undefined;
}

interface PatternLike {
  source: string;
  flags: string;
}

/**
 * A code-mode selector (`{ base, steps }`, read by shape so this layer needs no face's types) as an
 * in-page query: a bare getByRole (name and exact only), getByLabel, getByPlaceholder or getByTestId.
 */
export function inPageQueryOfSelector(selector: {
  base: unknown;
  steps: readonly unknown[];
}): InPageQuery | undefined {
  if (selector.steps.length > 0) return undefined;
  const base = selector.base as Record<string, unknown>;
  const exact = base.exact === true;
  switch (base.kind) {
    case 'role': {
      const role = base.role;
      const extra = Object.keys(base).filter((k) => !['kind', 'role', 'name', 'exact', 'level'].includes(k));
      if (typeof role !== 'string' || !FAST_ROLES.has(role) || extra.length > 0) return undefined;
      if (base.name !== undefined && typeof base.name !== 'string') return undefined;
      const level = base.level;
      if (level !== undefined && (typeof level !== 'number' || !LEVEL_ROLES.has(role))) return undefined;
      return {
        kind: 'role',
        value: role,
        exact,
        name: base.name === undefined ? undefined : { text: base.name },
        ...(level !== undefined ? { level } : {}),
      };
    }
    case 'css':
      return typeof base.selector === 'string' && isPlainCss(base.selector)
        ? { kind: 'css', value: base.selector, exact: true }
        : undefined;
    case 'label':
    case 'placeholder': {
      const text = base.text;
      if (typeof text === 'string') return { kind: base.kind, value: '', exact, name: { text } };
      if (isPattern(text))
        return { kind: base.kind, value: '', exact, name: { source: text.source, flags: text.flags } };
      return undefined;
    }
    case 'text':
      return typeof base.text === 'string'
        ? { kind: 'text', value: '', exact, name: { text: base.text } }
        : undefined;
    case 'testId':
      return typeof base.testId === 'string'
        ? { kind: 'testId', value: base.testId, exact: true }
        : undefined;
    default:
      return undefined;
  }
}

function isPattern(value: unknown): value is PatternLike {
  if (typeof value !== 'object' || value === null) return false;
  const { source, flags } = value as Record<string, unknown>;
  return (
    typeof source === 'string' && typeof flags === 'string' && !flags.includes('g') && !flags.includes('y')
  );
}

/** What the page answered: the one element (a main-world object), a count, or nothing sure. */
export type InPageAnswer = { element: RemoteElement & { inWorld: string } } | { count: number } | undefined;

/** Resolves `query` in the page's main frame; undefined where the page cannot answer for sure. */
export async function locateInPage(
  page: ManagedPage,
  query: InPageQuery,
  step: StepOptions,
): Promise<InPageAnswer> {
  if (query.kind === 'role' && !FAST_ROLES.has(query.value)) return undefined;
  const cdp = await page.cdp();
  try {
    const { frameId, loaderId } = await mainDocument(cdp, step);
    const contextId = await worldContext(page, cdp, frameId, loaderId, step, false);
    const called = await callResolver(
      cdp,
      LOCATE_FUNCTION,
      { executionContextId: contextId, arguments: [{ value: query }], objectGroup: OBJECT_GROUP },
      step,
    ).catch((error: unknown) => {
      dropWorld(page, cdp, frameId);
      throw error;
    });
    if (called.exceptionDetails) return undefined;
    const { result } = called;
    if (result.type === 'number') {
      const count = Number(result.value);
      return count >= 0 ? { count } : undefined;
    }
    if (result.subtype !== 'node' || !result.objectId) return undefined;
    // Actions run on main-world objects (page frameworks see their own element wrappers there).
    const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId }, step);
    const { object } = await cdp.send(
      'DOM.resolveNode',
      { backendNodeId: node.backendNodeId, objectGroup: OBJECT_GROUP },
      step,
    );
    return object.objectId
      ? { element: { cdp, objectId: object.objectId, inWorld: result.objectId } }
      : undefined;
  } catch {
    return undefined;
  }
}

interface MainDocument {
  frameId: string;
  loaderId: string;
  /** The first read, or undefined until it is asked (again, after a failure). */
  read?: Promise<MainDocument> | undefined;
}

/** The main frame's id and document, per session: read once, then kept current by its events. */
const mainDocuments = new WeakMap<CDPSession, MainDocument>();

/**
 * The main frame's document without a round trip per call (an action by locator asked for it each
 * time). A navigation that commits after it is read makes the call fail in the gone world, which
 * answers "ask Playwright", as a frame tree read just before would.
 */
function mainDocument(cdp: CDPSession, step: StepOptions): Promise<MainDocument> {
  let doc = mainDocuments.get(cdp);
  if (!doc) {
    const known: MainDocument = { frameId: '', loaderId: '' };
    cdp.on('Page.frameNavigated', ({ frame }) => {
      if (frame.parentId !== undefined) return;
      known.frameId = frame.id;
      known.loaderId = frame.loaderId;
    });
    mainDocuments.set(cdp, known);
    doc = known;
    // The events need the Page domain on this session (the actions' tracker enables it too); sent
    // ahead of the read, so it holds from the read's answer on.
    void cdp.send('Page.enable').catch(() => undefined);
  }
  const current = doc;
  current.read ??= cdp.send('Page.getFrameTree', undefined, step).then(
    ({ frameTree }) => {
      // An event that came first is at least as new as this answer.
      if (current.frameId === '') {
        current.frameId = frameTree.frame.id;
        current.loaderId = frameTree.frame.loaderId;
      }
      return current;
    },
    (error: unknown) => {
      current.read = undefined;
      throw error;
    },
  );
  return current.read;
}

/** Per query: true (matches exactly the element), false (does not), undefined (ask Playwright). */
export type Uniqueness = (boolean | undefined)[];

/**
 * Which queries match exactly `target` (an element of the main frame), in one call in its capture
 * world; undefined where the page cannot answer (another frame, a world that failed).
 */
export async function uniqueInPage(
  page: ManagedPage,
  target: ElementTarget,
  queries: (InPageQuery | undefined)[],
  step: StepOptions,
): Promise<Uniqueness | undefined> {
  const cdp = await page.cdp();
  if (target.cdp !== cdp || target.frameOwners.length > 0) return undefined;
  const list = queries.map((q) => (q?.kind === 'role' && !FAST_ROLES.has(q.value) ? undefined : q));
  try {
    if (target.inWorld !== undefined) {
      const answers = await uniquesOn(cdp, target.inWorld, list, step).catch(() => undefined);
      if (answers !== undefined) return answers;
    }
    const [{ frameTree }, described] = await Promise.all([
      cdp.send('Page.getFrameTree', undefined, step),
      cdp.send('DOM.describeNode', { objectId: target.objectId }, step),
    ]);
    const { id: frameId, loaderId } = frameTree.frame;
    const contextId = await worldContext(page, cdp, frameId, loaderId, step, false);
    const { object } = await cdp.send(
      'DOM.resolveNode',
      {
        backendNodeId: described.node.backendNodeId,
        executionContextId: contextId,
        objectGroup: OBJECT_GROUP,
      },
      step,
    );
    if (!object.objectId) return undefined;
    return await uniquesOn(cdp, object.objectId, list, step);
  } catch {
    return undefined;
  }
}

/** A query's key in the verdicts a page call sends keyed (the same text is built in the page). */
export function queryKey(q: InPageQuery): string {
  const name = q.name !== undefined && 'text' in q.name ? q.name.text : null;
  return JSON.stringify([q.kind, q.value, q.exact, name]);
}

/**
 * The page's verdicts on `queries`, read from the keyed pairs it sent; undefined when one the page
 * could answer is missing (the caller asks with uniqueInPage then).
 */
export function verdictsFrom(
  queries: (InPageQuery | undefined)[],
  pairs: [string, number][],
): Uniqueness | undefined {
  const byKey = new Map(pairs);
  const out: Uniqueness = [];
  for (const q of queries) {
    if (q === undefined || (q.kind === 'role' && !FAST_ROLES.has(q.value))) {
      out.push(undefined);
      continue;
    }
    const verdict = byKey.get(queryKey(q));
    if (verdict === undefined) return undefined;
    out.push(verdict === -1 ? undefined : verdict === 1);
  }
  return out;
}

/** UNIQUES_FUNCTION on the element's capture-world object; undefined when the answer is unusable. */
async function uniquesOn(
  cdp: CDPSession,
  objectId: string,
  list: (InPageQuery | undefined)[],
  step: StepOptions,
): Promise<Uniqueness | undefined> {
  const called = await callResolver(
    cdp,
    UNIQUES_FUNCTION,
    { objectId, arguments: [{ value: list.map((q) => q ?? { kind: 'none' }) }], returnByValue: true },
    step,
  );
  const answers = called.result.value as unknown;
  if (called.exceptionDetails || !Array.isArray(answers) || answers.length !== list.length) return undefined;
  return answers.map((a, i) => (list[i] === undefined || a === -1 ? undefined : a === 1));
}

/** What Runtime.callFunctionOn answers, as far as the callers read it. */
interface CallResult {
  result: { type: string; subtype?: string; value?: unknown; objectId?: string };
  exceptionDetails?: unknown;
}

interface CallParams {
  objectId?: string;
  executionContextId?: number;
  arguments: { value: unknown }[];
  objectGroup?: string;
  returnByValue?: boolean;
}

/**
 * Calls the resolver in its world: the short form first, and the full one (which builds the resolver)
 * only where the short one found it unbuilt, so each call after a document's first sends a few
 * hundred bytes instead of the resolver's source.
 */
export async function callResolver(
  cdp: CDPSession,
  fn: { short: string; full: string },
  params: CallParams,
  step: StepOptions,
): Promise<CallResult> {
  const send = (functionDeclaration: string) =>
    cdp.send('Runtime.callFunctionOn', { ...params, functionDeclaration }, step);
  const first = await send(fn.short);
  if (first.exceptionDetails || first.result.value !== UNBUILT) return first;
  return send(fn.full);
}
