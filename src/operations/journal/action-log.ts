import type { PageOperationContext } from '../../engine/runtime.js';
import type { Session } from '../../engine/session.js';
import { rememberTypedSecret } from '../../redaction/typed-secrets.js';
import { secretName } from '../../secrets.js';
import type { ElementActionKind } from './element-actions.js';

/**
 * Every session's action log: what the agent did that worked, in order, with the best locator of each
 * element it hit (chosen in the page at the moment of the action, see best-locator.ts). It is what
 * `browser_export_test` turns into a `@playwright/test` spec. Bounded (a ring: the oldest steps go
 * first), in memory only, and never holds a secret: a `{{secret:NAME}}` value, a password field's value
 * and a value equal to a configured secret are kept as the placeholder's name, never as text.
 */

/** One locator as Playwright writes it; `exact` only where the loose match was not unique. */
export type BestLocator =
  | { by: 'role'; role: string; name?: string; exact?: boolean }
  | { by: 'label' | 'placeholder' | 'text'; value: string; exact?: boolean }
  | { by: 'testId' | 'css'; value: string };

/** An element as a spec reaches it: the iframes from the page down (CSS each), then the element. */
export interface LoggedTarget {
  frames: string[];
  element: BestLocator;
  /** A CSS selector for the same element (for a CSS-style export); unique when `unique` is true. */
  css: string;
  /** Whether `element` matched exactly this one element in its frame when it was chosen. */
  unique: boolean;
  /** A password or other secret field (its value is never logged). */
  secretField: boolean;
}

export type StepKind =
  | 'goto'
  | 'back'
  | 'forward'
  | 'reload'
  | 'newPage'
  | 'click'
  // hover, focus, check, …: one row each in the element-action table.
  | ElementActionKind
  | 'fill'
  | 'type'
  | 'press'
  | 'select'
  | 'upload'
  | 'drag'
  | 'waitUrl'
  | 'waitText'
  | 'waitTextGone'
  | 'waitElement'
  | 'readText'
  // What the agent read to check a result (see export-checks.ts): the URL, the page's text (its
  // headings and live regions in `values`) or snapshot, an element a find or a scoped read showed.
  | 'readUrl'
  | 'readPage'
  | 'readElement';

export interface LoggedFile {
  name: string;
  mimeType: string;
  /** The bytes, for small files only (the spec carries them inline); larger files are named only. */
  base64?: string;
}

export interface LoggedStep {
  /** 1-based position in the session's log (kept when older steps are dropped). */
  step: number;
  pageId: string;
  kind: StepKind;
  targets?: LoggedTarget[];
  url?: string;
  /** A URL pattern a wait matched: a glob / exact string, or a RegExp's source and flags. */
  urlPattern?: string | { source: string; flags: string };
  /** Typed text, or the text an assertion expects (never a secret). */
  value?: string;
  /** Name of the environment variable that stands for a secret value. */
  secret?: string;
  key?: string;
  values?: string[];
  selectBy?: 'value' | 'label' | 'index';
  files?: LoggedFile[];
  state?: string;
  button?: string;
  clickCount?: number;
  modifiers?: string[];
  /** A dialog this action raised and how the agent wanted it answered. */
  dialog?: { accept: boolean; promptText?: string };
  /** Pages (popups) this action opened. */
  opened?: string[];
  /** On a page's first step: the page whose action opened it (a popup). */
  openedBy?: string;
}

/**
 * What an operation reports. `typed` is the raw text the agent typed: it is never kept, only turned
 * into `value` or `secret` (see toLoggedValue); `typedSecret` says the focused field was a secret one.
 */
export type StepInput = Omit<LoggedStep, 'step' | 'pageId' | 'openedBy'> & {
  typed?: string;
  typedSecret?: boolean;
};

/** A click's step: only the options that differ from a plain left click. */
export function toClickStep(input: {
  button?: string | undefined;
  clickCount?: number | undefined;
  modifiers?: string[] | undefined;
}): StepInput {
  return {
    kind: 'click',
    ...(input.button ? { button: input.button } : {}),
    ...(input.clickCount ? { clickCount: input.clickCount } : {}),
    ...(input.modifiers?.length ? { modifiers: input.modifiers } : {}),
  };
}

/** Files up to this size are carried inline in a spec; bigger ones are named only. */
export const INLINE_FILE_BYTES = 4096;

export function toLoggedFile(file: { name: string; mimeType: string; buffer: Buffer }): LoggedFile {
  const inline = file.buffer.length <= INLINE_FILE_BYTES ? { base64: file.buffer.toString('base64') } : {};
  return { name: file.name, mimeType: file.mimeType, ...inline };
}

export class ActionLog {
  private readonly steps: LoggedStep[] = [];
  private readonly pagesSeen = new Set<string>();
  private next = 1;

  constructor(
    readonly maxSteps: number,
    /** The saved state the session started from, if any (a spec starts from it). */
    readonly stateId: string | null,
  ) {}

  add(pageId: string, input: Omit<LoggedStep, 'step' | 'pageId'>): void {
    if (this.maxSteps <= 0) return;
    const first = !this.pagesSeen.has(pageId);
    this.pagesSeen.add(pageId);
    const { openedBy, ...rest } = input;
    this.steps.push({ step: this.next++, pageId, ...rest, ...(first && openedBy ? { openedBy } : {}) });
    if (this.steps.length > this.maxSteps) this.steps.splice(0, this.steps.length - this.maxSteps);
  }

  /** The kept steps from `fromStep` to `toStep` (inclusive, by step number). */
  list(fromStep = 1, toStep = Number.MAX_SAFE_INTEGER): LoggedStep[] {
    return this.steps.filter((s) => s.step >= fromStep && s.step <= toStep);
  }

  /** Steps recorded in all (dropped ones included). */
  get recorded(): number {
    return this.next - 1;
  }
}

const logs = new WeakMap<Session, ActionLog>();

/** The session's log, made on first use with the configured bound (0 = off). */
export function actionLogOf(session: Session, maxSteps: number): ActionLog {
  let log = logs.get(session);
  if (!log) {
    log = new ActionLog(maxSteps, session.toInfo().stateId);
    logs.set(session, log);
  }
  return log;
}

export function isLogging(ctx: Pick<PageOperationContext, 'config'>): boolean {
  return ctx.config.actionLogSteps > 0;
}

/** Adds one successful step of `ctx`'s page to its session's log (nothing when the log is off). */
export function recordStep(ctx: PageOperationContext, input: StepInput): void {
  const { typed, typedSecret, files, ...rest } = input;
  const secretField = typedSecret === true || rest.targets?.some((t) => t.secretField) === true;
  // A trace records the value wholesale, log or no log: it is scrubbed by these (tracing.ts).
  if (secretField && typed !== undefined && secretName(typed) === undefined)
    rememberTypedSecret(ctx.session.id, typed);
  if (!isLogging(ctx)) return;
  const secrets = ctx.session.secrets;
  // A prompt answer holding a secret is not kept: the spec accepts with the prompt's default.
  const prompt = rest.dialog?.promptText;
  if (rest.dialog && prompt !== undefined && toLoggedValue(secrets, prompt, false).secret !== undefined)
    rest.dialog = { accept: rest.dialog.accept };
  const value = typed === undefined ? {} : toLoggedValue(secrets, typed, secretField);
  const opener = ctx.page.openerPageId;
  actionLogOf(ctx.session, ctx.config.actionLogSteps).add(ctx.page.id, {
    ...rest,
    ...value,
    ...(files ? { files: files.map((f) => withoutSecretBytes(secrets, f)) } : {}),
    ...(opener ? { openedBy: opener } : {}),
  });
}

/** A small file whose bytes hold a configured secret is named only, never carried. */
function withoutSecretBytes(secrets: Readonly<Record<string, string>>, file: LoggedFile): LoggedFile {
  if (file.base64 === undefined) return file;
  const text = Buffer.from(file.base64, 'base64').toString('latin1');
  const utf8 = Buffer.from(file.base64, 'base64').toString('utf8');
  const leaks = Object.values(secrets).some((v) => v !== '' && (text.includes(v) || utf8.includes(v)));
  return leaks ? { name: file.name, mimeType: file.mimeType } : file;
}

/**
 * How a typed value is kept: a `{{secret:NAME}}` reference or a configured secret's value becomes its
 * name; a secret field's value becomes a generic name. Anything else is kept as typed.
 */
export function toLoggedValue(
  secrets: Readonly<Record<string, string>>,
  typed: string,
  secretField: boolean,
): Pick<LoggedStep, 'value' | 'secret'> {
  const reference = /^\{\{secret:([A-Za-z_][A-Za-z0-9_]{0,63})\}\}$/.exec(typed)?.[1];
  if (reference !== undefined) return { secret: reference };
  const named = Object.entries(secrets).find(([, v]) => v !== '' && typed.includes(v));
  if (named) return { secret: named[0] };
  if (secretField) return { secret: 'PASSWORD' };
  return { value: typed };
}
