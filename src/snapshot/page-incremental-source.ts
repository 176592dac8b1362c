/**
 * Incremental capture in the page (docs/snapshots.md, "Incremental capture"): the part of the
 * in-page capture script (page-capture-source.ts) that remembers, per document, what the last
 * capture produced for each element and which subtrees changed since. A MutationObserver started at
 * the first capture records childList, attribute and text changes (in the document and in every open
 * shadow root the capture walked); form values, focus, click listeners, running animations and
 * visually reordered siblings are compared at the next capture. `begin` turns all of that into a plan:
 *
 * - `deep`: elements whose whole subtree is computed again (an attribute changed: class or style can
 *   hide or show anything below; an inserted or moved element; a table whose cells' roles depend on
 *   the whole table; an animated element);
 * - `path`: elements computed again themselves (names from content, children, values, focus) whose
 *   clean children are reused as they were.
 *
 * Anything it cannot bound gives no plan, and the capture is a full one: the first capture of a
 * document, a scoped capture, too many records, a stylesheet added, removed or edited, CSS rules that
 * can show or hide content on a state no mutation reports (:hover, :focus, :checked, :has(), …), a
 * viewport change, a modal dialog, popover or fullscreen element opened or closed, `id`/`for`/`slot`
 * attribute changes, a label whose control is gone. It is a JavaScript source text, not a module.
 */
export const INCREMENTAL_SOURCE = String.raw`
const MAX_RECORDS = 400;
const KEEP_GENERATIONS = 8;
const OBSERVE = { subtree: true, childList: true, attributes: true, characterData: true };
const STYLE_PROPS = /(^|[;{\s])(display|visibility|content|cursor|text-transform|position|float|content-visibility)\s*:/i;
const STATE_SELECTOR = /:(hover|focus|focus-within|focus-visible|active|checked|target|popover-open|modal|invalid|valid|user-invalid|user-valid|placeholder-shown|indeterminate|default|autofill|fullscreen|in-range|out-of-range|blank|has)\b/i;
const SIBLING_SELECTOR = /[+~]|:(nth-|first-|last-|only-|empty)/i;
const STYLEISH = 'style, link';

const track = {
  observer: null, records: [], overflow: false, events: new Set(),
  valid: false, gen: 0, counter: 0, outs: new Map(), entries: new WeakMap(), nodes: 0,
  state: '', top: [], active: null, clicks: new Set(), forms: [], formPrints: new WeakMap(), animated: [],
  layout: [], roots: [], structural: false,
};
const sheetScans = new WeakMap();

function onRecords(records) {
  if (track.overflow) return;
  for (const r of records) track.records.push(r);
  if (track.records.length > MAX_RECORDS) {
    track.overflow = true;
    track.records = [];
    track.observer.disconnect();
  }
}

for (const type of ['input', 'change']) {
  document.addEventListener(type, (e) => { if (track.valid) track.events.add(e.composedPath()[0]); }, true);
}

/** Rules that read a state no mutation reports, or a sibling, and set what the capture reads. */
function scanRules(rules, found) {
  for (const rule of rules) {
    if (rule.cssRules && rule.cssRules.length > 0) scanRules(rule.cssRules, found);
    if (!rule.selectorText || !rule.style || !STYLE_PROPS.test(rule.style.cssText)) continue;
    if (STATE_SELECTOR.test(rule.selectorText)) found.risky = true;
    if (SIBLING_SELECTOR.test(rule.selectorText)) found.structural = true;
  }
}

function sheetsOf(root) {
  const sheets = Array.from(root.styleSheets || []);
  for (const s of root.adoptedStyleSheets || []) sheets.push(s);
  return sheets;
}

/** What decides every element's style besides the DOM: the stylesheets, the viewport, the top layer. */
function pageState(roots) {
  const parts = [innerWidth, innerHeight, devicePixelRatio];
  let risky = false, structural = false;
  for (const root of [document, ...roots]) {
    for (const sheet of sheetsOf(root)) {
      let rules;
      try { rules = sheet.cssRules; } catch { risky = true; continue; }
      let scan = sheetScans.get(sheet);
      if (!scan || scan.length !== rules.length) {
        scan = { length: rules.length, risky: false, structural: false };
        scanRules(rules, scan);
        sheetScans.set(sheet, scan);
      }
      risky = risky || scan.risky;
      structural = structural || scan.structural;
      parts.push(rules.length, sheet.disabled ? 0 : 1, sheet.media ? sheet.media.mediaText : '');
    }
  }
  const top = [document.fullscreenElement];
  try { top.push(document.querySelector(':modal'), ...document.querySelectorAll(':popover-open')); } catch { risky = true; }
  return { key: parts.join('|'), top, risky, structural };
}

function formPrint(el) {
  if (el.localName === 'select') return Array.from(el.options, (o) => (o.selected ? 1 : 0)).join('') + (el.validity.valid ? '' : '!');
  const files = el.files ? el.files.length : 0;
  return el.value + '\u0000' + el.checked + el.indeterminate + files;
}

function animatedTargets() {
  const out = [];
  try {
    for (const a of document.getAnimations()) {
      const t = a.effect && a.effect.target;
      if (t && t.nodeType === 1) out.push(t);
    }
  } catch { /* no animations API: nothing animated to recompute */ }
  return out;
}

function referrers(el) {
  const root = el.getRootNode();
  if (!root.querySelectorAll) return [];
  return Array.from(root.querySelectorAll('[aria-labelledby~="' + CSS.escape(el.id) + '"]'));
}

function markPath(plan, node) {
  let n = node;
  while (n) {
    if (n.nodeType === 11) { n = n.host; continue; }
    if (n.nodeType !== 1) { n = n.parentNode; continue; }
    if (plan.path.has(n)) return;
    plan.path.add(n);
    if (n.localName === 'label' && n.control) markPath(plan, n.control);
    if (n.localName === 'table') plan.deep.add(n);
    if (plan.labelled && n.id) for (const r of referrers(n)) markPath(plan, r);
    if (n.assignedSlot) markPath(plan, n.assignedSlot);
    n = n.parentNode;
  }
}

function markDeep(plan, el) {
  plan.deep.add(el);
  markPath(plan, el);
}

function elementOf(node) {
  if (!node) return null;
  if (node.nodeType === 11) return node.host || null;
  return node.nodeType === 1 ? node : elementOf(node.parentNode);
}

/** An inserted or removed subtree: what else it names (labels, aria-labelledby) or styles. */
function markSubtree(plan, node, root, added) {
  if (node.nodeType !== 1) return true;
  if (node.matches(STYLEISH) || node.querySelector(STYLEISH)) return false;
  const labels = node.localName === 'label' ? [node] : Array.from(node.querySelectorAll('label'));
  for (const label of labels) {
    const control = added ? label.control : label.htmlFor && root.getElementById && root.getElementById(label.htmlFor);
    if (control) markPath(plan, control);
  }
  if (plan.labelled) {
    const withIds = node.id ? [node] : [];
    for (const el of node.querySelectorAll('[id]')) withIds.push(el);
    if (withIds.length > 200) return false;
    for (const el of withIds) for (const r of root.querySelectorAll ? root.querySelectorAll('[aria-labelledby~="' + CSS.escape(el.id) + '"]') : []) markPath(plan, r);
  }
  if (added && node.isConnected) markDeep(plan, node);
  return true;
}

function markRecord(plan, r) {
  const target = r.target;
  if (r.type === 'characterData') {
    const el = elementOf(target.parentNode);
    if (el && el.matches(STYLEISH)) return false;
    if (el) markPath(plan, el);
    return true;
  }
  const el = elementOf(target);
  if (!el) return true;
  if (el.matches(STYLEISH)) return false;
  // A host's light children are shown through slots elsewhere in its shadow tree.
  const host = el.shadowRoot ? el : null;
  if (r.type === 'attributes') {
    const name = r.attributeName;
    if (name === 'id' || name === 'for' || name === 'slot') return false;
    const parent = elementOf(el.parentNode);
    const hostParent = parent && parent.shadowRoot ? parent : null;
    markDeep(plan, hostParent || (plan.structural && parent) || el);
    return true;
  }
  const root = target.getRootNode();
  for (const n of r.removedNodes) if (!markSubtree(plan, n, root, false)) return false;
  for (const n of r.addedNodes) if (!markSubtree(plan, n, root, true)) return false;
  if (host || plan.structural) markDeep(plan, el);
  else markPath(plan, el);
  return true;
}

/**
 * The plan for this capture (or null: a full one), and what to remember after it. Records are taken
 * only by an unscoped capture (a scoped one keeps them for the next).
 */
function begin(scoped, allow, clickTargets, active) {
  const roots = track.roots.filter((r) => r.host && r.host.isConnected);
  const state = pageState(roots);
  if (scoped) return { plan: null, state };
  if (track.observer) onRecords(track.observer.takeRecords());
  const records = track.records, overflow = track.overflow, events = track.events;
  track.records = []; track.overflow = false; track.events = new Set();
  // The records are consumed: until this capture commits, nothing may be reused (a capture that
  // throws half way leaves a full one next).
  const wasValid = track.valid;
  track.valid = false;
  const sameTop = state.top.length === track.top.length && state.top.every((el, i) => el === track.top[i]);
  if (!allow || !wasValid || overflow || state.risky || state.key !== track.state || !sameTop) return { plan: null, state };
  const plan = { deep: new Set(), path: new Set(), structural: state.structural, labelled: document.querySelector('[aria-labelledby]') !== null };
  for (const r of records) if (!markRecord(plan, r)) return { plan: null, state };
  if (active !== track.active) {
    if (track.active && track.active.isConnected) markPath(plan, track.active);
    if (active) markPath(plan, active);
  }
  for (const el of clickTargets) if (!track.clicks.has(el) && el.nodeType === 1) markPath(plan, el);
  for (const el of track.clicks) if (!clickTargets.has(el) && el.isConnected) markPath(plan, el);
  for (const el of track.forms) if (el.isConnected && formPrint(el) !== track.formPrints.get(el)) markPath(plan, el);
  for (const el of events) if (el && el.nodeType === 1 && el.isConnected) markPath(plan, el);
  const animated = animatedTargets();
  for (const el of [...track.animated, ...animated]) if (el.isConnected) markDeep(plan, el);
  for (const el of track.layout) if (el.isConnected) markPath(plan, el);
  if (plan.deep.has(document.documentElement) || plan.deep.has(document.body)) return { plan: null, state };
  if (plan.path.size + plan.deep.size > Math.max(64, track.nodes / 4)) return { plan: null, state };
  return { plan, state, animated };
}

/** The previous capture's output for an element still valid for reuse, or undefined. */
function reusable(el, visible) {
  const entry = track.entries.get(el);
  if (!entry || entry.visible !== visible || entry.gen < track.gen - KEEP_GENERATIONS) return undefined;
  const out = track.outs.get(entry.gen);
  return out ? { entry, out } : undefined;
}

/** Remembers what an unscoped capture produced, and (re)starts observing its document and shadow roots. */
function commit(begun, out, gen, seen) {
  track.valid = true;
  track.gen = gen;
  track.outs.set(gen, out);
  for (const g of track.outs.keys()) if (g < gen - KEEP_GENERATIONS) track.outs.delete(g);
  track.state = begun.state.key;
  track.top = begun.state.top;
  track.structural = begun.state.structural;
  track.active = seen.active;
  track.clicks = seen.clickTargets;
  // Reused subtrees were not walked: what they hold is carried over from the captures before.
  const carry = (old, now) => Array.from(new Set([...old.filter((n) => (n.host || n).isConnected), ...now]));
  track.forms = carry(track.forms, seen.forms);
  track.formPrints = new WeakMap(track.forms.map((el) => [el, formPrint(el)]));
  track.animated = begun.animated || animatedTargets();
  track.layout = carry(track.layout, seen.layout);
  track.nodes = out.length;
  track.roots = carry(track.roots, seen.roots);
  if (!track.observer) track.observer = new MutationObserver(onRecords);
  track.observer.observe(document, OBSERVE);
  for (const root of track.roots) track.observer.observe(root, OBSERVE);
}
`;
