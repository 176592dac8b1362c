import { describe, expect, it } from 'vitest';
import { newId } from './engine/ids.js';
import { safeId } from './errors.js';

describe('safeId', () => {
  it('echoes ids shaped like the ones this server issues, and nothing else', () => {
    for (const prefix of ['s', 'p', 'op'] as const) {
      const id = newId(prefix);
      expect(safeId(id)).toBe(id);
    }
    for (const text of [
      '__proto__CANARY',
      's_',
      's_short',
      '\u202es_abcdefghijk',
      'x'.repeat(100),
      's_abc def12345',
      's_ABCDEFGHIJ',
      'p0',
      'p_1',
      'op_abc',
    ]) {
      expect(safeId(text)).toBe('(not an id this server issued)');
    }
  });
});

describe('newId', () => {
  it('issues short ids: unguessable sessions, process-unique pages, never reused', () => {
    const sessions = new Set(Array.from({ length: 200 }, () => newId('s')));
    expect(sessions.size).toBe(200);
    for (const id of sessions) expect(id).toMatch(/^s_[a-z]{10}$/);
    const pages = Array.from({ length: 50 }, () => newId('p'));
    expect(new Set(pages).size).toBe(50);
    expect(pages[0]).toMatch(/^p\d+$/);
    expect(newId('op')).toMatch(/^op_[a-z]{7}$/);
  });
});
