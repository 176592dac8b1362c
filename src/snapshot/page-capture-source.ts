import {
  ACK_EVENT,
  ASK_EVENT,
  CLOSED_ACK_EVENT,
  LATE_ACK_EVENT,
  MARK_EVENT,
} from './page-listeners-source.js';
import { INCREMENTAL_SOURCE } from './page-incremental-source.js';
import { WIRE_SOURCE } from './page-wire-source.js';
import { FIELDS_SOURCE } from './page-fields-source.js';
import { ROLES_SOURCE } from './page-roles-source.js';

/**
 * The in-page capture: one script per document, evaluated once into an isolated world of that
 * document (the page's own scripts cannot see or change it) and kept there under a registered symbol.
 * `capture()` walks the rendered tree (open shadow roots and slots included, hidden, inert and
 * aria-hidden content pruned) and returns only what the snapshot uses: per kept node its Chromium role,
 * accessible name, states, value and layout facts, in a compact form page-capture.ts expands into the
 * shapes the CDP path produces. Elements get ids from a per-document registry (weakly held), so a ref
 * can find its element again later (`element(id)`) and the same element keeps its id.
 */

export const CAPTURE_KEY = 'browsermesh.capture';

/** One node as the page sends it (short keys: this is what crosses CDP). */
export interface PageNode {
  /** Registry id (elements only). */
  i?: number;
  r: string;
  n?: string;
  v?: string | number;
  /** States and range properties, as Chromium names them. */
  p?: Record<string, string | number | boolean>;
  /** Indexes of the children in the node list. */
  c?: number[];
  /** aria-hidden root: left out and counted. */
  h?: 1;
  /** Ignored element kept as a node (only the scope element of a scoped snapshot). */
  g?: 1;
  /** Facts: clickable, tabbable, inline, input type, autocomplete, ARIA order/state attributes. */
  k?: 1;
  t?: 1;
  l?: 1;
  it?: string;
  ac?: string;
  a?: Record<string, string>;
  /** Something to drag (draggable=true, ondragstart, where a grab/move cursor starts); a drop target. */
  dg?: 1;
  dt?: 1;
  /** The root of a contenteditable region. */
  ed?: 1;
  /** An <a> element. */
  an?: 1;
  /**
   * No box of its own (display: contents, as a slot): Chromium's DOM snapshot has no layout for it, so
   * the CDP capture knows no facts about it (no click target, no inline flow); neither does this one.
   */
  nb?: 1;
}

export interface PageDocument {
  nodes: PageNode[];
  /** Registry ids of iframe elements. */
  frames: number[];
  hidden: number;
  title: string;
  /**
   * 'ok'; 'late' (hook installed after the page's scripts ran), 'missing', or 'unsupported' (content the
   * capture does not reproduce: closed shadow roots, aria-owns, native media controls): `auto` then
   * answers from the CDP tree.
   */
  listeners: 'ok' | 'late' | 'missing' | 'unsupported';
  /** Present when the capture was incremental: how many of `nodes` were reused from the last one. */
  reused?: number;
  /** The capture's generation in its document (unscoped captures). */
  gen?: number;
  /**
   * An incremental capture's base generation: `nodes` then holds spans `{s: [from, length]}` of that
   * capture's node list (child indexes shifted to where the span lands) between literal nodes.
   */
  base?: number;
  /** Set in Node: how many nodes crossed CDP. */
  sent?: number;
  /** The document's origin, which a link's `u` path is relative to (the wire form). */
  o?: string;
}

/**
 * A node as it crosses CDP (`packed` in the capture script): a text node as its string, or 0 when it
 * repeats its parent's name; a link to the document's origin with its path in `u`; a span of the
 * last capture's list.
 */
export type WireNode = (PageNode & { u?: string }) | string | 0 | { s: [number, number] };

export const CAPTURE_SOURCE = String.raw`(() => {
${ROLES_SOURCE}
const ids = new WeakMap();
const elements = [];
function idOf(el) {
  let id = ids.get(el);
  if (id === undefined) { id = elements.length + 1; ids.set(el, id); elements.push(new WeakRef(el)); }
  return id;
}
function element(id) { const ref = elements[id - 1]; return ref ? ref.deref() : undefined; }
${INCREMENTAL_SOURCE}
${WIRE_SOURCE}
${FIELDS_SOURCE}

const SKIP = new Set(['script', 'style', 'template', 'head', 'noscript', 'title', 'meta', 'link', 'base']);
const NON_VISUAL = new Set(['head', 'script', 'style', 'template', 'noscript', 'meta', 'link', 'title', 'base', 'option', 'optgroup', 'datalist', 'area', 'param', 'source', 'track', 'slot', 'col', 'colgroup', 'map', 'wbr', 'br']);
const DRAG_CURSORS = new Set(['grab', '-webkit-grab', 'grabbing', 'move']);
const LEAF = new Set(['textbox', 'searchbox', 'spinbutton', 'slider', 'Date', 'DateTime', 'InputTime', 'ColorWell', 'checkbox', 'radio', 'switch', 'image', 'Iframe', 'separator', 'progressbar', 'meter', 'Canvas', 'Video', 'Audio']);
const XHTML = 'http://www.w3.org/1999/xhtml';

function listenerTargets() {
  const found = new Set();
  let ack = 'missing';
  const onMark = (e) => { found.add(e.composedPath()[0]); };
  const onAck = () => { ack = 'ok'; };
  const onLate = () => { ack = 'late'; };
  const onClosed = () => { ack = 'unsupported'; };
  window.addEventListener('${MARK_EVENT}', onMark, true);
  document.addEventListener('${ACK_EVENT}', onAck);
  document.addEventListener('${LATE_ACK_EVENT}', onLate);
  document.addEventListener('${CLOSED_ACK_EVENT}', onClosed);
  try { document.dispatchEvent(new CustomEvent('${ASK_EVENT}')); } finally {
    window.removeEventListener('${MARK_EVENT}', onMark, true);
    document.removeEventListener('${ACK_EVENT}', onAck);
    document.removeEventListener('${LATE_ACK_EVENT}', onLate);
    document.removeEventListener('${CLOSED_ACK_EVENT}', onClosed);
  }
  // Chromium moves aria-owns'd elements and exposes native media controls; this capture does neither.
  if (document.querySelector('[aria-owns], video[controls], audio[controls]')) ack = 'unsupported';
  return { found, ack };
}

function deepActive() {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return document.hasFocus() ? el : null;
}

function capture(scopeId, incremental) {
  const out = [];
  let hidden = 0;
  resetCaches();
  const { found: clickTargets, ack } = listenerTargets();
  const active = deepActive();
  const push = (node) => { out.push(node); return out.length - 1; };
  // Incremental capture (page-incremental-source.ts): elements outside the plan's changed subtrees
  // give back what they gave last time; every element's output is remembered for the next capture.
  const scoped = Boolean(scopeId);
  const begun = begin(scoped, incremental === true, clickTargets, active);
  const plan = begun.plan;
  const gen = ++track.counter;
  const seen = { active, clickTargets, forms: [], layout: [], roots: [] };
  let noReuse = 0, reused = 0;

  const lastGen = track.gen;
  const spans = [];

  function reuse(el, prev) {
    const { entry, out: src } = prev;
    const shift = out.length - entry.start;
    // Nodes of the last capture are not sent again: Node has them (page-capture.ts).
    if (entry.gen === lastGen) spans.push([out.length, entry.start, entry.end - entry.start]);
    for (let j = entry.start; j < entry.end; j++) {
      const r = src[j];
      out.push(r.c ? { ...r, c: r.c.map((k) => k + shift) } : r);
      // Elements inside keep entries into this capture's list, so their reuse is sent as a span too.
      const inner = r.i === undefined ? undefined : element(r.i);
      const e = inner && track.entries.get(inner);
      if (e && e.gen === entry.gen && e.start >= entry.start && e.end <= entry.end && inner !== el)
        track.entries.set(inner, { gen, start: e.start + shift, end: e.end + shift, kids: e.kids.map((k) => k + shift), hidden: e.hidden, visible: e.visible });
    }
    reused += entry.end - entry.start;
    hidden += entry.hidden;
    const kids = entry.kids.map((k) => k + shift);
    track.entries.set(el, { gen, start: entry.start + shift, end: entry.end + shift, kids, hidden: entry.hidden, visible: entry.visible });
    return kids;
  }

  function transform(text, cs) { return transformText(text, cs); }

  function visitAll(nodes, parentCs, visible) {
    const kids = [];
    for (const n of nodes) for (const k of visit(n, parentCs, visible)) kids.push(k);
    return kids;
  }

  function visit(node, parentCs, visible) {
    if (node.nodeType === 3) {
      if (!visible) return [];
      const text = transform(node.data.replace(/[ \t\n\r\f]+/g, ' '), parentCs);
      if (text === ' ' && !betweenInlines(node)) return [];
      return text === '' ? [] : [push({ r: 'StaticText', n: text })];
    }
    if (node.nodeType !== 1) return [];
    if (SKIP.has(node.localName)) return [];
    if (node.shadowRoot) seen.roots.push(node.shadowRoot);
    if (plan && noReuse === 0 && !plan.path.has(node) && !plan.deep.has(node)) {
      const prev = reusable(node, visible);
      if (prev) return reuse(node, prev);
    }
    const deep = plan !== null && plan.deep.has(node);
    if (deep) noReuse++;
    const start = out.length, before = hidden;
    let kids;
    try { kids = visitElement(node, parentCs, visible); } finally { if (deep) noReuse--; }
    if (!scoped) track.entries.set(node, { gen, start, end: out.length, kids, hidden: hidden - before, visible });
    return kids;
  }

  function visitElement(el, parentCs, visible) {
    const cs = styleOf(el);
    if (cs.display === 'none') {
      if (isHiddenRoot(el, parentCs)) hidden++;
      return [];
    }
    if (el.getAttribute('aria-hidden') === 'true') return [push({ h: 1 })];
    if (el.inert) return [];
    const shown = cs.visibility === 'visible';
    if (!shown && visible) hidden++;
    if (!shown) return keepScope(el, visitAll(flatChildren(el), cs, false));
    return elementNode(el, cs, parentCs);
  }

  /** Collapsible white space renders (and Chromium keeps it) only between two inline boxes. */
  function betweenInlines(node) {
    const inline = (n) => n && (n.nodeType === 3 || (n.nodeType === 1 && styleOf(n).display === 'inline'));
    let prev = node.previousSibling, next = node.nextSibling;
    while (prev && prev.nodeType === 8) prev = prev.previousSibling;
    while (next && next.nodeType === 8) next = next.nextSibling;
    return inline(prev) && inline(next);
  }

  function pseudo(el, which) {
    const text = pseudoText(el, which);
    return text === '' ? [] : [push({ r: 'StaticText', n: text })];
  }

  /** Children of an ignored element take its place, except under the scope element, which stays. */
  function keepScope(el, kids) {
    if (!scopeId || ids.get(el) !== scopeId) return kids;
    const record = { i: scopeId, r: 'generic', g: 1 };
    if (kids.length > 0) record.c = kids;
    return [push(record)];
  }

  function isHiddenRoot(el, parentCs) {
    if (el.namespaceURI !== XHTML || NON_VISUAL.has(el.localName)) return false;
    if (el.localName === 'input' && typeOf(el) === 'hidden') return false;
    const parent = el.parentElement;
    if (parent && (parent.localName === 'select' || parent.localName === 'head')) return false;
    return parentCs !== null && parentCs.display !== 'none';
  }

  function elementNode(el, cs, parentCs) {
    let role = roleOf(el, cs);
    if (el.localName === 'tr' && !explicitRole(el)) role = rowRole(el);
    const listens = clickTargets.has(el);
    const tabindex = Number.parseInt(el.getAttribute('tabindex') || '', 10);
    if (role === 'none' || role === 'presentation') {
      // Ignored, its children take its place; what its ::before and ::after draw still shows.
      if (!listens && !(tabindex >= 0))
        return keepScope(el, [...pseudo(el, '::before'), ...visitAll(flatChildren(el), cs, true), ...pseudo(el, '::after')]);
      role = 'generic';
    }
    const record = { i: idOf(el), r: role };
    const name = role === 'StaticText' ? '' : nameOf(el, role);
    if (name) record.n = name;
    const props = propsOf(el, role, active);
    if (props) record.p = props;
    const value = valueOf(el, role);
    if (value !== undefined) record.v = value;
    const pointerStart = cs.cursor === 'pointer' && (!parentCs || parentCs.cursor !== 'pointer');
    // Chromium counts every element of editable content as answering clicks, not only its root.
    if (listens || pointerStart || el.isContentEditable) record.k = 1;
    if (tabindex >= 0) record.t = 1;
    const grabStart = DRAG_CURSORS.has(cs.cursor) && (!parentCs || parentCs.cursor !== cs.cursor);
    if (el.getAttribute('draggable') === 'true' || el.hasAttribute('ondragstart') || grabStart) record.dg = 1;
    if (isDropTarget(el)) record.dt = 1;
    if (isEditableRoot(el)) record.ed = 1;
    if (el.localName === 'a') record.an = 1;
    const d = cs.display;
    if (d === 'contents') record.nb = 1;
    if (d.startsWith('inline') || d === 'contents' || d === 'ruby') record.l = 1;
    if (el.localName === 'input' && el.hasAttribute('type')) record.it = typeOf(el);
    if (el.hasAttribute('autocomplete')) record.ac = el.getAttribute('autocomplete').toLowerCase();
    const aria = ariaAttrs(el);
    if (aria) record.a = aria;
    const index = push(record);
    if (el.localName === 'input' || el.localName === 'textarea' || el.localName === 'select') seen.forms.push(el);
    const kids = childrenOf(el, role, cs);
    if (kids.length > 0) out[index].c = kids;
    return [index];
  }

  function childrenOf(el, role, cs) {
    if (el.localName === 'select') return selectChildren(el, role);
    // A contenteditable editor with role textbox still shows its paragraphs, as Chromium's tree has them.
    if ((LEAF.has(role) && !isEditableRoot(el)) || el.localName === 'svg' || el.localName === 'input') return [];
    if (el.localName === 'details' && !el.open) {
      const summary = Array.prototype.find.call(el.children, (c) => c.localName === 'summary');
      return summary ? visit(summary, cs, true) : [];
    }
    return [...pseudo(el, '::before'), ...visualOrder(el, visitAll(flatChildren(el), cs, true)), ...pseudo(el, '::after')];
  }

  // Virtualized editors and lists draw lines of one height stacked at one x, out of DOM order: such
  // siblings are read top to bottom (the same rule as visual-order.ts applies to the CDP capture).
  function visualOrder(parent, kids) {
    if (kids.length < 2) return kids;
    if (kids.some((k) => out[k].i === undefined)) return kids;
    const boxes = [];
    for (const k of kids) {
      const el = element(out[k].i);
      if (!el) return kids;
      const r = el.getBoundingClientRect();
      if (r.height <= 0) return kids;
      if (boxes.length > 0 && (Math.abs(r.x - boxes[0].x) > 1 || Math.abs(r.height - boxes[0].height) > 1)) return kids;
      boxes.push(r);
    }
    // Their order is read from layout, which changes without mutations: computed again each capture.
    seen.layout.push(parent);
    if (boxes.every((b, i) => i === 0 || boxes[i - 1].y <= b.y)) return kids;
    return kids.map((k, i) => ({ k, y: boxes[i].y })).sort((a, b) => a.y - b.y).map((o) => o.k);
  }

  function selectChildren(select, role) {
    const options = [];
    for (const child of select.children) {
      if (child.localName === 'option') options.push(option(child));
      else if (child.localName === 'optgroup') {
        const group = push({ i: idOf(child), r: 'group', n: collapse(child.getAttribute('label') || '') });
        const inner = Array.prototype.filter.call(child.children, (o) => o.localName === 'option').map(option);
        if (inner.length > 0) out[group].c = inner;
        options.push(group);
      }
    }
    if (role === 'listbox') return options;
    const popup = push({ r: 'MenuListPopup' });
    if (options.length > 0) out[popup].c = options;
    return [popup];
  }

  function option(o) {
    const record = { i: idOf(o), r: 'option', n: nameOf(o, 'option'), p: { selected: o.selected } };
    if (o.disabled || (o.parentElement && o.parentElement.disabled)) record.p.disabled = true;
    return push(record);
  }

  const root = push({ r: 'RootWebArea', n: document.title });
  const top = document.documentElement;
  if (top) {
    const kids = visit(top, null, true);
    if (kids.length > 0) out[root].c = kids;
  }
  resetCaches();
  if (!scoped) commit(begun, out, gen, seen);
  const frames = [];
  for (const r of out) if (r.r === 'Iframe' && r.i !== undefined) frames.push(r.i);
  const origin = location.origin === 'null' ? '' : location.origin;
  const result = { nodes: [], frames, hidden, title: document.title, listeners: ack };
  if (origin) result.o = origin;
  if (!scoped) result.gen = gen;
  if (plan) {
    result.reused = reused;
    result.base = lastGen;
  }
  result.nodes = packed(out, plan ? spans : [], origin);
  return result;
}

/** The whole node list of the last committed capture (when Node lacks the base of an incremental one). */
function lastNodes() { return track.outs.get(track.gen) || []; }

return { capture, idOf, element, lastNodes };
})()`;
