/**
 * The in-page role and accessible-name code of the in-page capture (page-capture-source.ts runs it):
 * the roles Chromium's accessibility tree gives HTML elements (its own internal names where the
 * snapshot layer reads them: StaticText, LabelText, LayoutTable, DisclosureTriangle, …), the ARIA role
 * attribute on top, and the accessible name as Chromium computes it (aria-labelledby, aria-label,
 * native labels, content, title, placeholder). It is a JavaScript source text, not a module: it runs in
 * an isolated world of each document and must stand alone. The accuracy guard
 * (test/integration/snapshot-page-capture.test.ts) compares its answers with Chromium's, line by line.
 */
export const ROLES_SOURCE = String.raw`
const ARIA_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img image insertion link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem').split(' '));
const GLOBAL_ARIA = ['aria-label', 'aria-labelledby', 'aria-describedby', 'aria-live', 'aria-owns', 'aria-controls', 'aria-details', 'aria-keyshortcuts', 'aria-roledescription'];
const TAG_ROLE = { nav: 'navigation', main: 'main', aside: 'complementary', article: 'article', form: 'form', p: 'paragraph', ul: 'list', ol: 'list', menu: 'list', li: 'listitem', dl: 'DescriptionList', dt: 'term', dd: 'definition', textarea: 'textbox', hr: 'separator', br: 'LineBreak', label: 'LabelText', legend: 'Legend', fieldset: 'group', details: 'group', summary: 'DisclosureTriangle', dialog: 'dialog', strong: 'strong', em: 'emphasis', code: 'code', mark: 'mark', time: 'time', sub: 'subscript', sup: 'superscript', ins: 'insertion', del: 'deletion', abbr: 'Abbr', blockquote: 'blockquote', figure: 'figure', figcaption: 'Figcaption', output: 'status', progress: 'progressbar', meter: 'meter', iframe: 'Iframe', frame: 'Iframe', canvas: 'Canvas', search: 'search', address: 'group', hgroup: 'group', optgroup: 'group', option: 'option', caption: 'caption', tr: 'row', dfn: 'term', ruby: 'Ruby', pre: 'generic', section: 'generic', video: 'Video', audio: 'Audio' };
const INPUT_ROLE = { checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox', submit: 'button', reset: 'button', button: 'button', image: 'button', file: 'button', color: 'ColorWell', date: 'Date', 'datetime-local': 'DateTime', month: 'DateTime', week: 'DateTime', time: 'InputTime', hidden: 'none' };
const TEXT_INPUTS = new Set(['', 'text', 'email', 'tel', 'url', 'password', 'search']);
const NAME_FROM_CONTENT = new Set(['button', 'link', 'heading', 'cell', 'gridcell', 'columnheader', 'rowheader', 'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'checkbox', 'radio', 'switch', 'tooltip', 'row', 'DisclosureTriangle', 'term', 'LayoutTableCell', 'sectionheader']);
/** Elements whose role matters inside a name (embedded controls, native names). */
const NAMED_TAGS = new Set(['input', 'select', 'textarea', 'img', 'area', 'svg', 'fieldset', 'figure', 'table', 'optgroup', 'option', 'iframe', 'frame', 'button', 'meter', 'progress', 'output']);
const SECTIONING = 'article, aside, main, nav, section, [role=article], [role=complementary], [role=main], [role=navigation], [role=region]';

/** Per-capture caches (styles, table kinds, content text): the page does not change during one capture. */
let styles = new Map(), tables = new Map(), contents = new Map(), pseudos = new Map(), generating = new Map();
function resetCaches() { styles = new Map(); tables = new Map(); contents = new Map(); pseudos = new Map(); generating = new Map(); }
function styleOf(el) {
  let cs = styles.get(el);
  if (cs === undefined) { cs = getComputedStyle(el); styles.set(el, cs); }
  return cs;
}

function typeOf(el) { return (el.getAttribute('type') || '').trim().toLowerCase(); }

function explicitRole(el) {
  const attr = el.getAttribute('role');
  if (!attr) return undefined;
  for (const token of attr.trim().toLowerCase().split(/\s+/)) {
    if (!ARIA_ROLES.has(token)) continue;
    if (token === 'img') return 'image';
    if ((token === 'none' || token === 'presentation') && keepsRole(el)) continue;
    return token;
  }
  return undefined;
}

/** Presentation is overridden on focusable elements and elements with global ARIA attributes. */
function keepsRole(el) {
  if (el.hasAttribute('tabindex') || isNativelyFocusable(el)) return true;
  return GLOBAL_ARIA.some((a) => el.hasAttribute(a));
}

function isNativelyFocusable(el) {
  const tag = el.localName;
  if (tag === 'a' || tag === 'area') return el.hasAttribute('href');
  return (tag === 'button' || tag === 'input' || tag === 'select' || tag === 'textarea') && !el.disabled;
}

function isEditableRoot(el) {
  return el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
}

function roleOf(el, cs) {
  const role = explicitRole(el) || nativeRole(el, cs);
  if (role !== 'none' || el.hasAttribute('role') || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') return role;
  // Chromium keeps an element it would drop (a span, a div of blocks) when it can take focus (any
  // tabindex, -1 included) or carries a global ARIA attribute such as aria-label: a generic node.
  if (el.localName === 'input' || el.localName === 'img') return role;
  return keepsRole(el) || hasLayer(el, cs) ? 'generic' : role;
}

/**
 * Chromium keeps an element that paints in a layer of its own (positioned, transformed, translucent,
 * clipping its overflow) in its tree while it has children: a generic node where it would drop it.
 */
function hasLayer(el, cs) {
  if (!cs || !el.hasChildNodes() || cs.display === 'contents') return false;
  if (cs.position !== 'static' || cs.transform !== 'none' || Number(cs.opacity) < 1) return true;
  if (cs.filter !== 'none' || cs.clipPath !== 'none' || cs.mixBlendMode !== 'normal') return true;
  // Overflow clips a box, not an inline run.
  return cs.display !== 'inline' && cs.overflowX !== 'visible' && cs.overflowX !== 'clip';
}

function nativeRole(el, cs) {
  const tag = el.localName;
  if (/^h[1-6]$/.test(tag)) return 'heading';
  // Chromium keeps the root of an editable region whatever it holds (a textbox in the snapshot).
  if (isEditableRoot(el) && (tag === 'div' || tag === 'span' || tag === 'p')) return tag === 'p' ? 'paragraph' : 'generic';
  const mapped = TAG_ROLE[tag];
  if (tag === 'section' && nameOf(el, 'region')) return 'region';
  if ((mapped === 'paragraph' || mapped === 'generic') && !(isBlockFlow(cs) && childrenInline(el))) return 'none';
  if (mapped) return mapped;
  switch (tag) {
    case 'a': return el.hasAttribute('href') ? 'link' : 'none';
    case 'area': return el.hasAttribute('href') ? 'link' : 'none';
    case 'button': return 'button';
    case 'input': {
      const type = typeOf(el);
      if (TEXT_INPUTS.has(type) || !(type in INPUT_ROLE)) {
        if (el.hasAttribute('list')) return 'combobox';
        return type === 'search' ? 'searchbox' : 'textbox';
      }
      return INPUT_ROLE[type];
    }
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'img': return el.getAttribute('alt') === '' && !el.hasAttribute('title') ? 'none' : 'image';
    case 'svg': return 'image';
    case 'header': return el.parentElement && el.parentElement.closest(SECTIONING) ? 'sectionheader' : 'banner';
    case 'footer': return el.parentElement && el.parentElement.closest(SECTIONING) ? 'sectionfooter' : 'contentinfo';
    case 'table': return isDataTable(el) ? 'table' : 'LayoutTable';
    case 'thead': case 'tfoot': return 'rowgroup';
    case 'td': case 'th': return cellRole(el);
    case 'div': return isBlockFlow(cs) && childrenInline(el) ? 'generic' : 'none';
  }
  if (el.isContentEditable && el.contentEditable === 'true') return 'generic';
  return 'none';
}

/** Chromium keeps a div or paragraph only while it lays out inline content alone (one block of lines). */
function childrenInline(el) {
  for (const child of flatChildren(el)) {
    if (child.nodeType !== 1) continue;
    const cs = styleOf(child);
    if (cs.display === 'none' || cs.display === 'contents') continue;
    if (cs.position === 'absolute' || cs.position === 'fixed' || cs.float !== 'none') continue;
    if (!cs.display.startsWith('inline')) return false;
  }
  return true;
}

function isBlockFlow(cs) {
  const d = cs.display;
  return d === 'block' || d === 'flow-root' || d === 'inline-block' || d === 'list-item' || d === 'table-cell' || d === 'table-caption';
}

/** Chromium's data-table heuristics, in the cases pages commonly hit. */
function isDataTable(table) {
  let known = tables.get(table);
  if (known === undefined) { known = computeDataTable(table); tables.set(table, known); }
  return known;
}

function computeDataTable(table) {
  if (table.getAttribute('role') || table.caption || table.tHead || table.tFoot) return true;
  if (table.hasAttribute('summary') || table.querySelector(':scope > colgroup, :scope > col')) return true;
  const rows = table.rows;
  for (const row of rows) for (const cell of row.cells) {
    if (cell.localName === 'th' || cell.hasAttribute('scope') || cell.hasAttribute('headers') || cell.hasAttribute('abbr')) return true;
  }
  return rows.length >= 20;
}

function cellRole(cell) {
  // A cell of a presentational row is presentational too (an owned element of a presentation role).
  const row = cell.parentElement;
  const rowRole = row && row.localName === 'tr' ? explicitRole(row) : undefined;
  if (rowRole === 'none' || rowRole === 'presentation') return 'none';
  const table = cell.closest('table');
  const explicit = table && explicitRole(table);
  const grid = explicit === 'grid' || explicit === 'treegrid';
  if (table && explicit === undefined && !isDataTable(table)) return 'LayoutTableCell';
  if (cell.localName === 'td') return grid ? 'gridcell' : 'cell';
  const scope = (cell.getAttribute('scope') || '').toLowerCase();
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  if (cell.parentElement && cell.parentElement.parentElement && cell.parentElement.parentElement.localName === 'thead') return 'columnheader';
  if (row && Array.prototype.some.call(row.children, (c) => c.localName === 'td')) return 'rowheader';
  return 'columnheader';
}

function rowRole(row) {
  const table = row.closest('table');
  if (table && !explicitRole(table) && !isDataTable(table)) return 'LayoutTableRow';
  return 'row';
}

function collapse(text) { return text.replace(/\s+/g, ' ').trim(); }

function idRefs(el, attr) {
  const root = el.getRootNode();
  const ids = (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean);
  return ids.map((id) => (root.getElementById ? root.getElementById(id) : document.getElementById(id))).filter(Boolean);
}

function isHiddenForName(el) {
  // The hidden attribute hides only through the user-agent style, which a page's CSS may override
  // (Choices.js shows a hidden <select>): the computed style says whether it is rendered.
  if (el.getAttribute('aria-hidden') === 'true') return true;
  const cs = styleOf(el);
  return cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse';
}

/** The accessible name of an element with this role (whitespace collapsed). */
function nameOf(el, role, walk) {
  walk = walk || { visited: new Set(), labelledBy: false };
  if (walk.visited.has(el)) return '';
  walk.visited.add(el);
  if (!walk.labelledBy && el.hasAttribute('aria-labelledby')) {
    const refs = idRefs(el, 'aria-labelledby');
    if (refs.length > 0) {
      const text = collapse(refs.map((r) => textAlternative(r, { visited: walk.visited, labelledBy: true }, true)).join(' '));
      if (text) return text;
    }
  }
  const label = collapse(el.getAttribute('aria-label') || '');
  if (label) return label;
  const native = collapse(nativeName(el, role, walk));
  if (native) return native;
  if (NAME_FROM_CONTENT.has(role) && (role !== 'row' || rowNamedByContent(el))) {
    const text = collapse(contentText(el, walk));
    if (text) return text;
  }
  const title = collapse(el.getAttribute('title') || '');
  if (title) return title;
  if (role === 'textbox' || role === 'searchbox' || (role === 'combobox' && el.localName !== 'select'))
    return collapse(el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || '');
  return '';
}

/**
 * A row of a grid is named by its content; a row of a table only lends its content to an ancestor's
 * name, unless it takes focus (as Chromium computes it).
 */
function rowNamedByContent(row) {
  if (row.hasAttribute('tabindex')) return true;
  // Layout tables (role=presentation) between the row and its grid do not count.
  for (let t = row.parentElement; t; t = t.parentElement) {
    const role = explicitRole(t);
    if (role === 'grid' || role === 'treegrid') return true;
    if (role === 'table' || (t.localName === 'table' && role === undefined)) return false;
  }
  return false;
}

function nativeName(el, role, walk) {
  const tag = el.localName;
  if (tag === 'input') {
    const type = typeOf(el);
    if (type === 'submit' || type === 'reset' || type === 'button') {
      const value = el.getAttribute('value');
      if (value !== null) return value;
      const labels = labelText(el, walk);
      if (labels) return labels;
      return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '';
    }
    if (type === 'image') return el.getAttribute('alt') || el.getAttribute('value') || 'Submit';
    if (type === 'file') return labelText(el, walk) || (el.multiple ? 'Choose Files' : 'Choose File');
    return labelText(el, walk);
  }
  if (tag === 'textarea' || tag === 'select' || tag === 'meter' || tag === 'progress' || tag === 'output') return labelText(el, walk);
  if (tag === 'button') return labelText(el, walk);
  if (tag === 'img' || tag === 'area') return el.getAttribute('alt') || '';
  if (tag === 'fieldset') {
    const legend = Array.prototype.find.call(el.children, (c) => c.localName === 'legend');
    return legend ? contentText(legend, walk) : '';
  }
  if (tag === 'figure') {
    const caption = Array.prototype.find.call(el.children, (c) => c.localName === 'figcaption');
    return caption ? contentText(caption, walk) : '';
  }
  if (tag === 'table') return el.caption ? contentText(el.caption, walk) : '';
  if (tag === 'svg') {
    const title = Array.prototype.find.call(el.children, (c) => c.localName === 'title');
    return title ? title.textContent || '' : '';
  }
  if (tag === 'optgroup') return el.getAttribute('label') || '';
  if (tag === 'option') return el.getAttribute('label') || el.text || '';
  if (tag === 'iframe' || tag === 'frame') return el.getAttribute('title') || '';
  return '';
}

function labelText(el, walk) {
  const labels = el.labels;
  if (!labels || labels.length === 0) return '';
  return Array.prototype.map.call(labels, (l) => contentText(l, walk)).join(' ');
}

/** What an element contributes to the name of an ancestor named from its content. */
function textAlternative(el, walk, hiddenOk) {
  if (walk.visited.has(el) || (!hiddenOk && isHiddenForName(el))) return '';
  const role = el.hasAttribute('role') || NAMED_TAGS.has(el.localName) ? roleOf(el, styleOf(el)) : 'generic';
  if (walk.labelledBy || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) {
    const own = nameOf(el, role, { visited: walk.visited, labelledBy: walk.labelledBy && !el.hasAttribute('aria-labelledby') });
    if (own || !walk.labelledBy) return own ? own : contentText(el, walk);
  }
  const embedded = embeddedValue(el, role);
  if (embedded !== undefined) return embedded;
  const native = nativeName(el, role, walk);
  if (native) return native;
  // An image's children are presentational: an icon font's glyph drawn by ::before names nothing.
  if (role === 'image') return '';
  return contentText(el, walk);
}

/** Controls inside a name say their value, not their content. */
function embeddedValue(el, role) {
  if (role === 'textbox' || role === 'searchbox') return el.value !== undefined ? el.value : el.textContent || '';
  if (role === 'combobox' && el.localName === 'select') { const o = el.selectedOptions[0]; return o ? o.text : ''; }
  // An ARIA listbox says its chosen options, as Chromium's text alternative does (accname 2E).
  if (role === 'listbox' && el.value === undefined) return selectedOptionsText(el);
  if (role === 'combobox' || role === 'listbox') return el.value !== undefined ? el.value : '';
  if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar')
    return el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || (el.value !== undefined ? String(el.value) : '');
  return undefined;
}

function selectedOptionsText(listbox) {
  const chosen = listbox.querySelectorAll('[role=option][aria-selected=true]');
  return Array.prototype.map.call(chosen, (o) => collapse(contentText(o, { visited: new Set([o]), labelledBy: false }))).join(' ');
}

function flatChildren(el) {
  if (el.localName === 'slot') {
    const assigned = el.assignedNodes({ flatten: true });
    return assigned.length > 0 ? assigned : el.childNodes;
  }
  const root = el.shadowRoot;
  return root ? root.childNodes : el.childNodes;
}

function pseudoText(el, which) {
  let both = pseudos.get(el);
  if (both === undefined) {
    both = mayGenerate(el) ? [readPseudo(el, '::before'), readPseudo(el, '::after')] : ['', ''];
    pseudos.set(el, both);
  }
  return which === '::before' ? both[0] : both[1];
}

/**
 * Whether a style sheet that can style this element has a ::before or ::after rule that sets content (its own tree
 * scope's, an enclosing scope's through ::part, its shadow root's through :host); a sheet that cannot
 * be read (another origin) counts as having one. Most pages have none, and reading a pseudo-element's
 * computed style is the capture's dearest call. (The user-agent sheet's only ones, q's quotes, are
 * not strings, so they never named anything.)
 */
function mayGenerate(el) {
  if (el.shadowRoot && scopeGenerates(el.shadowRoot)) return true;
  for (let scope = el.getRootNode(); scope; scope = scope.host ? scope.host.getRootNode() : null) {
    if (scopeGenerates(scope)) return true;
  }
  return false;
}

function scopeGenerates(scope) {
  let known = generating.get(scope);
  if (known === undefined) {
    const sheets = [...(scope.styleSheets || []), ...(scope.adoptedStyleSheets || [])];
    known = sheets.some(sheetGenerates);
    generating.set(scope, known);
  }
  return known;
}

function sheetGenerates(sheet) {
  let rules;
  try { rules = sheet.cssRules; } catch { return true; }
  return rulesGenerate(rules);
}

function rulesGenerate(rules) {
  for (const rule of rules) {
    if (rule.styleSheet) { if (sheetGenerates(rule.styleSheet)) return true; continue; }
    if (typeof rule.selectorText === 'string' && /:(before|after)/i.test(rule.selectorText) && rule.style && rule.style.getPropertyValue('content') !== '') return true;
    if (rule.cssRules && rulesGenerate(rule.cssRules)) return true;
  }
  return false;
}

function readPseudo(el, which) {
  const content = getComputedStyle(el, which).content;
  if (!content || content[0] !== '"') return '';
  return content.slice(1, -1).replace(/\\(.)/g, '$1');
}

/**
 * Content text is cached per element, except where it holds a form control: a label's text depends on
 * which control is being named (the control itself is left out).
 */
function contentText(el, walk) {
  const known = contents.get(el);
  if (known !== undefined) return known;
  const text = computeContentText(el, walk);
  if (!walk.labelledBy && !el.querySelector('input, select, textarea, [aria-labelledby]')) contents.set(el, text);
  return text;
}

/** Containers of other named items: a tree item's name is its own text, not its subtree's. */
const NAME_SKIPPED_ROLES = new Set(['group', 'tree', 'treegrid', 'listbox', 'menu', 'menubar', 'grid', 'tablist', 'radiogroup', 'toolbar', 'dialog']);

/** Names from content read the rendered text: text-transform applies. */
function transformText(text, cs) {
  const t = cs ? cs.textTransform : 'none';
  if (t === 'uppercase') return text.toUpperCase();
  if (t === 'lowercase') return text.toLowerCase();
  if (t === 'capitalize') return text.replace(/(^|\s)(\S)/g, (m, s, c) => s + c.toUpperCase());
  return text;
}

function computeContentText(el, walk) {
  const parts = [pseudoText(el, '::before')];
  for (const child of flatChildren(el)) {
    if (child.nodeType === 3) parts.push(transformText(child.data, child.parentElement ? styleOf(child.parentElement) : null));
    else if (child.nodeType === 1) {
      if (child.localName === 'script' || child.localName === 'style' || child.localName === 'template') continue;
      const explicit = explicitRole(child);
      if (NAME_SKIPPED_ROLES.has(explicit) && explicit !== 'listbox') continue;
      const cs = styleOf(child);
      const text = textAlternative(child, walk);
      const block = !cs.display.startsWith('inline');
      parts.push(block ? ' ' + text + ' ' : text);
    }
  }
  parts.push(pseudoText(el, '::after'));
  return parts.join('');
}
`;
