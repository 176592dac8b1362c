import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { ContextSettings } from './context-settings.js';
import type { BrowserProvider } from './providers/provider.js';
import type { CreateSessionInput } from './runtime-types.js';
import { SessionUrlGuard, type UrlPolicy } from '../url-policy/index.js';

/**
 * What a session may still ask for when every session shares one persistent profile
 * (`--user-data-dir`): the context was made once at launch, so context-wide settings and a saved
 * state to start from cannot be its own. Only a viewport, which Chromium sets per page, can.
 * Anything else is NOT_SUPPORTED rather than silently ignored.
 */
export function checkSharedProfileInput(input: CreateSessionInput): ContextSettings {
  if (input.storageState !== undefined) {
    throw notWithProfile('storageState', 'Start without a saved state: the profile keeps its own.');
  }
  const given = Object.entries(input.contextSettings ?? {}).filter(([, value]) => value !== undefined);
  const other = given.find(([key]) => key !== 'viewport');
  if (other) {
    throw notWithProfile(
      `contextSettings.${other[0]}`,
      'The server sets these for the shared profile (flags); only a viewport can be per session.',
    );
  }
  const viewport = input.contextSettings?.viewport;
  if (viewport === null) {
    throw notWithProfile('contextSettings.viewport', 'Give a width and height, or leave it out.');
  }
  return viewport === undefined ? {} : { viewport };
}

function notWithProfile(field: string, recoveryHint: string): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.NOT_SUPPORTED,
    `${field} is not available while sessions share a persistent profile (--user-data-dir)`,
    { details: { field, reason: 'shared_profile' }, recoveryHint },
  );
}

/**
 * The URL guard for a new session: its own guard proxy, or, when sessions share one profile, a view
 * of the profile's guard (the browser was launched with it, and it outlives any one session).
 */
export function openSessionGuard(
  provider: BrowserProvider,
  policy: UrlPolicy,
  operatorProxy: boolean,
): Promise<SessionUrlGuard> {
  if (provider.sharedUrlGuard) return provider.sharedUrlGuard();
  if (provider.tunnelsGuard) return SessionUrlGuard.openTunneled(policy, operatorProxy);
  if (provider.guardHost) {
    return SessionUrlGuard.openForNode(policy, provider.guardHost, operatorProxy, provider.guardDelivery);
  }
  // Only a browser on this machine (launched here, or a CDP endpoint on loopback) can reach a guard
  // proxy on this machine's loopback.
  return SessionUrlGuard.open(policy, provider.onThisMachine === true, operatorProxy);
}
