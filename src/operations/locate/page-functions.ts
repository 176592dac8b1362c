/**
 * Functions run inside the page through CDP `Runtime.callFunctionOn` (`this` is the element). They are
 * plain strings, not serialized TypeScript, so a bundler or test transform can never inject helpers
 * into them, and they run in whichever frame and process owns the element. Each one does all of an
 * action's page-side work in a single round trip.
 */

/** Shared helpers, inlined into each function below. */
const HELPERS = `
  const deepHit = (doc, x, y) => {
    let hit = doc.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };
  const composedContains = (outer, node) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === outer) return true;
    return false;
  };
  const describe = (el) => {
    const tag = el.localName || 'element';
    if (el.id) return (tag + '#' + el.id).slice(0, 80);
    const classes = [...el.classList].slice(0, 2).map((c) => '.' + c).join('');
    const role = el.getAttribute('role');
    return (tag + classes + (role ? '[role=' + role + ']' : '')).slice(0, 80);
  };
  const coverOf = (hit, target, doc) => {
    let layer = hit;
    while (layer.parentElement && layer.parentElement !== doc.body && !composedContains(layer.parentElement, target)) layer = layer.parentElement;
    return describe(layer);
  };
  const flatContains = (outer, node) => {
    for (let n = node; n; n = n.assignedSlot || n.parentNode || n.host) if (n === outer) return true;
    return false;
  };
  const hits = (el, hit) => {
    if (!hit) return false;
    if (composedContains(el, hit) || flatContains(el, hit)) return true;
    // A point on slotted light-DOM text hit-tests to the shadow host: the host and its shadow tree are one widget.
    if (hit.shadowRoot && composedContains(hit.shadowRoot, el)) return true;
    const label = hit.closest && hit.closest('label');
    if (label && label.control === el) return true;
    return el.localName === 'label' && el.control === hit;
  };
  const viewport = (win) => ({ w: win.innerWidth, h: win.innerHeight });
  const visibleRect = (el, win) => {
    const { w, h } = viewport(win);
    for (const r of el.getClientRects()) {
      if (r.width <= 0 || r.height <= 0) continue;
      const x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0), x1 = Math.min(r.right, w), y1 = Math.min(r.bottom, h);
      if (x1 > x0 && y1 > y0) return { x: (x0 + x1) / 2, y: (y0 + y1) / 2 };
    }
    return undefined;
  };
`;

/**
 * Scrolls the element into view if needed, checks it is visible (and enabled, for clicks), and
 * hit-tests its centre: returns the point in the frame's viewport, or why it cannot be acted on.
 */
export const PREPARE_POINTER = `function (checkEnabled, hitTest) {
  ${HELPERS}
  const el = this;
  if (!el.isConnected) return { ok: false, reason: 'detached' };
  const doc = el.ownerDocument, win = doc.defaultView;
  if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return { ok: false, reason: 'not_visible' };
  if (checkEnabled && ((el.matches && el.matches(':disabled')) || el.closest('[aria-disabled="true"]'))) return { ok: false, reason: 'disabled' };
  let point = visibleRect(el, win);
  if (!point) {
    if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true); else el.scrollIntoView({ block: 'center', inline: 'center' });
    point = visibleRect(el, win);
  }
  if (!point) {
    const any = [...el.getClientRects()].some((r) => r.width > 0 && r.height > 0);
    return { ok: false, reason: any ? 'outside_viewport' : 'not_visible' };
  }
  if (hitTest) {
    const hit = deepHit(doc, point.x, point.y);
    if (!hits(el, hit)) return { ok: false, reason: 'covered', coveredBy: hit ? coverOf(hit, el, doc) : 'nothing' };
  }
  return { ok: true, x: point.x, y: point.y };
}`;

/**
 * Run on an iframe element with a point in its content's viewport: scrolls the parent so the point is
 * visible, checks nothing in the parent covers it there, and returns the point in the parent's viewport.
 */
export const TRANSLATE_THROUGH_FRAME = `function (x, y, hitTest) {
  ${HELPERS}
  const f = this;
  if (!f.isConnected) return { ok: false, reason: 'detached' };
  const doc = f.ownerDocument, win = doc.defaultView;
  const at = () => {
    const r = f.getBoundingClientRect(), cs = win.getComputedStyle(f);
    return { x: r.left + f.clientLeft + parseFloat(cs.paddingLeft) + x, y: r.top + f.clientTop + parseFloat(cs.paddingTop) + y };
  };
  const inside = (p) => { const { w, h } = viewport(win); return p.x >= 0 && p.y >= 0 && p.x < w && p.y < h; };
  let p = at();
  if (!inside(p)) {
    const { w, h } = viewport(win);
    win.scrollBy(p.x - w / 2, p.y - h / 2);
    p = at();
  }
  if (!inside(p)) return { ok: false, reason: 'outside_viewport' };
  if (hitTest) {
    const hit = deepHit(doc, p.x, p.y);
    if (hit !== f) return { ok: false, reason: 'covered', coveredBy: hit ? coverOf(hit, f, doc) : 'nothing' };
  }
  return { ok: true, x: p.x, y: p.y };
}`;

/** Scrolls the element into view (centred) when it is not fully visible. */
export const SCROLL_INTO_VIEW = `function () {
  if (!this.isConnected) return { ok: false, reason: 'detached' };
  if (this.scrollIntoViewIfNeeded) this.scrollIntoViewIfNeeded(true); else this.scrollIntoView({ block: 'center', inline: 'center' });
  const r = this.getBoundingClientRect();
  return r.width > 0 || r.height > 0 ? { ok: true } : { ok: false, reason: 'not_visible' };
}`;

/** Focuses the element; ok only if focus really landed on it (or inside it). */
export const FOCUS = `function () {
  if (!this.isConnected) return { ok: false, reason: 'detached' };
  if (this.matches && this.matches(':disabled')) return { ok: false, reason: 'disabled' };
  this.focus();
  let active = this.ownerDocument.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active && (active === this || this.contains(active)) ? { ok: true } : { ok: false, reason: 'not_focusable' };
}`;

/**
 * Scrolls by whole pixels: the page (isPage), or the nearest container of the element (itself
 * included, across shadow boundaries) that actually scrolls in the asked direction — a grid cell's
 * sideways scroller is passed over for a vertical scroll. An element with no such ancestor (a grid's
 * host) scrolls its largest descendant that does; else the page. Returns the resulting position and
 * which container moved.
 */
export const SCROLL_BY = `function (dx, dy, isPage) {
  if (!this.isConnected) return null;
  const doc = this.ownerDocument || document, win = doc.defaultView;
  const can = (el, axis) => {
    const cs = win.getComputedStyle(el);
    const overflow = axis === 'x' ? cs.overflowX : cs.overflowY;
    if (!/(auto|scroll|overlay)/.test(overflow)) return false;
    return axis === 'x' ? el.scrollWidth > el.clientWidth : el.scrollHeight > el.clientHeight;
  };
  const fits = (el) => (dx === 0 || can(el, 'x')) && (dy === 0 || can(el, 'y')) && (dx !== 0 || dy !== 0 || can(el, 'x') || can(el, 'y'));
  const up = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;
  const isRoot = (el) => el === doc.body || el === doc.documentElement;
  let box = null;
  if (!isPage) {
    for (let el = this; el && !isRoot(el); el = up(el)) if (fits(el)) { box = el; break; }
    if (!box && !isRoot(this)) {
      let best = 0, seen = 0;
      const walk = (root) => {
        for (const el of root.querySelectorAll('*')) {
          if (++seen > 5000) return;
          if (fits(el)) { const area = el.clientWidth * el.clientHeight; if (area > best) { best = area; box = el; } }
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(this.shadowRoot || this);
      if (this.shadowRoot) walk(this);
    }
  }
  if (!box) {
    win.scrollBy({ left: dx, top: dy, behavior: 'instant' });
    return { scrollX: Math.round(win.scrollX), scrollY: Math.round(win.scrollY), container: 'page' };
  }
  box.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  const classes = [...box.classList].slice(0, 2).map((c) => '.' + c).join('');
  const name = (box.localName + (box.id ? '#' + box.id : classes)).slice(0, 80);
  return { scrollX: Math.round(box.scrollLeft), scrollY: Math.round(box.scrollTop), container: 'element', scroller: name };
}`;

/**
 * Gets a text control ready for typing: visible, enabled, editable; focused with its content selected
 * (so typed text replaces it). Input types that take no typing (date, color, range…) get the value
 * set directly, with the input and change events a user's edit would fire.
 */
export const PREPARE_FILL = `function (value) {
  const el = this;
  if (!el.isConnected) return { ok: false, reason: 'detached' };
  if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return { ok: false, reason: 'not_visible' };
  const tag = el.localName;
  const type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : '';
  const typed = ['text', 'search', 'url', 'tel', 'password', 'email', 'number'];
  const direct = ['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week'];
  if (tag === 'input' && !typed.includes(type) && !direct.includes(type)) return { ok: false, reason: 'not_fillable' };
  if (tag !== 'input' && tag !== 'textarea' && !el.isContentEditable) return { ok: false, reason: 'not_fillable' };
  if ((el.matches && el.matches(':disabled')) || el.closest('[aria-disabled="true"]')) return { ok: false, reason: 'disabled' };
  if (el.readOnly) return { ok: false, reason: 'readonly' };
  el.focus();
  if (direct.includes(type)) {
    el.value = value;
    if (el.value !== value) return { ok: false, reason: 'malformed_value' };
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { ok: true, done: true };
  }
  if (tag === 'input' || tag === 'textarea') el.select();
  else {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    const selection = el.ownerDocument.defaultView.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  return { ok: true, done: false };
}`;

/**
 * Selects the options matching `wanted` (by value, then label; by label; or by index) and fires input
 * and change.
 */
export const SELECT_OPTIONS = `function (by, wanted) {
  const el = this;
  if (!el.isConnected) return { ok: false, reason: 'detached' };
  if (el.localName !== 'select') return { ok: false, reason: 'not_a_select' };
  if (el.disabled) return { ok: false, reason: 'disabled' };
  const options = [...el.options];
  const picked = [];
  for (let i = 0; i < wanted.length; i++) {
    const w = wanted[i];
    const byLabel = (o) => o.label === w || o.textContent.trim() === w;
    // A value no option has matches an option's label (Playwright's selectOption does the same).
    const opt = by === 'index' ? options[w] : by === 'value' ? options.find((o) => o.value === w) || options.find(byLabel) : options.find(byLabel);
    // The options there are (their labels, the first 20, each cut at 60 characters), so the caller can pick one.
    if (!opt) return { ok: false, reason: 'no_option', position: i, count: options.length,
      labels: options.slice(0, 20).map((o) => (o.label || o.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60)) };
    if (opt.disabled || (opt.parentElement && opt.parentElement.localName === 'optgroup' && opt.parentElement.disabled)) return { ok: false, reason: 'option_disabled', position: i };
    if (!picked.includes(opt)) picked.push(opt);
  }
  if (picked.length > 1 && !el.multiple) return { ok: false, reason: 'not_multiple' };
  for (const o of options) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true, values: picked.map((o) => o.value) };
}`;

/** The checked state of a checkbox, radio or ARIA checkable (a label reads its control). */
export const READ_CHECKED = `function () {
  if (!this.isConnected) return { kind: 'detached' };
  const el = this.localName === 'label' && this.control ? this.control : this;
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return { kind: 'native', checked: el.checked, radio: el.type === 'radio' };
  const role = el.getAttribute('role');
  if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) {
    return { kind: 'aria', checked: el.getAttribute('aria-checked') === 'true', radio: role === 'radio' || role === 'menuitemradio' };
  }
  return { kind: 'none' };
}`;

/** Whether the element is attached, visible (non-empty box, not hidden by CSS) and enabled. */
export const ELEMENT_STATE = `function () {
  if (!this.isConnected) return { attached: false, visible: false, enabled: false };
  const r = this.getBoundingClientRect();
  const visible = r.width > 0 && r.height > 0 && (!this.checkVisibility || this.checkVisibility({ visibilityProperty: true }));
  const disabled = (this.matches && this.matches(':disabled')) || !!this.closest('[aria-disabled="true"]');
  return { attached: true, visible, enabled: !disabled };
}`;
