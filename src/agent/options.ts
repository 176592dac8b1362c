import { isAbsolute, resolve } from 'node:path';
import { invalidArgument } from '../errors.js';
import type { Logger } from '../engine/logger.js';
import type { AnyTool } from '../tools/define.js';
import { ALL_TOOLS, type AgentViewToolName } from '../tools/index.js';

/**
 * The tool names `AgentBrowser` has published so far, in the order it lists them: seed 000's 16, then
 * code mode, files in and out and the mouse by coordinates (docs/files-and-pointer.md), selecting text
 * by content, and the 2 recording tools. Frozen (the order is the API): a tool added later comes after
 * them, read from its definition's `agent` view; an AgentBrowser-only one (src/agent/tools/) is added here.
 */
const LISTED_TOOL_NAMES = [
  'browser_goto',
  'browser_snapshot',
  'browser_click',
  'browser_type',
  'browser_press',
  'browser_select',
  'browser_scroll',
  'browser_screenshot',
  'browser_close',
  'browser_hover',
  'browser_back',
  'browser_dialog',
  'browser_wait',
  'browser_tabs',
  'browser_drag',
  'browser_evaluate',
  'browser_run',
  'browser_upload',
  'browser_files',
  'browser_mouse',
  'browser_select_text',
  'browser_record',
  'browser_record_caption',
] as const;

/** Seed 000's 16 tools: what `getTools()` gives by default (with the recording tools when configured). */
export const SEED_TOOL_NAMES: readonly BrowserToolName[] = LISTED_TOOL_NAMES.slice(0, 16);

/** The recording tools: published whenever `recording` is configured, as seed 000 says. */
export const RECORDING_TOOL_NAMES: readonly BrowserToolName[] = ['browser_record', 'browser_record_caption'];

/** A tool name AgentBrowser can publish: the listed ones and every `agent` view of the tool table. */
export type BrowserToolName = (typeof LISTED_TOOL_NAMES)[number] | AgentViewToolName;

/**
 * Every tool name `AgentBrowser` can publish, in the order it lists them (and what `excludeTools`
 * accepts): the listed names, then the views of the tool table (src/tools/index.ts) not listed yet,
 * in the table's order.
 */
export const BROWSER_TOOL_NAMES: readonly BrowserToolName[] = browserToolNames(ALL_TOOLS);

/** The listed names, then the `agent` views of `tools` not listed yet, in their order. */
export function browserToolNames(tools: readonly AnyTool[]): BrowserToolName[] {
  const listed: readonly string[] = LISTED_TOOL_NAMES;
  const views = tools.flatMap((tool) => (tool.agent ? [tool.agent.name as BrowserToolName] : []));
  return [
    ...LISTED_TOOL_NAMES,
    ...views.filter((name, i) => !listed.includes(name) && views.indexOf(name) === i),
  ];
}

export type BrowserStatus = 'pending' | 'launching' | 'ready' | 'error' | 'closing' | 'closed';

export type BrowserScope = 'shared' | 'thread';

export type CdpUrlProvider = string | (() => string | Promise<string>);

/** Screencast defaults (CDP `Page.startScreencast` parameters). */
export interface ScreencastOptions {
  /** Image format (default 'jpeg'). */
  format?: 'jpeg' | 'png';
  /** JPEG quality 0-100 (default 80). */
  quality?: number;
  /** Largest frame width in pixels (default 1280). */
  maxWidth?: number;
  /** Largest frame height in pixels (default 720). */
  maxHeight?: number;
  /** Deliver every Nth frame (default 1). */
  everyNthFrame?: number;
}

/**
 * Alpha: adds `browser_record` and `browser_record_caption`. Videos are MP4 from Chromium's screen
 * recorder, or Motion-JPEG AVI from the frames encoder where the browser has none (results say which).
 */
export interface BrowserRecordingOptions {
  /** Where recordings are written; every output path is confined to this directory. */
  outputDir: string;
  /** Default longest recording in ms (default 30,000; at most 600,000). */
  maxDurationMs?: number;
  /** Default largest frame width in pixels (default 1024). */
  maxWidth?: number;
  /** Default largest frame height in pixels (default 720). */
  maxHeight?: number;
}

/**
 * Called with the browser after it is ready, or before it closes. `B` is the AgentBrowser class,
 * bound in agent-browser.ts (`BrowserLifecycleHook`), so this file never imports it (no cycle).
 */
export type LifecycleHookOf<B> = (args: { browser: B }) => void | Promise<void>;

/** Called with the browser after it is ready, or before it closes. */
export type BrowserLifecycleHook = LifecycleHookOf<AgentBrowserClass>;

/** `new AgentBrowser(options)`: seed 000's constructor options, plus `executablePath` and `logger`. */
export type AgentBrowserOptions = AgentBrowserOptionsOf<AgentBrowserClass>;

/**
 * The AgentBrowser class as the hooks see it: declared by agent-browser.ts through declaration
 * merging, so options.ts names it without importing it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by agent-browser.ts
export interface AgentBrowserClass {}

/** The options with the hooks' browser type left open (see AgentBrowserClass). */
export interface AgentBrowserOptionsOf<B> {
  /** Run Chromium without a window (default true). */
  headless?: boolean;
  /** Page viewport (default 1280x720); 'window' follows the real window instead of emulating a size. */
  viewport?: { width: number; height: number } | 'window';
  /** Default deadline of each browser operation in ms, queue wait included (default 30,000). */
  timeout?: number;
  /** Connect to an existing browser instead of launching one; a function is resolved at each launch. */
  cdpUrl?: CdpUrlProvider;
  /** 'thread' (default without cdpUrl): one isolated session per thread; 'shared' (default with cdpUrl): one for all. */
  scope?: BrowserScope;
  /** Called once the browser is ready (after each launch). */
  onLaunch?: LifecycleHookOf<B>;
  /** Called before the browser is closed. */
  onClose?: LifecycleHookOf<B>;
  /** Defaults for `startScreencast()`. */
  screencast?: ScreencastOptions;
  /** Alpha: enables the recording tools. */
  recording?: BrowserRecordingOptions;
  /** Tool names left out of `getTools()`. */
  excludeTools?: BrowserToolName[];
  /**
   * Tools beyond seed 000's 16 to publish (each description rides along on every model call, so
   * the default is none): names such as `browser_run` (code mode), `browser_upload`, `browser_files`,
   * `browser_mouse`, `browser_select_text`, or `'all'` for every tool AgentBrowser has.
   *
   * @example
   * new AgentBrowser({ extraTools: ['browser_run', 'browser_upload'] });
   */
  extraTools?: BrowserToolName[] | 'all';
  /**
   * Absolute folders `browser_upload` may read `{path}` files from (symlinks resolved; default none:
   * only uploads by content). A page can talk an agent into uploading `~/.ssh`: list only what it may send.
   */
  uploadRoots?: string[];
  /** Where each session's downloads are kept while it lives (`<dataDir>/sessions/<id>/`; default `~/.browsermesh`). */
  dataDir?: string;
  /** Chromium to launch (default: Playwright's browsers, then the system Chromium). Ignored with cdpUrl. */
  executablePath?: string;
  /** Structured logs (default: silent). Never receives page content. */
  logger?: Logger;
  /**
   * Serve the live dashboard on a loopback port (its own random token) once a tool needs it: what
   * `browser_request_human` (in `extraTools`) links a person to (docs/human-in-the-loop.md).
   */
  dashboard?: boolean;
  /**
   * Named secrets: the agent types `{{secret:NAME}}` (browser_type text) and the value reaches the
   * page without ever being in the model's context; every tool result and error, and
   * `getThreadState()`, has the values replaced by their reference again.
   *
   * @example
   * new AgentBrowser({ secrets: { SHOP_PASSWORD: process.env.SHOP_PASSWORD ?? '' } });
   */
  secrets?: Record<string, string>;
  /**
   * Let reads return the value of password and one-time-code inputs (code mode's inputValue and
   * value attribute). Off by default: a prompt-injected page script must not get them read out.
   */
  readSecretInputs?: boolean;
}

export interface ResolvedRecording {
  outputDir: string;
  maxDurationMs: number;
  maxWidth: number;
  maxHeight: number;
}

export interface ResolvedOptions {
  headless: boolean;
  viewport: { width: number; height: number } | 'window';
  timeoutMs: number;
  cdpUrl: CdpUrlProvider | undefined;
  scope: BrowserScope;
  screencast: Required<ScreencastOptions>;
  recording: ResolvedRecording | undefined;
  excludeTools: ReadonlySet<BrowserToolName>;
  /** What `getTools()` publishes before `excludeTools`: seed 000's, the recording tools, `extraTools`. */
  publishedTools: ReadonlySet<BrowserToolName>;
  executablePath: string;
  uploadRoots: string[];
  dataDir: string | undefined;
  secrets: Readonly<Record<string, string>>;
  readSecretInputs: boolean;
  dashboard: boolean;
}

export const MAX_RECORDING_MS = 600_000;

/** Validates the constructor options once; a bad value throws INVALID_ARGUMENT naming the option. */
export function resolveOptions(options: AgentBrowserOptions): ResolvedOptions {
  const timeoutMs = options.timeout ?? 30_000;
  checkInt('timeout', timeoutMs, 100, 600_000);
  const viewport = options.viewport ?? { width: 1280, height: 720 };
  if (viewport !== 'window') {
    checkInt('viewport.width', viewport.width, 1, 10_000);
    checkInt('viewport.height', viewport.height, 1, 10_000);
  }
  if (options.scope !== undefined && options.scope !== 'shared' && options.scope !== 'thread') {
    throw invalidArgument('scope', "must be 'shared' or 'thread'");
  }
  if (typeof options.cdpUrl === 'string') checkCdpUrl(options.cdpUrl);
  for (const name of options.excludeTools ?? []) {
    if (!(BROWSER_TOOL_NAMES as readonly string[]).includes(name))
      throw invalidArgument('excludeTools', `unknown tool ${String(name).slice(0, 40)}`);
  }
  const extra = options.extraTools ?? [];
  if (extra !== 'all' && !Array.isArray(extra))
    throw invalidArgument('extraTools', "must be a list of tool names or 'all'");
  for (const name of extra === 'all' ? [] : extra) {
    if (!(BROWSER_TOOL_NAMES as readonly string[]).includes(name))
      throw invalidArgument('extraTools', `unknown tool ${String(name).slice(0, 40)}`);
  }
  return {
    headless: options.headless ?? true,
    viewport,
    timeoutMs,
    cdpUrl: options.cdpUrl,
    scope: options.scope ?? (options.cdpUrl === undefined ? 'thread' : 'shared'),
    screencast: resolveScreencast(options.screencast ?? {}, 'screencast'),
    recording: options.recording ? resolveRecording(options.recording) : undefined,
    excludeTools: new Set(options.excludeTools ?? []),
    publishedTools: new Set(
      extra === 'all' ? BROWSER_TOOL_NAMES : [...SEED_TOOL_NAMES, ...RECORDING_TOOL_NAMES, ...extra],
    ),
    secrets: resolveSecrets(options.secrets),
    readSecretInputs: options.readSecretInputs ?? false,
    dashboard: options.dashboard === true,
    executablePath: options.executablePath ?? '',
    uploadRoots: (options.uploadRoots ?? []).map((root, i) => absoluteDir(`uploadRoots.${i}`, root)),
    dataDir: options.dataDir === undefined ? undefined : absoluteDir('dataDir', options.dataDir),
  };
}

export function resolveScreencast(options: ScreencastOptions, field: string): Required<ScreencastOptions> {
  const out = {
    format: options.format ?? 'jpeg',
    quality: options.quality ?? 80,
    maxWidth: options.maxWidth ?? 1280,
    maxHeight: options.maxHeight ?? 720,
    everyNthFrame: options.everyNthFrame ?? 1,
  };
  if (out.format !== 'jpeg' && out.format !== 'png')
    throw invalidArgument(`${field}.format`, "must be 'jpeg' or 'png'");
  checkInt(`${field}.quality`, out.quality, 0, 100);
  checkInt(`${field}.maxWidth`, out.maxWidth, 16, 8192);
  checkInt(`${field}.maxHeight`, out.maxHeight, 16, 8192);
  checkInt(`${field}.everyNthFrame`, out.everyNthFrame, 1, 60);
  return out;
}

function resolveRecording(options: BrowserRecordingOptions): ResolvedRecording {
  if (typeof options.outputDir !== 'string' || options.outputDir.trim() === '') {
    throw invalidArgument('recording.outputDir', 'must name a directory');
  }
  const out = {
    outputDir: isAbsolute(options.outputDir) ? options.outputDir : resolve(options.outputDir),
    maxDurationMs: options.maxDurationMs ?? 30_000,
    maxWidth: options.maxWidth ?? 1024,
    maxHeight: options.maxHeight ?? 720,
  };
  checkInt('recording.maxDurationMs', out.maxDurationMs, 100, MAX_RECORDING_MS);
  checkInt('recording.maxWidth', out.maxWidth, 16, 8192);
  checkInt('recording.maxHeight', out.maxHeight, 16, 8192);
  return out;
}

/** ws(s):// or http(s):// only; the URL itself is never echoed (it may carry a token). */
export function checkCdpUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument('cdpUrl', 'must be a ws(s):// or http(s):// URL');
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(parsed.protocol))
    throw invalidArgument('cdpUrl', 'must be a ws(s):// or http(s):// URL');
  return url;
}

/** An absolute folder (never echoed: it names the user's disk). */
function absoluteDir(field: string, value: unknown): string {
  if (typeof value !== 'string' || !isAbsolute(value))
    throw invalidArgument(field, 'must be an absolute path');
  return resolve(value);
}

function checkInt(field: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidArgument(field, `must be an integer from ${min} to ${max}`);
  }
}

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** A copy of the secrets, checked: names as `{{secret:NAME}}` accepts them, string values. */
function resolveSecrets(secrets: Record<string, string> | undefined): Readonly<Record<string, string>> {
  if (secrets === undefined) return {};
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets))
    throw invalidArgument('secrets', 'must be an object of NAME: value');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(secrets)) {
    // Neither the name nor the value is echoed: the field path says which option is wrong.
    if (!SECRET_NAME.test(name) || typeof value !== 'string')
      throw invalidArgument('secrets', 'names must match [A-Za-z_][A-Za-z0-9_]* and values be strings');
    out[name] = value;
  }
  return Object.freeze(out);
}
