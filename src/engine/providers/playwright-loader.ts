import type { BrowserType } from 'playwright-core';

let loading: Promise<BrowserType> | undefined;

/**
 * playwright-core takes ~350 ms to import, more than the rest of the server together: it is loaded on
 * first use (a launch, a connect, a doctor check, or the warm-up after a client initializes), never at
 * startup, so `initialize` is answered before it. Type-only imports elsewhere cost nothing.
 */
export function loadChromium(): Promise<BrowserType> {
  loading ??= import('playwright-core').then((module) => module.chromium);
  return loading;
}
