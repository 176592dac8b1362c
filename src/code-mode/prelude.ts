import {
  CONTEXT_HINTS,
  KEYBOARD_HINTS,
  LOCATOR_HINTS,
  MOUSE_HINTS,
  PAGE_HINTS,
  ROUTE_HINTS,
} from './facade-hints.js';
import { FACADE_OPS } from './facade-parse.js';

/**
 * The JavaScript evaluated inside QuickJS before a script: a function expression that receives the
 * three host functions, installs `page`, `context`, `human` and `console` as the only non-standard
 * globals and returns the helpers the host uses to read results and errors. The host functions stay in this closure,
 * so scripts cannot reach them (and they could do no more than `page.*` does anyway: the host
 * validates everything they receive).
 *
 * Built-ins are captured up front so a script that overwrites `JSON` or `Array.prototype` breaks
 * only its own results, never the protocol's shape checks (which the host repeats regardless).
 *
 * Protocol: `hostCall(json)` returns a reply string (a refused call) or a promise of one; replies
 * are `{ ok: true, value }` or `{ ok: false, error: { message, code, step, op, hint?, invalid? } }`.
 * `hostSelector(member, json)` validates a locator chain synchronously. `hostLog(level, line)`.
 */
export const PRELUDE_FILENAME = 'prelude.js';

const HINTS = JSON.stringify({
  page: PAGE_HINTS,
  locator: LOCATOR_HINTS,
  keyboard: KEYBOARD_HINTS,
  mouse: MOUSE_HINTS,
  context: CONTEXT_HINTS,
  route: ROUTE_HINTS,
});

/** Methods that are another op with fixed options, listed right after it (`dblclick` sets clickCount 2 below). */
const ELEMENT_ALIASES: Readonly<Record<string, readonly string[]>> = { click: ['dblclick'] };

/** The element methods of page and locator, from the operation table's `element` entries. */
const ELEMENT_METHODS = JSON.stringify(
  Object.fromEntries(
    Object.entries(FACADE_OPS).flatMap(([op, { element }]) =>
      element === undefined
        ? []
        : [op, ...(ELEMENT_ALIASES[op] ?? [])].map((name) => [name, [op, ...element]]),
    ),
  ),
);

export const PRELUDE_SOURCE =
  String.raw`(function installFacade(hostCall, hostSelector, hostLog, configJson) {
'use strict';
const G = globalThis, parse = JSON.parse, stringify = JSON.stringify, apply = Reflect.apply;
const freeze = Object.freeze, defineProperty = Object.defineProperty, keys = Object.keys, assign = Object.assign;
const objectProto = Object.prototype, hasOwn = Object.prototype.hasOwnProperty;
const sliceOf = String.prototype.slice, testOf = RegExp.prototype.test, concatOf = Array.prototype.concat, StringOf = String;
const NativeError = Error, NativeTypeError = TypeError, NativeRegExp = RegExp, NativeProxy = Proxy;
const isArray = Array.isArray;
const config = parse(configJson);
const HINTS = ` +
  HINTS +
  String.raw`;
const REF = /^@e\d+$/;
const slice = (text, end) => apply(sliceOf, text, [0, end]);
const own = (object, key) => apply(hasOwn, object, [key]);
const append = (list, item) => apply(concatOf, list, [[item]]);
// Locator proxy -> its selector, so one locator can name another (dragTo's target).
const locatorTargets = new WeakMap(), weakGet = WeakMap.prototype.get, weakSet = WeakMap.prototype.set;
function targetOfLocator(member, value) {
  const found = typeof value === 'object' && value !== null ? apply(weakGet, locatorTargets, [value]) : undefined;
  if (found === undefined) throw new NativeTypeError(member + ': the target must be a locator');
  return found;
}

class BrowserMeshError extends NativeError {}
defineProperty(BrowserMeshError.prototype, 'name', { value: 'BrowserMeshError', writable: true, configurable: true });

function encode(member, value) {
  try {
    return stringify(value, (key, v) =>
      v instanceof NativeRegExp ? { $regexp: { source: v.source, flags: v.flags } } : typeof v === 'function' ? { $unsupported: 'function' } : v);
  } catch (error) {
    throw new NativeTypeError(member + ': arguments must be plain strings, numbers, booleans, arrays or objects');
  }
}

// One facade call. The Error is created first so its stack points at the script line that made the call.
async function request(member, op, args) {
  const site = new BrowserMeshError();
  const first = hostCall(encode(member, { member: member, op: op, args: args }));
  const reply = parse(typeof first === 'string' ? first : await first);
  if (reply.ok) return reply.value;
  const info = reply.error;
  const error = info.invalid ? new NativeTypeError(info.message) : site;
  error.message = info.message;
  error.code = info.code;
  error.step = info.step;
  error.op = info.op;
  if (info.hint) error.recoveryHint = info.hint;
  throw error;
}

function checked(member, selector) {
  const reply = parse(hostSelector(member, encode(member, selector)));
  if (!reply.ok) {
    const error = new NativeTypeError(reply.error.message);
    error.code = reply.error.code;
    error.field = reply.error.field;
    throw error;
  }
  return reply.value;
}

function optionsOf(member, options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || isArray(options)) throw new NativeTypeError(member + ': options must be an object');
  return options;
}

// A base or step: the caller's options plus the fixed fields (which win over same-named options).
function shape(member, options, fixed) {
  const out = {}, opts = optionsOf(member, options), names = keys(opts), fixedNames = keys(fixed);
  for (let i = 0; i < names.length; i++) out[names[i]] = opts[names[i]];
  for (let i = 0; i < fixedNames.length; i++) out[fixedNames[i]] = fixed[fixedNames[i]];
  return out;
}

function fromString(member, selector) {
  const isRef = typeof selector === 'string' && apply(testOf, REF, [selector]);
  const base = isRef ? { kind: 'ref', ref: selector } : { kind: 'css', selector: selector };
  return checked(member, { base: base, steps: [] });
}

// Proxy that names unknown members instead of returning undefined ("x is not a function").
function guard(kind, api, hints) {
  const supported = keys(api).join(', ');
  const label = kind === 'locator' ? 'Locator' : kind;
  api.toJSON = () => label;
  api.toString = () => label;
  freeze(api);
  return new NativeProxy(api, {
    get(target, key) {
      if (typeof key === 'symbol' || own(target, key) || key === 'then' || key in objectProto) return target[key];
      const hint = own(hints, key) ? ': ' + hints[key] : ' (' + kind + ' supports: ' + supported + ')';
      throw new NativeTypeError(kind + '.' + key + ' is not available in browser_run' + hint);
    },
    set(target, key) {
      throw new NativeTypeError(kind + '.' + StringOf(key) + ' cannot be assigned');
    },
  });
}

// name -> [op, names of the arguments after the target]; the options object always comes last.
const ELEMENT_METHODS = ` +
  ELEMENT_METHODS +
  String.raw`;
const TEXT_FINDERS = { getByText: 'text', getByLabel: 'label', getByPlaceholder: 'placeholder', getByAltText: 'altText', getByTitle: 'title' };

// Element methods shared by page (target from the first argument) and locators (fixed target).
function elementMethods(prefix, targetOf, skip) {
  const out = {}, names = keys(ELEMENT_METHODS);
  for (let i = 0; i < names.length; i++) {
    const name = names[i], spec = ELEMENT_METHODS[name];
    out[name] = async function (...params) {
      const member = prefix + name, args = { target: targetOf(member, params[0]) };
      for (let j = 1; j < spec.length; j++) args[spec[j]] = params[skip + j - 1];
      args.options = params[skip + spec.length - 1];
      if (name === 'dblclick') args.options = shape(member, args.options, { clickCount: 2 });
      return request(member, spec[0], args);
    };
  }
  out.isHidden = async (...params) => !(await apply(out.isVisible, undefined, params));
  out.isDisabled = async (...params) => !(await apply(out.isEnabled, undefined, params));
  return out;
}

// Locator factories shared by page (new chain) and locators (chain continues inside the current one).
function finders(prefix, start) {
  const out = {
    locator: (selector, options) =>
      start(prefix + 'locator', { kind: 'css', selector: selector }, options === undefined ? undefined : shape(prefix + 'locator', options, { kind: 'filter' })),
    getByRole: (role, options) => start(prefix + 'getByRole', shape(prefix + 'getByRole', options, { kind: 'role', role: role })),
    getByTestId: (testId) => start(prefix + 'getByTestId', { kind: 'testId', testId: testId }),
  };
  const names = keys(TEXT_FINDERS);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    out[name] = (text, options) => start(prefix + name, shape(prefix + name, options, { kind: TEXT_FINDERS[name], text: text }));
  }
  return out;
}

function makeLocator(target) {
  const L = 'locator.';
  const derive = (member, step) => makeLocator(checked(member, { base: target.base, steps: append(target.steps, step) }));
  const read = (name, op) => async (options) => request(L + name, op, { target: target, options: options });
  const api = elementMethods(L, () => target, 0);
  const more = {
    clear: async (options) => request(L + 'clear', 'fill', { target: target, value: '', options: options }),
    pressSequentially: async (text, options) => request(L + 'pressSequentially', 'type', { target: target, text: text, options: options }),
    setChecked: async (checkedState, options) => {
      if (typeof checkedState !== 'boolean') throw new NativeTypeError('locator.setChecked: argument must be true or false');
      return request(L + 'setChecked', checkedState ? 'check' : 'uncheck', { target: target, options: options });
    },
    scrollIntoViewIfNeeded: read('scrollIntoViewIfNeeded', 'scrollIntoView'),
    count: read('count', 'count'),
    allTextContents: read('allTextContents', 'allTextContents'),
    allInnerTexts: read('allInnerTexts', 'allInnerTexts'),
    waitFor: read('waitFor', 'waitForSelector'),
    screenshot: read('screenshot', 'screenshot'),
    snapshot: read('snapshot', 'snapshot'),
    all: async () => {
      const count = await request(L + 'all', 'count', { target: target });
      const out = [];
      for (let i = 0; i < count; i++) out[i] = derive(L + 'all', { kind: 'nth', index: i });
      return out;
    },
    nth: (index) => derive(L + 'nth', { kind: 'nth', index: index }),
    first: () => derive(L + 'first', { kind: 'nth', index: 0 }),
    last: () => derive(L + 'last', { kind: 'nth', index: -1 }),
    filter: (options) => derive(L + 'filter', shape(L + 'filter', options, { kind: 'filter' })),
    selectText: async (options) => request(L + 'selectText', 'selectText', { target: target, options: options }),
    dragTo: async (other, options) =>
      request(L + 'dragTo', 'dragTo', { target: target, to: targetOfLocator(L + 'dragTo', other), options: options }),
  };
  const chain = (member, base, filter) => {
    const steps = append(target.steps, { kind: 'within', base: base });
    return makeLocator(checked(member, { base: target.base, steps: filter === undefined ? steps : append(steps, filter) }));
  };
  const locator = guard('locator', assign(api, more, finders(L, chain)), HINTS.locator);
  apply(weakSet, locatorTargets, [locator, target]);
  return locator;
}

// A route handler runs once, here, at registration, with a route that records its one answer: the
// host installs that answer as data. It cannot see requests, so reading one is refused, not guessed.
async function recordRoute(member, handler) {
  if (typeof handler !== 'function') return { kind: 'data', value: handler };
  let recorded = null, answers = 0, readsRequest = false;
  const answer = (action) => { answers++; if (recorded === null) recorded = action; };
  const refuseRequest = () => {
    readsRequest = true;
    throw new NativeTypeError(member + ': a route handler runs once, at registration, and cannot read the request');
  };
  const requestStub = new NativeProxy({}, {
    get(target, key) { return key === 'then' || typeof key === 'symbol' ? undefined : refuseRequest(); },
  });
  const route = guard('route', {
    fulfill: async (options) => answer({ kind: 'fulfill', options: options }),
    abort: async (errorCode) => answer({ kind: 'abort', reason: errorCode }),
    continue: async (options) => answer({ kind: 'continue', options: options }),
    fallback: async (options) => answer({ kind: 'continue', options: options }),
    request: () => refuseRequest(),
  }, HINTS.route);
  try {
    await handler(route, requestStub);
  } catch (error) {
    if (!readsRequest) throw error;
  }
  if (readsRequest) return { kind: 'readsRequest' };
  if (answers > 1) return { kind: 'many' };
  return recorded === null ? { kind: 'none' } : recorded;
}

// Routes are the session's (as browser_route): page.route and context.route install the same thing.
function routeMembers(prefix) {
  return {
    route: async (url, handler, options) =>
      request(prefix + 'route', 'route', { url: url, handler: await recordRoute(prefix + 'route', handler), options: options }),
    unroute: async (url) => request(prefix + 'unroute', 'unroute', { url: url }),
    unrouteAll: async () => request(prefix + 'unrouteAll', 'unroute', { all: true }),
  };
}

function makeContext() {
  const C = 'context.';
  return guard('context', assign(routeMembers(C), {
    cookies: async (urls) => request(C + 'cookies', 'cookies', { urls: urls }),
    addCookies: async (cookies) => request(C + 'addCookies', 'addCookies', { cookies: cookies }),
    clearCookies: async (options) => request(C + 'clearCookies', 'clearCookies', { options: options }),
  }), HINTS.context);
}
const contextApi = makeContext();

// A person acts on the page from the dashboard while the script waits (docs/human-in-the-loop.md).
const humanApi = guard('human', {
  request: async (reason, options) => request('human.request', 'humanRequest', { reason: reason, options: options }),
}, {});

function makePage() {
  const P = 'page.';
  const call = (name, op, fields) => request(P + name, op, fields);
  const start = (member, base, filter) => makeLocator(checked(member, { base: base, steps: filter === undefined ? [] : [filter] }));
  const api = elementMethods(P, fromString, 1);
  const more = {
    goto: async (url, options) => call('goto', 'goto', { url: url, options: options }),
    goBack: async (options) => call('goBack', 'goBack', { options: options }),
    goForward: async (options) => call('goForward', 'goForward', { options: options }),
    reload: async (options) => call('reload', 'reload', { options: options }),
    title: async () => call('title', 'title', {}),
    url: async () => call('url', 'url', {}),
    snapshot: async (options) => call('snapshot', 'snapshot', { options: options }),
    waitForSelector: async (selector, options) =>
      call('waitForSelector', 'waitForSelector', { target: fromString(P + 'waitForSelector', selector), options: options }),
    waitForURL: async (url, options) => call('waitForURL', 'waitForURL', { url: url, options: options }),
    waitForLoadState: async (state, options) => call('waitForLoadState', 'waitForLoadState', { state: state, options: options }),
    waitForTimeout: async (ms) => call('waitForTimeout', 'waitForTimeout', { ms: ms }),
    ref: (ref) => start(P + 'ref', { kind: 'ref', ref: ref }),
    keyboard: guard('keyboard', {
      press: async (key, options) => request('keyboard.press', 'keyboardPress', { key: key, options: options }),
      type: async (text, options) => request('keyboard.type', 'keyboardType', { text: text, options: options }),
    }, HINTS.keyboard),
    mouse: guard('mouse', {
      wheel: async (deltaX, deltaY) => request('mouse.wheel', 'scroll', { deltaX: deltaX, deltaY: deltaY }),
      move: async (x, y, options) => request('mouse.move', 'mouse', { action: 'move', x: x, y: y, options: options }),
      click: async (x, y, options) => request('mouse.click', 'mouse', { action: 'click', x: x, y: y, options: options }),
      dblclick: async (x, y, options) =>
        request('mouse.dblclick', 'mouse', { action: 'click', x: x, y: y, options: shape('mouse.dblclick', options, { clickCount: 2 }) }),
      down: async (options) => request('mouse.down', 'mouse', { action: 'down', options: options }),
      up: async (options) => request('mouse.up', 'mouse', { action: 'up', options: options }),
    }, HINTS.mouse),
    setViewportSize: async (size) => call('setViewportSize', 'setViewportSize', { size: size }),
    screenshot: async (options) => call('screenshot', 'screenshot', { options: options }),
    pdf: async (options) => call('pdf', 'pdf', { options: options }),
    emulateMedia: async (options) => call('emulateMedia', 'emulateMedia', { options: options }),
    context: () => contextApi,
    dragAndDrop: async (source, target, options) =>
      call('dragAndDrop', 'dragTo', { target: fromString(P + 'dragAndDrop', source), to: fromString(P + 'dragAndDrop', target), options: options }),
  };
  return guard('page', assign(api, more, routeMembers(P), finders(P, start)), HINTS.page);
}

function format(value) {
  if (typeof value === 'string') return value;
  if (value instanceof NativeError) return StringOf(value.name) + ': ' + StringOf(value.message);
  try {
    const json = stringify(value);
    return json === undefined ? StringOf(value) : json;
  } catch (error) {
    try { return StringOf(value); } catch (again) { return '[unprintable value]'; }
  }
}

function logger(level) {
  return (...values) => {
    let line = '';
    for (let i = 0; i < values.length && line.length <= config.maxLogChars; i++) line += (i > 0 ? ' ' : '') + format(values[i]);
    hostLog(level, stringify(slice(line, config.maxLogChars + 1)));
  };
}

// Host helper: the script's return value as 'S'+JSON string or 'J'+JSON (cut just past the size
// limit), or 'E'+error description when it cannot be serialized. Strings cross as JSON too: the
// host reads QuickJS strings as C strings, which would end at the first NUL a page slipped in.
function serialize(value) {
  const max = config.maxResultChars + 1;
  if (typeof value === 'string') return 'S' + stringify(slice(value, max));
  let json;
  try { json = stringify(value); } catch (error) { return 'E' + describeError(error); }
  return 'J' + (json === undefined ? 'null' : slice(json, max));
}

// Host helper: a bounded JSON description of any thrown value.
function describeError(error) {
  const out = { name: '', message: '', stack: '', code: null, step: null, field: null, plain: false };
  const text = (value) => (typeof value === 'string' ? slice(value, 2000) : '');
  try {
    if (error instanceof NativeError) {
      out.name = text(error.name); out.message = text(error.message); out.stack = text(error.stack);
      if (typeof error.code === 'string') out.code = slice(error.code, 100);
      if (typeof error.step === 'number') out.step = error.step;
      if (typeof error.field === 'string') out.field = slice(error.field, 100);
    } else {
      out.plain = true; out.message = slice(format(error), 2000);
    }
  } catch (inspectError) {
    out.message = out.message || 'an error that could not be inspected';
  }
  return stringify(out);
}

const consoleApi = freeze({ log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug') });
defineProperty(G, 'page', { value: makePage(), enumerable: true, writable: false, configurable: false });
defineProperty(G, 'context', { value: contextApi, enumerable: true, writable: false, configurable: false });
defineProperty(G, 'human', { value: humanApi, enumerable: true, writable: false, configurable: false });
defineProperty(G, 'console', { value: consoleApi, enumerable: true, writable: false, configurable: false });
return freeze({ serialize: serialize, describeError: describeError });
})`;
