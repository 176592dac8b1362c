import type { SnapNode } from './types.js';

/**
 * The few text lines an action's snapshot keeps next to the controls: after a sign-in the
 * agent must see "Signed in as Ada" or "Invalid password" without a second snapshot, yet the view
 * stays about as small as the interactive one. Messages (alerts, status) come first, then headings,
 * then short paragraphs of the main content, each capped; banners, navigation and footers repeat on
 * every page and say nothing about what the action did, so their text is left out.
 */

/** At most this many text lines (a message counts as one) ride on an interactive view. */
export const MAX_ACTION_TEXT_LINES = 2;
/** Longer text is reading matter, not a status line: the agent asks for a full snapshot for it. */
export const MAX_ACTION_TEXT_CHARS = 100;

const MESSAGE_ROLES: ReadonlySet<string> = new Set(['alert', 'status', 'log']);
/**
 * Text directly in these says something about the page; text in a list item, cell or label is part of
 * an item (a card's price, an option's description) and would split the item runs the view relies on.
 */
const TEXT_PARENT_ROLES: ReadonlySet<string> = new Set([
  'document',
  'main',
  'region',
  'article',
  'form',
  'dialog',
  'alertdialog',
]);
/** Page chrome: the same on every page, so never what changed. */
const CHROME_ROLES: ReadonlySet<string> = new Set(['banner', 'navigation', 'contentinfo', 'complementary']);

interface Candidate {
  node: SnapNode;
  rank: number;
  order: number;
}

/** The text nodes, headings and messages to keep, chosen by rank and then reading order. */
export function actionTextNodes(root: SnapNode): ReadonlySet<SnapNode> {
  const found: Candidate[] = [];
  const main = findRole(root, 'main');
  // Without a main landmark the whole page counts as content, except its chrome.
  const title = root.name.toLowerCase();
  const walk = (node: SnapNode, parent: SnapNode, content: boolean): void => {
    const rank = rankOf(node, parent, content, title);
    if (rank !== undefined) found.push({ node, rank, order: found.length });
    if (MESSAGE_ROLES.has(node.role)) return;
    const inner = node === main || (content && !CHROME_ROLES.has(node.role));
    for (const child of node.children) walk(child, node, inner);
  };
  // Without a main landmark the whole page counts as content, except its chrome.
  for (const child of root.children) walk(child, root, main === undefined);
  found.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return new Set(found.slice(0, MAX_ACTION_TEXT_LINES).map((c) => c.node));
}

/** 0: a message; 1: a heading; 2: a short paragraph of the main content; undefined: not kept. */
function rankOf(node: SnapNode, parent: SnapNode, content: boolean, title: string): number | undefined {
  if (MESSAGE_ROLES.has(node.role)) return hasText(node) ? 0 : undefined;
  if (!content || !isShort(node.name)) return undefined;
  // A heading the page title already says (`[document] Checkout – Shop`) adds nothing.
  if (node.role === 'heading')
    return hasInteractive(node) || title.includes(node.name.trim().toLowerCase()) ? undefined : 1;
  return node.role === 'text' && TEXT_PARENT_ROLES.has(parent.role) ? 2 : undefined;
}

/**
 * A kept node as the view writes it: a message whole (its text is the message); a heading alone and
 * without its ref (it is read here, not acted on; the ref still resolves).
 */
export function keptTextNode(node: SnapNode): SnapNode {
  if (node.role !== 'heading') return node;
  const { ref: _ref, ...heading } = node;
  return { ...heading, children: [] };
}

function isShort(text: string): boolean {
  const trimmed = text.trim();
  return trimmed !== '' && Array.from(trimmed).length <= MAX_ACTION_TEXT_CHARS;
}

function hasText(node: SnapNode): boolean {
  return node.name.trim() !== '' || node.children.some(hasText);
}

function hasInteractive(node: SnapNode): boolean {
  return node.children.some((child) => child.interactive || hasInteractive(child));
}

function findRole(node: SnapNode, role: string): SnapNode | undefined {
  if (node.role === role) return node;
  for (const child of node.children) {
    const found = findRole(child, role);
    if (found) return found;
  }
  return undefined;
}
