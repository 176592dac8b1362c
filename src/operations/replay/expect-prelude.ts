/**
 * The `expect` a replayed statement runs with, in the sandbox: the web-first matchers an exported
 * spec writes, each polling the page through the facade's own reads until it passes or its time is
 * up (at most the call's deadline). Messages name the matcher, never the page's text.
 */

/** Milliseconds between two polls of a matcher. */
const POLL_MS = 100;

export function expectPrelude(timeoutMs: number, secrets: readonly string[]): string {
  const polls = Math.max(1, Math.ceil(timeoutMs / POLL_MS));
  const entries = secrets.map((name) => `${name}: '{{secret:${name}}}'`).join(', ');
  return `const secrets = { ${entries} };
const expect = (subject) => {
  const norm = (t) => String(t ?? '').replace(/\\s+/g, ' ').trim();
  const matches = (want, got) => (want instanceof RegExp ? want.test(got) : got === want);
  const poll = async (name, test, negate) => {
    for (let i = 0; i <= ${polls}; i++) {
      if ((await test()) !== negate) return;
      if (i < ${polls}) await page.waitForTimeout(${POLL_MS});
    }
    throw new Error('expect' + (negate ? '.not' : '') + '.' + name + ' failed after ${timeoutMs} ms');
  };
  const matchers = (negate) => ({
    toBeVisible: () => poll('toBeVisible', () => subject.isVisible(), negate),
    toBeHidden: () => poll('toBeHidden', () => subject.isHidden(), negate),
    toBeEnabled: () => poll('toBeEnabled', () => subject.isEnabled(), negate),
    toBeDisabled: () => poll('toBeDisabled', () => subject.isDisabled(), negate),
    toBeAttached: () => poll('toBeAttached', async () => (await subject.count()) > 0, negate),
    toHaveCount: (n) => poll('toHaveCount', async () => (await subject.count()) === n, negate),
    toHaveText: (t) => poll('toHaveText', async () => matches(t, norm(await subject.textContent())), negate),
    toContainText: (t) => poll('toContainText', async () => norm(await subject.textContent()).includes(norm(t)), negate),
    toHaveValue: (v) => poll('toHaveValue', async () => matches(v, await subject.inputValue()), negate),
    toHaveURL: (u) => poll('toHaveURL', async () => matches(u, await subject.url()), negate),
  });
  return Object.assign(matchers(false), { not: matchers(true) });
};
`;
}
