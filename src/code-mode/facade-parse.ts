import type {
  ElementReadOp,
  ElementSelector,
  FacadeCall,
  KeyModifier,
  LoadState,
  SimpleActionOp,
} from './facade-calls.js';
import { HANDS_PARSERS } from './facade-parse-hands.js';
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
const READ_OPS: readonly ElementReadOp[] = [
  'textContent',
  'innerText',
  'inputValue',
  'isVisible',
  'isChecked',
  'isEnabled',
  'count',
  'allTextContents',
  'allInnerTexts',
];
const SIMPLE_ACTION_OPS: readonly SimpleActionOp[] = ['check', 'uncheck', 'hover', 'focus', 'scrollIntoView'];

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
    member: /^(page|locator|keyboard|mouse|context)\.[A-Za-z]{1,40}$/.test(member) ? member : 'page',
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

type Parser = (member: string, args: Raw) => FacadeCall;

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

function navigation(op: 'goBack' | 'goForward' | 'reload'): Parser {
  return (m, a) => {
    const o = options(m, a['options'], ['timeout', 'waitUntil']);
    return { op, ...waitUntilOf(m, o), ...timeoutOf(m, o) };
  };
}

function simpleAction(op: SimpleActionOp): Parser {
  return (m, a) => ({ op, target: target(m, a), ...timeoutOf(m, options(m, a['options'], ['timeout'])) });
}

function elementRead(op: ElementReadOp): Parser {
  return (m, a) => ({ op, target: target(m, a), ...timeoutOf(m, options(m, a['options'], ['timeout'])) });
}

function click(m: string, a: Raw): FacadeCall {
  const o = options(m, a['options'], ['button', 'clickCount', 'modifiers', 'timeout']);
  const call: FacadeCall = { op: 'click', target: target(m, a), ...timeoutOf(m, o) };
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

function selectOption(m: string, a: Raw): FacadeCall {
  const o = options(m, a['options'], ['timeout']);
  const raw = a['values'];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length > 100) fail(m, "argument 'values'", 'has too many entries (max 100)');
  const values = list.map((v) => str(m, "argument 'values'", v, MAX_TEXT_CHARS, true));
  return { op: 'selectOption', target: target(m, a), values, ...timeoutOf(m, o) };
}

function snapshot(m: string, a: Raw): FacadeCall {
  const o = options(m, a['options'], ['interactiveOnly', 'maxChars']);
  const call: Extract<FacadeCall, { op: 'snapshot' }> = { op: 'snapshot' };
  if (a['target'] !== undefined && a['target'] !== null) call.target = target(m, a);
  const interactiveOnly = opt(o['interactiveOnly'], (v) => bool(m, "option 'interactiveOnly'", v));
  if (interactiveOnly !== undefined) call.interactiveOnly = interactiveOnly;
  const maxChars = opt(o['maxChars'], (v) => int(m, "option 'maxChars'", v, 100, 1_000_000));
  if (maxChars !== undefined) call.maxChars = maxChars;
  return call;
}

function scroll(m: string, a: Raw): FacadeCall {
  const call: FacadeCall = {
    op: 'scroll',
    deltaX: num(m, "argument 'deltaX'", a['deltaX'], 100_000),
    deltaY: num(m, "argument 'deltaY'", a['deltaY'], 100_000),
  };
  if (a['target'] !== undefined && a['target'] !== null) call.target = target(m, a);
  return call;
}

const PARSER_TABLE: Record<string, Parser> = {
  goto: (m, a) => {
    const o = options(m, a['options'], ['timeout', 'waitUntil']);
    const url = str(m, "argument 'url'", a['url'], MAX_URL_CHARS);
    return { op: 'goto', url, ...waitUntilOf(m, o), ...timeoutOf(m, o) };
  },
  goBack: navigation('goBack'),
  goForward: navigation('goForward'),
  reload: navigation('reload'),
  click,
  fill: (m, a) => {
    const o = options(m, a['options'], ['timeout']);
    const value = str(m, "argument 'value'", a['value'], MAX_FILL_CHARS, true);
    return { op: 'fill', target: target(m, a), value, ...timeoutOf(m, o) };
  },
  type: (m, a) => {
    const o = options(m, a['options'], ['delay', 'timeout']);
    const text = str(m, "argument 'text'", a['text'], MAX_TYPE_CHARS, true);
    return { op: 'type', target: target(m, a), text, ...delayOf(m, o), ...timeoutOf(m, o) };
  },
  press: (m, a) => {
    const o = options(m, a['options'], ['delay', 'timeout']);
    const key = str(m, "argument 'key'", a['key'], MAX_KEY_CHARS);
    return { op: 'press', target: target(m, a), key, ...delayOf(m, o), ...timeoutOf(m, o) };
  },
  selectOption,
  ...Object.fromEntries(SIMPLE_ACTION_OPS.map((op) => [op, simpleAction(op)])),
  ...Object.fromEntries(READ_OPS.map((op) => [op, elementRead(op)])),
  getAttribute: (m, a) => {
    const o = options(m, a['options'], ['timeout']);
    const name = str(m, "argument 'name'", a['name'], 256);
    return { op: 'getAttribute', target: target(m, a), name, ...timeoutOf(m, o) };
  },
  title: () => ({ op: 'title' }),
  url: () => ({ op: 'url' }),
  snapshot,
  waitForSelector: (m, a) => {
    const o = options(m, a['options'], ['state', 'timeout']);
    const states = ['attached', 'detached', 'visible', 'hidden'] as const;
    const state = opt(o['state'], (v) => oneOf(m, "option 'state'", v, states)) ?? 'visible';
    return { op: 'waitForSelector', target: target(m, a), state, ...timeoutOf(m, o) };
  },
  waitForURL: (m, a) => {
    const o = options(m, a['options'], ['timeout', 'waitUntil']);
    const url =
      pattern(m, "argument 'url'", a['url'], true) ?? str(m, "argument 'url'", a['url'], MAX_URL_CHARS);
    return { op: 'waitForURL', url, ...waitUntilOf(m, o), ...timeoutOf(m, o) };
  },
  waitForLoadState: (m, a) => {
    const o = options(m, a['options'], ['timeout']);
    const state = opt(a['state'], (v) => loadState(m, "argument 'state'", v)) ?? 'load';
    return { op: 'waitForLoadState', state, ...timeoutOf(m, o) };
  },
  waitForTimeout: (m, a) => ({
    op: 'waitForTimeout',
    ms: int(m, "argument 'timeout'", a['ms'], 0, MAX_WAIT_MS),
  }),
  keyboardPress: (m, a) => {
    const o = options(m, a['options'], ['delay']);
    return { op: 'keyboardPress', key: str(m, "argument 'key'", a['key'], MAX_KEY_CHARS), ...delayOf(m, o) };
  },
  keyboardType: (m, a) => {
    const o = options(m, a['options'], ['delay']);
    const text = str(m, "argument 'text'", a['text'], MAX_TYPE_CHARS, true);
    return { op: 'keyboardType', text, ...delayOf(m, o) };
  },
  scroll,
  ...HANDS_PARSERS,
  ...SHOT_PARSERS,
  ...WIDGET_PARSERS,
  ...STATE_PARSERS,
};

/** A Map, so an op such as 'constructor' can never reach an inherited Object member. */
const PARSERS = new Map<string, Parser>(Object.entries(PARSER_TABLE));
