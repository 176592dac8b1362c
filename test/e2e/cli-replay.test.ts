import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { shell, type Shell } from './cli-face-support.js';
import { secretForms } from '../../src/redaction/secret-forms.js';
import { codeForms } from '../../src/operations/export/export-secrets.js';

// The shell face of export and replay: `browsermesh export-test > file` holds no spelling of a secret
// the page echoed into a button, and `browsermesh replay FILE` runs the exported spec again on a
// fresh session with no model.

const SECRET = `it's-"CANARY"-9x`;
const SPELLINGS = [...new Set([...secretForms(SECRET), ...codeForms(SECRET)])];
let site: FixtureServer;
let sh: Shell;
let dir: string;

beforeAll(async () => {
  site = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'bm-replay-'));
  const secrets = join(dir, 'secrets.env');
  writeFileSync(secrets, `TOKEN=${SECRET}\nEMAIL=ada-cli@example.com\n`, { mode: 0o600 });
  sh = shell({ BROWSERMESH_SECRETS_FILE: secrets });
});
afterAll(async () => {
  await sh?.cleanup();
  await site?.close();
});

describe('browsermesh export-test and replay', () => {
  it('export-test writes no spelling of a secret the page echoed into a button name', async () => {
    const { bm } = sh;
    expect((await bm(['-s', 'echo', 'open', site.url('/replay/echo')])).status).toBe(0);
    expect((await bm(['-s', 'echo', 'fill', '--label', 'Token', '{{secret:TOKEN}}'])).status).toBe(0);
    expect((await bm(['-s', 'echo', 'click', '--css', '#revoke'])).status).toBe(0);
    const spec = await bm(['-s', 'echo', 'export-test']);
    expect(spec.status, spec.stderr).toBe(0);
    for (const form of SPELLINGS) expect(spec.stdout).not.toContain(form);
    expect(spec.stdout).toContain("await page.locator('#revoke').click();");
  });

  it('replay FILE runs an exported checkout on a fresh session', async () => {
    const { bm } = sh;
    const s = ['-s', 'agent'];
    await bm([...s, 'open', site.url('/shop/product/3')]);
    await bm([...s, 'click', '--role', 'button', '--name', 'Add to cart']);
    await bm([...s, 'goto', site.url('/replay/checkout')]);
    await bm([...s, 'fill', '--label', 'Full name', 'Ada Shell']);
    await bm([...s, 'fill', '--label', 'Email', '{{secret:EMAIL}}']);
    await bm([...s, 'click', '--role', 'button', '--name', 'Place order']);
    expect((await bm([...s, 'text'])).stdout).toContain('Thank you for your order');
    const spec = await bm([...s, 'export-test']);
    const file = join(dir, 'checkout.spec.ts');
    writeFileSync(file, spec.stdout);
    const replayed = await bm(['-s', 'fresh', 'replay', file]);
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.stdout).toMatch(/passed: \d+ steps, 0 heals/);
    // Where the button is gone, the replay stops there with the candidates: status 1.
    await bm(['-s', 'gone', 'open', site.url('/replay/variant?name=gone')]);
    const stopped = await bm(['-s', 'gone', 'replay', file]);
    expect(stopped.status).toBe(1);
    expect(stopped.stdout).toMatch(/failed at step \d+ \(line \d+\)/);
    expect(stopped.stdout).toContain('"Save for later"');
    const missing = await bm(['-s', 'fresh', 'replay', join(dir, 'nope.spec.ts')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/replay: cannot read/);
  });
});
