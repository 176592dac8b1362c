import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/load.js';
import { runDoctor } from './doctor.js';

// --doctor says whether the browser is guarded. Remote providers are not contacted by
// --doctor, so no endpoint below is ever reached.

async function doctorLines(overrides: Parameters<typeof defaultConfig>[0]): Promise<string> {
  let out = '';
  await runDoctor(defaultConfig({ persistence: false, ...overrides }), (line) => (out += line));
  return out;
}

describe('--doctor: whether the browser is guarded', () => {
  it("cdp provider on this machine's loopback: the guard proxy, a boundary", async () => {
    const out = await doctorLines({ provider: 'cdp', cdpEndpoint: 'http://127.0.0.1:9' });
    expect(out).toMatch(
      /^ok +url policy: guard_proxy, guarded: the cdp endpoint is on this machine's loopback/m,
    );
  });

  it('cdp provider tunnelled (--cdp-guard off): an unguarded cdp endpoint, best effort', async () => {
    const out = await doctorLines({ provider: 'cdp', cdpEndpoint: 'http://127.0.0.1:9', cdpGuard: 'off' });
    expect(out).toMatch(/^ok +url policy: interception, best effort: .*unguarded cdp endpoint/m);
  });

  it('selenium provider: interception, best effort', async () => {
    const out = await doctorLines({ provider: 'selenium', seleniumUrl: 'http://127.0.0.1:9/wd/hub' });
    expect(out).toMatch(/^ok +url policy: interception, best effort/m);
  });

  it('selenium provider with --guard-host: the guard proxy, a boundary', async () => {
    const out = await doctorLines({
      provider: 'selenium',
      seleniumUrl: 'http://127.0.0.1:9/wd/hub',
      guardHost: '127.0.0.1',
    });
    expect(out).toMatch(/^ok +url policy: guard_proxy, guarded: .*Grid node's browser/m);
  });

  it('cdp provider on another machine with --guard-host: the guard proxy, a boundary', async () => {
    const out = await doctorLines({
      provider: 'cdp',
      cdpEndpoint: 'http://10.9.8.7:9',
      guardHost: '10.9.8.6',
    });
    expect(out).toMatch(
      /^ok +url policy: guard_proxy, guarded: .*--guard-host \(only the cdp endpoint's host/m,
    );
  });

  it('nothing to refuse: unguarded', async () => {
    const out = await doctorLines({
      provider: 'cdp',
      cdpEndpoint: 'http://127.0.0.1:9',
      blockLinkLocal: false,
    });
    expect(out).toMatch(/^ok +url policy: none, unguarded/m);
  });
});
