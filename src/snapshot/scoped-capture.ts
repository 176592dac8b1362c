import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import { buildTree, type BuildResult } from './build.js';
import type { CaptureRequest, StepOptions } from './capture.js';
import { captureWith, type CaptureKind, type SnapshotCaptureMode } from './capture-mode.js';
import type { IncrementalFact } from './page-capture.js';
import { snapshotState, targetSession, type TargetInfo } from './page-state.js';
import { locateRef } from './resolve.js';
import type { PageCapture, SnapNode } from './types.js';

/**
 * One capture of the page, built with refs minted in the page's one ref table, and the scope's node in
 * it when the caller named one (a ref from a snapshot or find, or an element a locator resolved to).
 * Snapshots and find share it, so a scope inside any frame — same-origin, cross-origin, nested — is
 * the same node for both, whichever capture (in-page or CDP) answered.
 */

export interface ScopeSource {
  /** A ref (normalized, `e5`) from the page's ref table. */
  ref: string | null;
  /** An element a locator resolved to: its CDP session and object. */
  element?: { session: CDPSession; objectId: string } | undefined;
}

export interface ScopedCapture {
  capture: PageCapture;
  kind: CaptureKind;
  /** The scope's document was captured along the path to the scope only. */
  partial: boolean;
  incremental?: IncrementalFact | undefined;
  built: BuildResult;
  /** The scope's tree key (target|backendNodeId), when scoped. */
  scopeKey: string | undefined;
  /** The scope's node, or the whole tree; undefined when the scope is not in the rendered page. */
  root: SnapNode | undefined;
}

export async function captureScoped(
  page: ManagedPage,
  request: Omit<CaptureRequest, 'scope'>,
  scopeSource: ScopeSource,
  mode: SnapshotCaptureMode,
): Promise<ScopedCapture> {
  const state = snapshotState(page);
  const step = request.step;
  const scope =
    scopeSource.ref === null
      ? undefined
      : await locateRef(page, scopeSource.ref, { step, field: 'scope.ref' });
  const element = scopeSource.element;
  const scopeCheck = scope ? { session: scope.session, objectId: scope.objectId } : element;
  const captured = await captureWith(page, { ...request, scope: scopeCheck }, mode);
  const { capture, targets } = captured;
  state.targets = targets;
  const elementKey =
    element && captured.kind === 'cdp' ? await scopeKeyOf(page, targets, element, step) : undefined;
  // A ref from the in-page capture scopes a CDP capture through its element's backend node id.
  const scopeKey =
    captured.scopeKey ??
    (scope && scope.entry.backendNodeId < 0
      ? await scopeKeyOf(page, targets, scope, step)
      : scope
        ? `${scope.entry.targetKey}|${scope.entry.backendNodeId}`
        : elementKey);
  const now = Date.now();
  const built = buildTree(
    capture,
    (target, frame, backendNodeId, owners) =>
      state.refs.assign(
        { targetKey: target.key, frameId: frame.frameId, loaderId: frame.loaderId, backendNodeId, owners },
        now,
      ),
    scopeKey,
  );
  const root = scopeKey === undefined ? built.root : findByKey(built.root, scopeKey);
  return {
    capture,
    kind: captured.kind,
    partial: captured.partial,
    incremental: captured.incremental,
    built,
    scopeKey,
    root,
  };
}

/** The tree key (target|backendNodeId) of a located scope element. */
async function scopeKeyOf(
  page: ManagedPage,
  targets: Map<string, TargetInfo>,
  element: { session: CDPSession; objectId: string },
  step: () => StepOptions,
): Promise<string> {
  const described = await element.session.send('DOM.describeNode', { objectId: element.objectId }, step());
  let key = 'main';
  if (element.session !== (await page.cdp())) {
    for (const target of targets.values()) {
      if ((await targetSession(page, target)) === element.session) key = target.key;
    }
  }
  return `${key}|${described.node.backendNodeId}`;
}

export function findByKey(root: SnapNode, key: string): SnapNode | undefined {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    if (node.key === key) return node;
    stack.push(...node.children);
  }
  return undefined;
}
