import type {
  ClickCall,
  CookiesResult,
  ElementReadCall,
  ElementReadOp,
  ElementSelector,
  HistoryCall,
  KeyModifier,
  LoadState,
  PdfResult,
  SelectOptionCall,
  ShotResult,
  SimpleActionCall,
  SimpleActionOp,
  SnapshotCall,
  ScrollCall,
} from './facade-calls.js';
import {
  ELEMENT_ACTION_KINDS,
  ELEMENT_ACTIONS,
  type ElementActionKind,
} from '../operations/journal/element-actions.js';
import { HANDS_PARSERS } from './facade-parse-hands.js';
import { HUMAN_PARSERS, type HumanRequestResult } from './facade-parse-human.js';
import { SHOT_PARSERS } from './facade-parse-shots.js';
import { STATE_PARSERS } from './facade-parse-state.js';
import { WIDGET_PARSERS } from './facade-parse-widgets.js';
import { MAX_TEXT_CHARS, parseSelector } from './facade-validate.js';
import {
  CallArgumentError,
  bool,
  fail,
  int,
  isRecord,
  num,
  oneOf,
  opt,
  options,
  pattern,
  str,
  timeoutOf,
  type Raw,
} from './validate-helpers.js';

/**
 * Turns the raw request a script sent (`{ member, op, args }`, decoded from JSON) into a typed
 * `FacadeCall`, or throws a `CallArgumentError` naming the member and the argument at fault.
 */

const MAX_URL_CHARS = 8_192;
const MAX_FILL_CHARS = 100_000;
const MAX_TYPE_CHARS = 10_000;
const MAX_KEY_CHARS = 64;
const MAX_WAIT_MS = 600_000;
const LOAD_STATES: readonly LoadState[] = ['load', 'domcontentloaded', 'networkidle'];
const MODIFIERS: readonly KeyModifier[] = ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'];

/** Every op's call: what its parser returns (FACADE_OPS below). */
export type FacadeCall = { [Op in FacadeOp]: ReturnType<FacadeOps[Op]['parse']> }[FacadeOp];
export type FacadeOp = keyof FacadeOps;
/** What the backend resolves each op with (the sandbox passes any JSON value through). */
export type FacadeResults = {
  [Op in FacadeOp]: FacadeOps[Op] extends CallSpec<infer _C, infer R> ? R : never;
};
export type FacadeResult<Op extends FacadeOp> = FacadeResults[Op];
type FacadeOps = typeof FACADE_OPS;

export interface ParsedCall {
  /** The member the script called, e.g. `locator.click`; used only in messages. */
  member: string;
  call: FacadeCall;
}

/** Reads only the member and op, for step bookkeeping even when the arguments are bad. */
export function peekCall(raw: unknown): { member: string; op: string } {
  const member = isRecord(raw) && typeof raw['member'] === 'string' ? raw['member'] : '';
  const op = isRecord(raw) && typeof raw['op'] === 'string' ? raw['op'] : '';
  return {
    member: /^(page|locator|keyboard|mouse|context|human)\.[A-Za-z]{1,40}$/.test(member) ? member : 'page',
    op: /^[A-Za-z]{1,40}$/.test(op) ? op : 'unknown',
  };
}

export function parseFacadeCall(raw: unknown): ParsedCall {
  const { member, op } = peekCall(raw);
  const args = isRecord(raw) && isRecord(raw['args']) ? raw['args'] : {};
  const parser = PARSERS.get(op);
  if (parser === undefined) throw new CallArgumentError(`${member}: unknown operation '${op}'`);
  return { member, call: parser(member, args) };
}

type Parser<C extends { op: string } = { op: string }> = (member: string, args: Raw) => C;

const target = (m: string, a: Raw): ElementSelector => parseSelector(m, a['target']);
const loadState = (m: string, what: string, v: unknown): LoadState => oneOf(m, what, v, LOAD_STATES);
const delayOf = (m: string, o: Raw): { delayMs?: number } => {
  const delayMs = opt(o['delay'], (v) => int(m, "option 'delay'", v, 0, 1_000));
  return delayMs === undefined ? {} : { delayMs };
};
const waitUntilOf = (m: string, o: Raw): { waitUntil?: LoadState } => {
  const waitUntil = opt(o['waitUntil'], (v) => loadState(m, "option 'waitUntil'", v));
  return waitUntil === undefined ? {} : { waitUntil };
};

function navigation<Op extends 'goBack' | 'goForward' | 'reload'>(op: Op): Parser<HistoryCall<Op>> {
  return (m, a) => {
    const o = options(m, a['options'], ['timeout', 'waitUntil']);
    return { op, ...waitUntilOf(m, o), ...timeoutOf(m, o) };
  };
}

function simpleAction<Op extends SimpleActionOp>(op: Op): Parser<SimpleActionCall<Op>> {
  return (m, a) => ({ op, target: target(m, a), ...timeoutOf(m, options(m, a['options'], ['timeout'])) });
}

function elementRead<Op extends ElementReadOp>(op: Op): Parser<ElementReadCall<Op>> {
  return (m, a) => ({ op, target: target(m, a), ...timeoutOf(m, options(m, a['options'], ['timeout'])) });
}

function click(m: string, a: Raw): ClickCall {
  const o = options(m, a['options'], ['button', 'clickCount', 'modifiers', 'timeout']);
  const call: ClickCall = { op: 'click', target: target(m, a), ...timeoutOf(m, o) };
  const button = opt(o['button'], (v) =>
    oneOf(m, "option 'button'", v, ['left', 'right', 'middle'] as const),
  );
  if (button !== undefined) call.button = button;
  const clickCount = opt(o['clickCount'], (v) => int(m, "option 'clickCount'", v, 1, 3));
  if (clickCount !== undefined) call.clickCount = clickCount;
  const modifiers = opt(o['modifiers'], (v) => {
    if (!Array.isArray(v)) return fail(m, "option 'modifiers'", 'must be an array');
    return v.map((item) => oneOf(m, "option 'modifiers'", item, MODIFIERS));
  });
  if (modifiers !== undefined) call.modifiers = modifiers;
  return call;
}

function selectOption(m: string, a: Raw): SelectOptionCall {
  const o = options(m, a['options'], ['timeout']);
  const raw = a['values'];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length > 100) fail(m, "argument 'values'", 'has too many entries (max 100)');
  const values = list.map((v) => str(m, "argument 'values'", v, MAX_TEXT_CHARS, true));
  return { op: 'selectOption', target: target(m, a), values, ...timeoutOf(m, o) };
}

function snapshot(m: string, a: Raw): SnapshotCall {
  const o = options(m, a['options'], ['interactiveOnly', 'maxChars']);
  const call: SnapshotCall = { op: 'snapshot' };
  if (a['target'] !== undefined && a['target'] !== null) call.target = target(m, a);
  const interactiveOnly = opt(o['interactiveOnly'], (v) => bool(m, "option 'interactiveOnly'", v));
  if (interactiveOnly !== undefined) call.interactiveOnly = interactiveOnly;
  const maxChars = opt(o['maxChars'], (v) => int(m, "option 'maxChars'", v, 100, 1_000_000));
  if (maxChars !== undefined) call.maxChars = maxChars;
  return call;
}

function scroll(m: string, a: Raw): ScrollCall {
  const call: ScrollCall = {
    op: 'scroll',
    deltaX: num(m, "argument 'deltaX'", a['deltaX'], 100_000),
    deltaY: num(m, "argument 'deltaY'", a['deltaY'], 100_000),
  };
  if (a['target'] !== undefined && a['target'] !== null) call.target = target(m, a);
  return call;
}

/**
 * The parsing half of the code-mode operation table, one entry per facade op: its argument parser
 * (whose return type is the op's call: FacadeCall is read from here), what the op resolves with
 * (FacadeResults; `null` unless given) and, for an element method forwarded as it is, `element`:
 * the names of the arguments after the target (`page.fill(selector, value, options)`,
 * `locator.fill(value, options)`); the sandbox's element methods are generated from these
 * (prelude.ts). The host half (each op's runner) is FACADE_RUNNERS in backend-ops.ts or the tool
 * definition's `code` parts (src/tools/code-parts.ts); this half runs in the sandbox worker, which
 * must not load the engine.
 */
export interface CallSpec<C extends { op: string } = { op: string }, R = unknown> {
  parse: Parser<C>;
  element?: readonly string[];
  /** Types only: what the op resolves with. */
  readonly resolves?: R;
}

/** An op that resolves with `R` (curried: `C` is inferred from the parser). */
const resolving =
  <R>() =>
  <C extends { op: string }>(parse: Parser<C>, element?: readonly string[]): CallSpec<C, R> =>
    element === undefined ? { parse } : { parse, element };

/** An op that resolves with null (an action, a wait). */
const spec = resolving<null>();

/**
 * The element-action table's rows (src/operations/journal/element-actions.ts): `locator.<name>()` and
 * `page.<name>(selector)`, generated where Playwright's method has the row's name; another name
 * (`scrollIntoViewIfNeeded`) is written in the prelude.
 */
function elementActionOps(): { [K in ElementActionKind]: CallSpec<SimpleActionCall<K>, null> } {
  const entries = ELEMENT_ACTION_KINDS.map((kind) => [
    kind,
    spec(simpleAction(kind), ELEMENT_ACTIONS[kind].playwright === kind ? [] : undefined),
  ]);
  return Object.fromEntries(entries) as { [K in ElementActionKind]: CallSpec<SimpleActionCall<K>, null> };
}

/** Each entry's key is its call's op (a parser of another op is refused). */
const table = <T extends { [Op in keyof T]: CallSpec<{ op: Op & string }, unknown> }>(ops: T): T => ops;

// The order of the `element` entries is the order the sandbox lists a locator's methods in.
export const FACADE_OPS = table({
  goto: spec((m, a) => {
    const o = options(m, a['options'], ['timeout', 'waitUntil']);
    const url = str(m, "argument 'url'", a['url'], MAX_URL_CHARS);
    return { op: 'goto', url, ...waitUntilOf(m, o), ...timeoutOf(m, o) };
  }),
  goBack: spec(navigation('goBack')),
  goForward: spec(navigation('goForward')),
  reload: spec(navigation('reload')),
  click: spec(click, []),
  /** null, or the value a slider or spinbutton widget reached. */
  fill: resolving<string | null>()(
    (m, a) => {
      const o = options(m, a['options'], ['timeout']);
      const value = str(m, "argument 'value'", a['value'], MAX_FILL_CHARS, true);
      return { op: 'fill', target: target(m, a), value, ...timeoutOf(m, o) };
    },
    ['value'],
  ),
  type: spec(
    (m, a) => {
      const o = options(m, a['options'], ['delay', 'timeout']);
      const text = str(m, "argument 'text'", a['text'], MAX_TYPE_CHARS, true);
      return { op: 'type', target: target(m, a), text, ...delayOf(m, o), ...timeoutOf(m, o) };
    },
    ['text'],
  ),
  press: spec(
    (m, a) => {
      const o = options(m, a['options'], ['delay', 'timeout']);
      const key = str(m, "argument 'key'", a['key'], MAX_KEY_CHARS);
      return { op: 'press', target: target(m, a), key, ...delayOf(m, o), ...timeoutOf(m, o) };
    },
    ['key'],
  ),
  /** The values that ended up selected. */
  selectOption: resolving<string[]>()(selectOption, ['values']),
  // hover, focus, check, uncheck, scrollIntoView, …: the element-action table's rows.
  ...elementActionOps(),
  textContent: resolving<string | null>()(elementRead('textContent'), []),
  innerText: resolving<string>()(elementRead('innerText'), []),
  inputValue: resolving<string>()(elementRead('inputValue'), []),
  getAttribute: resolving<string | null>()(
    (m, a) => {
      const o = options(m, a['options'], ['timeout']);
      const name = str(m, "argument 'name'", a['name'], 256);
      return { op: 'getAttribute', target: target(m, a), name, ...timeoutOf(m, o) };
    },
    ['name'],
  ),
  isVisible: resolving<boolean>()(elementRead('isVisible'), []),
  isChecked: resolving<boolean>()(elementRead('isChecked'), []),
  isEnabled: resolving<boolean>()(elementRead('isEnabled'), []),
  count: resolving<number>()(elementRead('count')),
  allTextContents: resolving<string[]>()(elementRead('allTextContents')),
  allInnerTexts: resolving<string[]>()(elementRead('allInnerTexts')),
  title: resolving<string>()(() => ({ op: 'title' })),
  url: resolving<string>()(() => ({ op: 'url' })),
  /**
   * The snapshot text, with `@eN` refs usable through `page.ref()`. A scoped one that shows nothing
   * is a `(empty scope: …)` line, never an empty string.
   */
  snapshot: resolving<string>()(snapshot),
  waitForSelector: spec((m, a) => {
    const o = options(m, a['options'], ['state', 'timeout']);
    const states = ['attached', 'detached', 'visible', 'hidden'] as const;
    const state = opt(o['state'], (v) => oneOf(m, "option 'state'", v, states)) ?? 'visible';
    return { op: 'waitForSelector', target: target(m, a), state, ...timeoutOf(m, o) };
  }),
  waitForURL: spec((m, a) => {
    const o = options(m, a['options'], ['timeout', 'waitUntil']);
    const url =
      pattern(m, "argument 'url'", a['url'], true) ?? str(m, "argument 'url'", a['url'], MAX_URL_CHARS);
    return { op: 'waitForURL', url, ...waitUntilOf(m, o), ...timeoutOf(m, o) };
  }),
  waitForLoadState: spec((m, a) => {
    const o = options(m, a['options'], ['timeout']);
    const state = opt(a['state'], (v) => loadState(m, "argument 'state'", v)) ?? 'load';
    return { op: 'waitForLoadState', state, ...timeoutOf(m, o) };
  }),
  waitForTimeout: spec((m, a) => ({
    op: 'waitForTimeout',
    ms: int(m, "argument 'timeout'", a['ms'], 0, MAX_WAIT_MS),
  })),
  keyboardPress: spec((m, a) => {
    const o = options(m, a['options'], ['delay']);
    return { op: 'keyboardPress', key: str(m, "argument 'key'", a['key'], MAX_KEY_CHARS), ...delayOf(m, o) };
  }),
  keyboardType: spec((m, a) => {
    const o = options(m, a['options'], ['delay']);
    const text = str(m, "argument 'text'", a['text'], MAX_TYPE_CHARS, true);
    return { op: 'keyboardType', text, ...delayOf(m, o) };
  }),
  scroll: spec(scroll),
  mouse: spec(HANDS_PARSERS.mouse),
  setViewportSize: spec(HANDS_PARSERS.setViewportSize),
  setInputFiles: spec(HANDS_PARSERS.setInputFiles, ['files']),
  pdf: resolving<PdfResult>()(HANDS_PARSERS.pdf),
  screenshot: resolving<ShotResult>()(SHOT_PARSERS.screenshot),
  dragTo: spec(WIDGET_PARSERS.dragTo),
  route: spec(STATE_PARSERS.route),
  unroute: spec(STATE_PARSERS.unroute),
  cookies: resolving<CookiesResult>()(STATE_PARSERS.cookies),
  addCookies: spec(STATE_PARSERS.addCookies),
  clearCookies: spec(STATE_PARSERS.clearCookies),
  emulateMedia: spec(STATE_PARSERS.emulateMedia),
  selectText: spec(STATE_PARSERS.selectText),
  /** How the request for a person ended (human.request). */
  humanRequest: resolving<HumanRequestResult>()(HUMAN_PARSERS.humanRequest),
});

/** A Map, so an op such as 'constructor' can never reach an inherited Object member. */
const PARSERS = new Map<string, Parser<FacadeCall>>(
  Object.entries(FACADE_OPS).map(([op, entry]) => [op, entry.parse as Parser<FacadeCall>]),
);
