import { existsSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BrowserType } from 'playwright-core';
import { requireWithCodeCache } from './code-cache.js';

/** playwright-core's code cache, generated beside the build (scripts/build-code-cache.mjs). */
export const CODE_CACHE_DIR = fileURLToPath(new URL('../../code-cache/', import.meta.url));
const HAS_COMPILE_CACHE =
  typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

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
    () => (requirePlaywright() as typeof import('playwright-core')).chromium,
  );
  return loading;
}

/**
 * With the code cache the build made, when there is one (it halves the CPU of this require), on a
 * Node without a compile cache of its own (before 22.1); else plainly, Node's cache included.
 */
function requirePlaywright(): unknown {
  if (HAS_COMPILE_CACHE || !existsSync(CODE_CACHE_DIR))
    return createRequire(import.meta.url)('playwright-core');
  return requireWithCodeCache('playwright-core', import.meta.url, CODE_CACHE_DIR);
}
