/**
 * The in-page half of the page-activity tracker: what the page's own code has scheduled, seen from
 * inside the page rather than guessed from the outside.
 *
 * Installed once per page as a script that runs before any page script in every new document (and
 * evaluated in the current one). It wraps setTimeout/clearTimeout and requestAnimationFrame to keep
 * the pending short timers and frame callbacks, each with its *chain depth* (1 when scheduled by a
 * page script or an input handler, parent + 1 when scheduled by another tracked callback) and
 * whether an input *caused* it (scheduled while a trusted input event was dispatched, or by a callback
 * that was). fetch and XMLHttpRequest calls made in that context are pending until answered. Depth
 * is capped, so a polling loop or an animation loop stops counting as pending work after a few rounds
 * instead of keeping an action or a sleep waiting to its bound. A MutationObserver
 * stamps DOM changes so a caller can ask how many happened since a moment.
 *
 * Nothing here changes what the page's code gets: the wrappers call the originals with the same
 * arguments, return their results, and read as the natives (toString, name). The tracker lives under a registered symbol, not a window property name.
 */

/** Timers longer than this are not "short": a page waiting minutes is not work an action caused. */
export const SHORT_TIMER_MS = 2000;
/** Callbacks this many hops from their origin are a loop, not an effect still on its way. */
export const MAX_CHAIN_DEPTH = 3;

/** The registered symbol's key the tracker lives under in the page. */
export const TRACKER_KEY = 'browsermesh.activity';

/** The tracker's source: a function expression, called with no arguments in the page's main world. */
export const ACTIVITY_SOURCE = `function () {
  const KEY = Symbol.for(${JSON.stringify(TRACKER_KEY)});
  if (window[KEY]) return;
  const SHORT = ${SHORT_TIMER_MS}, MAX_DEPTH = ${MAX_CHAIN_DEPTH};
  // Input events whose handlers' timers are an action's effects. Not mousemove/pointermove: every
  // click moves the mouse first, and throttles on move would tax every click for nothing.
  const INPUT = new Set(['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'dblclick',
    'pointerover', 'pointerenter', 'mouseover', 'mouseenter',
    'contextmenu', 'keydown', 'keypress', 'keyup', 'beforeinput', 'input', 'change', 'submit',
    'focus', 'blur', 'focusin', 'focusout', 'drop', 'dragend', 'wheel', 'scroll', 'select']);
  const pending = new Set();
  const byId = { t: new Map(), f: new Map() };
  const marks = [];
  const wakers = new Set();
  let current = null;
  const setT = window.setTimeout, clearT = window.clearTimeout;
  const raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  const origin = () => {
    if (current) return { depth: current.depth + 1, caused: current.caused };
    const ev = window.event;
    return { depth: 1, caused: !!(ev && ev.isTrusted && INPUT.has(ev.type)) };
  };
  let lastActivity = Date.now();
  const wake = () => { lastActivity = Date.now(); for (const w of wakers) w(); };
  const settle = (kind, entry) => {
    byId[kind].delete(entry.id);
    if (pending.delete(entry)) wake();
  };
  // Settled after the callback ran: what it scheduled in turn is pending before this one stops being.
  // The chain is kept through the microtasks the callback queued (an \`await sleep(100)\` loop resumes
  // there), so such a loop also deepens and stops counting after a few rounds.
  const micro = window.queueMicrotask ? window.queueMicrotask.bind(window) : (f) => Promise.resolve().then(f);
  const wrap = (kind, entry, fn) => function () {
    const outer = current;
    current = entry;
    try { return fn.apply(this, arguments); } finally {
      micro(() => { if (current === entry) current = outer; });
      if (kind) settle(kind, entry);
    }
  };
  const track = (kind, entry, schedule) => {
    pending.add(entry);
    entry.id = schedule();
    byId[kind].set(entry.id, entry);
    return entry.id;
  };
  // Past MAX_DEPTH a callback is no longer counted but still carries its chain, so the loop it belongs
  // to keeps deepening instead of starting over at depth 1.
  window.setTimeout = function (fn, ms, ...rest) {
    if (typeof fn !== 'function' || (Number(ms) || 0) > SHORT) return setT.call(this, fn, ms, ...rest);
    const entry = origin();
    if (entry.depth > MAX_DEPTH) return setT.call(this, wrap(null, entry, fn), ms, ...rest);
    return track('t', entry, () => setT.call(this, wrap('t', entry, fn), ms, ...rest));
  };
  window.clearTimeout = function (id) {
    const entry = byId.t.get(id);
    if (entry) settle('t', entry);
    return clearT.call(this, id);
  };
  if (raf) {
    window.requestAnimationFrame = function (fn) {
      if (typeof fn !== 'function') return raf.call(this, fn);
      const entry = origin();
      if (entry.depth > MAX_DEPTH) return raf.call(this, wrap(null, entry, fn));
      return track('f', entry, () => raf.call(this, wrap('f', entry, fn)));
    };
    window.cancelAnimationFrame = function (id) {
      const entry = byId.f.get(id);
      if (entry) settle('f', entry);
      return caf.call(this, id);
    };
  }
  // Requests an input handler (or a callback it caused) starts: counted from the page's side too, since
  // the browser's report of a request can arrive after the page has answered the settle's first look.
  const request = (start) => {
    const entry = origin();
    if (!entry.caused || entry.depth > MAX_DEPTH) return start(() => undefined);
    pending.add(entry);
    return start(() => { if (pending.delete(entry)) wake(); });
  };
  const nativeFetch = window.fetch;
  if (nativeFetch) {
    window.fetch = function () {
      return request((done) => {
        const answer = nativeFetch.apply(this, arguments);
        answer.then(done, done);
        return answer;
      });
    };
  }
  const XHR = window.XMLHttpRequest && window.XMLHttpRequest.prototype;
  const nativeSend = XHR && XHR.send;
  if (nativeSend) {
    XHR.send = function () {
      return request((done) => {
        this.addEventListener('loadend', done, { once: true });
        try { return nativeSend.apply(this, arguments); } catch (error) { done(); throw error; }
      });
    };
  }
  new MutationObserver((records) => {
    const now = Date.now();
    const last = marks[marks.length - 1];
    if (last && last.t === now) last.n += records.length;
    else marks.push({ t: now, n: records.length });
    if (marks.length > 64) marks.shift();
    wake();
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const count = (causedOnly) => {
    let n = 0;
    for (const entry of pending) if (!causedOnly || entry.caused) n++;
    return n;
  };
  const report = (sinceMs) => ({
    caused: count(true),
    timers: count(false),
    mutations: marks.reduce((sum, m) => (m.t >= sinceMs ? sum + m.n : sum), 0),
  });
  /** Resolves when test() holds (checked at every timer end and mutation), or after maxMs. */
  const until = (test, maxMs) => new Promise((resolve) => {
    const done = (value) => { wakers.delete(check); clearT(timer); resolve(value); };
    const check = () => { if (test()) done(true); };
    const timer = setT(() => done(false), Math.max(0, maxMs));
    wakers.add(check);
    check();
  });
  /**
   * Resolves true once windowMs passed without a mutation or timer end (counted from sinceMs at the
   * earliest) and no (caused) short timer is pending; false at maxMs.
   * Event-driven: every mutation and every timer end re-arms it; nothing polls.
   */
  const quiet = (windowMs, maxMs, causedOnly, sinceMs) => new Promise((resolve) => {
    const end = Date.now() + maxMs;
    let calmSince = Math.max(sinceMs, lastActivity);
    let timer;
    const finish = (value) => { wakers.delete(onActivity); clearT(timer); resolve(value); };
    const arm = () => {
      clearT(timer);
      const now = Date.now();
      if (count(causedOnly) === 0 && now - calmSince >= windowMs) return finish(true);
      if (now >= end) return finish(false);
      // While a timer is pending only its end (or the bound) can change the answer.
      const next = count(causedOnly) > 0 ? end : Math.min(end, calmSince + windowMs);
      timer = setT(arm, Math.max(1, next - now));
    };
    const onActivity = () => { calmSince = Date.now(); arm(); };
    wakers.add(onActivity);
    arm();
  });
  // The wrappers read as the natives they stand for (page code and bot checks look at toString).
  const disguise = (wrapper, native) => {
    if (!native || wrapper === native) return;
    Object.defineProperty(wrapper, 'toString', { value: () => Function.prototype.toString.call(native) });
    Object.defineProperty(wrapper, 'name', { value: native.name });
  };
  disguise(window.setTimeout, setT);
  disguise(window.clearTimeout, clearT);
  disguise(window.requestAnimationFrame, raf);
  disguise(window.cancelAnimationFrame, caf);
  disguise(window.fetch, nativeFetch);
  if (XHR) disguise(XHR.send, nativeSend);
  Object.defineProperty(window, KEY, { value: { report, until, count, quiet }, enumerable: false });
}`;

/** Without a tracker (it could not be installed): a window without DOM mutations. */
export const OBSERVE_QUIET = `function (windowMs) {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => finish(false));
    const timer = setTimeout(() => finish(true), windowMs);
    function finish(quiet) { observer.disconnect(); clearTimeout(timer); resolve(quiet); }
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}`;
