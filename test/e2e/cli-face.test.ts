import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { fileShell, refOf, shell, type Shell } from './cli-face-support.js';

// The shell face, driven as an agent drives it — one spawned process per command, a
// per-user daemon behind them, the fixture shop on loopback.

let site: FixtureServer;
/** The file's daemon, for the tests that need no settings of their own. */
const daemon = fileShell();
const open = (): Shell => daemon.get();
/** Tests that need their own daemon settings start their own, stopped after the test. */
const shells: Shell[] = [];
const openOwn = (env: Record<string, string>): Shell => {
  const sh = shell(env);
  shells.push(sh);
  return sh;
};

beforeAll(async () => {
  site = await startFixtureServer();
});
afterEach(async () => {
  await Promise.all([daemon.reset(), ...shells.splice(0).map((sh) => sh.cleanup())]);
});
afterAll(async () => {
  await daemon.stop();
  await site.close();
});

describe('browsermesh <command> (shell face)', async () => {
  it('checks out on the fixture shop by refs from its own snapshots', async () => {
    const { bm } = open();
    const opened = await bm(['open', `${site.origin}/shop/product/2`]);
    expect(opened.status).toBe(0);
    expect(opened.stdout).toContain('"title":"Mesh Backpack – Mesh Shop"');
    expect(opened.stdout.trim().split('\n')).toHaveLength(1);

    let snap = (await bm(['snapshot', '-i'])).stdout;
    expect((await bm(['click', refOf(snap, 'button', 'Add to cart')])).stdout).toContain('"navigation":true');
    expect((await bm(['goto', `${site.origin}/shop/checkout`])).status).toBe(0);
    snap = (await bm(['snapshot', '-i'])).stdout;
    const fills: Array<[string, string]> = [
      ['Full name', 'Ada Lovelace'],
      ['Email', 'ada@example.com'],
      ['Address', '12 Analytical St'],
      ['City', 'Berlin'],
      ['Postal code', '10115'],
    ];
    for (const [label, value] of fills)
      expect((await bm(['fill', refOf(snap, 'textbox', label), value])).status).toBe(0);
    expect((await bm(['select', refOf(snap, 'combobox', 'Country'), 'Germany', '--by-label'])).status).toBe(
      0,
    );
    expect((await bm(['check', refOf(snap, 'radio', 'Express')])).status).toBe(0);
    expect((await bm(['check', refOf(snap, 'checkbox', 'I accept the terms')])).status).toBe(0);
    const placed = await bm(['click', refOf(snap, 'button', 'Place order')]);
    expect(placed.stdout).toContain('/shop/confirmation/');
    // The old page's refs fail loudly after the navigation.
    const stale = await bm(['click', refOf(snap, 'button', 'Place order')]);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toMatch(/^STALE_ELEMENT_REFERENCE: .*\nhint: .*browsermesh snapshot/);
    expect((await bm(['text'])).stdout).toMatch(/order number is \w+/);
    // The same session's work as a Playwright test (the action log is on by default).
    const spec = await bm(['export-test']);
    expect(spec.status).toBe(0);
    expect(spec.stdout).toContain("import { test, expect } from '@playwright/test'");
    expect(spec.stdout).toMatch(/getByRole\('button', \{ name: 'Add to cart' \}\)\.click\(\)/);
  });

  it('runs a code-mode script from a heredoc on stdin, from an argument, and refuses an empty one', async () => {
    const { bm } = open();
    await bm(['open', `${site.origin}/shop/`]);
    const script =
      "await page.getByRole('link', { name: 'Mesh Backpack' }).click();\nreturn await page.title();\n";
    const piped = await bm(['run'], script);
    expect(piped.status).toBe(0);
    expect(piped.stdout).toContain('Mesh Backpack – Mesh Shop');
    expect((await bm(['run', 'return 6 * 7;'])).stdout).toContain('42');
    const empty = await bm(['run'], '');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/^USAGE: run:/);
  });

  it('keeps two named sessions isolated (own cookies) and lists them', async () => {
    const sh = open();
    const { bm } = sh;
    await bm(['-s', 'alice', 'open', `${site.origin}/shop/product/2`]);
    const snap = (await bm(['-s', 'alice', 'snapshot', '-i'])).stdout;
    await bm(['-s', 'alice', 'click', refOf(snap, 'button', 'Add to cart')]);
    // Both at once: different sessions run side by side.
    const [alice, bob] = await Promise.all([
      sh.bmAsync(['-s', 'alice', 'goto', `${site.origin}/shop/cart`]),
      sh.bmAsync(['goto', `${site.origin}/shop/cart`, '-s=bob']),
    ]);
    expect([alice.status, bob.status]).toEqual([0, 0]);
    expect((await bm(['-s', 'alice', 'snapshot', '-i'])).stdout).toContain('Cart (1)');
    expect((await bm(['-s', 'bob', 'snapshot', '-i'])).stdout).toContain('Cart (0)');
    const listed = (await bm(['sessions'])).stdout;
    expect(listed).toMatch(/^alice ready tabs=1$/m);
    expect(listed).toMatch(/^bob ready tabs=1$/m);
    expect((await bm(['-s', 'bob', 'close'])).stdout).toContain('session bob closed');
    expect((await bm(['sessions'])).stdout).not.toContain('bob');
  });

  it('answers usage errors with exit status 2 and page errors with 1, CODE: message on stderr', async () => {
    const { bm } = open();
    const unknown = await bm(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^USAGE: unknown command/);
    expect((await bm(['click'])).status).toBe(2);
    expect((await bm(['snapshot', '--depth', 'deep'])).status).toBe(2);
    expect((await bm(['open', site.origin, '--no-such-flag'])).status).toBe(2);
    await bm(['open', `${site.origin}/shop/`]);
    const missing = await bm(['click', '--role', 'button', '--name', 'No such button']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^ELEMENT_NOT_FOUND: /);
    const notServed = await bm(['eval', '1 + 1']);
    expect(notServed.status).toBe(1);
    expect(notServed.stderr).toMatch(/^NOT_SUPPORTED: .*\nhint: .*--cli-tools .*evaluate/);
    expect((await bm(['click', '--help'])).stdout).toMatch(/^Usage: browsermesh click <ref\|locator>/);
    const typo = await bm(['clik', '@e1']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/^USAGE: unknown command "clik" \(did you mean click\?\)/);
    // --timeout bounds this one call (not the daemon's default), and the hint speaks the CLI's words.
    const slow = await bm(['wait', '--text', 'Never shown anywhere', '--timeout', '500']);
    expect(slow.status).toBe(1);
    expect(slow.stderr).toMatch(/^OPERATION_TIMEOUT: .*\b500 ms\b/);
    expect(slow.stderr).toMatch(/\nhint: .*--timeout/);
  });

  it('applies the URL policy and the upload roots to shell commands', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bm-uploads-'));
    writeFileSync(join(root, 'note.txt'), 'hello upload');
    const { bm } = openOwn({ BROWSERMESH_BLOCKED_ADDRESSES: '127.0.0.2/32', BROWSERMESH_UPLOAD_ROOTS: root });
    const blocked = await bm(['open', `http://127.0.0.2:${new URL(site.origin).port}/shop/`]);
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toMatch(/^NAVIGATION_BLOCKED: /);
    await bm(['goto', `${site.origin}/files/upload`]);
    const outside = await bm(['upload', '--label', 'Single file', '/etc/hostname']);
    // A path outside the upload roots is the caller's bad argument: INVALID_ARGUMENT, exit status 2.
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/^INVALID_ARGUMENT: /);
    const inside = await bm(['upload', '--label', 'Single file', join(root, 'note.txt')]);
    expect(inside.status).toBe(0);
    expect((await bm(['text'])).stdout).toContain('single: note.txt 12');
  });
});
