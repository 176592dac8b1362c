/**
 * What the in-page capture cannot see from its isolated world: which elements have click listeners
 * (Chromium's DOM snapshot reports them as `isClickable`, and the snapshot shows such elements as
 * `[clickable @eN]`). A small hook in the page's main world, installed before the page's own scripts,
 * remembers the elements given click, mousedown or mouseup listeners; asked by an event the capture
 * dispatches, it marks each of them with an event the capture's world sees (DOM events cross worlds,
 * JavaScript objects do not). A hook evaluated into an already running document says so (`late`): it
 * missed the listeners added before it, and the `auto` capture then answers from the CDP tree.
 *
 * Nothing here changes what the page's code gets: the wrappers call the originals with the same
 * arguments and return their results.
 */

export const LISTENERS_KEY = 'browsermesh.listeners';
export const ASK_EVENT = 'browsermesh-listeners';
export const MARK_EVENT = 'browsermesh-listener';
export const ACK_EVENT = 'browsermesh-listeners-ack';
export const LATE_ACK_EVENT = 'browsermesh-listeners-late';
/** Sent instead of the acknowledgement when the document has closed shadow roots (unseen by the capture). */
export const CLOSED_ACK_EVENT = 'browsermesh-listeners-closed';

/** A function expression, called with `late` in the page's main world. */
export const LISTENERS_HOOK_SOURCE = `function (late) {
  const KEY = Symbol.for(${JSON.stringify(LISTENERS_KEY)});
  if (window[KEY]) return;
  window[KEY] = true;
  const TYPES = new Set(['click', 'mousedown', 'mouseup', 'DOMActivate']);
  const byElement = new WeakMap();
  const refs = new Set();
  const proto = EventTarget.prototype;
  const add = proto.addEventListener, remove = proto.removeEventListener;
  const track = (target, type, fn, delta) => {
    if (!fn || !TYPES.has(type) || !(target instanceof Element)) return;
    let set = byElement.get(target);
    if (!set) { if (delta < 0) return; set = new Set(); byElement.set(target, set); refs.add(new WeakRef(target)); }
    if (delta > 0) set.add(fn); else set.delete(fn);
  };
  const disguise = (wrapper, original) => {
    Object.defineProperty(wrapper, 'name', { value: original.name });
    Object.defineProperty(wrapper, 'length', { value: original.length });
    wrapper.toString = () => Function.prototype.toString.call(original);
  };
  const addWrapper = function (type, fn) { track(this, type, fn, 1); return add.apply(this, arguments); };
  const removeWrapper = function (type, fn) { track(this, type, fn, -1); return remove.apply(this, arguments); };
  disguise(addWrapper, add);
  disguise(removeWrapper, remove);
  proto.addEventListener = addWrapper;
  proto.removeEventListener = removeWrapper;
  // Closed shadow roots are invisible to the capture's world; the document then answers from CDP.
  let closedRoots = 0;
  const attach = Element.prototype.attachShadow;
  const attachWrapper = function (init) {
    if (init && init.mode === 'closed') closedRoots++;
    return attach.apply(this, arguments);
  };
  disguise(attachWrapper, attach);
  Element.prototype.attachShadow = attachWrapper;
  const HANDLERS = ['onclick', 'onmousedown', 'onmouseup'];
  const remember = (el) => {
    if (byElement.has(el)) return;
    byElement.set(el, new Set());
    refs.add(new WeakRef(el));
  };
  for (const h of HANDLERS) {
    const desc = Object.getOwnPropertyDescriptor(HTMLElement.prototype, h);
    if (!desc || !desc.set || !desc.configurable) continue;
    const set = function (v) { if (v != null && this instanceof Element) remember(this); return desc.set.call(this, v); };
    disguise(set, desc.set);
    Object.defineProperty(HTMLElement.prototype, h, { ...desc, set });
  }
  const hasListener = (el) => {
    const set = byElement.get(el);
    if (set) for (const v of set) if (typeof v !== 'string') return true;
    return HANDLERS.some((h) => el[h] != null);
  };
  add.call(document, ${JSON.stringify(ASK_EVENT)}, () => {
    const seen = new Set();
    const mark = (el) => {
      if (seen.has(el) || !hasListener(el)) return;
      seen.add(el);
      el.dispatchEvent(new CustomEvent(${JSON.stringify(MARK_EVENT)}, { composed: true }));
    };
    for (const ref of refs) { const el = ref.deref(); if (el) mark(el); else refs.delete(ref); }
    for (const el of document.querySelectorAll('[onclick], [onmousedown], [onmouseup]')) mark(el);
    const ack = closedRoots > 0 ? ${JSON.stringify(CLOSED_ACK_EVENT)} : late ? ${JSON.stringify(LATE_ACK_EVENT)} : ${JSON.stringify(ACK_EVENT)};
    document.dispatchEvent(new CustomEvent(ack));
  });
}`;
