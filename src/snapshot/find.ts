import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { ManagedPage } from '../engine/page.js';
import { measure } from './budget.js';
import type { StepOptions } from './capture.js';
import { formatCursor, type StoredCapture } from './cursors.js';
import { findNodes, matchBlock, resolveQuery, toFindQuery, type FindInput } from './find-match.js';
import { SNAPSHOT_LIMITS, scopeRef } from './options.js';
import { captureScoped } from './scoped-capture.js';
import { redactTree } from './redact-tree.js';
import { snapshotState } from './page-state.js';
import type { SnapshotContext } from './snapshot.js';
import type { RenderOptions } from './types.js';

/**
 * browser_find: one capture of the page (every frame and open shadow root, like a snapshot), the
 * matches picked from the same pruned tree, their refs minted in the page's one ref table — so a ref
 * from find is the ref a snapshot would give, usable at once and stale after a navigation. Only the
 * matches and a few lines of context come back; the rest of the page costs nothing.
 */

export interface FindOptions extends FindInput {
  /** Matches per response (default 20). */
  maxResults?: number | undefined;
  /** Code points per response (default 4,000). */
  maxChars?: number | undefined;
  /** Continue from a previous find's nextCursor; no other option with it. */
  cursor?: string | undefined;
  /**
   * Only matches inside this element (and the element itself): a ref, or a locator the operations
   * layer resolved into SnapshotContext.scopeElement. Any frame, as for a scoped snapshot.
   */
  scope?: { ref?: string | undefined; locator?: unknown } | undefined;
}

export interface FindResult {
  /** Numbered match blocks: the node's snapshot line, then `in:` (where) and neighbours. */
  text: string;
  /** Matches in the whole page (beyond the kept ones too). */
  total: number;
  /** Matches in this response. */
  returned: number;
  /** Index (1-based) of the first match in this response. */
  from: number;
  truncated: boolean;
  nextCursor: string | null;
  url: string;
  title: string;
}

export const FIND_LIMITS = {
  defaultMaxResults: 20,
  maxResults: 100,
  defaultMaxChars: 4_000,
  minChars: 200,
  maxChars: 50_000,
} as const;

/** A kept capture's match count (beyond the kept matches too), for the pages a cursor reads later. */
const TOTALS = new WeakMap<StoredCapture, number>();

export async function findOnPage(
  page: ManagedPage,
  input: FindOptions,
  ctx: SnapshotContext,
): Promise<FindResult> {
  const step = (): StepOptions => ({ timeout: ctx.deadline.stepTimeoutMs(), signal: ctx.signal });
  const maxResults = input.maxResults ?? FIND_LIMITS.defaultMaxResults;
  const maxChars = input.maxChars ?? FIND_LIMITS.defaultMaxChars;
  if (input.cursor !== undefined) {
    const others = [input.text, input.regex, input.role, input.name, input.scope].some(
      (v) => v !== undefined,
    );
    if (others)
      throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'cursor: give no query with a cursor', {
        details: { field: 'cursor' },
      });
    return continueFind(page, input.cursor, maxResults, maxChars, step);
  }
  const query = toFindQuery(input);
  const scopeRefName = scopeRef(input.scope);
  const state = snapshotState(page);
  state.refTtlMs = ctx.refTtlMs;
  // The snapshot's own capture (in-page or CDP, as configured), so a found ref is the ref a snapshot
  // of the same document gives the element.
  const request = {
    boxes: false,
    limits: { maxNodes: SNAPSHOT_LIMITS.maxScopeNodes, maxSourceChars: SNAPSHOT_LIMITS.maxScopeSourceChars },
    step,
  };
  const scopeSource = { ref: scopeRefName, element: ctx.scopeElement };
  const { capture, built, root } = await captureScoped(page, request, scopeSource, ctx.capture ?? 'cdp');
  // Before matching: a secret-filled field's value is its reference, so no count says anything about it.
  if (ctx.redact) redactTree(built.root, ctx.redact);
  const url = page.page.url();
  const options: RenderOptions = {
    interactiveOnly: false,
    maxDepth: null,
    maxChildren: null,
    includeBoundingBoxes: false,
    includeUrls: false,
    pageUrl: url,
  };
  const budget = { timeoutMs: ctx.deadline.stepTimeoutMs(), signal: ctx.signal };
  // Matches come from the scope's subtree only, their `in:` paths from the whole tree above it. A scope
  // that is not rendered holds no match.
  const within = root ?? { ...built.root, children: [] };
  const matched = await resolveQuery(within, query, budget);
  const { found, total } = findNodes(built.root, matched, within);
  const lines = found.flatMap((match, i) => matchBlock(match, i + 1, options));
  const stored: StoredCapture = {
    lines,
    documentKey: capture.mainLoaderId,
    maxChars,
    maxBytes: SNAPSHOT_LIMITS.maxBytes,
    totalChars: 0,
    totalBytes: 0,
    retentionCut: found.length < total,
    url,
    title: capture.title,
    limitsApplied: { maxChars, maxBytes: SNAPSHOT_LIMITS.maxBytes },
    omitted: {},
  };
  TOTALS.set(stored, total);
  return pageOf(stored, 0, total, { maxResults, maxChars }, () => state.cursors.add(stored));
}

async function continueFind(
  page: ManagedPage,
  cursor: string,
  maxResults: number,
  maxChars: number,
  step: () => StepOptions,
): Promise<FindResult> {
  const state = snapshotState(page);
  const found = state.cursors.lookup(cursor);
  if (!found.ok) throw cursorInvalid(found.reason);
  const session = await page.cdp();
  const { frameTree } = await session.send('Page.getFrameTree', undefined, step());
  if (frameTree.frame.loaderId !== found.capture.documentKey) {
    state.cursors.drop(found.id);
    throw cursorInvalid('navigated');
  }
  const total = TOTALS.get(found.capture) ?? 0;
  return pageOf(found.capture, found.position.line, total, { maxResults, maxChars }, () => found.id);
}

/** Whole match blocks from `fromLine` while they fit the count and the characters (always at least one). */
function pageOf(
  stored: StoredCapture,
  fromLine: number,
  total: number,
  limits: { maxResults: number; maxChars: number },
  retain: () => string,
): FindResult {
  const out: string[] = [];
  let chars = 0;
  let returned = 0;
  let line = fromLine;
  const startIndex = Number(/^(\d+)\. /.exec(stored.lines[fromLine] ?? '')?.[1] ?? 1);
  while (line < stored.lines.length) {
    let end = line + 1;
    while (end < stored.lines.length && (stored.lines[end] ?? '').startsWith(' ')) end++;
    const block = stored.lines.slice(line, end);
    const size = measure(block.join('\n')).chars + (out.length > 0 ? 1 : 0);
    if (returned >= limits.maxResults || (returned > 0 && chars + size > limits.maxChars)) break;
    out.push(...block);
    chars += size;
    returned++;
    line = end;
  }
  const more = line < stored.lines.length;
  return {
    text: out.join('\n'),
    total,
    returned,
    from: returned > 0 ? startIndex : 0,
    truncated: more || stored.retentionCut,
    nextCursor: more ? formatCursor(retain(), { line, col: 0 }) : null,
    url: stored.url,
    title: stored.title,
  };
}

function cursorInvalid(reason: string): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.CURSOR_INVALID, `The cursor is no longer valid (${reason})`, {
    details: { field: 'cursor', reason },
    recoveryHint: 'Run browser_find again.',
  });
}
