import type { ConsoleMessage, Page, Request, Response } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import type { PageHook, Session } from '../engine/session.js';
import { socketCheckTarget } from '../url-policy/index.js';
import { recordOnOpener, watchPopupRefusal } from './popup-refusal.js';
import { RingBuffer } from './ring-buffer.js';
import { boundedRedacted, sanitizeUrl } from './sanitize.js';
import type { NewEvent, ObservabilityLimits, ObserveSource, StoredEvent } from './types.js';

/** Per-page observability state, stored on the ManagedPage so it dies with the page. */
export class PageObservations {
  readonly buffer: RingBuffer<ObserveSource, StoredEvent & { kind: ObserveSource }>;
  private requestCount = 0;
  private readonly requests = new WeakMap<Request, TrackedRequest>();
  /** The latest requests by id, for details on demand (headers and bodies are read only when asked). */
  private readonly recent = new Map<string, Request>();

  constructor(readonly limits: ObservabilityLimits) {
    this.buffer = new RingBuffer(limits.maxEvents);
  }

  record(event: NewEvent): void {
    this.buffer.push((id) => ({ ...event, id, kind: event.source }));
  }

  /** Remembers a request worth reporting; returns false for excluded traffic. */
  trackRequest(request: Request): boolean {
    if (request.resourceType() === 'websocket' || request.serviceWorker() !== null) return false;
    // A worker's WebSocket, asked about by the URL policy's worker gate, is reported as the socket.
    const socket = socketCheckTarget(request.url());
    const url = socket
      ? socketUrl(socket, this.limits.maxStringChars)
      : sanitizeUrl(request.url(), this.limits.maxStringChars);
    if (url === undefined) return false;
    const requestId = `r${++this.requestCount}`;
    this.requests.set(request, {
      requestId,
      startedMs: Date.now(),
      url,
      ...(socket ? { socket: true } : {}),
    });
    this.recent.set(requestId, request);
    if (this.recent.size > RECENT_REQUESTS) this.recent.delete(this.recent.keys().next().value ?? '');
    return true;
  }

  /** The request with this id, while it is among the latest RECENT_REQUESTS. */
  request(requestId: string): Request | undefined {
    return this.recent.get(requestId);
  }

  tracked(request: Request): TrackedRequest | undefined {
    return this.requests.get(request);
  }
}

interface TrackedRequest {
  requestId: string;
  startedMs: number;
  url: string;
  /** A worker gate's question about a WebSocket, not a request of its own. */
  socket?: true;
}

/** A ws(s) URL, sanitized as http(s) URLs are. */
function socketUrl(raw: string, maxChars: number): string | undefined {
  const asHttp = /^wss?:/i.test(raw) ? raw.replace(/^ws/i, 'http') : raw;
  return sanitizeUrl(asHttp, maxChars)?.replace(/^http/, 'ws');
}

const OBSERVATIONS = Symbol('browsermesh.observability');
const RECENT_REQUESTS = 100;

/** The page's observations, or undefined when capture was never attached to it. */
export function observationsOf(page: ManagedPage): PageObservations | undefined {
  return page.state<PageObservations | undefined>(OBSERVATIONS, () => undefined);
}

/**
 * A page hook that attaches console, page error and network listeners before anything runs on the
 * page. Listeners copy only bounded, redacted metadata; they never keep argument objects, stacks,
 * headers or bodies, and never throw into Playwright's event loop.
 */
export function createObservabilityHook(limits: ObservabilityLimits): PageHook {
  return (managed, session) => {
    let created: PageObservations | undefined;
    managed.state(OBSERVATIONS, () => (created = new PageObservations(limits)));
    // A second hook on the same page (installed twice) must not double every event.
    if (!created) return;
    attach(managed.page, created, session);
    watchPopupRefusal(managed, session, observationsOf);
  };
}

function attach(page: Page, obs: PageObservations, session: Session): void {
  const guardListener =
    <A>(fn: (arg: A) => void) =>
    (arg: A): void => {
      try {
        fn(arg);
      } catch {
        // An observer must never break the page it watches; a lost event is the lesser harm.
      }
    };
  page.on(
    'console',
    guardListener((message: ConsoleMessage) => onConsole(obs, message)),
  );
  page.on(
    'pageerror',
    guardListener((error: Error) => onPageError(obs, error)),
  );
  page.on(
    'request',
    guardListener((request: Request) => void obs.trackRequest(request)),
  );
  page.on(
    'response',
    guardListener((response: Response) => onResponse(obs, response)),
  );
  page.on(
    'requestfailed',
    guardListener((request: Request) => onRequestFailed(obs, request, session)),
  );
}

function onConsole(obs: PageObservations, message: ConsoleMessage): void {
  const { text, truncated } = boundedRedacted(message.text(), obs.limits.maxStringChars);
  const url = sanitizeUrl(message.location().url, obs.limits.maxStringChars);
  obs.record({
    source: 'console',
    timeMs: Date.now(),
    level: message.type().slice(0, 32),
    ...(url ? { url } : {}),
    text,
    ...(truncated ? { textTruncated: true } : {}),
  });
}

/**
 * Name, message and where it was thrown: the top frame's script URL (sanitized like every URL),
 * line and column, and a stack of at most MAX_STACK_FRAMES frames, each reduced to `at name (url:line:col)`
 * with sanitized URLs (anything not http(s), file paths included, becomes `<script>`).
 */
function onPageError(obs: PageObservations, error: Error): void {
  const name = typeof error.name === 'string' && /^[\w$.]{1,64}$/.test(error.name) ? error.name : 'Error';
  const { text, truncated } = boundedRedacted(String(error.message ?? ''), obs.limits.maxStringChars);
  const frames = stackFrames(typeof error.stack === 'string' ? error.stack : '', obs.limits.maxStringChars);
  const top = frames[0];
  obs.record({
    source: 'pageError',
    timeMs: Date.now(),
    name,
    text,
    ...(truncated ? { textTruncated: true } : {}),
    ...(top?.url !== undefined ? { url: top.url } : {}),
    ...(top ? { line: top.line, column: top.column } : {}),
    ...(frames.length > 0
      ? { stack: boundedRedacted(frames.map((f) => f.text).join('\n'), obs.limits.maxStringChars).text }
      : {}),
  });
}

const MAX_STACK_FRAMES = 8;
const STACK_FRAME = /^\s*at (?:(.{1,80}?) \()?(.+?):(\d+):(\d+)\)?\s*$/;

interface StackFrame {
  url: string | undefined;
  line: number;
  column: number;
  text: string;
}

/** V8 stack lines (`at fn (url:line:col)`) with positions; other lines (the message) are skipped. */
function stackFrames(stack: string, maxUrlChars: number): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const raw of stack.split('\n')) {
    const match = STACK_FRAME.exec(raw);
    if (!match) continue;
    const url = sanitizeUrl(match[2] ?? '', maxUrlChars);
    const line = Number(match[3]);
    const column = Number(match[4]);
    const fn = match[1] !== undefined && /^[\w$.<> ]+$/.test(match[1]) ? `${match[1]} ` : '';
    frames.push({ url, line, column, text: `at ${fn}(${url ?? '<script>'}:${line}:${column})` });
    if (frames.length >= MAX_STACK_FRAMES) break;
  }
  return frames;
}

function onResponse(obs: PageObservations, response: Response): void {
  const request = response.request();
  const tracked = obs.tracked(request);
  // An allowed socket check is no network event: the socket itself is the browser's own.
  if (!tracked || tracked.socket || response.fromServiceWorker()) return;
  const now = Date.now();
  obs.record({
    source: 'network',
    timeMs: now,
    requestId: tracked.requestId,
    method: request.method().slice(0, 16),
    url: tracked.url,
    resourceType: request.resourceType(),
    status: response.status(),
    durationMs: now - tracked.startedMs,
  });
}

/**
 * Transport failures only (HTTP error statuses are ordinary network events). A request the URL
 * policy refused is reported as BLOCKED_BY_POLICY rather than Chromium's proxy error name.
 */
function onRequestFailed(obs: PageObservations, request: Request, session: Session): void {
  const tracked = obs.tracked(request);
  if (!tracked) return;
  const now = Date.now();
  const blocked = session.urlGuard?.blockedReason(request.url()) !== undefined;
  if (blocked && isMainNavigation(request)) {
    const page = request.frame().page();
    recordOnOpener(page, session, observationsOf);
  }
  obs.record({
    source: 'requestFailed',
    timeMs: now,
    requestId: tracked.requestId,
    method: request.method().slice(0, 16),
    url: tracked.url,
    resourceType: tracked.socket ? 'websocket' : request.resourceType(),
    durationMs: now - tracked.startedMs,
    failure: blocked ? 'BLOCKED_BY_POLICY' : failureClass(request.failure()?.errorText ?? ''),
  });
}

/** A navigation of a page's main frame (a worker's or service worker's request has no frame). */
function isMainNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame() === request.frame().page().mainFrame();
  } catch {
    return false;
  }
}

/** Chromium's net error name (a fixed vocabulary) and nothing else from the failure text. */
export function failureClass(errorText: string): string {
  return /\b(?:net::)?(ERR_[A-Z0-9_]{1,60})\b/.exec(errorText)?.[1] ?? 'OTHER';
}
