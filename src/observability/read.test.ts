import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../errors.js';
import { utf8Bytes } from '../text.js';
import { PageObservations } from './capture.js';
import { readObservations } from './read.js';

const query = { source: 'console' as const, sinceEventId: 0, limit: 100, includeText: true };

function withConsole(count: number, text: string, maxEvents = 1000): PageObservations {
  const obs = new PageObservations({ maxEvents, maxStringChars: 100_000 });
  for (let i = 0; i < count; i++) obs.record({ source: 'console', timeMs: 0, level: 'log', text });
  return obs;
}

describe('readObservations', () => {
  it('returns metadata only unless includeText, and echoes the source', () => {
    const obs = withConsole(2, 'hello');
    const meta = readObservations(obs, { ...query, includeText: false }, 65_536);
    expect(meta.source).toBe('console');
    expect(meta.events[0]).toEqual({ id: 1, time: new Date(0).toISOString(), level: 'log' });
    expect(readObservations(obs, query, 65_536).events[0]?.text).toBe('hello');
  });

  it('moves the cursor past events of other sources it scanned', () => {
    const obs = withConsole(1, 'a');
    obs.record({ source: 'pageError', timeMs: 0, name: 'Error', text: 'x' });
    const read = readObservations(obs, query, 65_536);
    expect(read).toMatchObject({ nextCursor: 2, hasMore: false });
    expect(readObservations(obs, { ...query, sinceEventId: read.nextCursor }, 65_536).events).toEqual([]);
  });

  it('pages with the limit', () => {
    const obs = withConsole(5, 'a');
    const first = readObservations(obs, { ...query, limit: 2 }, 65_536);
    expect(first).toMatchObject({ nextCursor: 2, hasMore: true });
    const second = readObservations(obs, { ...query, limit: 2, sinceEventId: first.nextCursor }, 65_536);
    expect(second.events.map((e) => e.id)).toEqual([3, 4]);
  });

  it('refuses a cursor from the future (another page or a made-up id)', () => {
    const obs = withConsole(1, 'a');
    expect(() => readObservations(obs, { ...query, sinceEventId: 5 }, 65_536)).toThrow(
      expect.objectContaining({ code: ErrorCodes.CURSOR_INVALID }),
    );
  });

  it('reports overflow as gap and droppedCount', () => {
    const obs = withConsole(5, 'a', 3);
    expect(readObservations(obs, query, 65_536)).toMatchObject({ gap: true, droppedCount: 2 });
    expect(readObservations(obs, { ...query, sinceEventId: 2 }, 65_536)).toMatchObject({
      gap: false,
      droppedCount: 2,
    });
  });

  it('cuts text to fit the response bytes while every event and the cursor still return', () => {
    const obs = withConsole(10, 'é'.repeat(2000));
    const read = readObservations(obs, query, 4096);
    expect(utf8Bytes(JSON.stringify(read))).toBeLessThanOrEqual(4096);
    expect(read.events).toHaveLength(10);
    expect(read).toMatchObject({ truncated: true, hasMore: false, nextCursor: 10 });
    expect(read.events.every((e) => e.textTruncated === true)).toBe(true);
  });

  it('holds events back for the next page when metadata alone is too big, always advancing', () => {
    const obs = new PageObservations({ maxEvents: 1000, maxStringChars: 100_000 });
    for (let i = 0; i < 50; i++) {
      obs.record({
        source: 'network',
        timeMs: 0,
        requestId: `r${i}`,
        method: 'GET',
        url: `http://h.test/${'p'.repeat(100)}`,
        status: 200,
      });
    }
    const q = { source: 'network' as const, sinceEventId: 0, limit: 100, includeText: false };
    const read = readObservations(obs, q, 2048);
    expect(utf8Bytes(JSON.stringify(read))).toBeLessThanOrEqual(2048);
    expect(read.events.length).toBeGreaterThan(0);
    expect(read.events.length).toBeLessThan(50);
    expect(read).toMatchObject({ hasMore: true, truncated: false });
    expect(read.nextCursor).toBe(read.events[read.events.length - 1]?.id);
  });

  it('shortens the one remaining URL as a last resort', () => {
    const obs = new PageObservations({ maxEvents: 10, maxStringChars: 100_000 });
    obs.record({
      source: 'network',
      timeMs: 0,
      requestId: 'r1',
      method: 'GET',
      url: `http://h.test/${'p'.repeat(5000)}`,
      status: 200,
    });
    const read = readObservations(
      obs,
      { source: 'network', sinceEventId: 0, limit: 10, includeText: false },
      1024,
    );
    expect(utf8Bytes(JSON.stringify(read))).toBeLessThanOrEqual(1024);
    expect(read).toMatchObject({ truncated: true, nextCursor: 1 });
    expect(read.events[0]?.status).toBe(200);
  });
});
