/**
 * The in-page capture's reading of one element's fields (page-capture-source.ts): its states
 * (`propsOf`: checked, expanded, disabled, focused, range values, …), its value (`valueOf`: a
 * password only as bullets), the aria attributes the snapshot shows as they are, and whether it takes
 * drops. Pure functions of the element (and the focused one): the capture calls them per kept node.
 * Chromium's accessibility tree is the reference for each field; the CDP path (node-info.ts) reads the
 * same ones from it. It is a JavaScript source text, not a module: it runs inside the capture's scope,
 * beside the role and name code (page-roles-source.ts) whose helpers it uses.
 */
export const FIELDS_SOURCE = String.raw`
const RANGE_DEFAULTS = { slider: [0, 100], scrollbar: [0, 100], progressbar: [0, 100] };
const SELECTABLE = new Set(['tab', 'option', 'row', 'gridcell', 'treeitem', 'cell', 'columnheader', 'rowheader']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

function isDropTarget(el) {
  if (el.hasAttribute('ondrop') || el.hasAttribute('ondragover') || el.hasAttribute('ondragenter')) return true;
  const effect = (el.getAttribute('aria-dropeffect') || '').trim().toLowerCase();
  return effect !== '' && effect !== 'none';
}

function propsOf(el, role, active) {
  const p = {};
  const attr = (n) => el.getAttribute(n);
  if ((role === 'textbox' || role === 'searchbox') && attr('aria-multiline') !== 'false') {
    if (el.localName === 'textarea' || attr('aria-multiline') === 'true' || (el.isContentEditable && el.contentEditable === 'true')) p.multiline = true;
  }
  if (role === 'heading') {
    const level = Number.parseInt(attr('aria-level') || '', 10);
    p.level = level >= 1 ? level : /^h[1-6]$/.test(el.localName) ? Number(el.localName[1]) : 2;
  }
  if (CHECKABLE.has(role)) {
    const native = el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio');
    const checked = native ? (el.indeterminate && el.type === 'checkbox' ? 'mixed' : String(el.checked)) : attr('aria-checked');
    if (checked === 'true' || checked === 'mixed') p.checked = checked;
  }
  const pressed = attr('aria-pressed');
  if (role === 'button' && (pressed === 'true' || pressed === 'mixed')) p.pressed = pressed;
  if (SELECTABLE.has(role) && attr('aria-selected') === 'true') p.selected = true;
  const expanded = attr('aria-expanded');
  if (expanded === 'true') p.expanded = true;
  else if (expanded === 'false') p.expanded = false;
  if (role === 'DisclosureTriangle' && el.parentElement && el.parentElement.localName === 'details') p.expanded = el.parentElement.open;
  if (role === 'combobox' && el.localName === 'select') p.expanded = false;
  if ((el.matches(':disabled') && 'disabled' in el) || el.closest('[aria-disabled=true]')) p.disabled = true;
  if (el.localName === 'select') {
    if (el.validity && !el.validity.valid) p.invalid = 'true';
  } else if (el.required === true || attr('aria-required') === 'true') p.required = true;
  if ((el.readOnly === true && 'readOnly' in el) || attr('aria-readonly') === 'true') p.readonly = true;
  const invalid = attr('aria-invalid');
  if (invalid !== null && invalid !== '' && invalid !== 'false') p.invalid = invalid === 'grammar' || invalid === 'spelling' ? invalid : 'true';
  if (el.localName === 'dialog') p.modal = el.matches(':modal');
  else if ((role === 'dialog' || role === 'alertdialog') && attr('aria-modal') === 'true') p.modal = true;
  // A frame element is the active element of its document while focus is inside the frame; Chromium
  // marks the focused node inside, never the frame element.
  if (active === el && el.localName !== 'iframe' && el.localName !== 'frame') p.focused = true;
  if (attr('aria-busy') === 'true') p.busy = true;
  if (role === 'link' && el.href) p.url = typeof el.href === 'string' ? el.href : '';
  rangeProps(el, role, p);
  return Object.keys(p).length > 0 ? p : undefined;
}

function rangeProps(el, role, p) {
  const tag = el.localName;
  const num = (v) => { const n = Number.parseFloat(v); return Number.isFinite(n) ? n : undefined; };
  if (tag === 'input' && role === 'slider') { p.valuemin = num(el.min) ?? 0; p.valuemax = num(el.max) ?? 100; p.valuetext = el.value; return; }
  if (tag === 'input' && role === 'spinbutton') { p.valuemin = num(el.min) ?? 0; p.valuemax = num(el.max) ?? 0; p.valuetext = el.value; return; }
  if (tag === 'progress') { p.valuemin = 0; p.valuemax = el.max; p.valuetext = ''; return; }
  if (tag === 'meter') { p.valuemin = el.min; p.valuemax = el.max; p.valuetext = ''; return; }
  if (!['slider', 'scrollbar', 'progressbar', 'spinbutton', 'meter'].includes(role)) return;
  const defaults = RANGE_DEFAULTS[role];
  const min = num(el.getAttribute('aria-valuemin') || '') ?? (defaults && defaults[0]);
  const max = num(el.getAttribute('aria-valuemax') || '') ?? (defaults && defaults[1]);
  if (min !== undefined) p.valuemin = min;
  if (max !== undefined) p.valuemax = max;
  const text = el.getAttribute('aria-valuetext');
  if (text) p.valuetext = text;
}

function valueOf(el, role) {
  const tag = el.localName;
  if (tag === 'input') {
    const type = typeOf(el);
    if (type === 'password') return el.value ? '\u2022'.repeat(el.value.length) : undefined;
    if (type === 'file') {
      const files = el.files ? el.files.length : 0;
      if (files === 1) return el.files[0].name;
      return files > 1 ? files + ' files' : 'No file chosen';
    }
    if (role === 'slider' || role === 'spinbutton') return el.value === '' ? undefined : Number(el.value);
    if (role === 'button' || CHECKABLE.has(role)) return undefined;
    return el.value === '' ? undefined : el.value;
  }
  if (tag === 'textarea') return el.value === '' ? undefined : el.value;
  if ((role === 'textbox' || role === 'searchbox') && el.isContentEditable) return el.innerText || undefined;
  if (role === 'combobox' && tag !== 'input' && tag !== 'select') return collapse(contentText(el, { visited: new Set([el]), labelledBy: false })) || undefined;
  if (tag === 'select' && role === 'combobox') { const o = el.selectedOptions[0]; return o ? o.text : undefined; }
  if (tag === 'progress') return el.position === -1 ? undefined : el.value;
  if (tag === 'meter') return el.value;
  if (['slider', 'scrollbar', 'progressbar', 'spinbutton', 'meter'].includes(role)) {
    const now = Number.parseFloat(el.getAttribute('aria-valuenow') || '');
    return Number.isFinite(now) ? now : undefined;
  }
  return undefined;
}

function ariaAttrs(el) {
  const out = {};
  for (const n of ['aria-current', 'aria-sort', 'aria-rowindex', 'aria-rowcount', 'aria-busy', 'aria-valuetext']) {
    const v = el.getAttribute(n);
    if (v !== null) out[n] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
`;
