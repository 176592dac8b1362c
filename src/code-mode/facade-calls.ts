import type { CookieView } from '../operations/state/cookies.js';
import type { AbortReason } from '../operations/state/routes.js';
import type { ElementActionKind } from '../operations/journal/element-actions.js';

/**
 * The typed calls a code-mode script can make to the host. The sandbox turns every `page.*` /
 * `locator.*` member into exactly one `FacadeCall`; the host validates it (see facade-validate.ts)
 * before a backend ever sees it, because the script that produced it is untrusted.
 *
 * Everything here is plain JSON so it can cross the WebAssembly boundary as a string.
 */

/** A RegExp from the script, as its source and flags (compiled again on the host side). */
export interface TextPattern {
  source: string;
  flags: string;
}

/** Where a locator chain starts. Mirrors Playwright's `page.locator()` / `page.getBy*()` family. */
export type SelectorBase =
  /** A Playwright selector string (CSS, or an engine prefix such as `text=` the host accepts). */
  | { kind: 'css'; selector: string }
  | ({ kind: 'role'; role: string; name?: string; exact?: boolean } & RoleStateOptions)
  | { kind: 'text'; text: string | TextPattern; exact?: boolean }
  | { kind: 'label'; text: string | TextPattern; exact?: boolean }
  | { kind: 'placeholder'; text: string | TextPattern; exact?: boolean }
  | { kind: 'altText'; text: string | TextPattern; exact?: boolean }
  | { kind: 'title'; text: string | TextPattern; exact?: boolean }
  | { kind: 'testId'; testId: string }
  /** A ref from the latest `page.snapshot()`, always normalized to the `@e<N>` form. */
  | { kind: 'ref'; ref: string };

/** The optional ARIA state filters of Playwright's `getByRole`. */
export interface RoleStateOptions {
  checked?: boolean;
  disabled?: boolean;
  expanded?: boolean;
  pressed?: boolean;
  selected?: boolean;
  includeHidden?: boolean;
  /** Heading level, 1-6. */
  level?: number;
}

/** One refinement of a locator chain, applied in order after the base. */
export type SelectorStep =
  /** `nth(i)`; `first()` is index 0 and `last()` is index -1. */
  | { kind: 'nth'; index: number }
  /** `filter({ hasText, hasNotText, visible })`: substring matches, case-insensitive as in Playwright. */
  | { kind: 'filter'; hasText?: string; hasNotText?: string; visible?: boolean }
  /** `locator.locator(css)` / `locator.getByRole(...)`: descendants of the current matches. */
  | { kind: 'within'; base: SelectorBase };

/** A serializable Playwright-style locator chain; the host resolves it against the live page. */
export interface ElementSelector {
  base: SelectorBase;
  steps: SelectorStep[];
}

export type LoadState = 'load' | 'domcontentloaded' | 'networkidle';
export type ElementState = 'attached' | 'detached' | 'visible' | 'hidden';
export type MouseButton = 'left' | 'right' | 'middle';
export type KeyModifier = 'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift';

/**
 * Playwright's per-call `timeout` option. It can only shorten a call: the host still bounds every
 * call by the script's own deadline.
 */
export interface Timed {
  timeoutMs?: number;
}

export type Targeted = { target: ElementSelector } & Timed;

/** Reads of one element (or of all matches, for the `all*` and `count` ops). */
export type ElementReadOp =
  | 'textContent'
  | 'innerText'
  | 'inputValue'
  | 'isVisible'
  | 'isChecked'
  | 'isEnabled'
  | 'count'
  | 'allTextContents'
  | 'allInnerTexts';

/** Element actions that take no argument besides the target: the element-action table's rows. */
export type SimpleActionOp = ElementActionKind;

/*
 * The calls of the ops written so far, named for their parsers' return types. `FacadeCall` (the
 * union of every op's call) is read from the parsers (FACADE_OPS in facade-parse.ts): an op added
 * later may declare its call type beside its parser instead of here.
 */

// Navigation
export type GotoCall = { op: 'goto'; url: string; waitUntil?: LoadState } & Timed;
export type HistoryCall<Op extends 'goBack' | 'goForward' | 'reload'> = {
  op: Op;
  waitUntil?: LoadState;
} & Timed;
// Element actions
export type ClickCall = {
  op: 'click';
  button?: MouseButton;
  clickCount?: number;
  modifiers?: KeyModifier[];
} & Targeted;
export type FillCall = { op: 'fill'; value: string } & Targeted;
export type TypeCall = { op: 'type'; text: string; delayMs?: number } & Targeted;
export type PressCall = { op: 'press'; key: string; delayMs?: number } & Targeted;
export type SelectOptionCall = { op: 'selectOption'; values: string[] } & Targeted;
export type SimpleActionCall<Op extends SimpleActionOp> = { op: Op } & Targeted;
export type DragToCall = {
  op: 'dragTo';
  to: ElementSelector;
  position?: 'before' | 'after' | { x: number; y: number };
} & Targeted;
// Element reads
export type ElementReadCall<Op extends ElementReadOp> = { op: Op } & Targeted;
export type GetAttributeCall = { op: 'getAttribute'; name: string } & Targeted;
// Page reads
export type TitleCall = { op: 'title' };
export type UrlCall = { op: 'url' };
/** With a target: only that element's subtree (`locator.snapshot()`). */
export type SnapshotCall = {
  op: 'snapshot';
  interactiveOnly?: boolean;
  maxChars?: number;
  target?: ElementSelector;
};
// Waiting
export type WaitForSelectorCall = { op: 'waitForSelector'; state: ElementState } & Targeted;
export type WaitForURLCall = { op: 'waitForURL'; url: string | TextPattern; waitUntil?: LoadState } & Timed;
export type WaitForLoadStateCall = { op: 'waitForLoadState'; state: LoadState } & Timed;
export type WaitForTimeoutCall = { op: 'waitForTimeout'; ms: number };
// Keyboard (focused element) and wheel scrolling
export type KeyboardPressCall = { op: 'keyboardPress'; key: string; delayMs?: number };
export type KeyboardTypeCall = { op: 'keyboardType'; text: string; delayMs?: number };
export type ScrollCall = { op: 'scroll'; target?: ElementSelector; deltaX: number; deltaY: number };
// Pointer by coordinates, viewport and uploads
export type MouseCall = {
  op: 'mouse';
  action: 'move' | 'click' | 'down' | 'up';
  x?: number;
  y?: number;
  button?: MouseButton;
  clickCount?: number;
  steps?: number;
};
export type SetViewportSizeCall = { op: 'setViewportSize'; width: number; height: number };
export type SetInputFilesCall = { op: 'setInputFiles'; files: UploadFileArg[] } & Targeted;
// Pixels: the image goes to the run's result, the script gets its description
export type ScreenshotCall = {
  op: 'screenshot';
  target?: ElementSelector;
  fullPage?: boolean;
  format: ShotFormat;
} & Timed;
export type PdfCall = { op: 'pdf'; landscape?: boolean; format?: 'A4' | 'Letter' };
// Session state: routes and cookies (the session's, whichever page), media of this page
export type RouteCall = { op: 'route'; url: string; action: RouteAction };
/** Without url: every route (unrouteAll). */
export type UnrouteCall = { op: 'unroute'; url?: string };
export type CookiesCall = { op: 'cookies'; urls: string[] };
export type AddCookiesCall = { op: 'addCookies'; cookies: CookieArg[] };
export type ClearCookiesCall = { op: 'clearCookies'; name?: string; domain?: string; path?: string };
export type EmulateMediaCall = { op: 'emulateMedia' } & MediaArg;
/** Without text: all of the element's text (Playwright); with it: that occurrence of it. */
export type SelectTextCall = { op: 'selectText'; text?: string; occurrence?: number } & Targeted;

/**
 * What a screenshot resolves with; the image itself rides on the run's result (MCP image content,
 * or the AgentBrowser tool's images), never through the script. `image` is its 1-based position there.
 */
export interface ShotResult {
  image: number;
  width: number;
  height: number;
  bytes: number;
  mimeType: 'image/png' | 'image/jpeg';
  scale?: number;
  clipped?: boolean;
}

/** The saved PDF as a download note (its bytes stay in the session files). */
export interface PdfResult {
  downloadId: string;
  name: string;
  bytes: number;
  mimeType: string | null;
  state: string;
}

/** As Playwright's Cookie, plus `redacted: true` where a credential-like value was left out. */
export type CookiesResult = CookieView[];

/**
 * What a route answers: recorded from a handler function the sandbox ran once at registration, or
 * given as data. Never a callback per request (the handler cannot see the request).
 */
export type RouteAction =
  | {
      kind: 'fulfill';
      status?: number;
      headers?: Record<string, string>;
      contentType?: string;
      /** UTF-8 text (a `json` option arrives here already serialized). */
      body?: string;
    }
  | { kind: 'abort'; reason: RouteAbortReason }
  | { kind: 'continue'; headers?: Record<string, string> };

/** The error reasons Playwright's route.abort takes (the engine's list). */
export type RouteAbortReason = AbortReason;

/** One cookie of context.addCookies: `url`, or `domain` (+ `path`), as Playwright takes them. */
export interface CookieArg {
  name: string;
  value: string;
  url?: string;
  domain?: string;
  path?: string;
  expires?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** page.emulateMedia's options. */
export interface MediaArg {
  colorScheme?: 'light' | 'dark' | 'no-preference';
  reducedMotion?: 'reduce' | 'no-preference';
  forcedColors?: 'active' | 'none';
  media?: 'screen' | 'print';
}

/** `type` and `quality` of Playwright's screenshot options (quality only with jpeg). */
export interface ShotFormat {
  type: 'png' | 'jpeg';
  quality?: number;
}

/** A file for setInputFiles: a server path (under the upload roots) or base64 content. */
export type UploadFileArg = { path: string } | { name: string; mimeType?: string; base64: string };
