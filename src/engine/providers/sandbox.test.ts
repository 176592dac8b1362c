import { describe, expect, it } from 'vitest';
import { useChromiumSandbox } from './local.js';

describe("Chromium's own sandbox", () => {
  it('is on by default unless running as root, and can be forced either way', () => {
    expect(useChromiumSandbox('auto', 1000)).toBe(true);
    expect(useChromiumSandbox('auto', 0)).toBe(false);
    expect(useChromiumSandbox('on', 0)).toBe(true);
    expect(useChromiumSandbox('off', 1000)).toBe(false);
  });
});
