import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from './suggest.js';

describe('did you mean', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('devcie', 'device')).toBe(1);
    expect(editDistance('ur', 'url')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests the closest name only when it is close', () => {
    expect(closestName('devcie', ['device', 'viewport-size', 'data-dir'])).toBe('device');
    expect(closestName('ur', ['url', 'sessionId'])).toBe('url');
    expect(closestName('xyz', ['url', 'sessionId'])).toBeUndefined();
    expect(closestName('Europe/Pariss', ['Europe/Paris', 'Europe/Prague'])).toBe('Europe/Paris');
    expect(didYouMean('hedless', ['headless'], '--')).toBe('; did you mean --headless?');
    expect(didYouMean('zzzz', ['headless'])).toBe('');
  });
});
