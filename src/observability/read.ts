import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { boundText, utf8Bytes } from '../text.js';
import type { PageObservations } from './capture.js';
import type { ObserveSource, OutputEvent, StoredEvent } from './types.js';

export interface ObserveQuery {
  source: ObserveSource;
  /** Return events with a larger id; 0 reads from the oldest kept event. */
  sinceEventId: number;
  limit: number;
  includeText: boolean;
}

export interface ObserveResult {
  source: ObserveSource;
  events: OutputEvent[];
  /** Pass as the next sinceEventId: every event of this source up to it was returned or counted as dropped. */
  nextCursor: number;
  hasMore: boolean;
  gap: boolean;
  droppedCount: number;
  /** Text (or, as a last resort, a URL) was cut further to fit the response byte limit. */
  truncated: boolean;
}

/** Bytes kept free for what the tool layer adds to the result (operationId). */
const RESERVED_BYTES = 64;

/**
 * A non-consuming, bounded read of one source. The response fits `maxResponseBytes`: texts are cut
 * first, then trailing events are held back for the next page (never the first one, so paging always
 * advances), and only then is the remaining event's URL shortened.
 */
export function readObservations(
  obs: PageObservations,
  query: ObserveQuery,
  maxResponseBytes: number,
): ObserveResult {
  const lastId = obs.buffer.lastId;
  if (query.sinceEventId > lastId) {
    throw new BrowserMeshError(
      ErrorCodes.CURSOR_INVALID,
      `sinceEventId ${query.sinceEventId} is newer than this page's last event`,
      {
        details: { field: 'sinceEventId', lastEventId: lastId },
        recoveryHint: 'Use the nextCursor returned for this same page, or 0 to read from the start.',
      },
    );
  }
  const read = obs.buffer.read(query.source, query.sinceEventId, query.limit);
  const events = read.events.map((event) => toOutputEvent(event, query.includeText));
  const last = events[events.length - 1];
  const result: ObserveResult = {
    source: query.source,
    events,
    nextCursor: read.hasMore && last ? last.id : read.lastId,
    hasMore: read.hasMore,
    gap: read.gap,
    droppedCount: read.droppedCount,
    truncated: false,
  };
  return fitResponse(result, maxResponseBytes - RESERVED_BYTES);
}

function toOutputEvent(event: StoredEvent, includeText: boolean): OutputEvent {
  const { source: _source, timeMs, text, textTruncated, stack, ...rest } = event;
  const { kind: _kind, ...fields } = rest as typeof rest & { kind?: unknown };
  const out: OutputEvent = { ...fields, time: new Date(timeMs).toISOString() };
  if (includeText && text !== undefined) {
    out.text = text;
    if (textTruncated) out.textTruncated = true;
  }
  if (includeText && stack !== undefined) out.stack = stack;
  return out;
}

const sizeOf = (result: ObserveResult): number => utf8Bytes(JSON.stringify(result));

function fitResponse(result: ObserveResult, budget: number): ObserveResult {
  if (sizeOf(result) <= budget) return result;
  const original = result.events;
  const longestText = Math.max(0, ...original.map((event) => event.text?.length ?? 0));
  const withTextCap = (cap: number): ObserveResult => ({
    ...result,
    events: original.map((e) => capField(e, 'text', cap)),
  });
  const textCap = largestFitting(longestText, (cap) => sizeOf(withTextCap(cap)) <= budget);
  let fitted = withTextCap(textCap ?? 0);
  while (textCap === undefined && fitted.events.length > 1 && sizeOf(fitted) > budget) {
    const events = fitted.events.slice(0, -1);
    fitted = {
      ...fitted,
      events,
      hasMore: true,
      nextCursor: events[events.length - 1]?.id ?? fitted.nextCursor,
    };
  }
  const only = fitted.events[0];
  if (fitted.events.length === 1 && only && sizeOf(fitted) > budget) {
    const withUrlCap = (cap: number): ObserveResult => ({ ...fitted, events: [capField(only, 'url', cap)] });
    fitted = withUrlCap(
      largestFitting(only.url?.length ?? 0, (cap) => sizeOf(withUrlCap(cap)) <= budget) ?? 0,
    );
  }
  // capField returns the same object when it cut nothing, so identity tells what was shortened.
  return { ...fitted, truncated: fitted.events.some((event, i) => event !== original[i]) };
}

/** Cuts one string field to `cap` code points, marking text as truncated when it was cut. */
function capField(event: OutputEvent, field: 'text' | 'url', cap: number): OutputEvent {
  const value = event[field];
  if (value === undefined) return event;
  const bounded = boundText(value, cap, Number.MAX_SAFE_INTEGER);
  if (!bounded.truncated) return event;
  return field === 'text'
    ? { ...event, text: bounded.text, textTruncated: true }
    : { ...event, url: bounded.text };
}

/** The largest n in [0, max] with fits(n), by binary search (fits is monotone); undefined if none. */
function largestFitting(max: number, fits: (n: number) => boolean): number | undefined {
  if (!fits(0)) return undefined;
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}
