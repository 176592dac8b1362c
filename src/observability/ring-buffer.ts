/**
 * A fixed-capacity event buffer with monotonically increasing ids. Reading never consumes: a caller
 * passes the last id it saw and gets what came after. Evictions are counted per kind, so a reader can
 * tell "nothing happened" from "it happened but was pushed out" (`gap`).
 */
export interface RingEntry<K extends string> {
  id: number;
  kind: K;
}

export interface RingRead<E> {
  /** Matching events after `sinceId`, oldest first, at most `limit`. */
  events: E[];
  /** More matching events remain after the last returned one. */
  hasMore: boolean;
  /** Events of this kind evicted since the buffer was created. */
  droppedCount: number;
  /** Some evicted events of this kind were newer than `sinceId`: the read is incomplete. */
  gap: boolean;
  /** The newest id in the buffer (0 when nothing was ever pushed). */
  lastId: number;
}

export class RingBuffer<K extends string, E extends RingEntry<K>> {
  private readonly items: (E | undefined)[];
  private start = 0;
  private size = 0;
  private nextId = 1;
  private readonly evicted = new Map<K, { count: number; lastId: number }>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    this.items = new Array<E | undefined>(capacity);
  }

  /** The id the last pushed event got (0 when empty since creation). */
  get lastId(): number {
    return this.nextId - 1;
  }

  push(make: (id: number) => E): E {
    const event = make(this.nextId++);
    if (this.size === this.capacity) {
      const old = this.items[this.start];
      if (old) this.countEviction(old);
      this.items[this.start] = event;
      this.start = (this.start + 1) % this.capacity;
    } else {
      this.items[(this.start + this.size) % this.capacity] = event;
      this.size++;
    }
    return event;
  }

  read(kind: K, sinceId: number, limit: number): RingRead<E> {
    const events: E[] = [];
    let hasMore = false;
    for (let i = 0; i < this.size; i++) {
      const event = this.items[(this.start + i) % this.capacity];
      if (!event || event.id <= sinceId || event.kind !== kind) continue;
      if (events.length === limit) {
        hasMore = true;
        break;
      }
      events.push(event);
    }
    const dropped = this.evicted.get(kind);
    return {
      events,
      hasMore,
      droppedCount: dropped?.count ?? 0,
      gap: dropped !== undefined && dropped.lastId > sinceId,
      lastId: this.lastId,
    };
  }

  private countEviction(event: E): void {
    const entry = this.evicted.get(event.kind) ?? { count: 0, lastId: 0 };
    entry.count++;
    entry.lastId = event.id;
    this.evicted.set(event.kind, entry);
  }
}
