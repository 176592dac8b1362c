// @playwright/mcp (pinned devDependency), driven the way its own tools are meant to be used: one
// implicit page per process, refs read from browser_snapshot, and browser_run_code_unsafe for
// Playwright code. Since 0.0.8x its action results link a snapshot file instead of inlining it, so
// an agent calls browser_snapshot whenever it needs the refs of a new page.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { playwrightLaunchOptions } from '../lib/chromium.mjs';
import { CHECKOUT, checkoutFunctionSource, expectOrder } from '../lib/flows.mjs';
import { findRef, parsePlaywright } from '../lib/refs.mjs';

const require = createRequire(import.meta.url);
const PACKAGE = '@playwright/mcp';

export const playwrightMcp = {
  id: 'playwright-mcp',
  label: '@playwright/mcp',
  version: () => require(`${PACKAGE}/package.json`).version,

  /** One process = one isolated browser context (its --isolated in-memory profile). */
  serverSpec({ tmpDir }) {
    const config = join(tmpDir, 'playwright-mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        browser: { browserName: 'chromium', isolated: true, launchOptions: playwrightLaunchOptions() },
      }),
    );
    return {
      label: this.label,
      command: process.execPath,
      args: [
        join(dirname(require.resolve(`${PACKAGE}/package.json`)), 'cli.js'),
        '--config',
        config,
        '--headless',
        '--isolated',
        '--output-dir',
        tmpDir,
        // Generous deadlines so a loaded machine (scale runs) fails nothing; they never slow a success.
        '--timeout-action',
        '60000',
        '--timeout-navigation',
        '60000',
      ],
      cwd: tmpDir,
    };
  },

  /** The page needs no setup call; the first tool call launches the browser. */
  async open() {
    return {};
  },

  async navigate(conn, _page, url) {
    return conn.call('browser_navigate', { url });
  },

  async snapshot(conn, _page, { interactiveOnly }) {
    if (interactiveOnly) return undefined;
    return conn.call('browser_snapshot', {});
  },

  async refs(conn) {
    const snap = await conn.call('browser_snapshot', {});
    return {
      text: snap.text,
      find: (role, name) => findRef(parsePlaywright(snap.text), role, name, this.label),
    };
  },

  async checkout(conn, page, fixture) {
    await this.navigate(conn, page, fixture.url('/shop/'));
    let view = await this.refs(conn);
    await conn.call('browser_type', {
      target: view.find('searchbox', 'Search'),
      text: CHECKOUT.query,
      submit: true,
    });
    view = await this.refs(conn);
    await conn.call('browser_click', { target: view.find('link', CHECKOUT.product) });
    view = await this.refs(conn);
    await conn.call('browser_click', { target: view.find('button', 'Add to cart') });
    view = await this.refs(conn);
    await conn.call('browser_click', { target: view.find('link', 'Cart (1)') });
    view = await this.refs(conn);
    await conn.call('browser_click', { target: view.find('link', 'Checkout') });
    view = await this.refs(conn);
    for (const [label, value] of CHECKOUT.fields) {
      await conn.call('browser_type', { target: view.find('textbox', label), text: value });
    }
    await conn.call('browser_select_option', {
      target: view.find('combobox', 'Country'),
      values: [CHECKOUT.country],
    });
    await conn.call('browser_click', { target: view.find('radio', CHECKOUT.shipping) });
    await conn.call('browser_click', { target: view.find('checkbox', CHECKOUT.terms) });
    await conn.call('browser_click', { target: view.find('button', 'Place order') });
    view = await this.refs(conn);
    return expectOrder(this.label, view.text);
  },

  async codeCheckout(conn, _page, fixture) {
    const record = await conn.call('browser_run_code_unsafe', {
      code: checkoutFunctionSource(fixture.origin),
    });
    expectOrder(this.label, record.text);
    return record;
  },

  /** Prepares 30 clicks on one button: a snapshot for the ref, then the same call each time. */
  async clicker(conn, page, fixture) {
    await this.navigate(conn, page, fixture.url('/actions/buttons'));
    const view = await this.refs(conn);
    const target = view.find('button', 'Increment');
    return {
      variants: [{ name: 'ref', click: () => conn.call('browser_click', { target }) }],
      count: async () => countIn((await this.refs(conn)).text),
    };
  },

  async waitForText(conn, _page, text) {
    return conn.call('browser_wait_for', { text });
  },

  async readText(conn) {
    return (await conn.call('browser_snapshot', {})).text;
  },

  async quietSleep(conn, _page, ms) {
    return conn.call('browser_run_code_unsafe', {
      code: `async (page) => { await page.waitForTimeout(${ms}); }`,
    });
  },
};

export function countIn(text) {
  const match = /Count: (\d+)/.exec(text);
  return match ? Number(match[1]) : undefined;
}
