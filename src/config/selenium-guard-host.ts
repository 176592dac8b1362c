import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import type { RawValues } from './config-file.js';
import type { Config } from './config-types.js';

/**
 * `--selenium-guard-host`: the one address the per-session guard listeners bind to, so it must be a
 * unicast IP literal of this machine (a name could resolve to several, `0.0.0.0` would listen on every
 * interface), given with the selenium provider, and reachable by the Grid's nodes.
 */
export function checkSeleniumGuardHost(config: Config, raw: RawValues): void {
  const host = config.seleniumGuardHost;
  if (host === '') return;
  const source = raw.get('seleniumGuardHost')?.source ?? 'BROWSERMESH_SELENIUM_GUARD_HOST';
  const problem = guardHostProblem(host, config.provider, config.seleniumUrl);
  if (problem) throw new ConfigError(source, problem);
}

/** Why `host` cannot be the guard's address, or undefined when it can. */
export function guardHostProblem(host: string, provider: string, seleniumUrl: string): string | undefined {
  if (provider !== 'selenium') return 'applies to the selenium provider only (set --selenium-url)';
  const version = isIP(host);
  if (version === 0) return 'must be an IP address of this machine as the Grid nodes reach it, not a name';
  const lower = host.toLowerCase();
  if (lower === '0.0.0.0' || /^[0:]+$/.test(lower)) {
    return 'must be one address, not the unspecified address (the guard would listen everywhere)';
  }
  if (version === 4 && (Number(lower.split('.')[0]) >= 224 || lower === '255.255.255.255')) {
    return 'must be a unicast address';
  }
  if (version === 6 && lower.startsWith('ff')) return 'must be a unicast address';
  if (isLoopback(lower) && !isLoopback(gridHost(seleniumUrl))) {
    return 'a loopback address is reachable only by a Grid on this machine; give the address its nodes reach';
  }
  return undefined;
}

function isLoopback(host: string): boolean {
  return /^127\./.test(host) || host === '::1' || host === 'localhost';
}

function gridHost(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return '';
  }
}
