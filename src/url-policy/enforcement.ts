/**
 * What enforces the URL policy for a provider, stated for `--doctor` and `browser_runtime_info`, so an
 * operator can tell a boundary from best effort without reading docs/security.md. It mirrors the
 * choice `SessionUrlGuard.open` makes; `enforcement.test.ts` keeps the two in step.
 */
export type UrlEnforcement = 'guard_proxy' | 'interception' | 'none';

export interface UrlEnforcementInfo {
  /** guard_proxy: every connection goes through the SOCKS5 guard; interception: CDP Fetch plus socket gates. */
  enforcement: UrlEnforcement;
  /** True only where the browser cannot reach a destination without the guard's verdict. */
  boundary: boolean;
  /** One line for people: what is guarded, and what is not. */
  detail: string;
}

export interface EnforcementInputs {
  provider: string;
  /** The policy refuses anything at all (UrlPolicy.active). */
  policyActive: boolean;
  /** The operator set `--proxy-server`: their proxy takes the guard proxy's place. */
  operatorProxy: boolean;
  /** Remote browsers (Grid, cdp) get a per-session guard proxy on `--guard-host`. */
  nodeGuard?: boolean;
  /** The cdp endpoint is on this machine's loopback: its sessions' contexts use the guard proxy. */
  endpointOnThisMachine?: boolean;
  /** The provider dials every connection of its remote browsers itself, through the guard (playwright). */
  tunneled?: boolean;
}

export function urlEnforcement(inputs: EnforcementInputs): UrlEnforcementInfo {
  if (!inputs.policyActive) {
    return {
      enforcement: 'none',
      boundary: false,
      detail: 'unguarded: the URL policy refuses nothing (no --block-* setting, no origin lists)',
    };
  }
  if (inputs.provider === 'local' && !inputs.operatorProxy) {
    return {
      enforcement: 'guard_proxy',
      boundary: true,
      detail: 'guarded: every connection of the launched browser goes through the guard proxy',
    };
  }
  if (inputs.tunneled && !inputs.operatorProxy) {
    return {
      enforcement: 'guard_proxy',
      boundary: true,
      detail:
        "guarded: every connection of each session's remote browser is dialed by BrowserMesh through its guard proxy (the Playwright server's tunnel); WebRTC is off",
    };
  }
  if (inputs.provider === 'cdp' && inputs.nodeGuard && !inputs.operatorProxy) {
    return {
      enforcement: 'guard_proxy',
      boundary: true,
      detail:
        "guarded: every connection of each session's context goes through its guard proxy on --guard-host (only the cdp endpoint's host admitted); request interception stays on, service workers refused",
    };
  }
  if (inputs.provider === 'cdp' && inputs.endpointOnThisMachine && !inputs.operatorProxy) {
    return {
      enforcement: 'guard_proxy',
      boundary: true,
      detail:
        "guarded: the cdp endpoint is on this machine's loopback, so every connection of each session's context goes through its guard proxy",
    };
  }
  if (inputs.provider === 'selenium' && inputs.nodeGuard && !inputs.operatorProxy) {
    return {
      enforcement: 'guard_proxy',
      boundary: true,
      detail:
        "guarded: every connection of the Grid node's browser goes through its session's guard proxy (--guard-host, only that node admitted); request interception stays on, service workers refused",
    };
  }
  return { enforcement: 'interception', boundary: false, detail: interceptionDetail(inputs.provider) };
}

function interceptionDetail(provider: string): string {
  const why =
    provider === 'local'
      ? "the operator proxy (--proxy-server) takes the guard proxy's place"
      : provider === 'cdp'
        ? 'unguarded cdp endpoint: the browser is not on this machine and no --guard-host is set'
        : `the ${provider} browser runs elsewhere and does not go through the guard proxy`;
  return `best effort: request interception and socket gates only (${why}); service workers refused`;
}
