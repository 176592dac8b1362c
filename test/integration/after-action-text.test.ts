import { describe, expect, test } from './support/fixtures.js';
import { type FixtureServer } from '../fixtures/server.mjs';
import { McpHarness } from '../helpers/harness.js';
import { refOf } from './support/refs.js';

/**
 * The snapshot an action returns (`includeSnapshot: true`) showed only the controls, so after
 * signing in an agent saw links and buttons but neither the new page's heading nor "Signed in as …",
 * nor the error of a failed sign-in, without a second snapshot. The after-action view keeps short text
 * lines: headings, alerts and status messages, short paragraphs.
 */

interface Acted {
  snapshot?: string;
}

async function signIn(h: McpHarness, site: FixtureServer, password: string): Promise<string> {
  const s = await h.session();
  const opened = await h.ok<Acted>('browser_navigate', {
    ...s,
    url: site.url('/shop/login'),
    includeSnapshot: true,
  });
  const page = opened.snapshot ?? '';
  await h.ok('browser_fill', {
    ...s,
    ref: refOf(page, /\[textbox @(e\d+)[^\]]*\] Username/),
    value: 'buyer',
  });
  await h.ok('browser_fill', {
    ...s,
    ref: refOf(page, /\[textbox @(e\d+)[^\]]*\] Password/),
    value: password,
  });
  const clicked = await h.ok<Acted>('browser_click', {
    ...s,
    ref: refOf(page, /\[button @(e\d+)\] Sign in/),
    includeSnapshot: true,
  });
  return clicked.snapshot ?? '';
}

describe('after-action snapshot text', () => {
  test('shows the heading and the "Signed in as" line after a sign-in', async ({ site, harness: h }) => {
    const after = await signIn(h, site, 'buyer-pass');
    expect(after).toMatch(/\[heading level=1\] Your account/);
    expect(after).toContain('Signed in as buyer');
    expect(after).toMatch(/\[button @e\d+\] Sign out/);
    // The password typed never comes back.
    expect(after).not.toContain('buyer-pass');
  });

  test('shows the alert of a failed sign-in', async ({ site, harness: h }) => {
    const after = await signIn(h, site, 'wrong-pass');
    expect(after).toMatch(/\[alert\] Invalid username or password\./);
    expect(after).not.toContain('wrong-pass');
  });
});
