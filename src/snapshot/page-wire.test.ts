import { describe, expect, it } from 'vitest';
import type { PageNode } from './page-capture-source.js';
import { fromSpans, unpacked, type Span } from './page-wire.js';

describe('fromSpans (the node list of an incremental capture)', () => {
  // The last capture: root → [a, b]; b → [b1].
  const base: PageNode[] = [
    { r: 'RootWebArea', c: [1, 2] },
    { i: 1, r: 'button', n: 'a' },
    { i: 2, r: 'list', c: [3] },
    { i: 3, r: 'listitem', n: 'b1' },
  ];
  const span = (from: number, length: number): Span => ({ s: [from, length] });

  it('copies spans of the base where they land, shifting child indexes by the move', () => {
    // The new capture: root → [new, b], b (2 nodes) reused from base[2..4).
    const sent = [{ r: 'RootWebArea', c: [1, 2] }, { i: 9, r: 'button', n: 'new' }, span(2, 2)];
    expect(fromSpans(sent, base)).toEqual([
      { r: 'RootWebArea', c: [1, 2] },
      { i: 9, r: 'button', n: 'new' },
      { i: 2, r: 'list', c: [3] },
      { i: 3, r: 'listitem', n: 'b1' },
    ]);
    const moved = fromSpans([{ r: 'RootWebArea', c: [1] }, span(2, 2)], base);
    expect(moved?.[1]).toEqual({ i: 2, r: 'list', c: [2] });
  });

  it('gives nothing for a span past its base (the caller reads the page copy instead)', () => {
    expect(fromSpans([span(3, 2)], base)).toBeUndefined();
  });
});

describe('unpacked (the node list from its wire form)', () => {
  it('restores text nodes, names echoed by an only child and links relative to the origin', () => {
    const wire = [
      { r: 'RootWebArea', n: 'Docs', c: [1, 3, 4] },
      { i: 1, r: 'link', n: 'Intro', u: '/docs#intro', k: 1 as const, c: [2] },
      0 as const,
      'plain text',
      { i: 2, r: 'link', n: 'Away', p: { url: 'https://example.test/' } },
    ];
    expect(unpacked(wire, 'http://127.0.0.1:8080')).toEqual([
      { r: 'RootWebArea', n: 'Docs', c: [1, 3, 4] },
      { i: 1, r: 'link', n: 'Intro', p: { url: 'http://127.0.0.1:8080/docs#intro' }, k: 1, c: [2] },
      { r: 'StaticText', n: 'Intro' },
      { r: 'StaticText', n: 'plain text' },
      { i: 2, r: 'link', n: 'Away', p: { url: 'https://example.test/' } },
    ]);
  });

  it('reads text from spans of the last capture alike (fromSpans first, then unpacked)', () => {
    const base: PageNode[] = [
      { r: 'RootWebArea', c: [1] },
      { i: 1, r: 'button', n: 'Go', c: [2] },
      { r: 'StaticText', n: 'Go' },
    ];
    const full = fromSpans([{ r: 'RootWebArea', c: [1, 3] }, { s: [1, 2] }, 'new line'], base);
    expect(full && unpacked(full, undefined)).toEqual([
      { r: 'RootWebArea', c: [1, 3] },
      { i: 1, r: 'button', n: 'Go', c: [2] },
      { r: 'StaticText', n: 'Go' },
      { r: 'StaticText', n: 'new line' },
    ]);
  });
});
