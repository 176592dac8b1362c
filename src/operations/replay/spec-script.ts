import { BrowserMeshError, ErrorCodes } from '../../errors.js';

/**
 * An exported spec read for replay: the body of its one `test(…)` (or the whole text when there is
 * none), cut into statements, and the secrets it reads (`secretFromEnv('NAME')`). Replay runs each
 * statement on its own, so a statement may use only `page`, `expect` and `secrets`: what keeps a
 * value from one statement to the next (a popup's promise, a dialog handler, another page) is
 * refused before anything runs, with the line.
 */
export interface SpecStatement {
  /** 1-based position among the statements (a replay "step"). */
  step: number;
  /** 1-based line in the spec where it starts, and how many lines it takes. */
  line: number;
  lines: number;
  code: string;
}

export interface SpecScript {
  statements: SpecStatement[];
  /** Names of the secrets the spec reads, as `secrets.NAME`. */
  secrets: string[];
}

const TEST_START = /^test\(.*async \(\{([^}]*)\}\) => \{\s*$/;
const SECRETS_LINE = /^const secrets = \{(.*)\};$/;
const SECRET_ENTRY = /([A-Za-z_][A-Za-z0-9_]*): secretFromEnv\('([A-Za-z_][A-Za-z0-9_]*)'\)/g;
/** What a statement may not do in a replay (it needs state across statements or another page). */
const UNSUPPORTED: Array<[RegExp, string]> = [
  [/^(const|let|var)\s/, 'declares a variable (replay runs each statement on its own)'],
  [/\bcontext\b/, 'uses the browser context (replay drives one page)'],
  [/\.(once|on)\(\s*'(dialog|popup|filechooser)'/, 'waits for a dialog, popup or file chooser'],
  [/\bBuffer\b/, 'uploads files'],
];

export function parseSpec(spec: string): SpecScript {
  const all = spec.split('\n');
  const start = all.findIndex((line) => TEST_START.test(line));
  const end = start < 0 ? all.length : lastClose(all, start);
  const first = start < 0 ? 0 : start + 1;
  if (start >= 0) {
    const fixtures = TEST_START.exec(all[start] ?? '')?.[1] ?? '';
    if (fixtures.split(',').some((f) => f.trim() !== 'page' && f.trim() !== ''))
      throw unsupported(start + 1, 'uses a fixture other than page');
  }
  const secrets: string[] = [];
  const statements: SpecStatement[] = [];
  let pending: { line: number; parts: string[] } | undefined;
  for (let i = first; i < end; i++) {
    const text = (all[i] ?? '').trim();
    if (pending === undefined && (text === '' || text.startsWith('//'))) continue;
    const secretLine = pending === undefined ? SECRETS_LINE.exec(text) : null;
    if (secretLine) {
      for (const match of (secretLine[1] ?? '').matchAll(SECRET_ENTRY)) secrets.push(match[2] ?? '');
      continue;
    }
    pending ??= { line: i + 1, parts: [] };
    pending.parts.push(text);
    const code = pending.parts.join(' ');
    if (!complete(code)) continue;
    const refused = UNSUPPORTED.find(([pattern]) => pattern.test(code));
    if (refused) throw unsupported(pending.line, refused[1]);
    statements.push({ step: statements.length + 1, line: pending.line, lines: pending.parts.length, code });
    pending = undefined;
  }
  if (pending) throw unsupported(pending.line, 'is not complete (a statement ends with ;)');
  if (statements.length === 0)
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'spec: holds no statement to replay', {
      details: { field: 'spec' },
    });
  return { statements, secrets };
}

/** The line of the `});` that closes the test opened at `start` (the last one at column 0). */
function lastClose(lines: string[], start: number): number {
  for (let i = lines.length - 1; i > start; i--) if (lines[i]?.startsWith('});')) return i;
  return lines.length;
}

/** Whether `code` is a whole statement: brackets closed outside strings, ending with `;`. */
export function complete(code: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '/' && code[i + 1] === '/') return depth === 0 && code.slice(0, i).trimEnd().endsWith(';');
  }
  return depth === 0 && quote === undefined && code.trimEnd().endsWith(';');
}

function unsupported(line: number, what: string): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.NOT_SUPPORTED,
    `spec: the statement at line ${line} ${what}; replay runs statements on page, expect and secrets only`,
    { details: { field: 'spec', line } },
  );
}
