import type { Config } from '../config/load.js';
import type { ContextSettings, OperatorContextOptions } from './context-settings.js';

export interface SessionDefaults {
  /** Defaults a session's own contextSettings override. */
  settings: ContextSettings;
  /** Operator-only options (proxy, headers, init scripts, storage state file). */
  operator: OperatorContextOptions;
}

/** The server-wide browser defaults (contextSettings for every session), from an already validated Config. */
export function sessionDefaultsFromConfig(config: Config): SessionDefaults {
  const settings: ContextSettings = {};
  if (config.device) settings.device = config.device;
  const viewport = parseViewport(config.viewport);
  if (viewport) settings.viewport = viewport;
  if (config.userAgent) settings.userAgent = config.userAgent;
  if (config.locale) settings.locale = config.locale;
  if (config.timezone) settings.timezoneId = config.timezone;
  if (config.ignoreHttpsErrors) settings.ignoreHttpsErrors = true;
  const operator: OperatorContextOptions = {};
  const proxy = toProxy(config.proxyServer, config.proxyBypass);
  if (proxy) operator.proxy = proxy;
  if (config.extraHttpHeaders && Object.keys(config.extraHttpHeaders).length > 0)
    operator.extraHttpHeaders = { ...config.extraHttpHeaders };
  if (config.initScripts && config.initScripts.length > 0) operator.initScriptPaths = [...config.initScripts];
  if (config.storageState) operator.storageStatePath = config.storageState;
  return { settings, operator };
}

function parseViewport(text: string | undefined): { width: number; height: number } | undefined {
  const match = /^(\d+)x(\d+)$/.exec(text ?? '');
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

/**
 * Credentials in the proxy URL move to Playwright's username/password, so the server string handed
 * to Chromium (and any error it produces) carries none.
 */
function toProxy(server: string | undefined, bypass: string[] | undefined): OperatorContextOptions['proxy'] {
  if (!server) return undefined;
  const url = new URL(server);
  const proxy: NonNullable<OperatorContextOptions['proxy']> = {
    server: `${url.protocol}//${url.host}`,
  };
  if (url.username !== '') proxy.username = decodeURIComponent(url.username);
  if (url.password !== '') proxy.password = decodeURIComponent(url.password);
  if (bypass && bypass.length > 0) proxy.bypass = bypass.join(',');
  return proxy;
}
