import { cutAtGrapheme } from './budget.js';
import { SECRET_AUTOCOMPLETE, VALUE_LEAF_ROLES } from './roles.js';
import type { AXNodeLike, DomFacts, SnapNode } from './types.js';

/** Reading one accessibility node: its name, the state flags that matter, and its (redacted) value. */

export const MAX_NAME_CHARS = 200;
export const MAX_VALUE_CHARS = 200;
export const MAX_TEXT_CHARS = 1000;

export function axString(value: AXNodeLike['name']): string {
  const raw = value?.value;
  return typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : '';
}

/** White space that cleanText changes: a run of two, any but a plain space, or at either end. */
const UNCLEAN = /\s\s|[^\S ]|^\s|\s$/;

/**
 * Collapses whitespace and caps the length in code points, cutting between graphemes (an emoji
 * sequence is kept whole or left out); `onCut` counts what was shortened.
 */
export function cleanText(text: string, maxChars: number, onCut?: () => void): string {
  // Most names are clean already (the in-page capture collapses text): test before copying.
  const collapsed = UNCLEAN.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
  if (collapsed.length <= maxChars) return collapsed;
  if (Array.from(collapsed).length <= maxChars) return collapsed;
  onCut?.();
  return `${cutAtGrapheme(collapsed, maxChars - 1, Number.MAX_SAFE_INTEGER).text}…`;
}

function properties(node: AXNodeLike): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const p of node.properties ?? []) out.set(p.name, p.value.value);
  return out;
}

const TRUE = (v: unknown): boolean => v === true || v === 'true';

/** Roles whose value an agent needs to see (what is typed, picked or set). */
const VALUE_ROLES = new Set([...VALUE_LEAF_ROLES, 'combobox', 'PopUpButton']);

/**
 * The state flags worth tokens, in a fixed order. `collapsed` is left off comboboxes (a closed native
 * select says nothing), `focused` off the document, `readonly` off everything but inputs.
 */
export function statesOf(
  node: AXNodeLike,
  axRole: string,
  inSelectPopup: boolean,
  facts?: DomFacts,
): string[] {
  const p = properties(node);
  const out: string[] = [];
  const aria = facts?.aria;
  const level = p.get('level');
  if (axRole === 'heading' && typeof level === 'number') out.push(`level=${level}`);
  const checked = p.get('checked');
  if (TRUE(checked)) out.push('checked');
  else if (checked === 'mixed') out.push('mixed');
  const pressed = p.get('pressed');
  if (TRUE(pressed)) out.push('pressed');
  else if (pressed === 'mixed') out.push('pressed=mixed');
  if (TRUE(p.get('selected')) && !inSelectPopup) out.push('selected');
  const expanded = p.get('expanded');
  if (TRUE(expanded)) out.push('expanded');
  else if (expanded === false && axRole !== 'combobox') out.push('collapsed');
  if (TRUE(p.get('disabled'))) out.push('disabled');
  if (TRUE(p.get('required'))) out.push('required');
  if (TRUE(p.get('readonly')) && VALUE_LEAF_ROLES.has(axRole)) out.push('readonly');
  const invalid = p.get('invalid');
  if (typeof invalid === 'string' && invalid !== 'false') out.push('invalid');
  if (TRUE(p.get('modal'))) out.push('modal');
  if (TRUE(p.get('focused')) && axRole !== 'RootWebArea') out.push('focused');
  if (aria?.current !== undefined) out.push(aria.current === 'true' ? 'current' : `current=${aria.current}`);
  if (aria?.sort !== undefined) out.push(`sort=${aria.sort}`);
  if (aria?.rowIndex !== undefined && axRole === 'row') out.push(`row=${aria.rowIndex}`);
  if (aria?.rowCount !== undefined && ROW_CONTAINERS.has(axRole)) out.push(`rows=${aria.rowCount}`);
  if (TRUE(p.get('busy')) || aria?.busy) out.push('busy');
  if (RANGE_ROLES.has(axRole)) out.push(...rangeStates(node, p, axRole, aria?.valueText));
  return out;
}

const ROW_CONTAINERS = new Set(['grid', 'table', 'treegrid']);
/** Roles with aria-valuenow/min/max/text: where a value sits in its range is the state. */
const RANGE_ROLES = new Set(['slider', 'progressbar', 'meter', 'scrollbar', 'spinbutton']);

function rangeStates(
  node: AXNodeLike,
  p: Map<string, unknown>,
  axRole: string,
  valueText: string | undefined,
): string[] {
  const out: string[] = [];
  const now = node.value?.value;
  // Controls whose value is shown as value=… already (slider, spinbutton) do not repeat it.
  if (typeof now === 'number' && !VALUE_ROLES.has(axRole)) out.push(`now=${now}`);
  const min = p.get('valuemin');
  const max = p.get('valuemax');
  if (typeof min === 'number') out.push(`min=${min}`);
  if (typeof max === 'number') out.push(`max=${max}`);
  const axText = p.get('valuetext');
  const text = typeof axText === 'string' && axText !== '' ? axText : valueText;
  if (typeof text === 'string' && text !== '' && text !== String(now))
    out.push(`text=${JSON.stringify(cleanText(text, 40))}`);
  return out;
}

export function urlOf(node: AXNodeLike): string | undefined {
  const url = properties(node).get('url');
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/**
 * The value to show, or undefined. Password fields (and secret autocomplete fields) are always
 * redacted, whatever the page did to the type attribute's case or the field's bullets.
 */
export function valueOf(
  node: AXNodeLike,
  axRole: string,
  facts: DomFacts | undefined,
  name: string,
  onCut: () => void,
): SnapNode['value'] {
  const raw = node.value?.value;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const isFile = facts?.inputType === 'file';
  if (!VALUE_ROLES.has(axRole) && !isFile) return undefined;
  if (isSecret(raw, axRole, facts)) return { secret: true };
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return undefined;
  // A multi-line textbox (a code editor's model) keeps its line breaks, shown as \n in the value.
  if (TRUE(properties(node).get('multiline')) && raw.includes('\n')) {
    const text = raw
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trimEnd())
      .join('\n')
      .trim();
    if (Array.from(text).length <= MAX_TEXT_CHARS) return text;
    onCut();
    return `${Array.from(text)
      .slice(0, MAX_TEXT_CHARS - 1)
      .join('')}…`;
  }
  const text = cleanText(raw, MAX_VALUE_CHARS, onCut);
  return text === '' || text === name ? undefined : text;
}

function isSecret(raw: unknown, axRole: string, facts: DomFacts | undefined): boolean {
  if (facts?.inputType === 'password') return true;
  if (facts?.autocomplete !== undefined && SECRET_AUTOCOMPLETE.test(facts.autocomplete)) return true;
  // Chromium masks password values itself; a masked value whose input type we missed is still secret.
  return axRole === 'textbox' && typeof raw === 'string' && /^[•●*]+$/.test(raw);
}
