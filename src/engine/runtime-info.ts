import type { Config } from '../config/load.js';
import type { BrowserProvider } from './providers/provider.js';
import type { RuntimeInfo } from './runtime-types.js';
import type { Session } from './session.js';
import { urlEnforcement } from '../url-policy/enforcement.js';
import { VERSIONS } from './versions.js';

/** What `runtimeInfo` reads from the runtime: its sessions, their principals and its settings. */
export interface RuntimeInfoSource {
  config: Config;
  provider: BrowserProvider;
  sessions: Iterable<Session>;
  principalOf(sessionId: string): string | undefined;
  urlPolicyActive: boolean;
  operatorProxy: boolean;
}

/**
 * Versions, the browser's status, the session counts and how the URL policy is enforced. With a
 * principal (HTTP), counts and the limit are that principal's only: others stay invisible.
 */
export function runtimeInfoOf(source: RuntimeInfoSource, principal: string | undefined): RuntimeInfo {
  const { config, provider } = source;
  const all = [...source.sessions].filter(
    (s) => principal === undefined || source.principalOf(s.id) === principal,
  );
  return {
    versions: { ...VERSIONS },
    browser: provider.status(),
    sessions: {
      live: all.filter((s) => s.state === 'ready' || s.state === 'closing').length,
      failed: all.filter((s) => s.state === 'failed').length,
      max: principal === undefined ? config.maxSessions : config.maxSessionsPerPrincipal,
    },
    urlPolicy: urlEnforcement({
      provider: provider.name,
      policyActive: source.urlPolicyActive,
      operatorProxy: source.operatorProxy,
      nodeGuard: provider.guardHost !== undefined,
      endpointOnThisMachine: provider.onThisMachine === true,
      tunneled: provider.tunnelsGuard === true,
    }),
  };
}
