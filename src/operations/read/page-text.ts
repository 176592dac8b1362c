import type { Frame } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { withDeadline } from '../../engine/runtime.js';
import { FRAME_TEXT_BODY, FRAME_TEXT_WATCH_BODY } from './page-text-functions.js';

/**
 * The page's text as a person reads it, in every frame (same-origin and out-of-process iframes) and
 * every open shadow root — one reader for browser_visible_text and the text waits of every face.
 */

type FrameFunction<A, R> = (arg: A) => R;
// Built from strings so no build step can rewrite the code the page runs.
const frameText = new Function('arg', FRAME_TEXT_BODY) as FrameFunction<
  { max: number },
  { text: string; shown: boolean }
>;
const frameWatch = new Function('arg', FRAME_TEXT_WATCH_BODY) as FrameFunction<WatchArg, Promise<string>>;

interface WatchArg {
  texts: string[];
  max: number;
  lifetimeMs: number;
  last?: string;
}

/** Collapses every whitespace run to one space, so "Hello World" matches `Hello</span> <div>World`. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The main document's text, then each shown child frame's text in frame-tree order, separated by a
 * blank line; each frame's part is cut at `capPerFrame` characters. A frame that goes away while it is
 * read is left out.
 */
export async function readPageText(ctx: PageOperationContext, capPerFrame: number): Promise<string> {
  const frames = ctx.page.page.frames();
  const texts = await withDeadline(
    Promise.all(
      frames.map((frame, i) =>
        frame.evaluate(frameText, { max: capPerFrame }).then(
          (result) => result.text,
          (error: unknown) => {
            if (i === 0) throw error;
            return '';
          },
        ),
      ),
    ),
    ctx.deadline,
    ctx.signal,
  );
  return texts.filter((text) => text !== '').join('\n\n');
}

export interface TextWaitOptions {
  /** Already normalized (normalizeText), non-empty. */
  texts: string[];
  /** true: until any text shows in some frame; false: until none shows in any frame. */
  present: boolean;
  maxCharsPerFrame: number;
}

/** How long one page-side watcher lives before it is re-armed (new frames join at re-arm). */
const WATCH_LIFETIME_MS = 1000;

/**
 * Waits until the text condition holds across all frames; returns the matched texts (present: the
 * ones shown when it held, first of `texts` order; absent: []). Each frame watches its own document
 * and shadow roots and reports changes; a frame attached or navigated mid-wait is watched from then.
 */
export async function waitForPageText(
  ctx: PageOperationContext,
  options: TextWaitOptions,
): Promise<string[]> {
  const page = ctx.page.page;
  const seen = new Map<Frame, string>();
  const pending = new Map<Frame, Promise<void>>();
  let wake: () => void = () => undefined;
  const onFrames = (): void => wake();
  page.on('framenavigated', onFrames);
  page.on('frameattached', onFrames);
  page.on('framedetached', onFrames);
  try {
    for (;;) {
      const frames = page.frames();
      const held = evaluateCondition(frames, seen, options);
      if (held) return held;
      const changed = new Promise<void>((resolve) => (wake = resolve));
      for (const frame of frames)
        if (!pending.has(frame)) pending.set(frame, arm(frame, seen, options, pending));
      await withDeadline(Promise.race([changed, ...pending.values()]), ctx.deadline, ctx.signal);
      for (const frame of [...seen.keys()]) if (frame.isDetached()) seen.delete(frame);
    }
  } finally {
    page.off('framenavigated', onFrames);
    page.off('frameattached', onFrames);
    page.off('framedetached', onFrames);
  }
}

function arm(
  frame: Frame,
  seen: Map<Frame, string>,
  options: TextWaitOptions,
  pending: Map<Frame, Promise<void>>,
): Promise<void> {
  const last = seen.get(frame);
  const arg: WatchArg = {
    texts: options.texts,
    max: options.maxCharsPerFrame,
    lifetimeMs: WATCH_LIFETIME_MS,
  };
  if (last !== undefined) arg.last = last;
  return frame.evaluate(frameWatch, arg).then(
    (status) => {
      pending.delete(frame);
      seen.set(frame, status);
    },
    (error: unknown) => {
      pending.delete(frame);
      seen.delete(frame);
      // A closed page (a lost remote connection closes every page at once) fails each evaluate
      // at once: re-arming would spin on microtasks and starve the deadline timer, so it ends the wait.
      if (frame.page().isClosed()) throw error;
      // A frame navigating or going away mid-watch: forgotten; it is re-read if it is still there.
    },
  );
}

function evaluateCondition(
  frames: Frame[],
  seen: Map<Frame, string>,
  options: TextWaitOptions,
): string[] | undefined {
  const found = new Set<number>();
  let known = 0;
  for (const frame of frames) {
    const status = seen.get(frame);
    if (status === undefined) continue;
    known++;
    for (const index of status.split(',')) if (index !== '') found.add(Number(index));
  }
  if (options.present) {
    if (found.size === 0) return undefined;
    return options.texts.filter((_, i) => found.has(i));
  }
  return known === frames.length && found.size === 0 ? [] : undefined;
}

/** A text list entry that normalizes to nothing matches everything: refused. */
export function toTextList(text: string | readonly string[], field: string): string[] {
  const list = (typeof text === 'string' ? [text] : [...text]).map(normalizeText);
  if (list.length === 0 || list.some((t) => t === ''))
    throw new BrowserMeshError(
      ErrorCodes.INVALID_ARGUMENT,
      `${field}: every text must have a visible character`,
      {
        details: { field },
      },
    );
  return list;
}
