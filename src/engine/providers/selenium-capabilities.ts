import { isLoopbackHost } from '../../config/load.js';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { CHROMIUM_ARGS } from './local.js';
import { isRecord } from './webdriver.js';

/** Chromium's proxy switches: with the guard in place, only the guard's own are passed. */
const PROXY_SWITCH =
  /^--(no-proxy-server|proxy-server|proxy-bypass-list|proxy-pac-url|proxy-auto-detect)(=|$)/;

export interface CapabilityOptions {
  /** Merged into the requested capabilities; `goog:chromeOptions.args` are appended to ours. */
  capabilities?: Record<string, unknown>;
  headless?: boolean;
}

/**
 * Profile preferences of a Grid browser. No network prediction: Chromium would otherwise preconnect
 * to a popup's origin as its navigation starts, before the request interceptor (the URL policy on a
 * remote browser) is asked; no byte is sent, but a refused host should not even see a connection.
 */
const PREFS = { 'net.network_prediction_options': 2 };

/**
 * Chromium capabilities: our flags (headless unless asked otherwise) plus the configured extras, and
 * the session's guard as the browser's only proxy when there is one (last, so no extra overrides it).
 */
export function requestedCapabilities(
  options: CapabilityOptions,
  guard?: { server: string; bypass: string },
): Record<string, unknown> {
  const { 'goog:chromeOptions': extraChrome, ...extra } = options.capabilities ?? {};
  const chrome = isRecord(extraChrome) ? extraChrome : {};
  const given = Array.isArray(chrome.args) ? chrome.args.filter((arg) => typeof arg === 'string') : [];
  const extraArgs = guard ? given.filter((arg) => !PROXY_SWITCH.test(arg)) : given;
  const proxyArgs = guard ? [`--proxy-server=${guard.server}`, `--proxy-bypass-list=${guard.bypass}`] : [];
  const args = [...CHROMIUM_ARGS, '--no-sandbox', ...(options.headless === false ? [] : ['--headless=new'])];
  const extraPrefs = isRecord(chrome.prefs) ? chrome.prefs : {};
  return {
    browserName: 'chrome',
    'se:name': 'browsermesh',
    ...extra,
    'goog:chromeOptions': {
      ...chrome,
      args: [...args, ...extraArgs, ...proxyArgs],
      prefs: { ...PREFS, ...extraPrefs },
    },
  };
}

/**
 * The session's CDP endpoint. A Grid that reports a loopback address while we reach it by another
 * name is behind a proxy or port mapping: reach `se:cdp` by the Grid's own host name instead.
 */
export function cdpEndpointOf(capabilities: Record<string, unknown>, gridUrl: string): string {
  const raw = capabilities['se:cdp'];
  if (typeof raw !== 'string' || raw === '') {
    throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The Grid session has no CDP endpoint (se:cdp)', {
      details: { reason: 'no_cdp_endpoint' },
      recoveryHint: 'Use Selenium Grid 4 with CDP enabled (the default) and a Chromium-based node.',
    });
  }
  const endpoint = new URL(raw.includes('://') ? raw : `ws://${raw}`);
  const grid = new URL(gridUrl);
  if (isLoopbackHost(endpoint.hostname) && !isLoopbackHost(grid.hostname)) endpoint.hostname = grid.hostname;
  return endpoint.toString();
}
