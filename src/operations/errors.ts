import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../errors.js';
import { toBrowserError } from '../engine/runtime.js';

/**
 * Navigation failures are reported with Chromium's net error name only (ERR_CONNECTION_REFUSED):
 * the full Playwright message can quote URLs with tokens, so it never crosses the boundary.
 */
const PROXY_UNREACHABLE = new Set(['ERR_PROXY_CONNECTION_FAILED', 'ERR_SOCKS_CONNECTION_FAILED']);
const PROXY_HINT =
  "The browser could not reach its proxy (BrowserMesh's URL guard, or --proxy-server). A --cdp-endpoint on loopback that tunnels to a browser on another machine needs --cdp-guard off; with --guard-host, the browser must reach that address and connect from the endpoint's host.";

export function toNavigationError(error: unknown): BrowserMeshError {
  if (isBrowserMeshError(error)) return error;
  const text = error instanceof Error ? error.message : '';
  const net = /net::(ERR_[A-Z_]+)/.exec(text)?.[1];
  if (net) {
    return new BrowserMeshError(ErrorCodes.NAVIGATION_FAILED, `Navigation failed: ${net}`, {
      cause: error,
      details: { reason: net },
      ...(PROXY_UNREACHABLE.has(net) ? { recoveryHint: PROXY_HINT } : {}),
    });
  }
  if (/interrupted by another navigation|frame was detached|NS_BINDING_ABORTED/i.test(text)) {
    return new BrowserMeshError(ErrorCodes.NAVIGATION_FAILED, 'Navigation was interrupted', {
      cause: error,
      details: { reason: 'interrupted' },
    });
  }
  return toBrowserError(error, 'Navigation failed');
}
