import type { CDPSession, Frame } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { ManagedPage } from '../engine/page.js';
import { indexDomSnapshot, SNAPSHOT_STYLES } from './dom-facts.js';
import { frameSession, type TargetInfo } from './page-state.js';
import { PRECHECK, type PrecheckCount } from './precheck.js';
import { frameTreeNodes, locateScopeTree, type ScopeTree } from './scope-tree.js';
import type { StepOptions } from './step.js';
import type { FrameCapture, PageCapture, TargetCapture } from './types.js';

/**
 * Captures a page with as few sequential browser round trips as possible: one to learn the frames of
 * every target (page and out-of-process iframes, all in parallel) together with the pre-capture size
 * check (and, when scoped, the path to the scope element), and one to fetch every frame's accessibility
 * tree, each target's DOM snapshot and the owners of out-of-process iframes (again all in parallel).
 *
 * Where the time goes on a large page (/large, ~10,700 accessibility nodes): the full accessibility tree
 * is ~4 MB of JSON (name sources and inline text boxes included, which CDP cannot leave out) and takes
 * ~80% of the capture; the DOM snapshot runs beside it on the renderer, and building and rendering
 * take the rest. A scoped snapshot therefore fetches the accessibility tree of its scope only.
 */

export type { StepOptions } from './step.js';

export interface CaptureLimits {
  maxNodes: number;
  maxSourceChars: number;
}

/** A scoped snapshot checks only the scope element's subtree (in the session that owns it). */
export interface ScopeCheck {
  session: CDPSession;
  objectId: string;
}

export interface CaptureRequest {
  boxes: boolean;
  limits: CaptureLimits;
  scope?: ScopeCheck | undefined;
  step: () => StepOptions;
  /** The in-page capture may reuse the last capture's nodes outside what changed (page-incremental-source.ts). */
  incremental?: boolean | undefined;
}

export interface Handle {
  frame: Frame;
  session: CDPSession;
  parent?: Handle;
  key: string;
  frames: Array<{ frameId: string; loaderId: string }>;
}

export interface CaptureOutput {
  capture: PageCapture;
  targets: Map<string, TargetInfo>;
  /** The scope's document was captured along the path to the scope only (the rest of it is absent). */
  partial: boolean;
}

export async function capturePage(page: ManagedPage, request: CaptureRequest): Promise<CaptureOutput> {
  const handles = await discover(page);
  const scope = request.scope;
  const [counts, scopeTree] = await Promise.all([
    precheck(handles, request),
    scope ? locateScopeTree(scope, request.step()) : undefined,
    ...handles.map((h) => loadFrames(h, request)),
  ]);
  enforceLimits(counts, request.limits);
  const live = handles.filter((h) => h.key !== '');
  const results = await Promise.all(
    live.map((h) =>
      captureTarget(h, live, request, scopeTree).catch((error: unknown) => failTarget(h, error)),
    ),
  );
  const capture: PageCapture = {
    targets: new Map(),
    mainLoaderId: '',
    title: '',
    hiddenCount: 0,
    uncapturedFrames: 0,
  };
  const targets = new Map<string, TargetInfo>();
  for (const target of results) {
    if (!target) continue;
    capture.targets.set(target.key, target);
    capture.hiddenCount += target.hidden;
    const handle = live.find((h) => h.key === target.key);
    if (handle) targets.set(target.key, toTargetInfo(handle, target));
  }
  const main = capture.targets.get('main');
  const mainFrame = main?.frames.find((f) => f.frameId === main.rootFrameId);
  capture.mainLoaderId = mainFrame?.loaderId ?? '';
  capture.title = rootTitle(mainFrame);
  return { capture, targets, partial: scopeTree !== undefined };
}

/** The page's own target plus one per out-of-process iframe, each linked to the target hosting it. */
export async function discover(page: ManagedPage): Promise<Handle[]> {
  const mainFrame = page.page.mainFrame();
  const main: Handle = { frame: mainFrame, session: await page.cdp(), key: 'main', frames: [] };
  const others = page.page.frames().filter((f) => f !== mainFrame);
  const sessions = await Promise.all(others.map((f) => frameSession(page, f)));
  const byFrame = new Map<Frame, Handle>([[mainFrame, main]]);
  others.forEach((frame, i) => {
    const session = sessions[i];
    if (session) byFrame.set(frame, { frame, session, key: '', frames: [] });
  });
  for (const handle of byFrame.values()) {
    if (handle === main) continue;
    let up = handle.frame.parentFrame();
    while (up && !byFrame.has(up)) up = up.parentFrame();
    handle.parent = (up && byFrame.get(up)) ?? main;
  }
  return [...byFrame.values()];
}

/** Learns the target's local frames (and their loaders); an out-of-process target is keyed by its frame id. */
async function loadFrames(handle: Handle, request: CaptureRequest): Promise<void> {
  try {
    const { frameTree } = await handle.session.send('Page.getFrameTree', undefined, request.step());
    const frames: Handle['frames'] = [];
    const visit = (node: typeof frameTree): void => {
      frames.push({ frameId: node.frame.id, loaderId: node.frame.loaderId });
      node.childFrames?.forEach(visit);
    };
    visit(frameTree);
    handle.frames = frames;
    if (handle.key !== 'main') handle.key = frameTree.frame.id;
  } catch (error) {
    if (handle.key === 'main') throw error;
    // An iframe that went away while capturing: it is left out and counted, the page is still captured.
  }
}

export async function precheck(handles: Handle[], request: CaptureRequest): Promise<PrecheckCount> {
  const { maxNodes, maxSourceChars } = request.limits;
  const args = [{ value: maxNodes + 1 }, { value: maxSourceChars + 1 }];
  const scope = request.scope;
  const runs = scope
    ? [
        scope.session.send(
          'Runtime.callFunctionOn',
          { objectId: scope.objectId, functionDeclaration: PRECHECK, arguments: args, returnByValue: true },
          request.step(),
        ),
      ]
    : handles.map((h) =>
        h.session.send(
          'Runtime.evaluate',
          { expression: `(${PRECHECK})(${maxNodes + 1}, ${maxSourceChars + 1})`, returnByValue: true },
          request.step(),
        ),
      );
  const results = await Promise.all(runs.map((run) => run.catch(() => undefined)));
  const total: PrecheckCount = { nodes: 0, chars: 0 };
  for (const result of results) {
    const value = result?.result.value as Partial<PrecheckCount> | undefined;
    total.nodes += value?.nodes ?? 0;
    total.chars += value?.chars ?? 0;
  }
  return total;
}

export function enforceLimits(counts: PrecheckCount, limits: CaptureLimits): void {
  if (counts.nodes <= limits.maxNodes && counts.chars <= limits.maxSourceChars) return;
  const byNodes = counts.nodes > limits.maxNodes;
  throw new BrowserMeshError(
    ErrorCodes.LIMIT_EXCEEDED,
    byNodes
      ? `The snapshot scope has more than ${limits.maxNodes} DOM nodes; nothing was captured`
      : `The snapshot scope has more than ${limits.maxSourceChars} source characters; nothing was captured`,
    {
      details: {
        field: 'scope',
        limit: byNodes ? limits.maxNodes : limits.maxSourceChars,
        unit: byNodes ? 'nodes' : 'chars',
      },
      recoveryHint:
        'Narrow the snapshot with scope: { locator: { css | role } } (a section, list, table or form) or { ref }, or read text with browser_visible_text.',
    },
  );
}

async function captureTarget(
  handle: Handle,
  all: Handle[],
  request: CaptureRequest,
  scopeTree: ScopeTree | undefined,
): Promise<(TargetCapture & { hidden: number }) | undefined> {
  const step = request.step();
  const children = all.filter((h) => h.parent === handle);
  const [trees, dom, owners] = await Promise.all([
    Promise.all(handle.frames.map((f) => frameTreeNodes(handle.session, f.frameId, scopeTree, step))),
    handle.session.send(
      'DOMSnapshot.captureSnapshot',
      { computedStyles: SNAPSHOT_STYLES, includeDOMRects: request.boxes },
      step,
    ),
    Promise.all(
      children.map((c) =>
        handle.session.send('DOM.getFrameOwner', { frameId: c.key }, step).catch(() => undefined),
      ),
    ),
  ]);
  const frames: FrameCapture[] = [];
  handle.frames.forEach((f, i) => {
    const nodes = trees[i];
    if (nodes) frames.push({ frameId: f.frameId, loaderId: f.loaderId, nodes });
  });
  const index = indexDomSnapshot(dom);
  const remoteChildTargets = new Map<number, string>();
  children.forEach((child, i) => {
    const owner = owners[i]?.backendNodeId;
    if (owner !== undefined) remoteChildTargets.set(owner, child.key);
  });
  const rootFrameId = handle.frames[0]?.frameId ?? '';
  return {
    key: handle.key,
    rootFrameId,
    frames,
    dom: index.facts,
    localChildFrames: index.childFrames,
    remoteChildTargets,
    hidden: index.hiddenCount,
  };
}

function failTarget(handle: Handle, error: unknown): undefined {
  if (handle.key === 'main') throw error;
  return undefined;
}

function toTargetInfo(handle: Handle, target: TargetCapture): TargetInfo {
  const info: TargetInfo = { key: handle.key, frame: handle.frame, rootFrameId: target.rootFrameId };
  if (handle.parent) info.parentKey = handle.parent.key;
  return info;
}

function rootTitle(frame: FrameCapture | undefined): string {
  const root = frame?.nodes.find((n) => n.parentId === undefined) ?? frame?.nodes[0];
  const name = root?.name?.value;
  return typeof name === 'string' ? name : '';
}
