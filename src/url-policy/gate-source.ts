/**
 * The browser side of the worker gate (see worker-gate.ts), as source text. It runs before any other
 * script of a worker (the interceptor puts it in front of every worker script) and in every page
 * (an init script). Everything it uses later is captured when it runs, before page code can replace
 * a global; every URL is turned into a string once, so the URL that was checked is the one used.
 *
 * - In a worker and a page: `WebSocket` and `WebSocketStream` ask this side first, by a synchronous
 *   request to the socket-check path on their own origin; a refused socket throws a SecurityError.
 * - In a page and a worker: `Worker` and `SharedWorker` given a blob: URL start a bootstrap blob
 *   that loads the gate first and then the original script (a blob never crosses the network, so the
 *   interceptor cannot put the gate in front of it); a data: URL is refused (its opaque origin could
 *   not be kept by a bootstrap).
 * - In a page too: Playwright's WebSocket route mocks only `WebSocket`, and its mock connects the
 *   constructor it found, so the gate replaces `WebSocket` and `WebSocketStream` before the mock
 *   runs; the mock's internals reachable from page script then reach the gated constructor.
 * - Service worker registration is refused: the browser re-fetches a registered script for its
 *   update checks without a target the interceptor sees, so an update would install it ungated.
 * - A service worker cannot make synchronous requests: its sockets may reach only its own origin
 *   (host and port, which the policy already let its script come from); any other is refused.
 */

/** Where a gated worker asks for a socket's verdict: 204 = allowed, a failed request = refused. */
export const SOCKET_CHECK_PATH = '/.well-known/browsermesh/socket-check';
/** The gate as a script, loaded first by a bootstrap blob (and imported first by worker modules). */
export const GATE_MODULE_PATH = '/.well-known/browsermesh/socket-gate.js';
/** Used from an opaque origin: the interceptor answers it all the same, nothing leaves the browser. */
export const FALLBACK_ORIGIN = 'https://browsermesh.invalid';

const SOURCE = `(() => {
const g = self, R = Reflect, O = Object;
const inWorker = typeof WorkerGlobalScope === 'function' && g instanceof WorkerGlobalScope;
if (!inWorker && typeof Window !== 'function') return;
const inServiceWorker = typeof ServiceWorkerGlobalScope === 'function' && g instanceof ServiceWorkerGlobalScope;
const mark = Symbol.for('browsermesh.socketGate');
if (O.prototype.hasOwnProperty.call(g, mark)) return;
O.defineProperty(g, mark, { value: true });
const U = g.URL, S = g.String, E = g.DOMException, B = g.Blob, enc = g.encodeURIComponent;
const objectUrl = U.createObjectURL, json = JSON.stringify, test = RegExp.prototype.test;
const loc = g.location, doc = g.document;
const baseOf = inWorker ? undefined : O.getOwnPropertyDescriptor(Node.prototype, 'baseURI');
const base = () => inWorker ? loc.href : R.apply(baseOf.get, doc, []);
const originOf = () => { const o = inWorker ? loc.origin : new U(base()).origin; return R.apply(test, /^https?:/, [o]) ? o : '${FALLBACK_ORIGIN}'; };
const gateUrl = () => originOf() + '${GATE_MODULE_PATH}';
const resolve = (url) => { try { return new U(S(url), base()).href; } catch { throw new E('Invalid URL', 'SyntaxError'); } };
const replace = (name, make) => {
  const Real = g[name];
  if (typeof Real !== 'function') return;
  const Gated = make(Real);
  for (const key of R.ownKeys(Real)) if (key !== 'prototype') O.defineProperty(Gated, key, O.getOwnPropertyDescriptor(Real, key));
  O.defineProperty(Gated, 'prototype', { value: Real.prototype, writable: false });
  O.setPrototypeOf(Gated, O.getPrototypeOf(Real));
  O.defineProperty(Real.prototype, 'constructor', { value: Gated, writable: true, configurable: true });
  O.defineProperty(g, name, { value: Gated, writable: true, configurable: true });
};
const construct = (Real, Gated, target, args) => R.construct(Real, args, target === Gated ? Real : target);
const workers = (Real) => { const Gated = function (url, options) {
  if (new.target === undefined) return R.apply(Real, this, [url, options]);
  let href = resolve(url);
  if (R.apply(test, /^data:/i, [href])) throw new E('A data: worker cannot be checked by the URL policy', 'SecurityError');
  let opts = options;
  if (R.apply(test, /^blob:/i, [href])) {
    const named = typeof options === 'string';
    const module = !named && options != null && options.type === 'module';
    const name = named ? options : options != null && options.name !== undefined ? S(options.name) : undefined;
    const boot = module ? 'import ' + json(gateUrl()) + '; import ' + json(href) + ';' : 'importScripts(' + json(gateUrl()) + ', ' + json(href) + ');';
    href = R.apply(objectUrl, U, [new B([boot], { type: 'text/javascript' })]);
    opts = { type: module ? 'module' : 'classic' };
    if (name !== undefined) opts.name = name;
  }
  return construct(Real, Gated, new.target, arguments.length > 1 ? [href, opts] : [href]);
}; return Gated; };
replace('Worker', workers);
replace('SharedWorker', workers);
const C = g.ServiceWorkerContainer, P = g.Promise;
if (typeof C === 'function' && typeof C.prototype.register === 'function') O.defineProperty(C.prototype, 'register', {
  value: function register() { return R.apply(P.reject, P, [new E('Service workers are refused by the URL policy here', 'SecurityError')]); },
  writable: true, configurable: true });
const portOf = (u) => u.port || (R.apply(test, /^(?:https|wss):$/, [u.protocol]) ? '443' : '80');
const own = new U(loc.href);
const sameOrigin = (href) => { const u = new U(href); return u.hostname === own.hostname && portOf(u) === portOf(own); };
const X = g.XMLHttpRequest;
const open = X && X.prototype.open, send = X && X.prototype.send;
const status = X && O.getOwnPropertyDescriptor(X.prototype, 'status').get;
const check = originOf() + '${SOCKET_CHECK_PATH}?u=';
const allowed = inServiceWorker || typeof X !== 'function' ? sameOrigin : (href) => { try {
  const x = new X();
  R.apply(open, x, ['GET', check + enc(href), false]);
  R.apply(send, x, []);
  return R.apply(status, x, []) === 204;
} catch { return false; } };
const sockets = (Real) => { const Gated = function (url, second) {
  if (new.target === undefined) return R.apply(Real, this, [url, second]);
  const href = resolve(url);
  if (!allowed(href)) throw new E('Refused by the URL policy', 'SecurityError');
  return construct(Real, Gated, new.target, arguments.length > 1 ? [href, second] : [href]);
}; return Gated; };
replace('WebSocket', sockets);
replace('WebSocketStream', sockets);
})();`;

/** The gate on one line, so a worker's own line numbers stay as they were. */
export const GATE_SOURCE = SOURCE.replace(/\n/g, ' ');
