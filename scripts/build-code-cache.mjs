#!/usr/bin/env node
// After `tsc` (npm run build): V8's code cache for playwright-core, in dist/code-cache, so the
// server's first launch compiles less of it (src/engine/providers/code-cache.ts). Made with this
// Node; another Node's V8 rejects it and compiles as usual. Regenerated from scratch each build.
import { rmSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const { produceCodeCache } = await import(join(dist, 'engine/providers/code-cache.js'));
const { CODE_CACHE_DIR } = await import(join(dist, 'engine/providers/playwright-loader.js'));
rmSync(CODE_CACHE_DIR, { recursive: true, force: true });
// Node 22.1+ keeps its own compile cache (the server turns it on), and the loader uses that instead.
if (typeof module.enableCompileCache === 'function') process.exit(0);
const files = produceCodeCache(
  'playwright-core',
  join(dist, 'engine/providers/playwright-loader.js'),
  CODE_CACHE_DIR,
);
process.stderr.write(`code cache: ${files} playwright-core files in ${CODE_CACHE_DIR}\n`);
