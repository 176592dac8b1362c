/**
 * The error reasons a route may abort with (Playwright's route.abort). A leaf module: the sandbox
 * worker validates them too, and must not load the engine to do so.
 */
export const ABORT_REASONS = [
  'failed',
  'aborted',
  'blockedbyclient',
  'connectionrefused',
  'connectionreset',
  'internetdisconnected',
  'namenotresolved',
  'timedout',
  'accessdenied',
] as const;

export type AbortReason = (typeof ABORT_REASONS)[number];
