import type { CDPSession } from 'playwright-core';

/** An element's main-world object in the CDP session of the target (page or out-of-process iframe) that owns it. */
export interface RemoteElement {
  cdp: CDPSession;
  objectId: string;
}

/**
 * A live element an action can act on, however it was found (snapshot ref or locator): its CDP object,
 * plus every iframe element on the way down from the page (outermost first), which is what turns a
 * point in the element's frame into a point in the page's viewport at action time (after scrolling).
 */
export interface ElementTarget extends RemoteElement {
  frameOwners: RemoteElement[];
  /** Safe, bounded text for errors: what was searched or the ref, never page content. */
  description: string;
  /**
   * The same element in its document's capture world (a CDP object id in the operation's group),
   * when the page found it (in-page ref or locator): the in-page resolver is asked on it directly.
   */
  inWorld?: string | undefined;
}

/** Objects created while resolving targets live in this group and are released after each operation. */
export const OBJECT_GROUP = 'browsermesh-targets';

/** Calls a function on a remote element (`this` is the element) and returns its JSON result. */
export async function callOn<T>(element: RemoteElement, fn: string, args: unknown[] = []): Promise<T> {
  const result = await element.cdp.send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration: fn,
    arguments: args.map((value) => ({ value })),
    returnByValue: true,
    awaitPromise: true,
  });
  if (result.exceptionDetails) throw new Error('in-page function failed');
  return result.result.value as T;
}

/** Drops the objects this operation created in each session it touched (best effort). */
export async function releaseObjects(sessions: Iterable<CDPSession>): Promise<void> {
  await Promise.all(
    [...new Set(sessions)].map((cdp) =>
      cdp.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined),
    ),
  );
}
