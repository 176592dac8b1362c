import type { ConsoleMessage, Page, Request, Response } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import type { PageHook } from '../engine/session.js';
import { RingBuffer } from './ring-buffer.js';
import { boundedRedacted, sanitizeUrl } from './sanitize.js';
import type { NewEvent, ObservabilityLimits, ObserveSource, StoredEvent } from './types.js';

/** Per-page observability state, stored on the ManagedPage so it dies with the page. */
export class PageObservations {
  readonly buffer: RingBuffer<ObserveSource, StoredEvent & { kind: ObserveSource }>;
  private requestCount = 0;
  private readonly requests = new WeakMap<Request, { requestId: string; startedMs: number; url: string }>();
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
    const url = sanitizeUrl(request.url(), this.limits.maxStringChars);
    if (url === undefined) return false;
    const requestId = `r${++this.requestCount}`;
    this.requests.set(request, { requestId, startedMs: Date.now(), url });
    this.recent.set(requestId, request);
    if (this.recent.size > RECENT_REQUESTS) this.recent.delete(this.recent.keys().next().value ?? '');
    return true;
  }

  /** The request with this id, while it is among the latest RECENT_REQUESTS. */
  request(requestId: string): Request | undefined {
    return this.recent.get(requestId);
  }

  tracked(request: Request): { requestId: string; startedMs: number; url: string } | undefined {
    return this.requests.get(request);
  }
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
  return (managed) => {
    let created: PageObservations | undefined;
    managed.state(OBSERVATIONS, () => (created = new PageObservations(limits)));
    // A second hook on the same page (installed twice) must not double every event.
    if (created) attach(managed.page, created);
  };
}

function attach(page: Page, obs: PageObservations): void {
  const guard =
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
    guard((message: ConsoleMessage) => onConsole(obs, message)),
  );
  page.on(
    'pageerror',
    guard((error: Error) => onPageError(obs, error)),
  );
  page.on(
    'request',
    guard((request: Request) => void obs.trackRequest(request)),
  );
  page.on(
    'response',
    guard((response: Response) => onResponse(obs, response)),
  );
  page.on(
    'requestfailed',
    guard((request: Request) => onRequestFailed(obs, request)),
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

/** Name and message only: the stack can quote source and URLs, so it is never read. */
function onPageError(obs: PageObservations, error: Error): void {
  const name = typeof error.name === 'string' && /^[\w$.]{1,64}$/.test(error.name) ? error.name : 'Error';
  const { text, truncated } = boundedRedacted(String(error.message ?? ''), obs.limits.maxStringChars);
  obs.record({
    source: 'pageError',
    timeMs: Date.now(),
    name,
    text,
    ...(truncated ? { textTruncated: true } : {}),
  });
}

function onResponse(obs: PageObservations, response: Response): void {
  const request = response.request();
  const tracked = obs.tracked(request);
  if (!tracked || response.fromServiceWorker()) return;
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

/** Transport failures only (HTTP error statuses are ordinary network events). */
function onRequestFailed(obs: PageObservations, request: Request): void {
  const tracked = obs.tracked(request);
  if (!tracked) return;
  const now = Date.now();
  obs.record({
    source: 'requestFailed',
    timeMs: now,
    requestId: tracked.requestId,
    method: request.method().slice(0, 16),
    url: tracked.url,
    resourceType: request.resourceType(),
    durationMs: now - tracked.startedMs,
    failure: failureClass(request.failure()?.errorText ?? ''),
  });
}

/** Chromium's net error name (a fixed vocabulary) and nothing else from the failure text. */
export function failureClass(errorText: string): string {
  return /\b(?:net::)?(ERR_[A-Z0-9_]{1,60})\b/.exec(errorText)?.[1] ?? 'OTHER';
}
