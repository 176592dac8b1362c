import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import {
  discover,
  enforceLimits,
  precheck,
  type CaptureOutput,
  type CaptureRequest,
  type Handle,
  type StepOptions,
} from './capture.js';
import { ariaFacts } from './dom-facts.js';
import type { PageDocument, PageNode } from './page-capture-source.js';
import { withBase } from './page-wire.js';
import type { TargetInfo } from './page-state.js';
import { dropWorld, pageLocalIdOf, pageNodeIdOf, toNodeId, worldCall, worldContext } from './page-world.js';
import type { AXNodeLike, DomFacts, FrameCapture, PageCapture, TargetCapture } from './types.js';

/**
 * The in-page capture of a whole page (see page-capture-source.ts): each document of each CDP target
 * (the page, out-of-process iframes) computes its own view in its capture world, all in parallel, and
 * sends back only the nodes the snapshot keeps. The result has the shapes the CDP path produces, so
 * building, refs, rendering and budgets are the same code for both.
 *
 * Returns undefined where it cannot answer as the CDP tree would, and the caller captures through CDP
 * instead: a document whose world or script failed, or (when `strict`) one whose click-listener hook
 * was missing or installed late.
 */

interface FrameRef {
  frameId: string;
  loaderId: string;
  parentId?: string;
}

interface TargetPlan {
  handle: Handle;
  frames: FrameRef[];
}

/**
 * An incremental capture: how many documents reused the last capture's nodes outside what changed,
 * and how many of all kept nodes were reused rather than computed again.
 */
export interface IncrementalFact {
  documents: number;
  reusedNodes: number;
  nodes: number;
  /** Nodes that crossed CDP (the rest came as spans of the last capture's list kept here). */
  sentNodes: number;
}

function incrementalFact(results: TargetResult[]): IncrementalFact | undefined {
  const fact: IncrementalFact = { documents: 0, reusedNodes: 0, nodes: 0, sentNodes: 0 };
  for (const r of results) {
    fact.documents += r.incremental.documents;
    fact.reusedNodes += r.incremental.reusedNodes;
    fact.nodes += r.incremental.nodes;
    fact.sentNodes += r.incremental.sentNodes;
  }
  return fact.documents > 0 ? fact : undefined;
}

/** Where the scope element of a scoped snapshot lives: its document and registry id there. */
interface ScopeAt {
  targetKey: string;
  frameId: string;
  localId: number;
}

export async function captureInPage(
  page: ManagedPage,
  request: CaptureRequest,
  strict: boolean,
): Promise<(CaptureOutput & { scopeKey?: string; incremental?: IncrementalFact }) | undefined> {
  const handles = await discover(page);
  const [counts, ...plans] = await Promise.all([
    precheck(handles, request),
    ...handles.map((h) => planTarget(h, request.step())),
  ]);
  enforceLimits(counts, request.limits);
  const live = plans.filter((p): p is TargetPlan => p !== undefined);
  const scope = request.scope && (await locateScope(page, live, request.scope, request.step()));
  if (request.scope && !scope) return undefined;
  const captured = await Promise.all(
    live.map((plan) => captureTarget(page, plan, live, request.step(), scope, request.incremental === true)),
  );
  if (captured.some((c) => c === undefined)) return undefined;
  const results = captured as TargetResult[];
  if (strict && results.some((r) => r.listeners !== 'ok')) return undefined;
  const capture: PageCapture = {
    targets: new Map(),
    mainLoaderId: '',
    title: '',
    hiddenCount: 0,
    uncapturedFrames: 0,
  };
  const targets = new Map<string, TargetInfo>();
  for (const { target, hidden, plan } of results) {
    capture.targets.set(target.key, target);
    capture.hiddenCount += hidden;
    const info: TargetInfo = { key: target.key, frame: plan.handle.frame, rootFrameId: target.rootFrameId };
    if (plan.handle.parent) info.parentKey = plan.handle.parent.key;
    targets.set(target.key, info);
  }
  const main = capture.targets.get('main');
  const root = main?.frames.find((f) => f.frameId === main.rootFrameId);
  capture.mainLoaderId = root?.loaderId ?? '';
  capture.title = results.find((r) => r.target.key === 'main')?.title ?? '';
  const incremental = incrementalFact(results);
  if (!scope) return { capture, targets, partial: false, ...(incremental ? { incremental } : {}) };
  const home = capture.targets.get(scope.targetKey)?.frames.find((f) => f.frameId === scope.frameId);
  const nodeId = home && toNodeId(page, scope.targetKey, scope.frameId, home.loaderId, scope.localId);
  return { capture, targets, partial: false, scopeKey: `${scope.targetKey}|${nodeId ?? ''}` };
}

/**
 * The document and registry id of a scope element, through the browser's node identity (its backend
 * node id resolved in the capture world of the document holding it), or undefined when it cannot be
 * told (the caller then captures through CDP).
 */
async function locateScope(
  page: ManagedPage,
  plans: TargetPlan[],
  scope: { session: CDPSession; objectId: string },
  step: StepOptions,
): Promise<ScopeAt | undefined> {
  const described = await scope.session
    .send('DOM.describeNode', { objectId: scope.objectId }, step)
    .catch(() => undefined);
  if (!described) return undefined;
  for (const plan of plans) {
    if (plan.handle.session !== scope.session) continue;
    for (const f of plan.frames) {
      const localId = await pageLocalIdOf(page, scope.session, f, described.node.backendNodeId, step);
      if (localId !== undefined) return { targetKey: plan.handle.key, frameId: f.frameId, localId };
    }
  }
  return undefined;
}

/** The target's documents with their parents; an out-of-process target is keyed by its root frame id. */
async function planTarget(handle: Handle, step: StepOptions): Promise<TargetPlan | undefined> {
  try {
    const { frameTree } = await handle.session.send('Page.getFrameTree', undefined, step);
    const frames: FrameRef[] = [];
    const visit = (node: typeof frameTree, parentId?: string): void => {
      const ref: FrameRef = { frameId: node.frame.id, loaderId: node.frame.loaderId };
      if (parentId !== undefined) ref.parentId = parentId;
      frames.push(ref);
      node.childFrames?.forEach((c) => visit(c, node.frame.id));
    };
    visit(frameTree);
    if (handle.key !== 'main') handle.key = frameTree.frame.id;
    handle.frames = frames.map((f) => ({ frameId: f.frameId, loaderId: f.loaderId }));
    return { handle, frames };
  } catch (error) {
    if (handle.key === 'main') throw error;
    return undefined;
  }
}

interface TargetResult {
  target: TargetCapture;
  plan: TargetPlan;
  hidden: number;
  title: string;
  listeners: PageDocument['listeners'];
  incremental: IncrementalFact;
}

async function captureTarget(
  page: ManagedPage,
  plan: TargetPlan,
  all: TargetPlan[],
  step: StepOptions,
  scope: ScopeAt | undefined,
  incremental: boolean,
): Promise<TargetResult | undefined> {
  const { handle } = plan;
  const session = handle.session;
  const children = all.filter((p) => p.handle.parent === handle);
  const [docs, localOwners, remoteOwners] = await Promise.all([
    Promise.all(
      plan.frames.map((f) => {
        const scoped = scope && scope.targetKey === handle.key && scope.frameId === f.frameId;
        return captureDocument(page, session, f, step, scoped ? scope.localId : 0, incremental);
      }),
    ),
    Promise.all(
      plan.frames.map((f) => (f.parentId === undefined ? undefined : ownerOf(page, plan, f.frameId, step))),
    ),
    Promise.all(children.map((c) => ownerOf(page, plan, c.handle.key, step))),
  ]);
  if (docs.some((d) => d === undefined)) return undefined;
  const target: TargetCapture = {
    key: handle.key,
    rootFrameId: plan.frames[0]?.frameId ?? '',
    frames: [],
    dom: new Map(),
    localChildFrames: new Map(),
    remoteChildTargets: new Map(),
  };
  let hidden = 0;
  let listeners: PageDocument['listeners'] = 'ok';
  const fact: IncrementalFact = { documents: 0, reusedNodes: 0, nodes: 0, sentNodes: 0 };
  plan.frames.forEach((f, i) => {
    const doc = docs[i] as PageDocument;
    fact.nodes += doc.nodes.length;
    fact.sentNodes += doc.sent ?? doc.nodes.length;
    if (doc.reused !== undefined) {
      fact.documents++;
      fact.reusedNodes += doc.reused;
    }
    const toId = (id: number): number => toNodeId(page, handle.key, f.frameId, f.loaderId, id);
    const frame: FrameCapture = {
      frameId: f.frameId,
      loaderId: f.loaderId,
      nodes: expand(doc.nodes, toId, target.dom),
    };
    target.frames.push(frame);
    hidden += doc.hidden;
    if (doc.listeners !== 'ok' && listeners !== 'missing') listeners = doc.listeners;
    const owner = localOwners[i];
    if (owner !== undefined) target.localChildFrames.set(owner, f.frameId);
  });
  children.forEach((child, i) => {
    const owner = remoteOwners[i];
    if (owner !== undefined) target.remoteChildTargets.set(owner, child.handle.key);
  });
  const title = (docs[0] as PageDocument).title;
  return { target, plan, hidden, title, listeners, incremental: fact };
}

/** One document's view, computed in its capture world (a world lost to a navigation is made again once). */
async function captureDocument(
  page: ManagedPage,
  session: CDPSession,
  frame: FrameRef,
  step: StepOptions,
  scopeId: number,
  incremental: boolean,
): Promise<PageDocument | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const contextId = await worldContext(page, session, frame.frameId, frame.loaderId, step);
      const { result, exceptionDetails } = await session.send(
        'Runtime.evaluate',
        { contextId, expression: worldCall('capture', scopeId, incremental), returnByValue: true },
        step,
      );
      if (!exceptionDetails)
        return await withBase(page, session, contextId, frame, result.value as PageDocument, step);
    } catch {
      // The context went away (navigation, detached frame): make the world again, once.
    }
    dropWorld(page, session, frame.frameId);
  }
  return undefined;
}

/**
 * The snapshot node id of the iframe element hosting `frameId`, looked up in the documents of the
 * target that holds it (its parent document first).
 */
async function ownerOf(
  page: ManagedPage,
  plan: TargetPlan,
  frameId: string,
  step: StepOptions,
): Promise<number | undefined> {
  const owner = await plan.handle.session.send('DOM.getFrameOwner', { frameId }, step).catch(() => undefined);
  if (!owner) return undefined;
  const parentId = plan.frames.find((f) => f.frameId === frameId)?.parentId;
  const ordered = [...plan.frames].sort(
    (a, b) => Number(b.frameId === parentId) - Number(a.frameId === parentId),
  );
  for (const f of ordered) {
    if (f.frameId === frameId) continue;
    const where = { targetKey: plan.handle.key, frameId: f.frameId, loaderId: f.loaderId };
    const id = await pageNodeIdOf(page, plan.handle.session, where, owner.backendNodeId, step);
    if (id !== undefined) return id;
  }
  return undefined;
}

/** The page's compact nodes as the CDP shapes the builder reads; element facts go into `dom`. */
function expand(nodes: PageNode[], toId: (id: number) => number, dom: Map<number, DomFacts>): AXNodeLike[] {
  const out: AXNodeLike[] = nodes.map((n, index) => {
    const nodeId = String(index);
    if (n.h) return { nodeId, ignored: true, ignoredReasons: [{ name: 'ariaHiddenElement' }] };
    const node: AXNodeLike = {
      nodeId,
      ignored: n.g === 1,
      role: { type: 'role', value: n.r },
      name: { type: 'computedString', value: n.n ?? '' },
    };
    if (n.c) node.childIds = n.c.map(String);
    if (n.v !== undefined) node.value = { type: typeof n.v === 'number' ? 'number' : 'string', value: n.v };
    if (n.p)
      node.properties = Object.entries(n.p).map(([name, value]) => ({
        name,
        value: { type: typeof value, value },
      }));
    if (n.i !== undefined) {
      const id = toId(n.i);
      node.backendDOMNodeId = id;
      if (n.nb !== 1) dom.set(id, factsOf(n));
    }
    return node;
  });
  // No parentId: the builder takes the node without one as the root, and the page's root is first.
  return out;
}

function factsOf(n: PageNode): DomFacts {
  const facts: DomFacts = { clickable: n.k === 1, tabbable: n.t === 1, inline: n.l === 1 };
  if (n.it !== undefined) facts.inputType = n.it;
  if (n.ac !== undefined) facts.autocomplete = n.ac;
  if (n.dg === 1) facts.draggable = true;
  if (n.dt === 1) facts.dropTarget = true;
  if (n.ed === 1) facts.editable = true;
  if (n.an === 1) facts.anchor = true;
  const aria = n.a && ariaFacts(new Map(Object.entries(n.a)));
  if (aria) facts.aria = aria;
  return facts;
}
