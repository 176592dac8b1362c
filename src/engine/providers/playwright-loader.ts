import { createRequire } from 'node:module';
import type { BrowserType } from 'playwright-core';

let loading: Promise<BrowserType> | undefined;

/**
 * playwright-core takes ~350 ms to import, more than the rest of the server together: it is loaded on
 * first use (a launch, a connect, a doctor check, or the warm-up after a client initializes), never at
 * startup, so `initialize` is answered before it. Type-only imports elsewhere cost nothing.
 */
export function loadChromium(): Promise<BrowserType> {
  // Required, not imported: playwright-core is CommonJS, and Node's ESM loader would first scan its
  // 3.6 MB bundle for export names (~100 ms of the import, on the thread that answers the client).
  loading ??= new Promise<void>((resolve) => setImmediate(resolve)).then(
    () => (createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')).chromium,
  );
  return loading;
}
