import type { CDPSession, Frame } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import { CursorStore } from './cursors.js';
import { RefTable } from './refs.js';
import type { SnapNode } from './types.js';

/**
 * Everything the snapshot layer keeps per page: refs, continuation cursors, the previous tree (for
 * `since: 'previous'`) and the CDP targets seen in the last capture. It lives in the page's own state
 * slot, so it dies with the page and is never shared with another page or session.
 */

export interface TargetInfo {
  key: string;
  /** The Playwright frame at the root of this target (the page's main frame for 'main'). */
  frame: Frame;
  rootFrameId: string;
  /** The target hosting this one's iframe element. */
  parentKey?: string;
}

export interface PreviousSnapshot {
  tree: SnapNode;
  documentKey: string;
  /**
   * The scope key of a scoped capture, whose tree holds that scope's subtree and only the path to it:
   * nothing outside that subtree can be compared with.
   */
  partialScope?: string | undefined;
}

export class SnapshotPageState {
  readonly refs = new RefTable();
  readonly cursors = new CursorStore();
  previous: PreviousSnapshot | undefined;
  /** Ref time-to-live from the configuration (0 = refs never expire by time), set by each snapshot. */
  refTtlMs = 0;
  /** Targets (page + out-of-process iframes) by key, as of the last capture. */
  targets = new Map<string, TargetInfo>();
  /** One CDP session per out-of-process frame, dropped when its target closes or the frame goes away. */
  readonly frameSessions = new Map<Frame, Promise<CDPSession>>();
}

const STATE = Symbol('browsermesh.snapshot');

export function snapshotState(page: ManagedPage): SnapshotPageState {
  return page.state(STATE, () => {
    const state = new SnapshotPageState();
    const drop = (frame: Frame): void => {
      const session = state.frameSessions.get(frame);
      if (!session) return;
      state.frameSessions.delete(frame);
      session.then((s) => s.detach()).catch(() => undefined);
    };
    page.page.on('framedetached', drop);
    return state;
  });
}

/** The CDP session that owns a target: the page's own, or the out-of-process iframe's. */
export async function targetSession(
  page: ManagedPage,
  target: Pick<TargetInfo, 'key' | 'frame'>,
): Promise<CDPSession | undefined> {
  return target.key === 'main' ? page.cdp() : frameSession(page, target.frame);
}

/**
 * The CDP session of an out-of-process iframe, or undefined for a frame that shares its parent's
 * process (Playwright refuses those at once, without a browser round trip).
 */
export async function frameSession(page: ManagedPage, frame: Frame): Promise<CDPSession | undefined> {
  const state = snapshotState(page);
  let session = state.frameSessions.get(frame);
  if (!session) {
    const created = page.page.context().newCDPSession(frame);
    session = created;
    state.frameSessions.set(frame, created);
    // A cross-process navigation swaps the frame's target: the old session closes, the next call makes a new one.
    created
      .then((s) =>
        s.once(
          'close',
          () => state.frameSessions.get(frame) === created && state.frameSessions.delete(frame),
        ),
      )
      .catch(() => undefined);
  }
  try {
    return await session;
  } catch {
    if (state.frameSessions.get(frame) === session) state.frameSessions.delete(frame);
    return undefined;
  }
}
