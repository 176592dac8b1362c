import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { Session } from './session.js';
import type { SessionFileInfo } from './files/session-files.js';
import { readFile, writeFile } from 'node:fs/promises';
import type { Secrets } from '../secrets.js';
import { derivedSecretsOf } from '../redaction/derived.js';
import { scrubTraceEntry } from '../redaction/trace-scrub.js';
import { typedSecretsOf } from '../redaction/typed-secrets.js';
import { readZipEntries, writeZipEntries } from './files/zip-entries.js';

export interface TraceOptions {
  /** Screenshots on every action and a filmstrip (default true). */
  screenshots?: boolean | undefined;
  /** DOM snapshots for the trace viewer's before/after panes (default true). */
  snapshots?: boolean | undefined;
  /** The `--secrets` values scrubbed from the saved trace (with what the session typed into secret fields). */
  secrets?: Secrets | undefined;
}

/**
 * A session's Playwright trace (`context.tracing`: snapshots, screenshots, network, console). It is
 * written into the session's own folder when stopped — on demand or when the session closes — so it
 * counts against the same quotas as downloads. While it runs, every operation on the session's queue
 * is a named group (`tool · operationId`), so the trace viewer reads as the agent's steps.
 */
export class SessionTrace {
  private active = false;
  private startedAt: Date | undefined;
  private unhook: (() => void) | undefined;
  private secrets: Secrets = {};

  constructor(private readonly session: Session) {}

  get isActive(): boolean {
    return this.active;
  }

  get since(): string | null {
    return this.startedAt?.toISOString() ?? null;
  }

  async start(options: TraceOptions = {}): Promise<void> {
    if (this.active) {
      throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'action: this session is already tracing', {
        details: { field: 'action' },
        recoveryHint: 'Stop the running trace first.',
      });
    }
    if (this.session.sharesContext) {
      // Playwright traces a whole context: in a shared profile that would record other sessions too.
      throw new BrowserMeshError(
        ErrorCodes.NOT_SUPPORTED,
        'Tracing is not available while sessions share a persistent profile (--user-data-dir)',
        { details: { field: 'action', reason: 'shared_profile' } },
      );
    }
    await this.session.browserContext.tracing.start({
      screenshots: options.screenshots ?? true,
      snapshots: options.snapshots ?? true,
      title: `BrowserMesh session ${this.session.id}`,
    });
    this.active = true;
    this.secrets = options.secrets ?? this.session.secrets;
    this.startedAt = new Date();
    // A session closed while tracing still gets its trace saved, before its context goes away.
    this.unhook = this.session.onBeforeClose(async () => {
      await this.stop();
    });
  }

  /** Stops tracing and stores the trace zip in the session's folder; LIMIT_EXCEEDED over a quota. */
  async stop(): Promise<SessionFileInfo> {
    if (!this.active) {
      throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'action: this session is not tracing', {
        details: { field: 'action' },
        recoveryHint: 'Start a trace first.',
      });
    }
    this.active = false;
    this.unhook?.();
    const stamp = (this.startedAt ?? new Date()).toISOString().replace(/[:.]/g, '-');
    const files = this.session.files;
    const { fileId, path } = await files.allocate('trace', `trace-${this.session.id}-${stamp}.zip`);
    try {
      await this.session.browserContext.tracing.stop({ path });
      await this.scrub(path);
    } catch (error) {
      await files.abort(fileId).catch(() => undefined);
      throw error;
    }
    return files.commit(fileId, { mimeType: 'application/zip' });
  }

  /**
   * Rewrites the saved zip without the session's secrets, typed secret-field values, credential
   * headers and cookies (src/redaction/trace-scrub.ts). A trace that cannot be read is not offered.
   */
  private async scrub(path: string): Promise<void> {
    const id = this.session.id;
    const derived = [
      ...derivedSecretsOf(id),
      ...typedSecretsOf(id).map((value) => [value, 'PASSWORD'] as const),
    ];
    const scrub = { secrets: this.secrets, derived };
    const entries = readZipEntries(await readFile(path));
    const scrubbed = entries.map(({ name, data }) => ({ name, data: scrubTraceEntry(name, data, scrub) }));
    await writeFile(path, writeZipEntries(scrubbed));
  }

  /** Runs `fn` as one named group of the trace when tracing (groups never nest across calls). */
  async group<T>(name: string, fn: () => Promise<T>): Promise<T> {
    if (!this.active) return fn();
    const tracing = this.session.browserContext.tracing;
    await tracing.group(name).catch(() => undefined);
    try {
      return await fn();
    } finally {
      await tracing.groupEnd().catch(() => undefined);
    }
  }
}

const traces = new WeakMap<Session, SessionTrace>();

/** The session's trace controller (one per session, created on first use; never module-wide state). */
export function traceOf(session: Session): SessionTrace {
  let trace = traces.get(session);
  if (!trace) {
    trace = new SessionTrace(session);
    traces.set(session, trace);
  }
  return trace;
}

/** Whether the session is being traced, without creating its controller (for watchers). */
export function isTracing(session: Session): boolean {
  return traces.get(session)?.isActive ?? false;
}
