import { describe, expect, it } from 'vitest';
import { FakePage, run } from '../../test/helpers/fake-code-backend.js';

// A page can put NUL in any string it hands over; the agent must see the whole string, not a prefix.
describe('NUL-safe strings across the sandbox boundary', () => {
  it('returns strings with NUL whole, alone and nested in values', async () => {
    expect(await run('return "visible\\u0000hidden"')).toMatchObject({
      ok: true,
      value: 'visible\u0000hidden',
    });
    expect(await run('return ["a\\u0000b", { k: "c\\u0000d" }]')).toMatchObject({
      ok: true,
      value: ['a\u0000b', { k: 'c\u0000d' }],
    });
  });

  it('keeps NUL (escaped) in logs and error messages instead of cutting there', async () => {
    const logged = await run('console.log("before\\u0000after"); return 1');
    expect(logged.ok && logged.logs[0]).toContain('after');
    const thrown = await run('throw new Error("x\\u0000secret-tail")');
    expect(JSON.stringify(thrown)).toContain('secret-tail');
  });

  it('passes NUL in arguments to the page intact', async () => {
    const page = new FakePage();
    await run('await page.fill("#i", "a\\u0000b")', page);
    expect(JSON.stringify(page.calls)).toContain('a\\u0000b');
  });
});
