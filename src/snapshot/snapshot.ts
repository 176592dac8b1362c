import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import { measureLines } from './budget.js';
import type { StepOptions } from './capture.js';
import type { SnapshotCaptureMode } from './capture-mode.js';
import { MAX_RETAINED_CHARS, type StoredCapture } from './cursors.js';
import { diffSnapshots } from './delta.js';
import {
  SNAPSHOT_LIMITS,
  validateSnapshotInput,
  type SnapshotInput,
  type SnapshotOptions,
} from './options.js';
import { snapshotState, type SnapshotPageState } from './page-state.js';
import { documentKey } from './refs.js';
import { redactTree } from './redact-tree.js';
import { renderTree } from './render.js';
import { findByKey, captureScoped } from './scoped-capture.js';
import { nonZero, toResult, type LimitsApplied, type SnapshotResult } from './result.js';
import type { OmittedCounts, PageCapture, RenderOptions, SnapNode } from './types.js';

/**
 * browser_snapshot for one page: capture → build (prune, assign refs) → render → budget, or one more
 * page of an earlier capture through its cursor. Runs on the session's queue, so it never races
 * another operation on the same page.
 */

export interface SnapshotContext {
  deadline: { stepTimeoutMs(): number };
  signal?: AbortSignal | undefined;
  refTtlMs: number;
  /** Which capture to use (the snapshotCapture setting); CDP when not given. */
  capture?: SnapshotCaptureMode | undefined;
  /**
   * Whether the in-page capture may reuse the page's last capture outside what changed since
   * (docs/snapshots.md, "Incremental capture"); the lines are the same either way.
   */
  incremental?: boolean | undefined;
  /** A scope element already resolved from a locator (scope.locator): its CDP session and object. */
  scopeElement?: { session: CDPSession; objectId: string; description: string } | undefined;
  /** The session's secret redaction, applied to the built tree before it renders, cuts or matches. */
  redact?: ((text: string) => string) | undefined;
}

export async function takeSnapshot(
  page: ManagedPage,
  input: SnapshotInput,
  ctx: SnapshotContext,
): Promise<SnapshotResult> {
  const validated = validateSnapshotInput(input);
  const state = snapshotState(page);
  state.refTtlMs = ctx.refTtlMs;
  const step = (): StepOptions => ({ timeout: ctx.deadline.stepTimeoutMs(), signal: ctx.signal });
  if (validated.cursor !== null) return continueSnapshot(page, state, validated.cursor, step);
  const options = validated.options;
  const request = {
    boxes: options.includeBoundingBoxes,
    limits: { maxNodes: SNAPSHOT_LIMITS.maxScopeNodes, maxSourceChars: SNAPSHOT_LIMITS.maxScopeSourceChars },
    step,
    incremental: ctx.incremental === true,
  };
  const captured = await captureScoped(
    page,
    request,
    { ref: options.scopeRef, element: ctx.scopeElement },
    ctx.capture ?? 'cdp',
  );
  const { capture, partial, built, scopeKey, root } = captured;
  if (ctx.redact) redactTree(built.root, ctx.redact);
  state.refs.retainDocuments(liveDocuments(capture));
  const renderOptions: RenderOptions = { ...options, pageUrl: page.page.url() };
  const empty = root ? emptyReason(root) : 'not_rendered';
  const rendered =
    root && empty === undefined
      ? renderTree(root, renderOptions, MAX_RETAINED_CHARS)
      : { lines: [], maxDepthCut: 0, maxChildrenCut: 0, complete: true, refsCut: 0 };
  const omitted: OmittedCounts = {
    ariaHidden: built.ariaHidden,
    hidden: capture.hiddenCount + (root ? 0 : 1),
    maxDepth: rendered.maxDepthCut,
    maxChildren: rendered.maxChildrenCut,
    frames: built.missingFrames,
    longText: built.longText,
    refs: rendered.refsCut,
  };
  let lines = rendered.lines;
  let delta: SnapshotResult['delta'];
  if (options.since === 'previous') {
    const base = comparableBase(state, capture.mainLoaderId, scopeKey);
    if (base) {
      const diff = diffSnapshots(renderTree(base, renderOptions, MAX_RETAINED_CHARS).lines, lines);
      lines = diff.lines;
      delta = { base: 'previous', added: diff.added, removed: diff.removed, changed: diff.changed };
    } else delta = { base: 'none', added: 0, removed: 0, changed: 0 };
  }
  state.previous = {
    tree: built.root,
    documentKey: capture.mainLoaderId,
    partialScope: partial ? scopeKey : undefined,
  };
  const total = measureLines(lines);
  const stored: StoredCapture = {
    lines,
    documentKey: capture.mainLoaderId,
    maxChars: options.maxChars,
    maxBytes: options.maxBytes,
    totalChars: total.chars,
    totalBytes: total.bytes,
    retentionCut: !rendered.complete,
    url: page.page.url(),
    title: capture.title,
    limitsApplied: limitsOf(options),
    omitted: nonZero(omitted),
  };
  const result = toResult(
    { capture: stored, from: { line: 0, col: 0 }, retain: () => state.cursors.add(stored) },
    { ...stored, delta },
  );
  const fact = captured.incremental;
  if (fact)
    result.capture = {
      mode: 'incremental',
      reusedNodes: fact.reusedNodes,
      nodes: fact.nodes,
      sentNodes: fact.sentNodes,
    };
  return empty === undefined ? result : { ...result, empty: true, emptyReason: empty };
}

/**
 * Why a scope shows nothing: its element is not in the rendered page (display:none, hidden,
 * aria-hidden, removed), or it is rendered with no text, control or named element inside.
 */
function emptyReason(root: SnapNode): SnapshotResult['emptyReason'] {
  if (root.children.length > 0 || root.name !== '' || root.ref !== undefined) return undefined;
  return root.value === undefined ? 'no_content' : undefined;
}

async function continueSnapshot(
  page: ManagedPage,
  state: SnapshotPageState,
  cursor: string,
  step: () => StepOptions,
): Promise<SnapshotResult> {
  const found = state.cursors.lookup(cursor);
  if (!found.ok) throw cursorInvalid(found.reason);
  const session = await page.cdp();
  const { frameTree } = await session.send('Page.getFrameTree', undefined, step());
  if (frameTree.frame.loaderId !== found.capture.documentKey) {
    state.cursors.drop(found.id);
    throw cursorInvalid('navigated');
  }
  const stored = found.capture;
  return toResult({ capture: stored, from: found.position, retain: () => found.id }, stored);
}

function cursorInvalid(reason: string): BrowserMeshError {
  const why: Record<string, string> = {
    malformed: 'is not a snapshot cursor',
    unknown: 'is unknown for this page (cursors belong to one page and at most 4 are kept)',
    expired: 'has expired',
    out_of_range: 'points past the end of its snapshot',
    navigated: 'belongs to a document the page has navigated away from',
  };
  return new BrowserMeshError(ErrorCodes.CURSOR_INVALID, `The cursor ${why[reason] ?? 'is invalid'}`, {
    details: { field: 'cursor', reason },
    recoveryHint: 'Take a new browser_snapshot (narrow it with scope or interactiveOnly if it is large).',
  });
}

/**
 * The previous tree, if it shows the same document (and contains the scope, when scoped). After a
 * scoped capture only that scope's subtree counts: its ancestors are there without their other children.
 */
function comparableBase(
  state: SnapshotPageState,
  loaderId: string,
  scopeKey: string | undefined,
): SnapNode | undefined {
  const previous = state.previous;
  if (!previous || previous.documentKey !== loaderId) return undefined;
  const held = previous.partialScope;
  const tree = held === undefined ? previous.tree : findByKey(previous.tree, held);
  if (!tree) return undefined;
  if (scopeKey === undefined) return held === undefined ? tree : undefined;
  return findByKey(tree, scopeKey);
}

function liveDocuments(capture: PageCapture): Set<string> {
  const live = new Set<string>();
  for (const target of capture.targets.values())
    for (const frame of target.frames) live.add(documentKey(target.key, frame.frameId, frame.loaderId));
  return live;
}

function limitsOf(options: SnapshotOptions): LimitsApplied {
  const out: LimitsApplied = { maxChars: options.maxChars, maxBytes: options.maxBytes };
  if (options.maxDepth !== null) out.maxDepth = options.maxDepth;
  if (options.maxChildren !== null) out.maxChildren = options.maxChildren;
  if (options.interactiveOnly) out.interactiveOnly = true;
  if (options.scopeRef !== null) out.scope = `@${options.scopeRef}`;
  if (options.maxRefs !== null) out.maxRefs = options.maxRefs;
  return out;
}
