// What every scenario gets: the options, the fixture site, a scratch directory, the contenders,
// one long-lived server per contender (started on first use, with an opened and warmed-up page),
// and one playwright-core browser for the reference rows.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpConnection } from './mcp.mjs';
import { progress } from './progress.mjs';
import { launchReference } from '../peers/reference.mjs';

export class BenchContext {
  /**
   * @param {{ options: any, fixture: any, contenders: any[] }} init
   */
  constructor({ options, fixture, contenders }) {
    this.options = options;
    this.fixture = fixture;
    this.contenders = contenders;
    this.tmpRoot = mkdtempSync(join(tmpdir(), 'browsermesh-bench-'));
    this.servers = new Map();
    this.reference = undefined;
  }

  /** A fresh scratch directory (each server process gets its own cwd and output directory). */
  scratch(name) {
    return mkdtempSync(join(this.tmpRoot, `${name}-`));
  }

  /** Starts (once) a server for the contender, opens its page and warms it up with one navigation. */
  async session(contender) {
    let entry = this.servers.get(contender.id);
    if (!entry) {
      entry = (async () => {
        const conn = new McpConnection(contender.serverSpec({ tmpDir: this.scratch(contender.id) }));
        await conn.start();
        const page = await contender.open(conn);
        await contender.navigate(conn, page, this.fixture.url('/quiet'));
        conn.resetLog();
        return { conn, page };
      })();
      this.servers.set(contender.id, entry);
    }
    return entry;
  }

  /** Closes a contender's long-lived server (scenarios that need a clean process start their own). */
  async closeSession(contender) {
    const entry = this.servers.get(contender.id);
    if (!entry) return;
    this.servers.delete(contender.id);
    const { conn } = await entry.catch(() => ({}));
    await conn?.close();
  }

  /** A page in the reference playwright-core browser (one browser, a fresh context per call). */
  async referencePage() {
    this.reference ??= launchReference();
    const { browser } = await this.reference;
    const context = await browser.newContext();
    return context.newPage();
  }

  async close() {
    for (const contender of this.contenders) await this.closeSession(contender).catch(() => undefined);
    if (this.reference) {
      const { browser } = await this.reference.catch(() => ({}));
      await browser?.close().catch(() => undefined);
    }
    rmSync(this.tmpRoot, { recursive: true, force: true });
    progress('servers and browsers closed');
  }
}
