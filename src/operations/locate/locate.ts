import { randomBytes } from 'node:crypto';
import type { CDPSession, Frame, Locator } from 'playwright-core';
import { BrowserMeshError, ErrorCodes, invalidArgument, isBrowserMeshError } from '../../errors.js';
import type { Deadline } from '../../engine/deadline.js';
import type { ManagedPage } from '../../engine/page.js';
import { resolveRefTarget } from './ref-target.js';
import {
  checkLocator,
  describeFrameStep,
  toFrameStepLocator,
  toPlaywrightLocator,
  type CheckedLocator,
  type TargetSpec,
} from './locator-spec.js';
import { frameSession } from '../../snapshot/page-state.js';
import { OBJECT_GROUP, type ElementTarget, type RemoteElement } from './remote-element.js';
import { inPageQueryOf, locateInPage, type InPageQuery } from './in-page-locate.js';

/** How long a locator that matches nothing may wait for its element to appear before ELEMENT_NOT_FOUND. */
export const APPEAR_WINDOW_MS = 1500;
const RETRY_DELAYS_MS = [0, 25, 50, 75, 100];

/**
 * Resolves exactly one of `ref` or `locator` to a live element. Refs go through the snapshot's node
 * identity; locators are matched by Playwright's own engine (role, name, label… semantics), frame by
 * frame outside-in, each step strict. Ambiguity fails at once with the count; no match fails with
 * what was searched after a short bounded wait, never a full-timeout OPERATION_TIMEOUT.
 * `field` names the target in errors ('' when ref/locator are top-level arguments of the tool).
 */
export async function resolveTarget(
  page: ManagedPage,
  target: TargetSpec,
  deadline: Deadline,
  field = 'target',
  signal?: AbortSignal,
): Promise<ElementTarget> {
  const hasRef = target.ref !== undefined;
  const hasLocator = target.locator !== undefined;
  if (target.built !== undefined && !hasRef && !hasLocator) {
    const built = target.built;
    const searched: Searched = {
      chain: [],
      strategy: 'built',
      description: built.description,
      element: built.build,
      inPage: built.inPage,
    };
    return locate(page, searched, deadline, field === '' ? 'locator' : field, signal);
  }
  if (hasRef === hasLocator || target.built !== undefined) {
    throw invalidArgument(
      field === '' ? 'locator' : field,
      `give exactly one of ref or locator (got ${hasRef || hasLocator ? 'both' : 'neither'})`,
    );
  }
  if (target.ref !== undefined) return resolveRefTarget(page, target.ref, deadline, field, signal);
  const locatorField = field === '' ? 'locator' : `${field}.locator`;
  const checked = checkLocator(target.locator ?? {}, locatorField);
  const element = (frame: Frame): Locator => toPlaywrightLocator(frame, checked);
  return locate(
    page,
    { ...checked, element, inPage: inPageQueryOf(checked) },
    deadline,
    locatorField,
    signal,
  );
}

/** What `locate` searches: a frame chain, then one element locator in the innermost frame. */
interface Searched {
  chain: CheckedLocator['chain'];
  strategy: string;
  description: string;
  element(frame: Frame): Locator;
  /** The same locator as the in-page resolver reads it, when it can (main frame, common kinds). */
  inPage?: InPageQuery | undefined;
}

async function locate(
  page: ManagedPage,
  checked: Searched,
  deadline: Deadline,
  field: string,
  signal?: AbortSignal,
): Promise<ElementTarget> {
  const started = Date.now();
  const windowEnd = started + Math.min(APPEAR_WINDOW_MS, deadline.remainingMs());
  let lastMiss: Miss | undefined;
  for (let attempt = 0; ; attempt++) {
    deadline.check();
    if (signal?.aborted)
      throw new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'Operation was cancelled by the caller');
    const outcome = await locateOnce(page, checked, field, deadline);
    if (!('miss' in outcome)) return outcome;
    lastMiss = outcome.miss;
    const delay = RETRY_DELAYS_MS[Math.min(attempt + 1, RETRY_DELAYS_MS.length - 1)] ?? 100;
    if (Date.now() + delay >= windowEnd) break;
    await sleep(delay);
  }
  throw notFound(checked, lastMiss, Date.now() - started, field);
}

interface Miss {
  /** Index of the frame step that found nothing, or -1 for the element itself. */
  step: number;
}

interface Scope {
  frame: Frame;
  /** Where stashed elements of this frame are read back: the session and, below a session's root frame, its document. */
  cdp: CDPSession;
  documentObjectId: string | undefined;
  owners: RemoteElement[];
}

async function locateOnce(
  page: ManagedPage,
  checked: Searched,
  field: string,
  deadline: Deadline,
): Promise<ElementTarget | { miss: Miss }> {
  if (checked.inPage && checked.chain.length === 0) {
    // One sure match is taken from the page; none, several or unsure are Playwright's to answer.
    const answer = await locateInPage(page, checked.inPage, { timeout: deadline.stepTimeoutMs() });
    if (answer && 'element' in answer)
      return { ...answer.element, frameOwners: [], description: checked.description };
  }
  let scope: Scope = {
    frame: page.page.mainFrame(),
    cdp: await page.cdp(),
    documentObjectId: undefined,
    owners: [],
  };
  for (const [i, step] of checked.chain.entries()) {
    const stepField = `${field}.frame.chain.${i}`;
    const owner = await pick(
      scope,
      toFrameStepLocator(scope.frame, step),
      stepField,
      `iframe ${describeFrameStep(step)}`,
    );
    if (!owner) return { miss: { step: i } };
    const child = await enterFrame(page, scope, owner.locator, owner.element, deadline);
    if (!child) return { miss: { step: i } };
    scope = child;
  }
  const found = await pick(scope, checked.element(scope.frame), field, checked.description);
  if (!found) return { miss: { step: -1 } };
  return { ...found.element, frameOwners: scope.owners, description: checked.description };
}

/**
 * Counts the matches and, when there is exactly one, hands it to CDP in the same page call: the element
 * is parked for one round trip under a random, non-enumerable window property that the CDP read deletes.
 * No attribute is written (a MutationObserver would see it) and nothing stays behind. Counting and
 * parking in one call means the element counted is the element acted on.
 */
async function pick(
  scope: Scope,
  locator: Locator,
  field: string,
  what: string,
): Promise<{ element: RemoteElement; locator: Locator } | undefined> {
  const key = `__bm${randomBytes(9).toString('hex')}`;
  const count = await locator.evaluateAll(parkIfSingle, key).catch((error: unknown) => {
    if (isDetachedError(error)) return 0;
    throw toLocatorError(error, field);
  });
  if (count === 0) return undefined;
  if (count > 1) {
    throw new BrowserMeshError(
      ErrorCodes.LOCATOR_AMBIGUOUS,
      `${what} matches ${count} elements; narrow it (name, exact, frame) or use a ref from browser_snapshot`,
      {
        details: { field, count },
      },
    );
  }
  const objectId = await takeParked(scope, key);
  if (!objectId) {
    await scope.frame
      .evaluate((k) => delete (window as unknown as Record<string, unknown>)[k], key)
      .catch(() => undefined);
    return undefined;
  }
  return { element: { cdp: scope.cdp, objectId }, locator };
}

function parkIfSingle(elements: Element[], key: string): number {
  if (elements.length === 1)
    Object.defineProperty(window, key, { value: elements[0], configurable: true, enumerable: false });
  return elements.length;
}

async function takeParked(scope: Scope, key: string): Promise<string | undefined> {
  const take = `function(k){const w=this&&this.defaultView?this.defaultView:globalThis;const v=w[k];delete w[k];return v;}`;
  const result = scope.documentObjectId
    ? await scope.cdp.send('Runtime.callFunctionOn', {
        objectId: scope.documentObjectId,
        functionDeclaration: take,
        arguments: [{ value: key }],
        objectGroup: OBJECT_GROUP,
      })
    : await scope.cdp.send('Runtime.evaluate', {
        expression: `(${take})(${JSON.stringify(key)})`,
        objectGroup: OBJECT_GROUP,
      });
  const value = result.result;
  return value.subtype === 'node' ? value.objectId : undefined;
}

/**
 * Steps into an iframe. In the same process its document is reached through the DOM domain; an
 * out-of-process iframe (another site) has its own CDP target and session.
 */
async function enterFrame(
  page: ManagedPage,
  scope: Scope,
  ownerLocator: Locator,
  owner: RemoteElement,
  deadline: Deadline,
): Promise<Scope | undefined> {
  // The iframe was just counted (exactly one), so this resolves at once; Playwright's timer needs slack.
  const handle = await ownerLocator
    .elementHandle({ timeout: Math.min(deadline.stepTimeoutMs(), 5000) })
    .catch(() => null);
  const frame = await handle?.contentFrame().catch(() => null);
  await handle?.dispose().catch(() => undefined);
  if (!frame) return undefined;
  const owners = [...scope.owners, owner];
  const { node } = await scope.cdp.send('DOM.describeNode', { objectId: owner.objectId });
  if (node.contentDocument) {
    const { object } = await scope.cdp.send('DOM.resolveNode', {
      backendNodeId: node.contentDocument.backendNodeId,
      objectGroup: OBJECT_GROUP,
    });
    if (!object.objectId) return undefined;
    return { frame, cdp: scope.cdp, documentObjectId: object.objectId, owners };
  }
  // Shared with the snapshot layer: one CDP session per out-of-process frame.
  const cdp = await frameSession(page, frame);
  return cdp ? { frame, cdp, documentObjectId: undefined, owners } : undefined;
}

function notFound(
  checked: Searched,
  miss: Miss | undefined,
  searchedMs: number,
  field: string,
): BrowserMeshError {
  const step = miss?.step ?? -1;
  const frameStep = checked.chain[step];
  const where = frameStep
    ? `no iframe matches frame.chain[${step}] (${describeFrameStep(frameStep)})`
    : `no element matches ${checked.description}`;
  const scope = checked.chain.length > 0 ? ` inside a ${checked.chain.length}-step frame chain` : '';
  return new BrowserMeshError(
    ErrorCodes.ELEMENT_NOT_FOUND,
    `${where}${frameStep ? '' : scope} (searched ${searchedMs} ms)`,
    {
      details: {
        field: frameStep ? `${field}.frame.chain.${step}` : field,
        strategy: checked.strategy,
        searchedMs,
        frameDepth: checked.chain.length,
      },
      recoveryHint: 'Check the name with browser_snapshot, or wait for the element with browser_wait first.',
    },
  );
}

function isDetachedError(error: unknown): boolean {
  const text = error instanceof Error ? error.message : '';
  return /detached|Execution context was destroyed|Target closed|navigat/i.test(text);
}

/** Invalid selectors are the caller's; anything else is the browser's. */
function toLocatorError(error: unknown, field: string): BrowserMeshError {
  if (isBrowserMeshError(error)) return error;
  const text = error instanceof Error ? error.message : '';
  if (/selector|Unexpected token|parse/i.test(text)) return invalidArgument(field, 'is not a valid selector');
  return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'Locating the element failed', { cause: error });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
