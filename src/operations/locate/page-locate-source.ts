import { ROLES_SOURCE } from '../../snapshot/page-roles-source.js';

/**
 * The in-page locator resolver (docs/performance.md, "Locators resolved in the page"): the common
 * locator kinds answered by the in-page capture's role and accessible-name code, in the capture's
 * isolated world, with Playwright's matching rules: getByRole skips elements hidden from assistive
 * technology and matches the name as a case-insensitive substring (`exact`: the whole normalized
 * name, case-sensitive; a RegExp: tested on it); getByLabel reads aria-labelledby, else aria-label,
 * else the native labels of form controls; getByPlaceholder and getByTestId compare the attribute.
 * Open shadow roots are searched, as Playwright's engines pierce them.
 *
 * It answers an element only when it is sure; -1 says "ask Playwright" (a shape it does not model:
 * display: contents, labels holding controls or shadow roots). The function text never changes, so
 * the browser compiles it once; the resolver is built once per document and kept under a symbol.
 */

/** A locator the in-page resolver understands; anything else goes to Playwright's engine. */
export interface InPageQuery {
  /** css: plain CSS, answered where the document has no open shadow root (else, or not CSS: unsure). */
  kind: 'role' | 'label' | 'placeholder' | 'testId' | 'css' | 'text';
  value: string;
  /** Role name (role only), or the label/placeholder text. */
  name?: { text: string } | { source: string; flags: string } | undefined;
  exact: boolean;
  /** getByRole's `level` (heading, listitem): Playwright's aria level, the h1-h6 tag first. */
  level?: number | undefined;
}

export const LOCATE_KEY = 'browsermesh.locate';

const RESOLVER = String.raw`
${ROLES_SOURCE}
const IMPLICIT = {
  button: ['button', 'input', 'summary'], link: ['a', 'area'], checkbox: ['input'], radio: ['input'],
  textbox: ['input', 'textarea'], searchbox: ['input'], combobox: ['input', 'select'], listbox: ['select'],
  option: ['option'], heading: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'], slider: ['input'], spinbutton: ['input'],
  dialog: ['dialog'], navigation: ['nav'], main: ['main'], img: ['img', 'svg'], list: ['ul', 'ol', 'menu'],
  listitem: ['li'], progressbar: ['progress'], strong: ['strong'], emphasis: ['em'],
};
const UNSURE = -1;
function norm(s) { return String(s).replace(/[\u200b\u00ad]/g, '').trim().replace(/\s+/g, ' '); }
function everyElement(root, out) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    out.push(n);
    if (n.shadowRoot) everyElement(n.shadowRoot, out);
  }
  return out;
}
function parentOf(el) {
  if (el.assignedSlot) return el.assignedSlot;
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  return root && root.nodeType === 11 && root.host ? root.host : null;
}
/** Playwright's isElementHiddenForAria; undefined where it cannot be told here. */
function hiddenForAria(el) {
  const cs = styleOf(el);
  if (cs.display === 'contents') return undefined;
  const optionInSelect = el.localName === 'option' && !!el.closest('select');
  if (!optionInSelect && (!el.checkVisibility() || cs.visibility !== 'visible')) return true;
  for (let n = el; n; n = parentOf(n)) {
    if (n.getAttribute('aria-hidden') === 'true') return true;
    if (styleOf(n).display === 'none') return true;
    const parent = n.parentElement;
    if (parent && parent.shadowRoot && !n.assignedSlot) return true;
  }
  return false;
}
function textMatcher(name, exact, normalize) {
  if (!name) return () => true;
  if ('source' in name) { const re = new RegExp(name.source, name.flags); return (s) => { re.lastIndex = 0; return re.test(s); }; }
  const want = normalize ? norm(name.text) : name.text;
  if (exact) return (s) => (normalize ? norm(s) : s) === want;
  const lower = want.toLowerCase();
  return (s) => (normalize ? norm(s) : s).toLowerCase().includes(lower);
}
const FORM_TAGS = new Set(['input', 'select', 'textarea']);
/**
 * A form control named by aria-label(ledby) or by labels of plain text: Playwright and Chromium name
 * it alike. Placeholders, values and labels wrapping controls they do not always name alike.
 */
function simplyNamed(el) {
  if ((el.getAttribute('aria-label') || '').trim() || el.hasAttribute('aria-labelledby')) return true;
  const labels = el.labels ? Array.from(el.labels) : [];
  if (labels.length === 0) return false;
  // A checkbox or radio inside its own label (the control is left out of its name, by both).
  const own = (l) => el.type === 'checkbox' || el.type === 'radio'
    ? Array.prototype.every.call(l.querySelectorAll('input, select, textarea, button, slot'), (c) => c === el)
    : !l.querySelector('input, select, textarea, button, slot');
  return labels.every((l) => own(l) && !l.shadowRoot);
}
function roleMatches(q) {
  const tags = IMPLICIT[q.value];
  const match = textMatcher(q.name, q.exact, true);
  const out = [];
  for (const el of everyElement(document, [])) {
    if (!el.hasAttribute('role') && !(tags && tags.includes(el.localName))) continue;
    let role = roleOf(el, styleOf(el));
    if (role === 'image') role = 'img';
    if (role !== q.value) continue;
    const hidden = hiddenForAria(el);
    if (hidden === undefined) return UNSURE;
    if (hidden) continue;
    if (q.name && FORM_TAGS.has(el.localName) && !simplyNamed(el)) return UNSURE;
    if (q.level !== undefined && levelOf(el, role) !== q.level) continue;
    if (q.name && !match(norm(nameOf(el, roleOf(el, styleOf(el)))))) continue;
    out.push(el);
  }
  return out;
}
const LEVEL_ROLES = new Set(['heading', 'listitem', 'row', 'treeitem']);
/** Playwright's aria level: an h1-h6 tag's number, else a valid aria-level on a role that has one. */
function levelOf(el, role) {
  const native = /^h([1-6])$/.exec(el.localName);
  if (native) return Number(native[1]);
  if (!LEVEL_ROLES.has(role)) return 0;
  const attr = el.getAttribute('aria-level');
  const value = attr === null ? NaN : Number(attr);
  return Number.isInteger(value) && value >= 1 ? value : 0;
}
/** A label's text as Playwright reads it, or undefined where it holds what this code does not model. */
function labelContent(label) {
  if (label.querySelector('slot, template')) return undefined;
  if (label.shadowRoot || Array.prototype.some.call(label.querySelectorAll('*'), (e) => e.shadowRoot)) return undefined;
  // Playwright's elementText: a control inside counts with its text (a select's options, a
  // textarea's default text, a button input's value), scripts and styles do not.
  return textOf(new Map(), label).full;
}
const LABELLED = new Set(['button', 'meter', 'output', 'progress', 'select', 'textarea']);
function labelsOf(el) {
  if (el.hasAttribute('aria-labelledby')) {
    const refs = idRefs(el, 'aria-labelledby');
    if (refs.length > 0) return refs.map(labelContent);
  }
  const aria = el.getAttribute('aria-label');
  if (aria !== null && aria.trim()) return [aria];
  const tag = el.localName;
  if (LABELLED.has(tag) || (tag === 'input' && el.type !== 'hidden')) {
    if (el.labels) return Array.prototype.map.call(el.labels, labelContent);
  }
  return [];
}
/**
 * A select's or textarea's wrapping label read without the control's own text: Chromium names the
 * control by these words ("Plan"), while the label's whole text also holds the options ("Plan FreePro").
 */
function wrappingLabelWords(el) {
  if ((el.localName !== 'select' && el.localName !== 'textarea') || !el.labels) return [];
  return Array.prototype.filter.call(el.labels, (l) => l.contains(el)).map((l) => {
    const copy = l.cloneNode(true);
    copy.querySelectorAll('select, textarea').forEach((c) => c.remove());
    return textOf(new Map(), copy).full;
  });
}
function labelMatches(q) {
  const name = q.name;
  const regex = name && 'source' in name;
  const match = textMatcher(name, q.exact, !regex);
  const out = [];
  for (const el of everyElement(document, [])) {
    const labels = labelsOf(el);
    if (labels.some((l) => l === undefined)) return UNSURE;
    if (labels.some((l) => match(l))) out.push(el);
    else if (q.exact && !regex && wrappingLabelWords(el).some((l) => match(l))) out.push(el);
  }
  return out;
}
const SKIP_TEXT = new Set(['SCRIPT', 'NOSCRIPT', 'STYLE']);
function skipsText(el) { return SKIP_TEXT.has(el.nodeName) || (!!document.head && document.head.contains(el)); }
/** Playwright's elementText: text nodes, child elements' text, a button input's value, the shadow root's text. */
function textOf(cache, root) {
  let value = cache.get(root);
  if (value !== undefined) return value;
  value = { full: '', normalized: '' };
  if (!(root.nodeType === 1 && skipsText(root))) {
    if (root instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(root.type)) value.full = root.value;
    else {
      for (let child = root.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 3) value.full += child.nodeValue || '';
        else if (child.nodeType === 1) value.full += textOf(cache, child).full;
      }
      if (root.shadowRoot) value.full += textOf(cache, root.shadowRoot).full;
    }
    value.normalized = norm(value.full);
  }
  cache.set(root, value);
  return value;
}
/**
 * Playwright's getByText with a string: lax (case-insensitive substring of the normalized text) or
 * exact (the whole normalized text); an element is taken when it matches and none of its children
 * does alone. A document with open shadow roots is left to Playwright (its walk order differs).
 */
function textMatches(q) {
  const want = norm(q.name.text);
  if (want === '' || hasShadow()) return UNSURE;
  const lower = want.toLowerCase();
  const match = q.exact ? (t) => t.normalized === want : (t) => t.normalized.toLowerCase().includes(lower);
  const cache = new Map();
  const out = [];
  let lastMiss = null;
  for (const el of everyElement(document, [])) {
    if (!q.exact && lastMiss && lastMiss.contains(el)) continue;
    if (skipsText(el) || !match(textOf(cache, el))) { lastMiss = el; continue; }
    let self = true;
    for (let child = el.firstElementChild; child && self; child = child.nextElementSibling)
      if (match(textOf(cache, child))) self = false;
    if (self) out.push(el);
  }
  return out;
}
function attrMatches(attr, name, exact) {
  const match = textMatcher(name, exact, false);
  return everyElement(document, []).filter((el) => el.hasAttribute(attr) && match(el.getAttribute(attr)));
}
function matches(q) {
  if (q.kind === 'role') return roleMatches(q);
  if (q.kind === 'label') return labelMatches(q);
  if (q.kind === 'placeholder') return attrMatches('placeholder', q.name, q.exact);
  if (q.kind === 'testId') return attrMatches('data-testid', { text: q.value }, true);
  if (q.kind === 'text') return q.name && 'text' in q.name ? textMatches(q) : UNSURE;
  // Plain CSS: Playwright's engine pierces open shadow roots, querySelectorAll does not.
  // A selector that is not plain CSS (Playwright's own engines and pseudo-classes) throws: unsure.
  if (q.kind === 'css') {
    if (hasShadow()) return UNSURE;
    try { return Array.from(document.querySelectorAll(q.value)); } catch { return UNSURE; }
  }
  return UNSURE;
}
function hasShadow() { return everyElement(document, []).some((el) => el.shadowRoot); }
function run(q) {
  resetCaches();
  const found = matches(q);
  resetCaches();
  if (found === UNSURE) return UNSURE;
  return found.length === 1 ? found[0] : found.length;
}
/** For each query: 1 when it matches exactly this element, 0 when not, -1 when unsure. */
function uniques(el, list) {
  resetCaches();
  const out = list.map((q) => {
    try { const found = matches(q); return found === UNSURE ? UNSURE : found.length === 1 && found[0] === el ? 1 : 0; }
    catch { return UNSURE; }
  });
  resetCaches();
  return out;
}
/** The element's role and accessible name as this code computes them (callers compare them with Chromium's). */
function roleName(el) {
  resetCaches();
  const role = roleOf(el, styleOf(el));
  const name = role ? norm(nameOf(el, role)) : '';
  resetCaches();
  return [role === 'image' ? 'img' : role || '', name];
}
return { run, uniques, roleName };
`;

/** What the short calls answer in a document whose resolver is not built yet. */
export const UNBUILT = 'browsermesh:resolver-unbuilt';

/** Builds the resolver in this world unless it is there (the installing half of the full calls). */
const BUILD = `const key = Symbol.for(${JSON.stringify(LOCATE_KEY)});
  let api = globalThis[key];
  if (!api) { api = (() => {${RESOLVER}})(); Object.defineProperty(globalThis, key, { value: api }); }`;

/** The resolver already built in this world, or the UNBUILT answer: a call of a few hundred bytes. */
const BUILT = `const api = globalThis[Symbol.for(${JSON.stringify(LOCATE_KEY)})];
  if (!api) return ${JSON.stringify(UNBUILT)};`;

/**
 * A function for the capture world with the resolver in scope as `api`, in its two forms: `short`
 * answers UNBUILT where the resolver is not built yet; `full` carries the resolver's ~29 KB source and
 * builds it on first use in the document (in-page-locate.ts sends the short form first).
 */
export function withResolver(params: string, body: string): { short: string; full: string } {
  return {
    short: `function (${params}) {\n  ${BUILT}\n  ${body}\n}`,
    full: `function (${params}) {\n  ${BUILD}\n  ${body}\n}`,
  };
}

/** Answers one query (`this` unused) with the element, a match count, or -1 (unsure). */
export const LOCATE_FUNCTION = withResolver('q', 'return api.run(q);');

/** Runs on an element in the capture world: which of the queries match exactly it (1/0/-1 each). */
export const UNIQUES_FUNCTION = withResolver('list', 'return api.uniques(this, list);');
