import { describe, expect, it } from 'vitest';
import { cdpEndpointOf, requestedCapabilities } from './selenium-capabilities.js';
import { WebDriverClient } from './webdriver.js';

describe('requestedCapabilities', () => {
  it('asks for headless Chromium and appends configured args', () => {
    const caps = requestedCapabilities({
      headless: true,
      capabilities: {
        platformName: 'linux',
        'goog:chromeOptions': { args: ['--lang=de'], binary: '/opt/chrome' },
      },
    });
    expect(caps).toMatchObject({ browserName: 'chrome', platformName: 'linux' });
    const chrome = caps['goog:chromeOptions'] as { args: string[]; binary: string };
    expect(chrome.binary).toBe('/opt/chrome');
    expect(chrome.args).toContain('--headless=new');
    expect(chrome.args.at(-1)).toBe('--lang=de');
    const headed = requestedCapabilities({ headless: false })['goog:chromeOptions'] as { args: string[] };
    expect(headed.args).not.toContain('--headless=new');
  });

  it("makes the session's guard the browser's only proxy, after any configured proxy switch", () => {
    const guard = { server: 'socks5://127.0.0.1:4567', bypass: '<-loopback>' };
    const caps = requestedCapabilities(
      {
        capabilities: {
          'goog:chromeOptions': {
            args: [
              '--lang=de',
              '--proxy-server=http://127.0.0.1:9',
              '--no-proxy-server',
              '--proxy-pac-url=x',
            ],
          },
        },
      },
      guard,
    );
    const args = (caps['goog:chromeOptions'] as { args: string[] }).args;
    expect(args.slice(-2)).toEqual([
      '--proxy-server=socks5://127.0.0.1:4567',
      '--proxy-bypass-list=<-loopback>',
    ]);
    expect(args.filter((arg) => arg.includes('proxy'))).toHaveLength(2);
    expect(args).toContain('--lang=de');
    // Without a guard, the operator's own switches pass through as before.
    const plain = requestedCapabilities({
      capabilities: { 'goog:chromeOptions': { args: ['--no-proxy-server'] } },
    });
    expect((plain['goog:chromeOptions'] as { args: string[] }).args.at(-1)).toBe('--no-proxy-server');
  });

  it('turns network prediction (preconnects) off unless the configured prefs say otherwise', () => {
    const prefsOf = (caps: Record<string, unknown>): Record<string, unknown> =>
      (caps['goog:chromeOptions'] as { prefs: Record<string, unknown> }).prefs;
    expect(prefsOf(requestedCapabilities({}))).toEqual({ 'net.network_prediction_options': 2 });
    const merged = requestedCapabilities({
      capabilities: { 'goog:chromeOptions': { prefs: { 'intl.accept_languages': 'de' } } },
    });
    expect(prefsOf(merged)).toEqual({ 'net.network_prediction_options': 2, 'intl.accept_languages': 'de' });
    const overridden = requestedCapabilities({
      capabilities: { 'goog:chromeOptions': { prefs: { 'net.network_prediction_options': 0 } } },
    });
    expect(prefsOf(overridden)).toEqual({ 'net.network_prediction_options': 0 });
  });
});

describe('cdpEndpointOf', () => {
  it('uses se:cdp, reaching a loopback-reported endpoint by the Grid host name', () => {
    const caps = { 'se:cdp': 'ws://127.0.0.1:4444/session/abc/se/cdp' };
    expect(cdpEndpointOf(caps, 'http://127.0.0.1:4444/')).toBe('ws://127.0.0.1:4444/session/abc/se/cdp');
    expect(cdpEndpointOf(caps, 'http://grid.internal:4444/')).toBe(
      'ws://grid.internal:4444/session/abc/se/cdp',
    );
    expect(cdpEndpointOf({ 'se:cdp': 'ws://node-7:5555/x' }, 'http://grid:4444/')).toBe('ws://node-7:5555/x');
  });

  it('refuses a session without se:cdp with a safe reason', () => {
    expect(() => cdpEndpointOf({}, 'http://grid:4444/')).toThrow(
      expect.objectContaining({ code: 'BROWSER_ERROR', details: { reason: 'no_cdp_endpoint' } }),
    );
  });
});

describe('WebDriverClient', () => {
  it('moves URL credentials into a Basic header and out of the URL', () => {
    const client = new WebDriverClient({
      url: 'https://ann:s%40cret@grid.example/wd/hub?x=1',
      headers: { 'X-Team': 'a' },
    });
    expect(client.baseUrl).toBe('https://grid.example/wd/hub/');
    expect(client.headers).toEqual({
      'X-Team': 'a',
      Authorization: `Basic ${Buffer.from('ann:s@cret').toString('base64')}`,
    });
  });
});
