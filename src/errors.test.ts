import { describe, expect, it } from 'vitest';
import { newId } from './engine/ids.js';
import { safeId } from './errors.js';

describe('safeId', () => {
  it('echoes ids shaped like the ones this server issues, and nothing else', () => {
    for (const prefix of ['s', 'p', 'op'] as const) expect(safeId(newId(prefix))).toMatch(/^(s|p|op)_/);
    for (const text of [
      '__proto__CANARY',
      's_',
      's_short',
      '\u202es_abcdefghijk',
      'x'.repeat(100),
      's_abc def12345',
    ]) {
      expect(safeId(text)).toBe('(not an id this server issued)');
    }
  });
});
