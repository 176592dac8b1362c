import type { CDPSession } from 'playwright-core';
import type { ManagedPage } from '../engine/page.js';
import type { StepOptions } from './capture.js';
import type { PageDocument, PageNode, WireNode } from './page-capture-source.js';
import { worldCall } from './page-world.js';

/**
 * The node list of an in-page capture as it crosses CDP, and back (page-capture.ts reads it): the
 * page packs it (`packed` in page-wire-source.ts: text nodes as strings, names an only child
 * repeats as 0, links to the document's origin as paths) and an incremental capture sends the nodes
 * it reused from its last capture as spans of that list, which Node keeps per document.
 */

const SENT = Symbol('browsermesh.snapshot.sentNodes');
/** Documents whose last node list is kept (per page), for the spans of an incremental capture. */
const MAX_KEPT_DOCUMENTS = 16;

export type Span = Extract<WireNode, { s: [number, number] }>;

/**
 * An incremental capture sends the nodes reused from the last capture as spans of that capture's list
 * (page-wire-source.ts `packed`): expanded here from the list kept for the document, or, when
 * that list is not the base the page used, from the page's own copy of it (`lastNodes`).
 */
export async function withBase(
  page: ManagedPage,
  session: CDPSession,
  contextId: number,
  frame: { frameId: string; loaderId: string },
  doc: PageDocument,
  step: StepOptions,
): Promise<PageDocument> {
  const kept = page.state(SENT, () => new Map<string, { gen: number; nodes: PageNode[] }>());
  const key = `${frame.frameId}|${frame.loaderId}`;
  const sent = doc.nodes as unknown as WireNode[];
  doc.sent = sent.length;
  // A capture without a base sends no spans.
  if (doc.base === undefined) doc.nodes = unpacked(sent as Array<Exclude<WireNode, Span>>, doc.o);
  else {
    doc.sent = sent.filter((n) => !isSpan(n)).length;
    const known = kept.get(key);
    const nodes = known?.gen === doc.base ? fromSpans(sent, known.nodes) : undefined;
    if (nodes) doc.nodes = unpacked(nodes, doc.o);
    else {
      const { result } = await session.send(
        'Runtime.evaluate',
        { contextId, expression: worldCall('lastNodes'), returnByValue: true },
        step,
      );
      doc.nodes = result.value as PageNode[];
      doc.sent = doc.nodes.length;
    }
  }
  if (doc.gen !== undefined) {
    kept.delete(key);
    kept.set(key, { gen: doc.gen, nodes: doc.nodes });
    for (const old of kept.keys()) if (kept.size > MAX_KEPT_DOCUMENTS) kept.delete(old);
  }
  return doc;
}

function isSpan(n: WireNode): n is Span {
  return typeof n === 'object' && 's' in n;
}

/** The node list as the capture script keeps it, from its wire form (`packed` in the script). */
export function unpacked(list: Array<Exclude<WireNode, Span>>, origin: string | undefined): PageNode[] {
  const out = list.map((n): PageNode | 0 => {
    if (typeof n === 'string') return { r: 'StaticText', n };
    if (n === 0 || n.u === undefined) return n;
    const { u, ...rest } = n;
    return { ...rest, p: { ...rest.p, url: `${origin ?? ''}${u}` } };
  });
  for (const n of out) {
    if (n === 0 || !n.c) continue;
    for (const k of n.c) if (out[k] === 0) out[k] = { r: 'StaticText', n: n.n ?? '' };
  }
  return out.map((n) => (n === 0 ? { r: 'StaticText', n: '' } : n));
}

/** Exported for its unit test. */
export function fromSpans(sent: WireNode[], base: PageNode[]): Array<Exclude<WireNode, Span>> | undefined {
  const out: Array<Exclude<WireNode, Span>> = [];
  for (const item of sent) {
    if (!isSpan(item)) {
      out.push(item);
      continue;
    }
    const [from, length] = item.s;
    const shift = out.length - from;
    for (let j = from; j < from + length; j++) {
      const node = base[j];
      if (!node) return undefined;
      out.push(node.c ? { ...node, c: node.c.map((k) => k + shift) } : node);
    }
  }
  return out;
}
