// BrowserMesh (this repository, built to dist/), driven over stdio exactly like the peers. Tools
// that may not exist yet are detected from tools/list: a scenario that needs a missing
// tool reports "n/a (tool not available yet)" instead of a number.

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { CHROMIUM_PATH } from '../lib/chromium.mjs';
import { CHECKOUT, checkoutScriptBody, expectOrder, exportedCheckoutSpec } from '../lib/flows.mjs';
import { findRef, parseBrowserMesh } from '../lib/refs.mjs';
import { countIn } from './playwright-mcp.mjs';

const require = createRequire(import.meta.url);
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The built CLI; BROWSERMESH_BENCH_CLI measures another build (e.g. one compiled to another outDir). */
export const CLI_PATH = process.env.BROWSERMESH_BENCH_CLI
  ? resolve(process.env.BROWSERMESH_BENCH_CLI)
  : join(REPO_ROOT, 'dist/cli/main.js');

/** A scenario needs a tool (or option) this build, or a peer, does not offer. */
export class NotAvailable extends Error {
  constructor(what, reason = 'not available yet') {
    super(`n/a (${what} ${reason})`);
    this.name = 'NotAvailable';
  }
}

/** The snapshot text inside a result: a snapshot's own text block, or a snapshot field of an action's result. */
function snapshotTextOf(record) {
  const s = record.structured ?? {};
  for (const candidate of [s.snapshot?.text, s.snapshot, s.text]) {
    if (typeof candidate === 'string' && candidate.includes('@e')) return candidate;
  }
  return record.text;
}

function view(text) {
  return { text, find: (role, name) => findRef(parseBrowserMesh(text), role, name, 'BrowserMesh') };
}

export const browserMesh = {
  id: 'browsermesh',
  label: 'BrowserMesh',
  version: () => require(join(REPO_ROOT, 'package.json')).version,

  /** One process for every session. `profile` selects tool profiles (--tools); undefined = defaults. */
  serverSpec({ tmpDir, profile } = {}) {
    const dataDir = join(tmpDir, 'browsermesh-data');
    mkdirSync(dataDir, { recursive: true });
    return {
      label: this.label,
      command: process.execPath,
      args: [CLI_PATH, ...(profile ? ['--tools', profile] : [])],
      env: {
        BROWSERMESH_EXECUTABLE_PATH: CHROMIUM_PATH,
        BROWSERMESH_LOG_LEVEL: 'warn',
        BROWSERMESH_DATA_DIR: dataDir,
        // Generous deadline so a loaded machine (scale runs) fails nothing; it never slows a success.
        BROWSERMESH_TIMEOUT_MS: '60000',
        BROWSERMESH_MAX_SESSIONS: '100',
      },
      cwd: tmpDir,
    };
  },

  async open(conn) {
    const created = await conn.call('browser_session_create', {});
    return { sessionId: created.structured.session.sessionId, pageId: created.structured.initialPage.pageId };
  },

  async close(conn, page) {
    await conn.call('browser_session_close', { sessionId: page.sessionId }, { allowError: true });
  },

  async navigate(conn, page, url) {
    return conn.call('browser_navigate', { ...page, url });
  },

  /**
   * `budget: 'whole'` asks for the largest response the schema allows, so a "full" snapshot is the
   * whole page as the peers return it; `budget: 'default'` takes the server's default budget.
   */
  async snapshot(conn, page, { interactiveOnly, budget = 'whole' }) {
    await need(conn, 'browser_snapshot');
    const limits = budget === 'whole' ? await largestBudget(conn) : {};
    return conn.call('browser_snapshot', {
      ...page,
      ...(interactiveOnly ? { interactiveOnly: true } : {}),
      ...limits,
    });
  },

  async refs(conn, page) {
    await need(conn, 'browser_snapshot');
    return view((await conn.call('browser_snapshot', { ...page, interactiveOnly: true })).text);
  },

  /**
   * An action that loads a new page, then that page's refs: in the same call when the tool offers
   * `includeSnapshot` (its way to save a round trip), otherwise with a separate interactive snapshot.
   */
  async actToNewPage(conn, page, tool, args) {
    if (await hasInput(conn, tool, 'includeSnapshot')) {
      return view(snapshotTextOf(await conn.call(tool, { ...page, ...args, includeSnapshot: true })));
    }
    await conn.call(tool, { ...page, ...args });
    return this.refs(conn, page);
  },

  /** A navigation, then the new page's refs: in the same call when browser_navigate offers `includeSnapshot`. */
  async navigateToRefs(conn, page, url) {
    if (await hasInput(conn, 'browser_navigate', 'includeSnapshot')) {
      return view(
        snapshotTextOf(await conn.call('browser_navigate', { ...page, url, includeSnapshot: true })),
      );
    }
    await this.navigate(conn, page, url);
    return this.refs(conn, page);
  },

  /** Checkout with one tool call per step, acting on refs from interactive snapshots (an agent that reads each page). */
  async checkout(conn, page, fixture) {
    await needAll(conn, [
      'browser_snapshot',
      'browser_click',
      'browser_fill',
      'browser_select_option',
      'browser_visible_text',
    ]);
    let v = await this.navigateToRefs(conn, page, fixture.url('/shop/'));
    const search = v.find('searchbox', 'Search');
    await conn.call('browser_fill', { ...page, ref: search, value: CHECKOUT.query });
    v = await this.actToNewPage(conn, page, 'browser_click', { ref: v.find('button', 'Search') });
    v = await this.actToNewPage(conn, page, 'browser_click', { ref: v.find('link', CHECKOUT.product) });
    v = await this.actToNewPage(conn, page, 'browser_click', { ref: v.find('button', 'Add to cart') });
    v = await this.actToNewPage(conn, page, 'browser_click', { ref: v.find('link', 'Cart (1)') });
    v = await this.actToNewPage(conn, page, 'browser_click', { ref: v.find('link', 'Checkout') });
    for (const [label, value] of CHECKOUT.fields) {
      await conn.call('browser_fill', { ...page, ref: v.find('textbox', label), value });
    }
    await conn.call('browser_select_option', {
      ...page,
      ref: v.find('combobox', 'Country'),
      ...(await selectArgs(conn)),
    });
    await this.check(conn, page, { ref: v.find('radio', CHECKOUT.shipping) });
    await this.check(conn, page, { ref: v.find('checkbox', CHECKOUT.terms) });
    await conn.call('browser_click', { ...page, ref: v.find('button', 'Place order') });
    return expectOrder(this.label, (await conn.call('browser_visible_text', { ...page })).text);
  },

  /** Checkout with one tool call per step by semantic locators, never reading a snapshot (an agent that knows the page). */
  async locatorCheckout(conn, page, fixture) {
    await needAll(conn, ['browser_click', 'browser_fill', 'browser_select_option', 'browser_visible_text']);
    const role = (r, name) => ({ locator: { role: r, name } });
    await this.navigate(conn, page, fixture.url('/shop/'));
    await conn.call('browser_fill', { ...page, ...role('searchbox', 'Search'), value: CHECKOUT.query });
    await conn.call('browser_click', { ...page, ...role('button', 'Search') });
    await conn.call('browser_click', { ...page, ...role('link', CHECKOUT.product) });
    await conn.call('browser_click', { ...page, ...role('button', 'Add to cart') });
    await conn.call('browser_click', { ...page, ...role('link', 'Cart (1)') });
    await conn.call('browser_click', { ...page, ...role('link', 'Checkout') });
    for (const [label, value] of CHECKOUT.fields) {
      await conn.call('browser_fill', { ...page, locator: { label }, value });
    }
    await conn.call('browser_select_option', {
      ...page,
      locator: { label: 'Country' },
      ...(await selectArgs(conn)),
    });
    await this.check(conn, page, { locator: { label: CHECKOUT.shipping } });
    await this.check(conn, page, { locator: { label: CHECKOUT.terms } });
    await conn.call('browser_click', { ...page, ...role('button', 'Place order') });
    return expectOrder(this.label, (await conn.call('browser_visible_text', { ...page })).text);
  },

  /** browser_check where published (idempotent "ensure checked"), otherwise a click. */
  async check(conn, page, target) {
    const tool = (await hasTool(conn, 'browser_check')) ? 'browser_check' : 'browser_click';
    return conn.call(tool, { ...page, ...target });
  },

  /** The whole checkout as one browser_run call with the shared Playwright script. */
  async codeCheckout(conn, page, fixture) {
    await need(conn, 'browser_run');
    const record = await conn.call('browser_run', { ...page, code: checkoutScriptBody(fixture.origin) });
    expectOrder(this.label, record.text);
    return record;
  },

  /** The checkout replayed from its exported spec with browser_replay: one call, no model in the loop. */
  async replayCheckout(conn, page, fixture) {
    await need(conn, 'browser_replay');
    const replayed = await conn.call('browser_replay', {
      ...page,
      spec: exportedCheckoutSpec(fixture.origin),
    });
    if (replayed.structured?.passed !== true)
      throw new Error(
        `${this.label}: the replay did not pass (${JSON.stringify(replayed.structured?.failedAt)})`,
      );
    return replayed;
  },

  /** The whole checkout as one browser_run call with a batch of typed actions. */
  async actionsCheckout(conn, page, fixture) {
    await need(conn, 'browser_run');
    if (!(await hasInput(conn, 'browser_run', 'actions'))) throw new NotAvailable('browser_run actions');
    const role = (r, name) => ({ locator: { role: r, name } });
    const actions = [
      { action: 'goto', url: fixture.url('/shop/') },
      { action: 'fill', ...role('searchbox', 'Search'), value: CHECKOUT.query },
      { action: 'click', ...role('button', 'Search') },
      { action: 'click', ...role('link', CHECKOUT.product) },
      { action: 'click', ...role('button', 'Add to cart') },
      { action: 'click', ...role('link', 'Cart (1)') },
      { action: 'click', ...role('link', 'Checkout') },
      ...CHECKOUT.fields.map(([label, value]) => ({ action: 'fill', locator: { label }, value })),
      { action: 'select', locator: { label: 'Country' }, value: CHECKOUT.country },
      { action: 'check', locator: { label: CHECKOUT.shipping } },
      { action: 'check', locator: { label: CHECKOUT.terms } },
      { action: 'click', ...role('button', 'Place order') },
      { action: 'wait', url: '**/shop/confirmation/**' },
    ];
    const record = await conn.call('browser_run', { ...page, actions });
    if (!/confirmation\/ORD-\d+/.test(record.text)) {
      throw new Error(
        `BrowserMesh: browser_run actions did not reach the confirmation: ${record.text.slice(0, 300)}`,
      );
    }
    return record;
  },

  /** 30 clicks on one button, by ref (from one snapshot) and by locator, when those are published. */
  async clicker(conn, page, fixture) {
    await need(conn, 'browser_click');
    await this.navigate(conn, page, fixture.url('/actions/buttons'));
    const variants = [];
    if (await hasTool(conn, 'browser_snapshot')) {
      const ref = (await this.refs(conn, page)).find('button', 'Increment');
      variants.push({ name: 'ref', click: () => conn.call('browser_click', { ...page, ref }) });
    }
    const locator = { role: 'button', name: 'Increment' };
    variants.push({ name: 'locator', click: () => conn.call('browser_click', { ...page, locator }) });
    return { variants, count: async () => countIn(await this.readText(conn, page)) };
  },

  async waitForText(conn, page, text) {
    await need(conn, 'browser_wait');
    return conn.call('browser_wait', { ...page, ...(await waitTextArgs(conn, text)) });
  },

  async readText(conn, page) {
    return (await conn.call('browser_visible_text', { ...page })).text;
  },

  async quietSleep(conn, page, ms) {
    await need(conn, 'browser_run');
    return conn.call('browser_run', { ...page, code: `await page.waitForTimeout(${ms});` });
  },
};

// ---- tool discovery helpers (cached per connection) ----

async function toolMap(conn) {
  conn.toolMap ??= conn.listTools().then(({ tools }) => new Map(tools.map((t) => [t.name, t])));
  return conn.toolMap;
}

export async function hasTool(conn, name) {
  return (await toolMap(conn)).has(name);
}

async function hasInput(conn, tool, field) {
  const schema = (await toolMap(conn)).get(tool)?.inputSchema;
  return Boolean(schema?.properties && field in schema.properties);
}

async function need(conn, tool) {
  if (!(await hasTool(conn, tool))) throw new NotAvailable(tool);
}

async function needAll(conn, tools) {
  for (const tool of tools) await need(conn, tool);
}

/** The largest maxChars/maxBytes browser_snapshot accepts, as its published schema says. */
async function largestBudget(conn) {
  const props = (await toolMap(conn)).get('browser_snapshot')?.inputSchema?.properties ?? {};
  const out = {};
  for (const field of ['maxChars', 'maxBytes'])
    if (Number.isFinite(props[field]?.maximum)) out[field] = props[field].maximum;
  return out;
}

/** browser_select_option's value field, as this build publishes it. */
async function selectArgs(conn) {
  if (await hasInput(conn, 'browser_select_option', 'values')) return { values: [CHECKOUT.country] };
  if (await hasInput(conn, 'browser_select_option', 'value')) return { value: CHECKOUT.country };
  throw new NotAvailable('browser_select_option by value');
}

/** browser_wait's text-present condition, as this build publishes it. */
async function waitTextArgs(conn, text) {
  if (await hasInput(conn, 'browser_wait', 'text')) return { text, present: true };
  if (await hasInput(conn, 'browser_wait', 'condition')) return { condition: { text, present: true } };
  throw new NotAvailable('browser_wait text condition');
}
