import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import type { StepOptions } from './capture.js';
import { CAPTURE_KEY, CAPTURE_SOURCE } from './page-capture-source.js';
import { LISTENERS_HOOK_SOURCE } from './page-listeners-source.js';

/**
 * The isolated world each document's in-page capture lives in: created once per document (frame +
 * loader) in the CDP session that owns the frame, with the capture script evaluated into it once and
 * kept under a registered symbol. The page's scripts cannot reach it, and a page that forbids
 * scripts (CSP, sandbox) does not stop it, since the browser runs it, not the page.
 *
 * In-page element ids become snapshot node ids through `toNodeId`: a negative number, unique per
 * CDP target (one slot per document in it), so they never meet a CDP backend node id, and a ref
 * knows from its sign how to find its element again (`resolvePageNode`).
 */

/** Registry ids per document stay below this; the document's slot takes the bits above. */
const SLOT_SPAN = 2 ** 26;

interface World {
  loaderId: string;
  contextId: Promise<number>;
  /** The capture script, evaluated into the world the first time a capture needs it. */
  capture?: Promise<number> | undefined;
}

class PageWorlds {
  readonly worlds = new Map<string, World>();
  readonly slots = new Map<string, number>();
  readonly documents = new Map<number, { frameId: string; loaderId: string }>();
  nextSlot = 1;
}

const WORLDS = Symbol('browsermesh.snapshot.pageWorlds');

function worldsOf(page: ManagedPage): PageWorlds {
  return page.state(WORLDS, () => new PageWorlds());
}

/** A cache key for one document's world; sessions are told apart by their own identity. */
const sessionIds = new WeakMap<CDPSession, number>();
let nextSessionId = 1;
function worldKey(session: CDPSession, frameId: string): string {
  let id = sessionIds.get(session);
  if (id === undefined) {
    id = nextSessionId++;
    sessionIds.set(session, id);
  }
  return `${id}|${frameId}`;
}

/**
 * The execution context of the document's capture world, created once; the capture script is
 * evaluated into it once, when a caller first needs it (`withCapture`). The in-page locator resolver
 * builds its own code there and does not need it: an action on a new document by a locator (code
 * mode) does not pay for the capture script.
 */
export function worldContext(
  page: ManagedPage,
  session: CDPSession,
  frameId: string,
  loaderId: string,
  step: StepOptions,
  withCapture = true,
): Promise<number> {
  const worlds = worldsOf(page);
  const key = worldKey(session, frameId);
  let world = worlds.worlds.get(key);
  if (!world || world.loaderId !== loaderId) {
    const contextId = createWorld(session, frameId, step);
    world = { loaderId, contextId };
    worlds.worlds.set(key, world);
    contextId.catch(() => {
      if (worlds.worlds.get(key)?.contextId === contextId) worlds.worlds.delete(key);
    });
  }
  if (!withCapture) return world.contextId;
  if (world.capture !== undefined) return world.capture;
  const known = world;
  const capture = known.contextId.then((contextId) => installCapture(session, contextId, step));
  known.capture = capture;
  capture.catch(() => {
    if (known.capture === capture) known.capture = undefined;
  });
  return capture;
}

/** Forgets a world whose context is gone (the document went away mid-capture). */
export function dropWorld(page: ManagedPage, session: CDPSession, frameId: string): void {
  worldsOf(page).worlds.delete(worldKey(session, frameId));
}

async function createWorld(session: CDPSession, frameId: string, step: StepOptions): Promise<number> {
  const { executionContextId } = await session.send(
    'Page.createIsolatedWorld',
    { frameId, worldName: '__browsermesh_snapshot', grantUniveralAccess: false },
    step,
  );
  return executionContextId;
}

async function installCapture(
  session: CDPSession,
  executionContextId: number,
  step: StepOptions,
): Promise<number> {
  const installed = await session.send(
    'Runtime.evaluate',
    {
      contextId: executionContextId,
      expression: `globalThis[Symbol.for(${JSON.stringify(CAPTURE_KEY)})] = ${CAPTURE_SOURCE}, true`,
      returnByValue: true,
    },
    step,
  );
  if (installed.exceptionDetails) throw new Error('the capture script did not install');
  return executionContextId;
}

/** An expression calling the capture world's `fn` with the given JSON-able arguments. */
export function worldCall(fn: string, ...args: unknown[]): string {
  const list = args.map((a) => JSON.stringify(a)).join(', ');
  return `globalThis[Symbol.for(${JSON.stringify(CAPTURE_KEY)})].${fn}(${list})`;
}

/** The snapshot node id of registry id `id` in one document of one target. */
export function toNodeId(
  page: ManagedPage,
  targetKey: string,
  frameId: string,
  loaderId: string,
  id: number,
): number {
  const worlds = worldsOf(page);
  const key = `${targetKey}|${frameId}|${loaderId}`;
  let slot = worlds.slots.get(key);
  if (slot === undefined) {
    slot = worlds.nextSlot++;
    worlds.slots.set(key, slot);
    worlds.documents.set(slot, { frameId, loaderId });
  }
  return -(slot * SLOT_SPAN + id);
}

/** Whether a snapshot node id came from the in-page capture. */
export function isPageNodeId(nodeId: number): boolean {
  return nodeId < 0;
}

/**
 * The element behind an in-page node id, as a main-world object in `session` (what every element
 * operation expects), or undefined when its document or element is gone. Goes through the browser's
 * node identity: the registry's element → its backend node id → that node resolved in the main world.
 */
export async function resolvePageNode(
  page: ManagedPage,
  session: CDPSession,
  nodeId: number,
  step: StepOptions,
  objectGroup?: string,
): Promise<{ objectId: string; backendNodeId: number; inWorld?: string } | undefined> {
  const worlds = worldsOf(page);
  const doc = worlds.documents.get(Math.floor(-nodeId / SLOT_SPAN));
  const known = doc && worlds.worlds.get(worldKey(session, doc.frameId));
  if (!known || known.loaderId !== doc?.loaderId) return undefined;
  const id = -nodeId % SLOT_SPAN;
  try {
    const contextId = await known.contextId;
    const found = await session.send(
      'Runtime.evaluate',
      { contextId, expression: worldCall('element', id), objectGroup: objectGroup ?? 'browsermesh-ref' },
      step,
    );
    const isolated = found.result.objectId;
    if (!isolated || found.result.subtype !== 'node') return undefined;
    const { node } = await session.send('DOM.describeNode', { objectId: isolated }, step);
    const resolved = await session.send(
      'DOM.resolveNode',
      { backendNodeId: node.backendNodeId, ...(objectGroup ? { objectGroup } : {}) },
      step,
    );
    if (!objectGroup)
      await session.send('Runtime.releaseObject', { objectId: isolated }, step).catch(() => undefined);
    const objectId = resolved.object.objectId;
    if (!objectId) return undefined;
    // Kept in the caller's group: the action log asks the in-page resolver about it (uniqueInPage).
    return { objectId, backendNodeId: node.backendNodeId, ...(objectGroup ? { inWorld: isolated } : {}) };
  } catch {
    return undefined;
  }
}

/** The registry id of an element given as a backend node id in `session`, in one document's world. */
export async function pageLocalIdOf(
  page: ManagedPage,
  session: CDPSession,
  where: { frameId: string; loaderId: string },
  backendNodeId: number,
  step: StepOptions,
): Promise<number | undefined> {
  try {
    const contextId = await worldContext(page, session, where.frameId, where.loaderId, step);
    const { object } = await session.send(
      'DOM.resolveNode',
      { backendNodeId, executionContextId: contextId },
      step,
    );
    if (!object.objectId) return undefined;
    const { result } = await session.send(
      'Runtime.callFunctionOn',
      {
        objectId: object.objectId,
        // A node of a same-origin child document resolves in this world too: only this document's own count.
        functionDeclaration:
          `function () { return this.ownerDocument === document ? ${worldCall('idOf')} : undefined; }`.replace(
            'idOf()',
            'idOf(this)',
          ),
        returnByValue: true,
      },
      step,
    );
    await session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => undefined);
    return typeof result.value === 'number' ? result.value : undefined;
  } catch {
    return undefined;
  }
}

/** The in-page node id of an element given as a backend node id in `session` (an iframe element). */
export async function pageNodeIdOf(
  page: ManagedPage,
  session: CDPSession,
  where: { targetKey: string; frameId: string; loaderId: string },
  backendNodeId: number,
  step: StepOptions,
): Promise<number | undefined> {
  const id = await pageLocalIdOf(page, session, where, backendNodeId, step);
  return id === undefined ? undefined : toNodeId(page, where.targetKey, where.frameId, where.loaderId, id);
}

const HOOKED = Symbol('browsermesh.snapshot.listenersHook');

/**
 * Installs the click-listener hook (page-listeners-source.ts) once per page: before the page's own
 * scripts in every later document, and late in the current one. Never fatal: without it, the `auto`
 * capture answers from the CDP tree.
 */
export function ensureListenersHook(page: ManagedPage): Promise<void> {
  return page.state(HOOKED, () =>
    (async () => {
      const cdp = await page.cdp();
      await cdp.send('Page.enable').catch(() => undefined);
      await cdp
        .send('Page.addScriptToEvaluateOnNewDocument', { source: `(${LISTENERS_HOOK_SOURCE})(false);` })
        .catch(() => undefined);
      await cdp
        .send('Runtime.evaluate', { expression: `(${LISTENERS_HOOK_SOURCE})(true)` })
        .catch(() => undefined);
    })(),
  );
}
