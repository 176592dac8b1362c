// chrome-devtools-mcp (pinned devDependency), driven the way its tools are meant to be used: a
// numeric pageId from list_pages, uids from take_snapshot, and `includeSnapshot: true` on an
// action that loads a new page (its own way to save the separate snapshot call).

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../lib/chromium.mjs';
import { CHECKOUT, expectOrder } from '../lib/flows.mjs';
import { findRef, parseDevtools } from '../lib/refs.mjs';
import { countIn } from './playwright-mcp.mjs';

const require = createRequire(import.meta.url);
const PACKAGE = 'chrome-devtools-mcp';

function view(label, text) {
  return { text, find: (role, name) => findRef(parseDevtools(text), role, name, label) };
}

export const chromeDevtoolsMcp = {
  id: 'chrome-devtools-mcp',
  label: 'chrome-devtools-mcp',
  version: () => require(`${PACKAGE}/package.json`).version,

  /** One process = one browser with a temporary profile (--isolated). */
  serverSpec({ tmpDir }) {
    return {
      label: this.label,
      command: process.execPath,
      args: [
        join(dirname(require.resolve(`${PACKAGE}/package.json`)), 'build/src/bin/chrome-devtools-mcp.js'),
        '--headless',
        '--isolated',
        '--executablePath',
        CHROMIUM_PATH,
        ...CHROMIUM_ARGS.map((arg) => `--chromeArg=${arg}`),
        '--no-usage-statistics',
        '--no-performance-crux',
      ],
      // No update checks, telemetry or config discovery: the machine's network is closed.
      env: {
        CI: '1',
        CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
        CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
        CHROME_DEVTOOLS_MCP_NO_CONFIG_DISCOVERY: '1',
      },
      cwd: tmpDir,
    };
  },

  /** Page-scoped tools require a pageId (its default --pageIdRouting): read it from list_pages. */
  async open(conn) {
    const pages = await conn.call('list_pages', {});
    const match = /^(\d+): .*\[selected\]/m.exec(pages.text) ?? /^(\d+): /m.exec(pages.text);
    if (!match) throw new Error(`${this.label}: no page in list_pages`);
    return { pageId: Number(match[1]) };
  },

  async navigate(conn, page, url) {
    return conn.call('navigate_page', { pageId: page.pageId, type: 'url', url });
  },

  async snapshot(conn, page, { interactiveOnly }) {
    if (interactiveOnly) return undefined;
    return conn.call('take_snapshot', { pageId: page.pageId });
  },

  async refs(conn, page) {
    return view(this.label, (await conn.call('take_snapshot', { pageId: page.pageId })).text);
  },

  /** A click that loads a new page, returning that page's snapshot in the same call. */
  async clickToNewPage(conn, page, uid) {
    const record = await conn.call('click', { pageId: page.pageId, uid, includeSnapshot: true });
    return view(this.label, record.text);
  },

  async checkout(conn, page, fixture) {
    const { pageId } = page;
    await this.navigate(conn, page, fixture.url('/shop/'));
    let v = await this.refs(conn, page);
    await conn.call('fill', { pageId, uid: v.find('searchbox', 'Search'), value: CHECKOUT.query });
    v = view(
      this.label,
      (await conn.call('press_key', { pageId, key: 'Enter', includeSnapshot: true })).text,
    );
    v = await this.clickToNewPage(conn, page, v.find('link', CHECKOUT.product));
    v = await this.clickToNewPage(conn, page, v.find('button', 'Add to cart'));
    v = await this.clickToNewPage(conn, page, v.find('link', 'Cart (1)'));
    v = await this.clickToNewPage(conn, page, v.find('link', 'Checkout'));
    for (const [label, value] of CHECKOUT.fields) {
      await conn.call('fill', { pageId, uid: v.find('textbox', label), value });
    }
    await conn.call('fill', { pageId, uid: v.find('combobox', 'Country'), value: CHECKOUT.countryLabel });
    await conn.call('click', { pageId, uid: v.find('radio', CHECKOUT.shipping) });
    await conn.call('click', { pageId, uid: v.find('checkbox', CHECKOUT.terms) });
    v = await this.clickToNewPage(conn, page, v.find('button', 'Place order'));
    return expectOrder(this.label, v.text);
  },

  async clicker(conn, page, fixture) {
    await this.navigate(conn, page, fixture.url('/actions/buttons'));
    const uid = (await this.refs(conn, page)).find('button', 'Increment');
    return {
      variants: [{ name: 'ref', click: () => conn.call('click', { pageId: page.pageId, uid }) }],
      count: async () => countIn((await this.refs(conn, page)).text),
    };
  },

  async waitForText(conn, page, text) {
    return conn.call('wait_for', { pageId: page.pageId, text: [text] });
  },

  async readText(conn, page) {
    return (await this.refs(conn, page)).text;
  },
};
