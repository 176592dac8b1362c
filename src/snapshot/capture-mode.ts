import type { ManagedPage } from '../engine/page.js';
import { capturePage, type CaptureOutput, type CaptureRequest } from './capture.js';
import { captureInPage, type IncrementalFact } from './page-capture.js';
import { ensureListenersHook } from './page-world.js';

/**
 * Which capture a snapshot uses (the `snapshotCapture` setting): `cdp` reads Chromium's accessibility
 * tree and DOM snapshot over CDP (the reference), `page` computes the view inside each document
 * (page-capture.ts), `auto` uses the in-page capture where it answers as the CDP tree would and the CDP
 * capture elsewhere. A scoped snapshot in-page captures the page and keeps the scope's subtree, so its
 * refs are the ones a full snapshot gives; snapshots with bounding boxes use the CDP capture (boxes come
 * from the browser's layout).
 */
export type SnapshotCaptureMode = 'auto' | 'page' | 'cdp';

export type CaptureKind = 'page' | 'cdp';

const LAST = Symbol('browsermesh.snapshot.lastCapture');

interface LastCapture {
  kind: CaptureKind | undefined;
  incremental?: IncrementalFact | undefined;
}

export async function captureWith(
  page: ManagedPage,
  request: CaptureRequest,
  mode: SnapshotCaptureMode,
): Promise<
  CaptureOutput & { kind: CaptureKind; scopeKey?: string | undefined; incremental?: IncrementalFact }
> {
  const slot = lastCapture(page);
  slot.incremental = undefined;
  if (mode !== 'cdp' && !request.boxes) {
    await ensureListenersHook(page);
    const inPage = await captureInPage(page, request, mode === 'auto');
    if (inPage) {
      slot.kind = 'page';
      slot.incremental = inPage.incremental;
      return { ...inPage, kind: 'page' };
    }
  }
  slot.kind = 'cdp';
  return { ...(await capturePage(page, request)), kind: 'cdp' };
}

function lastCapture(page: ManagedPage): LastCapture {
  return page.state(LAST, (): LastCapture => ({ kind: undefined }));
}

/** Which capture the page's last snapshot used (for tests and the benchmark). */
export function lastCaptureKind(page: ManagedPage): CaptureKind | undefined {
  return lastCapture(page).kind;
}

/** Whether the page's last snapshot was captured incrementally, and how much it reused. */
export function lastIncremental(page: ManagedPage): IncrementalFact | undefined {
  return lastCapture(page).incremental;
}
