import type { BrowserContextOptions } from 'playwright-core';
import type { Config } from '../config/load.js';
import type { ContextSettings } from './context-settings.js';
import type { Deadline } from './deadline.js';
import type { Logger } from './logger.js';
import type { ManagedPage } from './page.js';
import type { BrowserProvider, ProviderStatus } from './providers/provider.js';
import type { UrlEnforcementInfo } from '../url-policy/enforcement.js';
import type { PageHook, Session } from './session.js';

/** The runtime's call, context and result shapes (runtime.ts re-exports them for every face). */

export interface CallOptions {
  /** One absolute deadline from acceptance (queue wait included). Defaults to the configured timeout. */
  timeoutMs?: number | undefined;
  /**
   * Cancels the operation: skipped if still queued; if running, answered OPERATION_CANCELLED at once,
   * its page's loading is stopped, and its page script is terminated if it has not ended 1 s later
   * (see abort-watch.ts). The session's next operation is not kept waiting behind it.
   */
  signal?: AbortSignal | undefined;
  /** Correlation id; generated when absent. */
  operationId?: string | undefined;
  /** The client that owns the sessions (HTTP transport); sessions of another owner are invisible. */
  owner?: string | undefined;
  /** Who the client authenticated as (HTTP): session quota and runtime counts are per principal. */
  principal?: string | undefined;
  /** The tool this call serves, as named in a session's trace (defaults to the operation name). */
  tool?: string | undefined;
}

export interface OperationContext {
  operationId: string;
  session: Session;
  deadline: Deadline;
  signal: AbortSignal;
  config: Config;
  logger: Logger;
}

export interface PageOperationContext extends OperationContext {
  page: ManagedPage;
}

export interface CreateSessionInput {
  name?: string | undefined;
  metadata?: Record<string, string> | undefined;
  contextSettings?: ContextSettings | undefined;
  /** Resolved saved state (cookies, origins) and the logical id it came from. */
  storageState?:
    | {
        id: string;
        state: Exclude<BrowserContextOptions['storageState'], string | undefined>;
      }
    | undefined;
}

export interface RuntimeOptions {
  config: Config;
  logger?: Logger;
  provider?: BrowserProvider;
  pageHooks?: PageHook[];
}

export interface RuntimeInfo {
  versions: { browsermesh: string; playwright: string; node: string };
  browser: ProviderStatus;
  sessions: { live: number; failed: number; max: number };
  /** What enforces the URL policy for this provider: a boundary (guard proxy) or best effort. */
  urlPolicy: UrlEnforcementInfo;
}
