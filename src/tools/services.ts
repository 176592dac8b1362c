import type { Config } from '../config/load.js';
import { stateStoreFromConfig, type StateStore } from '../persistence/store.js';

/**
 * Services shared by tools beyond the runtime itself. Later layers (persistence store, code mode)
 * add fields here; tools receive them through ToolContext so nothing is a module-level singleton.
 */
export interface Services {
  /** Saved browser state; absent means persistence is unavailable (PERSISTENCE_DISABLED). */
  stateStore?: StateStore;
  /**
   * The dashboard's address once it listens (a loopback one's own token in the fragment, never the
   * operator's): browser_runtime_info reports it.
   */
  dashboardUrl?: () => string | undefined;
}

/**
 * The services a configuration implies; every face builds them the same way. A principal (an HTTP
 * client's identity) gets its own saved-state namespace and quotas.
 */
export function createServices(config: Config, principal?: string): Services {
  return { stateStore: stateStoreFromConfig(config, principal) };
}
