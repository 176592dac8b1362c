import { invalidArgument } from '../errors.js';
import { normalizeRef } from './refs.js';

/**
 * Snapshot options as every face passes them (MCP, AgentBrowser, code mode), validated here once so
 * the library gets the same answers as the schema: bad values and bad combinations are
 * INVALID_ARGUMENT naming the field, never silently ignored.
 */

export interface SnapshotInput {
  /** Only interactive elements (with their landmarks as context). */
  interactiveOnly?: boolean | undefined;
  /** With interactiveOnly: also a few short text lines (messages, headings, short paragraphs), as after an action. */
  textLines?: boolean | undefined;
  /** Levels below the root to show (1 = the root's children only). */
  maxDepth?: number | undefined;
  /** Children shown per node; the rest is summarised as `… N more`. */
  maxChildren?: number | undefined;
  /** Snapshot only this element's subtree. `locator` is not supported yet. */
  scope?: { ref?: string | undefined; locator?: unknown } | undefined;
  includeBoundingBoxes?: boolean | undefined;
  includeUrls?: boolean | undefined;
  /** Code points per response (default 50,000). */
  maxChars?: number | undefined;
  /** UTF-8 bytes per response (default 65,536). */
  maxBytes?: number | undefined;
  /** Continue a previous snapshot from its `nextCursor`; no other option may be given. */
  cursor?: string | undefined;
  /** Only what changed since this page's previous snapshot. */
  since?: 'previous' | undefined;
  /** Seed 003: false writes no refs; true writes up to `maxRefs` (default 50). Absent: every ref. */
  includeRefs?: boolean | undefined;
  /** Seed 003: at most this many refs (1-100), interactive elements first; the rest are counted in `omitted.refs`. */
  maxRefs?: number | undefined;
}

export const SNAPSHOT_LIMITS = {
  defaultMaxChars: 50_000,
  defaultMaxBytes: 65_536,
  minChars: 100,
  maxChars: 1_000_000,
  minBytes: 400,
  maxBytes: 4_194_304,
  maxDepth: 1000,
  maxChildren: 100_000,
  /** Seed 003's includeRefs: default and top of maxRefs. */
  defaultMaxRefs: 50,
  maxRefs: 100,
  /** Pre-capture budget (seed 003). */
  maxScopeNodes: 20_000,
  maxScopeSourceChars: 2_000_000,
} as const;

export interface SnapshotOptions {
  interactiveOnly: boolean;
  textLines: boolean;
  maxDepth: number | null;
  maxChildren: number | null;
  scopeRef: string | null;
  includeBoundingBoxes: boolean;
  includeUrls: boolean;
  maxChars: number;
  maxBytes: number;
  since: 'previous' | null;
  /** Refs written at most (null: all; 0: none). */
  maxRefs: number | null;
}

export type ValidatedInput = { cursor: string } | { cursor: null; options: SnapshotOptions };

const OPTION_FIELDS = [
  'interactiveOnly',
  'textLines',
  'maxDepth',
  'maxChildren',
  'scope',
  'includeBoundingBoxes',
  'includeUrls',
  'maxChars',
  'maxBytes',
  'since',
  'includeRefs',
  'maxRefs',
] as const;

export function validateSnapshotInput(input: SnapshotInput): ValidatedInput {
  if (input.cursor !== undefined) {
    if (typeof input.cursor !== 'string' || input.cursor.length === 0 || input.cursor.length > 64)
      throw invalidArgument('cursor', 'must be a nextCursor from browser_snapshot');
    const other = OPTION_FIELDS.find((field) => input[field] !== undefined);
    if (other !== undefined)
      throw invalidArgument(
        other,
        'cannot be combined with cursor (a cursor continues its original request with the same options)',
      );
    return { cursor: input.cursor };
  }
  const limits = SNAPSHOT_LIMITS;
  if (input.since !== undefined && input.since !== 'previous')
    throw invalidArgument('since', "must be 'previous'");
  return {
    cursor: null,
    options: {
      interactiveOnly: flag(input.interactiveOnly, 'interactiveOnly'),
      textLines: flag(input.textLines, 'textLines'),
      maxDepth: optionalInt(input.maxDepth, 'maxDepth', 1, limits.maxDepth),
      maxChildren: optionalInt(input.maxChildren, 'maxChildren', 1, limits.maxChildren),
      scopeRef: scopeRef(input.scope),
      includeBoundingBoxes: flag(input.includeBoundingBoxes, 'includeBoundingBoxes'),
      includeUrls: flag(input.includeUrls, 'includeUrls'),
      maxChars:
        optionalInt(input.maxChars, 'maxChars', limits.minChars, limits.maxChars) ?? limits.defaultMaxChars,
      maxBytes:
        optionalInt(input.maxBytes, 'maxBytes', limits.minBytes, limits.maxBytes) ?? limits.defaultMaxBytes,
      since: input.since ?? null,
      maxRefs: refCap(input),
    },
  };
}

/** Today's default writes every ref; seed 003's includeRefs asks for a capped list (or none). */
function refCap(input: SnapshotInput): number | null {
  const include = input.includeRefs === undefined ? undefined : flag(input.includeRefs, 'includeRefs');
  const max = optionalInt(input.maxRefs, 'maxRefs', 1, SNAPSHOT_LIMITS.maxRefs);
  if (include === false) {
    if (max !== null) throw invalidArgument('maxRefs', 'cannot be combined with includeRefs: false');
    return 0;
  }
  if (max !== null) return max;
  return include === true ? SNAPSHOT_LIMITS.defaultMaxRefs : null;
}

function flag(value: unknown, field: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw invalidArgument(field, 'must be true or false');
  return value;
}

function optionalInt(value: unknown, field: string, min: number, max: number): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidArgument(field, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function scopeRef(scope: SnapshotInput['scope']): string | null {
  if (scope === undefined) return null;
  if (typeof scope !== 'object' || scope === null)
    throw invalidArgument('scope', 'must be { ref } or { locator }');
  const hasRef = scope.ref !== undefined;
  const hasLocator = scope.locator !== undefined;
  if (hasRef === hasLocator)
    throw invalidArgument('scope', `give exactly one of ref or locator (got ${hasRef ? 'both' : 'neither'})`);
  // A locator scope is resolved by the operations layer and arrives as SnapshotContext.scopeElement.
  if (hasLocator) return null;
  const ref = normalizeRef(String(scope.ref));
  if (ref === undefined) throw invalidArgument('scope.ref', 'must be a snapshot ref like @e5');
  return ref;
}
