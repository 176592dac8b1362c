import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { SessionUrlGuard } from '../url-policy/index.js';
import type { Deadline } from './deadline.js';
import type { ManagedPage } from './page.js';
import type { BrowserLease, BrowserProvider } from './providers/provider.js';
import { withDeadline } from './race.js';
import type { Session } from './session.js';

/** What a new context is made from: the same for a session's own and for the warm-up's spare. */
export interface ContextInput {
  provider: BrowserProvider;
  urlGuard: SessionUrlGuard | undefined;
  contextOptions: BrowserContextOptions;
  permissions: ReadonlyArray<{ permission: string; origin: string }>;
  /** Operator init scripts (files), added before the first page exists. */
  initScriptPaths?: readonly string[];
  /** Milliseconds the browser's acquisition may take. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /**
   * Called once the browser is known, before anything runs on it (the URL guard attaches here);
   * `ownsProcess` says whether BrowserMesh started that browser itself.
   */
  onBrowser(browser: Browser, ownsProcess: boolean): Promise<void>;
  /** Called for the new context before its first page exists. */
  onContext?(context: BrowserContext): Promise<void>;
}

export interface BuildSessionInput extends Omit<ContextInput, 'timeoutMs' | 'urlGuard'> {
  session: Session;
  deadline: Deadline;
}

/** A browser, a context and its first page, not yet any session's. */
export interface OpenedContext {
  lease: BrowserLease;
  context: BrowserContext;
  /** The context's first page; undefined when the context is shared (a session opens its own). */
  page: Page | undefined;
  /** Gives everything back: the context (never a shared one) and the lease. */
  discard(): Promise<void>;
}

/**
 * Acquires the browser and makes the context and its first page, in the order the URL guard needs
 * (browser, context, page). `abandoned` is asked between steps: once true, what was made is given
 * back and the promise rejects.
 */
export async function openContext(input: ContextInput, abandoned: () => boolean): Promise<OpenedContext> {
  const lease = await input.provider.acquire({
    timeoutMs: input.timeoutMs,
    signal: input.signal,
    nodeProxy: input.urlGuard?.nodeProxy(),
    tunnelProxy: input.urlGuard?.tunnelProxy(),
  });
  const released = (): Promise<void> => lease.release().catch(() => undefined);
  let context: BrowserContext;
  try {
    if (abandoned()) throw new Error('abandoned');
    await input.onBrowser(lease.browser, lease.ownsProcess);
    // A persistent profile's context was made at launch with the server's options; the session
    // only opens its pages in it.
    if (lease.sharedContext) {
      await input.onContext?.(lease.sharedContext);
      return { lease, context: lease.sharedContext, page: undefined, discard: released };
    }
    context = await lease.browser.newContext(input.contextOptions);
  } catch (error) {
    await released();
    throw error;
  }
  const discard = async (): Promise<void> => {
    await context.close().catch(() => undefined);
    await released();
  };
  try {
    await lease.prepareContext?.(context);
    await input.onContext?.(context);
    for (const grant of input.permissions) {
      await context.grantPermissions([grant.permission], { origin: grant.origin });
    }
    for (const path of input.initScriptPaths ?? []) await context.addInitScript({ path });
    if (abandoned()) throw new Error('abandoned');
    return { lease, context, page: await context.newPage(), discard };
  } catch (error) {
    await discard();
    throw error;
  }
}

/**
 * Gives the session its browser, context and first page within the call's one deadline: the launch
 * (shared by concurrent creates), the context and the page all draw from it, so a loaded machine
 * answers OPERATION_TIMEOUT on time instead of late. Whatever arrives after the caller was answered
 * (a lease, a context) is given back, so a remote slot or a context never leaks. `opened`, when
 * given, is a context made ahead (the warm-up's spare) that this session takes instead.
 */
export async function buildSession(input: BuildSessionInput, opened?: OpenedContext): Promise<ManagedPage> {
  const { session, deadline, signal } = input;
  let abandoned = false;
  const building = (async () => {
    const made =
      opened ??
      (await openContext(
        { ...input, urlGuard: session.urlGuard, timeoutMs: deadline.stepTimeoutMs() },
        () => abandoned,
      ));
    if (abandoned) {
      await made.discard();
      throw new Error('abandoned');
    }
    try {
      return { made, initialPage: await session.attach(made.context, made.lease, made.page) };
    } catch (error) {
      await made.discard();
      throw error;
    }
  })();
  try {
    return (await withDeadline(building, deadline, signal)).initialPage;
  } catch (error) {
    abandoned = true;
    // The caller is answered now; what was built so far is given back in the background.
    const closedWith = session.browserLease;
    void session.close().catch(() => undefined);
    building.then(
      ({ made, initialPage }) => {
        if (made.lease.sharedContext) void initialPage.page.close().catch(() => undefined);
        else void made.context.close().catch(() => undefined);
        if (made.lease !== closedWith) void made.lease.release().catch(() => undefined);
      },
      () => undefined,
    );
    throw error;
  }
}
