import { describe, expect, it } from 'vitest';
import { redactArgumentValues } from './redact-args.js';

describe('redactArgumentValues', () => {
  it('removes every data argument from message, hint and details, nested steps included', () => {
    const error = {
      code: 'INVALID_ARGUMENT' as const,
      message: 'value: "p4ssw0rd!" is wrong; label L4belText unknown',
      recoveryHint: 'Do not type p4ssw0rd! again',
      details: { field: 'value', seen: 'p4ssw0rd!', list: ['L4belText'], limit: 3 },
      canRetry: false,
    };
    const out = redactArgumentValues(error, {
      sessionId: 's_1',
      actions: [
        { action: 'fill', value: 'p4ssw0rd!' },
        { action: 'select', label: 'L4belText' },
      ],
    });
    expect(JSON.stringify(out)).not.toMatch(/p4ssw0rd|L4belText/);
    expect(out.details).toMatchObject({ field: 'value', limit: 3 });
  });

  it('leaves locators, ids and very short values alone', () => {
    const error = {
      code: 'ELEMENT_NOT_FOUND' as const,
      message: 'No element matches role=button name="Save" (s_1)',
      canRetry: true,
    };
    const out = redactArgumentValues(error, {
      sessionId: 's_1',
      locator: { role: 'button', name: 'Save' },
      key: 'a',
    });
    expect(out.message).toBe(error.message);
  });

  it("keeps a locator's label and text: the caller's own search is the point of ELEMENT_NOT_FOUND", () => {
    const error = {
      code: 'ELEMENT_NOT_FOUND' as const,
      message: 'no element matches label="Plan" (searched 1000 ms); text="Annual plan"',
      canRetry: true,
    };
    const out = redactArgumentValues(
      error,
      { locator: { label: 'Plan' }, actions: [{ action: 'click', locator: { text: 'Annual plan' } }] },
      ['s3cretValue'],
    );
    expect(out.message).toBe(error.message);
  });

  it('keeps a bad key name and a script’s own exception: they are the point of the error', () => {
    const error = {
      code: 'INVALID_ARGUMENT' as const,
      message: 'key: unknown key name "XXXX"; nonExistentVariable is not defined',
      canRetry: false,
    };
    const out = redactArgumentValues(error, { key: 'XXXX', script: 'nonExistentVariable' });
    expect(out.message).toBe(error.message);
  });
});
