import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../config/load.js';
import { BrowserMesh } from '../engine/runtime.js';
import { urlEnforcement } from './enforcement.js';
import { SessionUrlGuard, urlPolicyFromConfig } from './index.js';

// --doctor and browser_runtime_info say whether the browser is guarded, per provider.
// runtimeInfo() never launches or connects, so the remote endpoints below are never contacted.

const meshes: BrowserMesh[] = [];
const guards: SessionUrlGuard[] = [];
afterEach(async () => {
  await Promise.all(guards.splice(0).map((guard) => guard.close()));
  await Promise.all(meshes.splice(0).map((mesh) => mesh.shutdown()));
});

function infoFor(overrides: Partial<Config>) {
  const mesh = new BrowserMesh({
    config: defaultConfig({ dataDir: '/tmp/bm-enforcement-unused', ...overrides }),
  });
  meshes.push(mesh);
  return mesh.runtimeInfo().urlPolicy;
}

describe('what enforces the URL policy, per provider', () => {
  it('local provider, stdio defaults: the guard proxy, a boundary', () => {
    expect(infoFor({})).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
  });

  it('local provider over HTTP: the guard proxy', () => {
    expect(infoFor({ http: true })).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
  });

  it('local provider with an operator proxy: interception, best effort', () => {
    const info = infoFor({ proxyServer: 'http://127.0.0.1:9' });
    expect(info).toMatchObject({ enforcement: 'interception', boundary: false });
    expect(info.detail).toContain('--proxy-server');
  });

  it('cdp provider on this machine (a loopback endpoint): the guard proxy, a boundary', () => {
    for (const cdpEndpoint of [
      'http://127.0.0.1:9',
      'ws://localhost:9/devtools/browser/x',
      'http://[::1]:9',
    ]) {
      const info = infoFor({ provider: 'cdp', cdpEndpoint });
      expect(info).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
      expect(info.detail).toContain("this machine's loopback");
    }
    const withProxy = infoFor({
      provider: 'cdp',
      cdpEndpoint: 'http://127.0.0.1:9',
      proxyServer: 'http://127.0.0.1:8',
    });
    expect(withProxy).toMatchObject({ enforcement: 'interception', boundary: false });
  });

  it('cdp provider elsewhere, tunnelled (--cdp-guard off) or per session: interception only', () => {
    for (const overrides of [
      { cdpEndpoint: 'http://browsers.example:9' },
      { cdpEndpoint: 'http://127.0.0.1:9', cdpGuard: 'off' as const },
      { cdpEndpoint: 'ws://127.0.0.1:9/{session}' },
    ]) {
      const info = infoFor({ provider: 'cdp', ...overrides });
      expect(info).toMatchObject({ enforcement: 'interception', boundary: false });
      expect(info.detail).toContain('unguarded cdp endpoint');
    }
  });

  it('cdp provider on another machine with a guard host: the guard proxy, a boundary', () => {
    for (const cdpEndpoint of ['http://browsers.example:9', 'wss://browsers.example/{session}']) {
      const info = infoFor({ provider: 'cdp', cdpEndpoint, guardHost: '10.1.2.3' });
      expect(info).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
      expect(info.detail).toContain('--guard-host');
      expect(info.detail).toContain("cdp endpoint's host admitted");
    }
    const withProxy = infoFor({
      provider: 'cdp',
      cdpEndpoint: 'http://browsers.example:9',
      guardHost: '10.1.2.3',
      proxyServer: 'http://127.0.0.1:8',
    });
    expect(withProxy).toMatchObject({ enforcement: 'interception', boundary: false });
  });

  it('says guard_proxy exactly when a cdp session gets a guard proxy as its context proxy', async () => {
    const cases: Array<[Partial<Config>, boolean]> = [
      [{}, false],
      [{ proxyServer: 'http://127.0.0.1:9' }, true],
      [{ blockLinkLocal: false }, false],
    ];
    for (const [overrides, operatorProxy] of cases) {
      const policy = urlPolicyFromConfig(defaultConfig(overrides));
      const guard = await SessionUrlGuard.openForNode(policy, '127.0.0.1', operatorProxy, 'context');
      guards.push(guard);
      const said = urlEnforcement({
        provider: 'cdp',
        policyActive: policy.active,
        operatorProxy,
        nodeGuard: true,
      });
      const proxy = guard.contextProxy();
      expect(said.enforcement === 'guard_proxy').toBe(proxy !== undefined);
      // The proxy is the context's, at the guard host itself, with no implicit bypass.
      if (proxy) expect(proxy).toEqual({ server: guard.nodeProxy()?.server, bypass: '<-loopback>' });
      if (proxy) expect(proxy.server).toMatch(/^socks5:\/\/127\.0\.0\.1:\d+$/);
    }
  });

  it('selenium provider: interception only', () => {
    const info = infoFor({ provider: 'selenium', seleniumUrl: 'http://127.0.0.1:9/wd/hub' });
    expect(info).toMatchObject({ enforcement: 'interception', boundary: false });
  });

  it('selenium provider with a guard host: the guard proxy, a boundary', () => {
    const grid = { provider: 'selenium' as const, seleniumUrl: 'http://127.0.0.1:9/wd/hub' };
    const info = infoFor({ ...grid, guardHost: '127.0.0.1' });
    expect(info).toMatchObject({ enforcement: 'guard_proxy', boundary: true });
    expect(info.detail).toContain('--guard-host');
    const withProxy = infoFor({ ...grid, guardHost: '127.0.0.1', proxyServer: 'http://127.0.0.1:9' });
    expect(withProxy).toMatchObject({ enforcement: 'interception', boundary: false });
  });

  it('says guard_proxy exactly when a Grid session gets a guard proxy at launch', async () => {
    const cases: Array<[Partial<Config>, boolean]> = [
      [{}, false],
      [{ proxyServer: 'http://127.0.0.1:9' }, true],
      [{ blockLinkLocal: false }, false],
    ];
    for (const [overrides, operatorProxy] of cases) {
      const policy = urlPolicyFromConfig(defaultConfig(overrides));
      const guard = await SessionUrlGuard.openForNode(policy, '127.0.0.1', operatorProxy);
      guards.push(guard);
      const said = urlEnforcement({
        provider: 'selenium',
        policyActive: policy.active,
        operatorProxy,
        nodeGuard: true,
      });
      expect(said.enforcement === 'guard_proxy').toBe(guard.nodeProxy() !== undefined);
      // The proxy is a launch flag of the node's browser, never a context option.
      expect(guard.contextProxy()).toBeUndefined();
    }
  });

  it('nothing to refuse: unguarded', () => {
    expect(infoFor({ blockLinkLocal: false })).toMatchObject({ enforcement: 'none', boundary: false });
  });

  it('says guard_proxy exactly when a local session gets a guard proxy', async () => {
    const cases: Array<[Partial<Config>, boolean]> = [
      [{}, false],
      [{ proxyServer: 'http://127.0.0.1:9' }, true],
      [{ blockLinkLocal: false }, false],
    ];
    for (const [overrides, operatorProxy] of cases) {
      const policy = urlPolicyFromConfig(defaultConfig(overrides));
      const guard = await SessionUrlGuard.open(policy, true, operatorProxy);
      guards.push(guard);
      const said = urlEnforcement({ provider: 'local', policyActive: policy.active, operatorProxy });
      expect(said.enforcement === 'guard_proxy').toBe(guard.contextProxy() !== undefined);
    }
  });
});
