import { matchOffLoop, toRegexPattern, type RegexBudget, type RegexPattern } from '../engine/regex-worker.js';
import { invalidArgument } from '../errors.js';
import { CONTEXT_ROLES, renderTree } from './render.js';
import type { RenderOptions, SnapNode } from './types.js';

/**
 * browser_find's matching, on the same pruned tree a snapshot renders: which nodes match, and the few
 * lines of context that tell an agent where each one is (its landmark path, the heading it sits
 * under, its neighbours). Pure, so it is unit-tested without a browser.
 */

export type FindQuery =
  | { kind: 'text'; text: string }
  | { kind: 'regex'; regex: RegexPattern }
  | { kind: 'role'; role: string; name?: string | undefined };

/**
 * A query ready to match synchronously: a regex becomes the set of the tree's texts it matched,
 * computed on a worker thread ({@link resolveQuery}), so no caller's pattern runs on the event loop.
 */
export type MatchQuery =
  Exclude<FindQuery, { kind: 'regex' }> | { kind: 'matched'; texts: ReadonlySet<string> };

export interface FindInput {
  text?: string | undefined;
  regex?: string | undefined;
  role?: string | undefined;
  name?: string | undefined;
}

export const MAX_PATTERN_CHARS = 500;
/** Matches kept per capture (for paging with a cursor); the count beyond is still reported. */
export const MAX_KEPT_MATCHES = 500;
const NEIGHBOUR_CHARS = 80;

/** Landmarks and named containers that say where a match is. */
const PATH_ROLES = new Set([
  ...CONTEXT_ROLES,
  'region',
  'article',
  'table',
  'list',
  'group',
  'tabpanel',
  'menu',
  'listbox',
]);

/** Exactly one of text, regex or role; `name` only with role. A regex is `pattern` or `/pattern/flags`. */
export function toFindQuery(input: FindInput): FindQuery {
  const given = [input.text, input.regex, input.role].filter((v) => v !== undefined).length;
  if (given !== 1) throw invalidArgument('text', 'give exactly one of text, regex or role');
  if (input.name !== undefined && input.role === undefined)
    throw invalidArgument('name', 'is only used with role');
  if (input.text !== undefined) {
    if (input.text.trim() === '') throw invalidArgument('text', 'must not be empty');
    return { kind: 'text', text: input.text.toLowerCase() };
  }
  if (input.role !== undefined) {
    const role = input.role.trim().toLowerCase();
    if (!/^[a-z]{2,32}$/.test(role)) throw invalidArgument('role', 'must be an ARIA role such as button');
    return { kind: 'role', role, name: input.name?.toLowerCase() };
  }
  return { kind: 'regex', regex: parseRegex(input.regex ?? '') };
}

function parseRegex(source: string): RegexPattern {
  if (source === '' || source.length > MAX_PATTERN_CHARS)
    throw invalidArgument('regex', `must be 1 to ${MAX_PATTERN_CHARS} characters`);
  const slashed = /^\/(.+)\/([a-z]*)$/s.exec(source);
  return toRegexPattern(slashed?.[1] ?? source, slashed?.[2] ?? '', 'regex');
}

/** The query with a regex's matches computed off the event loop, within `budget` (OPERATION_TIMEOUT past it). */
export async function resolveQuery(
  root: SnapNode,
  query: FindQuery,
  budget: RegexBudget,
): Promise<MatchQuery> {
  if (query.kind !== 'regex') return query;
  const texts = new Set<string>();
  const collect = (node: SnapNode): void => {
    for (const text of haystacksOf(node)) if (text !== '') texts.add(text);
    node.children.forEach(collect);
  };
  collect(root);
  const list = [...texts];
  const hits = await matchOffLoop(query.regex, list, budget);
  return { kind: 'matched', texts: new Set(hits.map((index) => list[index] ?? '')) };
}

function haystacksOf(node: SnapNode): string[] {
  const value =
    typeof node.value === 'string' ? node.value : typeof node.value === 'number' ? String(node.value) : '';
  return value === '' ? [node.name] : [node.name, value];
}

export function nodeMatches(node: SnapNode, query: MatchQuery): boolean {
  if (query.kind === 'role') {
    if (node.role !== query.role) return false;
    return query.name === undefined || node.name.toLowerCase().includes(query.name);
  }
  const haystacks = haystacksOf(node);
  if (query.kind === 'text') return haystacks.some((h) => h.toLowerCase().includes(query.text));
  return haystacks.some((h) => h !== '' && query.texts.has(h));
}

export interface FoundNode {
  node: SnapNode;
  /** Landmarks and named containers from the root down (`main › region "Cart"`). */
  path: string[];
  /** The nearest heading above the match in document order, within its path. */
  heading?: string;
  before?: SnapNode;
  after?: SnapNode;
}

/**
 * Every match in document order; a text run inside a matching element is the element's own name, not a
 * second match. With `within` (a node of the tree), only that node and its subtree can match.
 */
export function findNodes(
  root: SnapNode,
  query: MatchQuery,
  within: SnapNode = root,
): { found: FoundNode[]; total: number } {
  const found: FoundNode[] = [];
  let total = 0;
  const visit = (
    node: SnapNode,
    path: string[],
    heading: string | undefined,
    parentMatched: boolean,
    inside: boolean,
  ): void => {
    let headingHere = heading;
    node.children.forEach((child, index) => {
      const childInside = inside || child === within;
      const matched = childInside && nodeMatches(child, query) && !(parentMatched && child.role === 'text');
      if (matched) {
        total++;
        if (found.length < MAX_KEPT_MATCHES) {
          const before = node.children[index - 1];
          const after = node.children[index + 1];
          found.push({
            node: child,
            path,
            ...(headingHere !== undefined ? { heading: headingHere } : {}),
            ...(before ? { before } : {}),
            ...(after ? { after } : {}),
          });
        }
      }
      const childPath =
        PATH_ROLES.has(child.role) && (child.name !== '' || isLandmark(child.role))
          ? [...path, pathLabel(child)]
          : path;
      visit(child, childPath, headingHere, matched, childInside);
      if (child.role === 'heading' && child.name !== '') headingHere = child.name;
    });
  };
  visit(root, [], undefined, false, within === root);
  return { found, total };
}

function isLandmark(role: string): boolean {
  return ['banner', 'navigation', 'main', 'complementary', 'contentinfo', 'search', 'dialog'].includes(role);
}

function pathLabel(node: SnapNode): string {
  return node.name === '' ? node.role : `${node.role} "${clip(node.name, 40)}"`;
}

/** One match as a numbered block: the node's own snapshot line, then `in:` and `near:` context lines. */
export function matchBlock(match: FoundNode, index: number, options: RenderOptions): string[] {
  const lines = [`${index}. ${nodeLine(match.node, options)}`];
  const where = [...match.path];
  if (match.heading !== undefined) where.push(`under heading "${clip(match.heading, 60)}"`);
  if (where.length > 0) lines.push(`   in: ${where.join(' › ')}`);
  const near = [match.before, match.after]
    .map((n, i) =>
      n ? `${i === 0 ? 'after' : 'before'} ${clip(nodeLine(n, options), NEIGHBOUR_CHARS)}` : undefined,
    )
    .filter((s): s is string => s !== undefined);
  if (near.length > 0) lines.push(`   ${near.join(' · ')}`);
  return lines;
}

/** A node's own snapshot line, without its subtree. */
function nodeLine(node: SnapNode, options: RenderOptions): string {
  const alone = renderTree({ ...node, children: [] }, options);
  return (alone.lines[0] ?? '').trim();
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
