import { describe, expect, it } from 'vitest';
import { boundedRedacted, redactText, sanitizeUrl } from './sanitize.js';

describe('sanitizeUrl', () => {
  it('removes credentials and fragments and redacts sensitive query values only', () => {
    const url = sanitizeUrl(
      'https://user:pw@example.test/a/b?token=supersecret&page=2&api_key=k1&q=shoes#frag',
      2048,
    );
    expect(url).toBe('https://example.test/a/b?token=REDACTED&page=2&api_key=REDACTED&q=shoes');
  });

  it('redacts encoded and differently cased keys and keeps other params byte for byte', () => {
    expect(sanitizeUrl('http://h.test/?Access%5FToken=x&PASSWORD=y&a=%20b+c', 2048)).toBe(
      'http://h.test/?Access%5FToken=REDACTED&PASSWORD=REDACTED&a=%20b+c',
    );
    expect(sanitizeUrl('http://h.test/?session_id=1&sig=2&code=3&keyboard=4', 2048)).toBe(
      'http://h.test/?session_id=REDACTED&sig=REDACTED&code=REDACTED&keyboard=4',
    );
  });

  it('drops data:, blob:, about: and unparsable URLs', () => {
    expect(sanitizeUrl('data:text/plain,hello', 2048)).toBeUndefined();
    expect(sanitizeUrl('blob:http://h.test/123', 2048)).toBeUndefined();
    expect(sanitizeUrl('about:blank', 2048)).toBeUndefined();
    expect(sanitizeUrl('not a url', 2048)).toBeUndefined();
  });

  it('bounds the length in code points', () => {
    expect(sanitizeUrl(`http://h.test/${'x'.repeat(100)}`, 20)).toHaveLength(20);
  });
});

describe('redactText', () => {
  it('redacts assignments, bearer tokens, JWTs and URLs inside text', () => {
    expect(redactText('calling api with token=abc123secret')).toBe('calling api with token=REDACTED');
    expect(redactText('password: "hunter2" ok')).toBe('password: "REDACTED" ok');
    expect(redactText('Authorization: Bearer abcdefghijkl')).not.toContain('abcdefghijkl');
    expect(redactText('jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-part here')).toBe('jwt REDACTED here');
    expect(redactText('GET https://u:p@h.test/x?token=t1&page=2 failed')).toBe(
      'GET https://h.test/x?token=REDACTED&page=2 failed',
    );
  });

  it('leaves ordinary text alone', () => {
    expect(redactText('fixture warning message 42')).toBe('fixture warning message 42');
  });
});

describe('boundedRedacted', () => {
  it('redacts before bounding, so a cut never shows part of a secret', () => {
    const { text, truncated } = boundedRedacted(`${'a'.repeat(10)} token=abcdefghijklmnop`, 24);
    expect(truncated).toBe(true);
    expect(text).not.toContain('abc');
    expect(text.startsWith('aaaaaaaaaa token=')).toBe(true);
  });

  it('pre-cuts huge input cheaply and still reports truncation', () => {
    const { text, truncated } = boundedRedacted('x'.repeat(5_000_000), 100);
    expect(text).toHaveLength(100);
    expect(truncated).toBe(true);
  });
});
