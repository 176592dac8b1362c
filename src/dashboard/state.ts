import { createHash } from 'node:crypto';
import type { OperationRecord } from '../engine/activity.js';
import type { ManagedPage } from '../engine/page.js';
import type { BrowserMesh } from '../engine/runtime.js';
import type { Session } from '../engine/session.js';
import { recordedPageIds } from '../engine/media/session-recordings.js';
import { isTracing } from '../engine/tracing.js';
import { observationsOf } from '../observability/index.js';
import { derivedSecretsOf } from '../redaction/derived.js';
import { redactSecrets, type Secrets } from '../secrets.js';
import { everySecret } from '../config/principal-secrets.js';
import { boundText } from '../text.js';
import { sanitizeUrl } from '../observability/sanitize.js';
import type { ObserveSource } from '../observability/types.js';

/** What the dashboard shows of one observe event: kind, where and a console error's text; never bodies. */
export interface DashboardEvent {
  source: ObserveSource;
  time: string;
  level?: string;
  name?: string;
  /** A console error's or page error's message, redacted as in browser_observe (and --secrets values). */
  text?: string;
  url?: string;
  status?: number;
  failure?: string;
}

export interface DashboardPage {
  pageId: string;
  url: string;
  title: string;
  isDefault: boolean;
  events: DashboardEvent[];
}

export interface DashboardSession {
  sessionId: string;
  name: string | null;
  labels: Record<string, string>;
  state: string;
  provider: string | null;
  /** A short digest of the owning HTTP client (never its MCP session id, which would let one act as it). */
  owner: string | null;
  createdAt: string;
  queueDepth: number;
  takenOver: boolean;
  /** The agent asked for a person (browser_request_human): why, and since when. */
  needsYou: { reason: string; since: string; waitedMs: number; pageId: string } | null;
  /** A Playwright trace is being recorded. */
  tracing: boolean;
  /** Pages with a screen recording running. */
  recording: string[];
  pages: DashboardPage[];
  operations: OperationRecord[];
}

export interface DashboardState {
  generatedAt: string;
  takeoverEnabled: boolean;
  sessions: DashboardSession[];
}

const NO_SECRETS: Secrets = {};
const OPERATIONS_SHOWN = 20;
const EVENTS_SHOWN = 10;
const MAX_EVENT_TEXT_CHARS = 300;
const MAX_URL_CHARS = 300;
const MAX_TITLE_CHARS = 200;
/** A page busy navigating may not answer title() at once; the dashboard must not wait for it. */
const TITLE_WAIT_MS = 300;

/**
 * The whole picture a dashboard renders, built from the runtime: sessions (closed ones are left
 * out), their pages, recent operations and observe events. URLs go through the same redaction as
 * observability (no credentials, fragments or secret-looking query values).
 */
export async function buildDashboardState(
  mesh: BrowserMesh,
  options: {
    takeoverEnabled: boolean;
    isTakenOver: (sessionId: string) => boolean;
    /** The session's waiting request for a person, if any. */
    needsYou?: (sessionId: string) => { reason: string; since: number; pageId: string } | undefined;
    /** The viewer's share: sessions it may not see are left out entirely. */
    includes?: (sessionId: string) => boolean;
    /** The operator's view (every session): redacted by every principal's secrets, not the owner's only. */
    operator?: boolean;
  },
): Promise<DashboardState> {
  const sessions = mesh
    .listSessions()
    .filter((info) => info.state !== 'closed' && (options.includes?.(info.sessionId) ?? true))
    .map((info) => mesh.getSession(info.sessionId));
  return {
    generatedAt: new Date().toISOString(),
    takeoverEnabled: options.takeoverEnabled,
    sessions: await Promise.all(
      sessions.map((session) =>
        toDashboardSession(
          mesh,
          session,
          options.isTakenOver(session.id),
          options.operator === true,
          options.needsYou?.(session.id),
        ),
      ),
    ),
  };
}

async function toDashboardSession(
  mesh: BrowserMesh,
  session: Session,
  takenOver: boolean,
  operator: boolean,
  needsYou?: { reason: string; since: number; pageId: string },
): Promise<DashboardSession> {
  const info = session.toInfo();
  const owner = mesh.ownerOf(session.id);
  return {
    sessionId: session.id,
    name: info.name,
    labels: info.metadata,
    state: info.state,
    provider: info.placement?.provider ?? null,
    owner: owner === undefined ? null : createHash('sha256').update(owner).digest('hex').slice(0, 8),
    createdAt: info.createdAt,
    queueDepth: session.queue.size,
    takenOver,
    needsYou: needsYou
      ? {
          reason: redacted(mesh, session, operator, needsYou.reason),
          since: new Date(needsYou.since).toISOString(),
          waitedMs: Date.now() - needsYou.since,
          pageId: needsYou.pageId,
        }
      : null,
    tracing: isTracing(session),
    recording: recordedPageIds(session),
    pages: await Promise.all(
      session
        .listPages()
        .map((page) => toDashboardPage(page, (text) => redacted(mesh, session, operator, text))),
    ),
    operations: mesh.activity.recent(session.id).slice(-OPERATIONS_SHOWN),
  };
}

async function toDashboardPage(page: ManagedPage, redact: (text: string) => string): Promise<DashboardPage> {
  return {
    pageId: page.id,
    url: displayUrl(page.page.url()),
    title: redact((await titleOf(page)).slice(0, MAX_TITLE_CHARS)),
    isDefault: page.isDefault,
    events: recentEvents(page, redact),
  };
}

/**
 * The stored text is already pattern-redacted at capture; the session's secrets and the values a
 * page kept of them are replaced here, as invokeTool does for every tool result. A principal's view
 * is redacted by its own secrets only (another's would tell it which strings are secret elsewhere).
 */
function redacted(mesh: BrowserMesh, session: Session, operator: boolean, text: string): string {
  const own = redactSecrets(session.secrets, text, derivedSecretsOf(session.id));
  return operator ? redactSecrets(NO_SECRETS, own, everySecret(mesh.config)) : own;
}

export function displayUrl(raw: string): string {
  if (raw === '' || raw.startsWith('about:')) return raw;
  return sanitizeUrl(raw, MAX_URL_CHARS) ?? '(not shown)';
}

async function titleOf(page: ManagedPage): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(''), TITLE_WAIT_MS);
  });
  try {
    return await Promise.race([page.page.title().catch(() => ''), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Console errors, page errors, failed requests and 4xx/5xx responses, newest last. */
function recentEvents(page: ManagedPage, redact: (text: string) => string): DashboardEvent[] {
  const obs = observationsOf(page);
  if (!obs) return [];
  const picked: DashboardEvent[] = [];
  for (const source of ['console', 'pageError', 'network', 'requestFailed'] as const) {
    const read = obs.buffer.read(source, 0, obs.limits.maxEvents);
    for (const event of read.events) {
      if (source === 'console' && event.level !== 'error') continue;
      if (source === 'network' && (event.status ?? 0) < 400) continue;
      picked.push({
        source,
        time: new Date(event.timeMs).toISOString(),
        ...(event.level !== undefined ? { level: event.level } : {}),
        ...(event.name !== undefined ? { name: event.name } : {}),
        ...(event.text !== undefined ? { text: eventText(event.text, redact) } : {}),
        ...(event.url !== undefined ? { url: event.url } : {}),
        ...(event.status !== undefined ? { status: event.status } : {}),
        ...(event.failure !== undefined ? { failure: event.failure } : {}),
      });
    }
  }
  return picked.sort((a, b) => a.time.localeCompare(b.time)).slice(-EVENTS_SHOWN);
}

function eventText(text: string, redact: (text: string) => string): string {
  return boundText(redact(text), MAX_EVENT_TEXT_CHARS, Number.MAX_SAFE_INTEGER).text;
}
