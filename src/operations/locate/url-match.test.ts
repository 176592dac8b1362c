import { describe, expect, it } from 'vitest';
import { compileUrlPattern } from './url-match.js';

describe('compileUrlPattern', () => {
  it('matches exact URLs, also in normalized form', () => {
    const match = compileUrlPattern('http://a.test', 'url');
    expect(match('http://a.test/')).toBe(true);
    expect(match('http://a.test/x')).toBe(false);
  });

  it('treats * as one path segment and ** as anything', () => {
    expect(compileUrlPattern('http://a.test/*/b', 'url')('http://a.test/x/b')).toBe(true);
    expect(compileUrlPattern('http://a.test/*/b', 'url')('http://a.test/x/y/b')).toBe(false);
    expect(compileUrlPattern('**/nav-target*', 'url')('http://a.test/actions/nav-target?via=x')).toBe(true);
    expect(compileUrlPattern('**/api/data**', 'url')('http://a.test/api/data?delay=1')).toBe(true);
  });

  it('escapes every other character (no caller regex)', () => {
    const match = compileUrlPattern('http://a.test/p?(x)+', 'url');
    expect(match('http://a.test/p?(x)+')).toBe(true);
    expect(compileUrlPattern('**/a.b*', 'url')('http://t/aXb')).toBe(false);
  });

  it('refuses empty, huge and *** patterns naming the field', () => {
    expect(() => compileUrlPattern('', 'waitFor.url')).toThrow(/waitFor\.url/);
    expect(() => compileUrlPattern('x'.repeat(3000), 'url')).toThrow();
    expect(() => compileUrlPattern('a***b', 'url')).toThrow();
  });
});
