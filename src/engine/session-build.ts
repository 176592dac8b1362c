import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { Deadline } from './deadline.js';
import type { ManagedPage } from './page.js';
import type { BrowserLease, BrowserProvider } from './providers/provider.js';
import { withDeadline } from './race.js';
import type { Session } from './session.js';

export interface BuildSessionInput {
  provider: BrowserProvider;
  session: Session;
  contextOptions: BrowserContextOptions;
  permissions: ReadonlyArray<{ permission: string; origin: string }>;
  /** Operator init scripts (files), added before the first page exists. */
  initScriptPaths?: readonly string[];
  deadline: Deadline;
  signal?: AbortSignal | undefined;
  /**
   * Called once the browser is known, before anything runs on it (the URL guard attaches here);
   * `ownsProcess` says whether BrowserMesh started that browser itself.
   */
  onBrowser(browser: Browser, ownsProcess: boolean): Promise<void>;
  /** Called for the new context before its first page exists. */
  onContext?(context: BrowserContext): Promise<void>;
}

interface Built {
  lease: BrowserLease;
  context: BrowserContext;
  initialPage: ManagedPage;
}

/**
 * Gives the session its browser, context and first page within the call's one deadline: the launch
 * (shared by concurrent creates), the context and the page all draw from it, so a loaded machine
 * answers OPERATION_TIMEOUT on time instead of late. Whatever arrives after the caller was answered
 * (a lease, a context) is given back, so a remote slot or a context never leaks.
 */
export async function buildSession(input: BuildSessionInput): Promise<ManagedPage> {
  const { session, deadline, signal } = input;
  let abandoned = false;
  const building = (async (): Promise<Built> => {
    const lease = await input.provider.acquire({
      timeoutMs: deadline.stepTimeoutMs(),
      signal,
      nodeProxy: session.urlGuard?.nodeProxy(),
      tunnelProxy: session.urlGuard?.tunnelProxy(),
    });
    if (abandoned) {
      await lease.release().catch(() => undefined);
      throw new Error('abandoned');
    }
    let context: BrowserContext;
    try {
      await input.onBrowser(lease.browser, lease.ownsProcess);
      // A persistent profile's context was made at launch with the server's options; the session
      // only opens its pages in it.
      if (lease.sharedContext) {
        await input.onContext?.(lease.sharedContext);
        return {
          lease,
          context: lease.sharedContext,
          initialPage: await session.attach(lease.sharedContext, lease),
        };
      }
      context = await lease.browser.newContext(input.contextOptions);
    } catch (error) {
      await lease.release().catch(() => undefined);
      throw error;
    }
    try {
      await lease.prepareContext?.(context);
      await input.onContext?.(context);
      for (const grant of input.permissions) {
        await context.grantPermissions([grant.permission], { origin: grant.origin });
      }
      for (const path of input.initScriptPaths ?? []) await context.addInitScript({ path });
      if (abandoned) throw new Error('abandoned');
      return { lease, context, initialPage: await session.attach(context, lease) };
    } catch (error) {
      await context.close().catch(() => undefined);
      await lease.release().catch(() => undefined);
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
      (late) => {
        if (late.lease.sharedContext) void late.initialPage.page.close().catch(() => undefined);
        else void late.context.close().catch(() => undefined);
        if (late.lease !== closedWith) void late.lease.release().catch(() => undefined);
      },
      () => undefined,
    );
    throw error;
  }
}
