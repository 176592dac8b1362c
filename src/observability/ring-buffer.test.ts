import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer.js';

type Kind = 'a' | 'b';
const make = (kind: Kind) => (id: number) => ({ id, kind });

describe('RingBuffer', () => {
  it('assigns increasing ids and reads without consuming', () => {
    const ring = new RingBuffer<Kind, { id: number; kind: Kind }>(5);
    ring.push(make('a'));
    ring.push(make('b'));
    ring.push(make('a'));
    expect(ring.read('a', 0, 10).events.map((e) => e.id)).toEqual([1, 3]);
    expect(ring.read('a', 0, 10).events.map((e) => e.id)).toEqual([1, 3]);
    expect(ring.read('a', 1, 10).events.map((e) => e.id)).toEqual([3]);
    expect(ring.lastId).toBe(3);
  });

  it('reports hasMore when the limit cuts the read', () => {
    const ring = new RingBuffer<Kind, { id: number; kind: Kind }>(10);
    for (let i = 0; i < 4; i++) ring.push(make('a'));
    const read = ring.read('a', 0, 2);
    expect(read.events.map((e) => e.id)).toEqual([1, 2]);
    expect(read.hasMore).toBe(true);
    expect(ring.read('a', 2, 2).hasMore).toBe(false);
  });

  it('counts evictions per kind and flags a gap only past the cursor', () => {
    const ring = new RingBuffer<Kind, { id: number; kind: Kind }>(3);
    ring.push(make('a')); // 1
    ring.push(make('b')); // 2
    ring.push(make('a')); // 3
    ring.push(make('b')); // 4 evicts 1 (a)
    ring.push(make('b')); // 5 evicts 2 (b)
    const a = ring.read('a', 0, 10);
    expect(a.events.map((e) => e.id)).toEqual([3]);
    expect(a).toMatchObject({ droppedCount: 1, gap: true });
    // A reader that already saw event 1 lost nothing.
    expect(ring.read('a', 1, 10)).toMatchObject({ droppedCount: 1, gap: false });
    expect(ring.read('b', 0, 10)).toMatchObject({ droppedCount: 1, gap: true });
    expect(ring.read('b', 2, 10).gap).toBe(false);
  });

  it('refuses a non-positive capacity', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});
