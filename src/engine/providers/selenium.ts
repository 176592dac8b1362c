import type { Browser } from 'playwright-core';
import { loadChromium } from './playwright-loader.js';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { safeEndpoint } from './cdp.js';
import type { AcquireOptions, BrowserLease, BrowserProvider, Placement, ProviderStatus } from './provider.js';
import { admitNode } from './remote-guard.js';
import { cdpEndpointOf, requestedCapabilities } from './selenium-capabilities.js';
import { WebDriverClient, WebDriverError, type NewSessionResult } from './webdriver.js';

export interface SeleniumProviderOptions {
  /** Selenium Grid 4 URL; `user:password@` becomes Basic auth. */
  url: string;
  /** Extra headers for the Grid and the CDP WebSocket (secret-bearing, never logged). */
  headers?: Record<string, string>;
  /** Merged into the requested capabilities; `goog:chromeOptions.args` are appended to ours. */
  capabilities?: Record<string, unknown>;
  headless?: boolean;
  /** How often each Grid session is probed for a dead browser (and kept from the Grid's idle timeout). */
  probeIntervalMs?: number;
  /**
   * This machine's address as the Grid's nodes see it (`--guard-host`): each session's
   * browser is launched with a guard proxy listening there. Unset: request interception only.
   */
  guardHost?: string;
  logger?: Logger;
}

/** Bounds on Grid calls that must never hang a close or a shutdown. */
const DELETE_TIMEOUT_MS = 15_000;
const PROBE_TIMEOUT_MS = 10_000;
const NODE_LOOKUP_TIMEOUT_MS = 2_000;
/** A queued POST /session may wait this long in the Grid; the caller gives up far earlier. */
const NEW_SESSION_CAP_MS = 600_000;
/** Probes that fail without a clear answer (network, 5xx) before the browser is judged gone. */
const MAX_UNKNOWN_PROBES = 3;

/**
 * One Selenium Grid 4 session per BrowserMesh session: `POST /session` with Chromium capabilities,
 * Playwright over the session's `se:cdp` endpoint, `DELETE` when the session closes, fails or the
 * runtime shuts down, so no Grid slot is ever left behind. The Grid owns the browser processes:
 * BrowserMesh never kills one, it asks the Grid to end the session.
 */
export class SeleniumProvider implements BrowserProvider {
  readonly name = 'selenium';
  private readonly client: WebDriverClient;
  private readonly leases = new Set<SeleniumLease>();
  private readonly logger: Logger;
  private browserVersion: string | null = null;
  private closed = false;
  readonly guardHost?: string;

  constructor(private readonly options: SeleniumProviderOptions) {
    this.client = new WebDriverClient({ url: options.url, headers: options.headers ?? {} });
    this.logger = options.logger ?? silentLogger;
    if (options.guardHost) this.guardHost = options.guardHost;
  }

  async acquire(options: AcquireOptions): Promise<BrowserLease> {
    if (this.closed) throw shuttingDownError();
    const expiresAt = Date.now() + options.timeoutMs;
    const guard = options.nodeProxy;
    const created = this.client.newSession(requestedCapabilities(this.options, guard), NEW_SESSION_CAP_MS);
    // Give up a little before the caller's deadline, so it hears why (a full Grid), not a bare timeout.
    const waitMs = Math.max(1, options.timeoutMs - Math.min(250, options.timeoutMs / 10));
    let session: NewSessionResult;
    try {
      session = await within(created, waitMs, options.signal);
    } catch (error) {
      // The Grid keeps a queued request alive after we stop waiting: delete what arrives late.
      void created.then(
        (late) => this.deleteQuietly(late.sessionId),
        () => undefined,
      );
      throw toGridError(error);
    }
    try {
      if (this.closed) throw shuttingDownError();
      const endpoint = cdpEndpointOf(session.capabilities, this.client.baseUrl);
      const node = await this.client.nodeOf(session.sessionId, NODE_LOOKUP_TIMEOUT_MS).catch(() => undefined);
      // The browser may already be waiting at the guard: it is let in once its node is known.
      if (guard) await admitNode(guard, node);
      const browser = await (
        await loadChromium()
      )
        .connectOverCDP(endpoint, {
          timeout: Math.max(1, expiresAt - Date.now()),
          headers: this.client.headers,
        })
        .catch((error: unknown) => {
          throw new BrowserMeshError(
            ErrorCodes.BROWSER_ERROR,
            'Could not connect to the Grid session over CDP',
            {
              cause: error,
              details: { reason: 'cdp_connect_failed' },
            },
          );
        });
      this.browserVersion = browser.version();
      const lease = new SeleniumLease(this, browser, session.sessionId, {
        provider: 'selenium',
        node: safeEndpoint(node ?? this.client.baseUrl),
      });
      this.leases.add(lease);
      if (this.closed) {
        // Shutdown ran while this browser was being connected: it must not outlive the runtime.
        await lease.release();
        throw shuttingDownError();
      }
      this.logger.info('selenium_session_created', { provider: 'selenium', count: this.leases.size });
      return lease;
    } catch (error) {
      await this.deleteQuietly(session.sessionId);
      throw toGridError(error);
    }
  }

  status(): ProviderStatus {
    return {
      provider: this.name,
      state: this.leases.size > 0 ? 'ready' : 'idle',
      browserVersion: this.browserVersion,
      endpoint: safeEndpoint(this.client.baseUrl),
    };
  }

  /** Deletes every Grid session still held. Idempotent. */
  async shutdown(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.leases].map((lease) => lease.release()));
  }

  /** @internal used by leases */
  get probeIntervalMs(): number {
    return this.options.probeIntervalMs ?? 15_000;
  }

  /** @internal used by leases */
  probe(sessionId: string): ReturnType<WebDriverClient['probe']> {
    return this.client.probe(sessionId, PROBE_TIMEOUT_MS);
  }

  /** @internal used by leases */
  forget(lease: SeleniumLease): void {
    this.leases.delete(lease);
  }

  /** @internal Ends a Grid session; a failure is logged (without the Grid's text) and swallowed. */
  async deleteQuietly(sessionId: string): Promise<void> {
    try {
      await this.client.deleteSession(sessionId, DELETE_TIMEOUT_MS);
    } catch (error) {
      this.logger.warn('selenium_delete_failed', { provider: 'selenium', reason: gridReason(error) });
    }
  }
}

/**
 * A Grid session lent to one BrowserMesh session. A probe watches the browser: the Grid's CDP proxy
 * does not always close our WebSocket when a node's browser dies, so a dead browser is found by
 * asking WebDriver, and then the connection is dropped to fail the session (never recreated).
 */
class SeleniumLease implements BrowserLease {
  readonly ownsProcess = false;
  private readonly timer: NodeJS.Timeout;
  private probing = false;
  private unknownProbes = 0;
  private released: Promise<void> | undefined;

  constructor(
    private readonly provider: SeleniumProvider,
    readonly browser: Browser,
    private readonly sessionId: string,
    readonly placement: Placement,
  ) {
    this.timer = setInterval(() => void this.check(), provider.probeIntervalMs);
    this.timer.unref();
    // However the connection ends, the Grid slot is given back.
    browser.once('disconnected', () => void this.release());
  }

  release(): Promise<void> {
    this.released ??= (async () => {
      clearInterval(this.timer);
      await this.browser.close().catch(() => undefined);
      await this.provider.deleteQuietly(this.sessionId);
      this.provider.forget(this);
    })();
    return this.released;
  }

  private async check(): Promise<void> {
    if (this.probing || this.released) return;
    this.probing = true;
    try {
      const liveness = await this.provider.probe(this.sessionId);
      this.unknownProbes = liveness === 'unknown' ? this.unknownProbes + 1 : 0;
      if (liveness === 'gone' || this.unknownProbes >= MAX_UNKNOWN_PROBES) {
        // Closing the connection emits 'disconnected': the runtime fails this session only.
        await this.browser.close().catch(() => undefined);
      }
    } finally {
      this.probing = false;
    }
  }
}

/** Grid failures become BROWSER_ERROR with a safe reason; the Grid's own text never crosses over. */
function toGridError(error: unknown): BrowserMeshError {
  if (error instanceof BrowserMeshError) return error;
  const reason = gridReason(error);
  const messages: Record<string, string> = {
    grid_timeout: 'The Selenium Grid did not provide a browser before the deadline',
    grid_queue_timeout: 'The Selenium Grid timed out the queued session request',
    grid_refused: 'The Selenium Grid refused the session request',
    grid_auth_failed: 'The Selenium Grid refused the credentials',
    grid_unreachable: 'The Selenium Grid could not be reached',
  };
  return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, messages[reason] ?? 'The Selenium Grid failed', {
    cause: error,
    details: { reason },
    recoveryHint:
      'Check the Grid (its /status page) or retry with a larger timeoutMs when all slots are busy.',
  });
}

function gridReason(error: unknown): string {
  if (error instanceof GridWaitTimeout) return 'grid_timeout';
  if (error instanceof WebDriverError) {
    if (error.status === 401 || error.status === 403) return 'grid_auth_failed';
    if (error.error === 'session not created')
      return error.queueTimedOut ? 'grid_queue_timeout' : 'grid_refused';
    return 'grid_error';
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'grid_timeout';
  if (error instanceof TypeError) return 'grid_unreachable';
  return 'grid_error';
}

class GridWaitTimeout extends Error {}

function shuttingDownError(): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The runtime is shutting down', {
    details: { reason: 'shutting_down' },
  });
}

/** Waits for `promise` at most `timeoutMs`, or until `signal` aborts; the promise itself runs on. */
function within<T>(promise: Promise<T>, timeoutMs: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      done();
      reject(new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'Operation was cancelled by the caller'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new GridWaitTimeout());
    }, timeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
