import { describe, expect, it } from 'vitest';
import { redactDeep, redactInside, redactorOf, redactText, titleLine } from './session-redact.js';

const scope = { id: 'session-redact-test', secrets: { PW: 'password123' } };
const none = { id: 'session-redact-none', secrets: {} };

describe('session redaction', () => {
  it('redacts a head of a secret just before a cut mark, which the end-of-text check alone misses', () => {
    expect(redactText(scope, 'Welcome passwor…')).toBe('Welcome {{secret:PW}}…');
    expect(redactText(scope, 'x password123 y')).toBe('x {{secret:PW}} y');
  });

  it('a tree string loses only whole forms unless it was cut: "pass" is not a fragment there', () => {
    expect(redactInside(scope, 'pass')).toBe('pass');
    expect(redactInside(scope, 'Forgot pass')).toBe('Forgot pass');
    expect(redactInside(scope, 'is password123%21')).toBe('is {{secret:PW}}%21');
    expect(redactInside(scope, 'a very long name passwo…')).toBe('a very long name {{secret:PW}}…');
    expect(redactText(scope, 'Forgot pass')).toBe('Forgot {{secret:PW}}');
  });

  it('a title is redacted before it is cut: no head survives the ellipsis', () => {
    const title = `${'T'.repeat(190)} password123`;
    const line = titleLine(scope, title, 200);
    expect(line).not.toMatch(/pass/);
    expect(Array.from(line)).toHaveLength(200);
    expect(titleLine(none, title, 200)).toContain('password…');
  });

  it('walks values and keys; a session without secrets is the identity', () => {
    expect(redactDeep(scope, { password123: ['a password123', 1, null] })).toEqual({
      '{{secret:PW}}': ['a {{secret:PW}}', 1, null],
    });
    const value = { a: 'password123' };
    expect(redactDeep(none, value)).toBe(value);
    expect(redactorOf(none)).toBeUndefined();
  });
});
