/**
 * Element refs (`@e12`). A ref names one DOM node of one document: the CDP target that owns it, the
 * frame and the document load (loaderId) it was seen in, and the node's backend id. The same node keeps
 * its ref across snapshots of the same document; a new document never inherits an old ref.
 *
 * Ref numbers come from one counter for the whole process, so no two pages or sessions ever hand out
 * the same ref: a ref pasted into the wrong page or session is unknown there, hence
 * STALE_ELEMENT_REFERENCE, never an action on whatever element happens to carry that number there.
 */

export interface RefEntry {
  ref: string;
  targetKey: string;
  frameId: string;
  loaderId: string;
  backendNodeId: number;
  /** Iframe elements from the page down to the element's frame, outermost first. */
  owners: ReadonlyArray<{ targetKey: string; backendNodeId: number }>;
  /** When a snapshot last showed this element (for the optional time-to-live). */
  seenAt: number;
}

/** The Ref schema allows 7 digits; past that the counter wraps (those old refs are long gone). */
const MAX_REF_NUMBER = 9_999_999;
let lastRefNumber = 0;

function nextRefName(): string {
  lastRefNumber = lastRefNumber >= MAX_REF_NUMBER ? 1 : lastRefNumber + 1;
  return `e${lastRefNumber}`;
}

/** Accepts `@e12` or `e12`; returns `e12`, or undefined when it is not a ref at all. */
export function normalizeRef(ref: string): string | undefined {
  const match = /^@?(e\d{1,7})$/.exec(ref.trim());
  return match?.[1];
}

/** Per page. Bounded: past `maxEntries` the oldest refs are forgotten (and then report as stale). */
export class RefTable {
  private readonly byRef = new Map<string, RefEntry>();
  private readonly byNode = new Map<string, RefEntry>();

  constructor(private readonly maxEntries = 100_000) {}

  get size(): number {
    return this.byRef.size;
  }

  /** The ref of this node in this document, reusing the one it already has. */
  assign(where: Omit<RefEntry, 'ref' | 'seenAt'>, now = Date.now()): string {
    const { targetKey, loaderId, backendNodeId } = where;
    const nodeKey = `${targetKey}|${loaderId}|${backendNodeId}`;
    const known = this.byNode.get(nodeKey);
    if (known) {
      known.seenAt = now;
      return known.ref;
    }
    let ref = nextRefName();
    while (this.byRef.has(ref)) ref = nextRefName();
    const entry: RefEntry = { ...where, ref, seenAt: now };
    this.byRef.set(ref, entry);
    this.byNode.set(nodeKey, entry);
    this.evictOverflow();
    return ref;
  }

  get(ref: string): RefEntry | undefined {
    return this.byRef.get(ref);
  }

  /** Forgets refs of documents that are gone (navigated frames, removed iframes, swapped targets). */
  retainDocuments(live: ReadonlySet<string>): void {
    for (const [ref, entry] of this.byRef) {
      if (live.has(documentKey(entry.targetKey, entry.frameId, entry.loaderId))) continue;
      this.byRef.delete(ref);
      this.byNode.delete(`${entry.targetKey}|${entry.loaderId}|${entry.backendNodeId}`);
    }
  }

  private evictOverflow(): void {
    for (const [ref, entry] of this.byRef) {
      if (this.byRef.size <= this.maxEntries) return;
      this.byRef.delete(ref);
      this.byNode.delete(`${entry.targetKey}|${entry.loaderId}|${entry.backendNodeId}`);
    }
  }
}

export function documentKey(targetKey: string, frameId: string, loaderId: string): string {
  return `${targetKey}|${frameId}|${loaderId}`;
}
