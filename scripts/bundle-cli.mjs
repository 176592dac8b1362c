#!/usr/bin/env node
// After `tsc` (npm run build): the CLI in a few files, so a cold start reads, compiles and links ~35
// modules instead of ~800 (docs/package.md, "A bundled CLI"). dist/cli/main.js becomes a re-export of
// dist/bundle/main.js; the bundle keeps every dynamic import as a chunk of its own, so the server
// still answers `initialize` before it loads the SDK, zod and the tools. The library (dist/index.js)
// stays plain tsc output over the packages in node_modules.
// Inlined: this project's modules and the packages they import, but playwright-core (required with
// V8's code cache, src/engine/providers/playwright-loader.ts) and the QuickJS builds (their wasm sits
// next to them); the .cjs files stay files (bin.cjs loads the thin client itself).
// A module's import.meta.url is rewritten to its own file's URL: a worker started next to it, the
// code cache, the skill, the dashboard's assets and createRequire resolve as before.
// dist/bundle/chunks.json says which modules and packages each file holds (the startup e2e test
// reads it to tell what a cold start loaded, and when).
// Usage: node scripts/bundle-cli.mjs [distDir]  (default: ./dist, made by tsc just before).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const DIST = resolve(process.argv[2] ?? fileURLToPath(new URL('../dist/', import.meta.url)));
const OUT = join(DIST, 'bundle');
const ENTRY = join(DIST, 'cli', 'main.js');
const STUB = "#!/usr/bin/env node\nexport * from '../bundle/main.js';\n";

if (readFileSync(ENTRY, 'utf8') === STUB) {
  process.stderr.write(`bundle: ${ENTRY} is already the bundle's stub; run tsc first (npm run build)\n`);
  process.exit(1);
}

const posix = (path) => path.split(sep).join('/');
const EXTERNAL = /^(?:playwright-core|quickjs-emscripten|@jitl\/)/;
const PACKAGE = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/;
const inDist = (id) => id.startsWith(DIST + sep) && !id.startsWith(OUT + sep);

/** import.meta.url of an inlined module: the URL of its own file, relative to the chunk. */
const ownUrl = {
  name: 'browsermesh-own-url',
  transform(code, id) {
    if (!isAbsolute(id) || !code.includes('import.meta.url')) return null;
    const path = JSON.stringify(posix(relative(OUT, id)));
    return { code: code.replaceAll('import.meta.url', `new URL(${path}, import.meta.url).href`), map: null };
  },
};

/** Node built-ins, the EXTERNAL packages and this project's .cjs files are imported, not inlined. */
const externals = {
  name: 'browsermesh-externals',
  async resolveId(source, importer) {
    if (source.startsWith('node:')) return { id: source, external: true };
    if (EXTERNAL.test(source)) return { id: source, external: true };
    // Every chunk is in OUT, so one path relative to OUT serves them all.
    if (source.endsWith('.cjs') && importer && inDist(importer))
      return { id: posix(relative(OUT, resolve(importer, '..', source))), external: true };
    return null;
  },
};

rmSync(OUT, { recursive: true, force: true });
const build = await rolldown({
  input: { main: ENTRY },
  platform: 'node',
  plugins: [externals, ownUrl],
  logLevel: 'warn',
  // Each module runs when it did before the bundle: a dynamic import still loads its chunk on demand.
  preserveEntrySignatures: 'strict',
});
const { output } = await build.write({
  dir: OUT,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
  // The shebang stays with main.ts; stack traces keep their names.
  minify: false,
});
await build.close();

/** What a chunk holds: this project's modules (dist-relative, no .js) and the packages inlined. */
function contents(moduleIds) {
  const own = new Set();
  const packages = new Set();
  for (const id of moduleIds) {
    const pkg = PACKAGE.exec(id);
    if (pkg) packages.add(posix(pkg[1]));
    else if (inDist(id)) own.add(posix(relative(DIST, id)).replace(/\.js$/, ''));
  }
  return { modules: [...own].sort(), packages: [...packages].sort() };
}
const chunks = Object.fromEntries(
  output
    .filter((chunk) => chunk.type === 'chunk')
    .map((chunk) => [chunk.fileName, contents(chunk.moduleIds)]),
);
writeFileSync(join(OUT, 'chunks.json'), `${JSON.stringify(chunks, null, 1)}\n`);
writeFileSync(ENTRY, STUB);
const modules = Object.values(chunks).reduce((sum, c) => sum + c.modules.length, 0);
const packages = new Set(Object.values(chunks).flatMap((c) => c.packages));
process.stderr.write(
  `bundle: ${modules} modules of the CLI and ${packages.size} packages in ${Object.keys(chunks).length} files in ${OUT}\n`,
);
