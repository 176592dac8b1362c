import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import type { RawValues } from './config-file.js';
import type { Config } from './config-types.js';

/**
 * `--guard-host`: the one address the per-session guard listeners bind to, so it must be a unicast
 * IP literal of this machine (a name could resolve to several, `0.0.0.0` would listen on every
 * interface), given with a remote provider (selenium, or cdp), and reachable by its browsers.
 */
export function checkGuardHost(config: Config, raw: RawValues): void {
  const host = config.guardHost;
  if (host === '') return;
  const source = raw.get('guardHost')?.source ?? 'BROWSERMESH_GUARD_HOST';
  const problem = guardHostProblem(host, config);
  if (problem) throw new ConfigError(source, problem);
}

type GuardHostConfig = Pick<Config, 'provider' | 'seleniumUrl' | 'cdpEndpoint' | 'cdpGuard'>;

/** Why `host` cannot be the guard's address, or undefined when it can. */
export function guardHostProblem(host: string, config: GuardHostConfig): string | undefined {
  const remote = remoteUrl(config);
  if (remote === undefined) {
    return 'applies to a remote browser only (set --selenium-url or --cdp-endpoint)';
  }
  if (config.provider === 'cdp' && config.cdpGuard === 'off') {
    return 'contradicts --cdp-guard off (the guard host puts the cdp browser behind a guard)';
  }
  const version = isIP(host);
  if (version === 0)
    return 'must be an IP address of this machine as the remote browsers reach it, not a name';
  const lower = host.toLowerCase();
  if (lower === '0.0.0.0' || /^[0:]+$/.test(lower)) {
    return 'must be one address, not the unspecified address (the guard would listen everywhere)';
  }
  if (version === 4 && (Number(lower.split('.')[0]) >= 224 || lower === '255.255.255.255')) {
    return 'must be a unicast address';
  }
  if (version === 6 && lower.startsWith('ff')) return 'must be a unicast address';
  if (isLoopback(lower) && !isLoopback(hostOf(remote))) {
    return 'a loopback address is reachable only by a browser on this machine; give the address the remote browser reaches';
  }
  return undefined;
}

function remoteUrl(config: GuardHostConfig): string | undefined {
  if (config.provider === 'selenium') return config.seleniumUrl;
  if (config.provider === 'cdp') return config.cdpEndpoint;
  return undefined;
}

function isLoopback(host: string): boolean {
  return /^127\./.test(host) || host === '::1' || host === 'localhost';
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return '';
  }
}
