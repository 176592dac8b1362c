import type {
  MouseButton,
  MouseCall,
  PdfCall,
  SetInputFilesCall,
  SetViewportSizeCall,
} from './facade-calls.js';
import { parseSelector } from './facade-validate.js';
import {
  bool,
  fail,
  int,
  isRecord,
  num,
  oneOf,
  opt,
  options,
  str,
  timeoutOf,
  type Raw,
} from './validate-helpers.js';

/** Parsers of the "hands" members: page.mouse.*, page.setViewportSize, page.pdf and setInputFiles. */

const BUTTONS: readonly MouseButton[] = ['left', 'right', 'middle'];
const MAX_COORDINATE = 100_000;
const MAX_UPLOAD_FILES = 20;

const coordinate = (m: string, what: string, v: unknown): number => {
  const value = num(m, what, v, MAX_COORDINATE);
  if (value < 0) fail(m, what, 'must not be negative');
  return value;
};

function mouse(m: string, a: Raw): MouseCall {
  const action = oneOf(m, "argument 'action'", a['action'], ['move', 'click', 'down', 'up'] as const);
  const o = options(m, a['options'], ['button', 'clickCount', 'steps']);
  const call: MouseCall = { op: 'mouse', action };
  if (action === 'move' || action === 'click') {
    call.x = coordinate(m, "argument 'x'", a['x']);
    call.y = coordinate(m, "argument 'y'", a['y']);
  }
  const button = opt(o['button'], (v) => oneOf(m, "option 'button'", v, BUTTONS));
  if (button !== undefined) call.button = button;
  const clickCount = opt(o['clickCount'], (v) => int(m, "option 'clickCount'", v, 1, 3));
  if (clickCount !== undefined) call.clickCount = clickCount;
  const steps = opt(o['steps'], (v) => int(m, "option 'steps'", v, 1, 100));
  if (steps !== undefined) call.steps = steps;
  return call;
}

function setViewportSize(m: string, a: Raw): SetViewportSizeCall {
  const size = a['size'];
  if (!isRecord(size)) return fail(m, "argument 'size'", 'must be {width, height}');
  return {
    op: 'setViewportSize',
    width: int(m, "argument 'size.width'", size['width'], 100, 8192),
    height: int(m, "argument 'size.height'", size['height'], 100, 8192),
  };
}

/** Playwright's forms: a path, `{name, mimeType, buffer}` (here base64 text), or an array of them. */
function setInputFiles(m: string, a: Raw): SetInputFilesCall {
  const o = options(m, a['options'], ['timeout']);
  const raw = a['files'];
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0 || list.length > MAX_UPLOAD_FILES)
    fail(m, "argument 'files'", `must hold 1 to ${MAX_UPLOAD_FILES} files`);
  const files = list.map((item) => {
    if (typeof item === 'string') return { path: str(m, "argument 'files'", item, 4096) };
    if (!isRecord(item)) return fail(m, "argument 'files'", 'items are paths or {name, mimeType, buffer}');
    const base64 = str(m, "argument 'files[].buffer'", item['buffer'] ?? item['base64'], 400_000_000, true);
    const name = str(m, "argument 'files[].name'", item['name'], 255);
    const mimeType = opt(item['mimeType'], (v) => str(m, "argument 'files[].mimeType'", v, 127));
    return { name, base64, ...(mimeType !== undefined ? { mimeType } : {}) };
  });
  return { op: 'setInputFiles', target: parseSelector(m, a['target']), files, ...timeoutOf(m, o) };
}

/** page.pdf({ landscape, format }): no path option, the file goes to the session's files. */
function pdf(m: string, a: Raw): PdfCall {
  const o = options(m, a['options'], ['landscape', 'format']);
  const call: PdfCall = { op: 'pdf' };
  const landscape = opt(o['landscape'], (v) => bool(m, "option 'landscape'", v));
  if (landscape !== undefined) call.landscape = landscape;
  const format = opt(o['format'], (v) => oneOf(m, "option 'format'", v, ['A4', 'Letter'] as const));
  if (format !== undefined) call.format = format;
  return call;
}

export const HANDS_PARSERS = { mouse, setViewportSize, setInputFiles, pdf };
