import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Only for running from TypeScript sources (vitest, dev): Node 20 cannot load a `.ts` worker, so
 * the worker starts from a tiny bootstrap that registers loader hooks which transpile `.ts` with
 * the `typescript` dev dependency (and map the `.js` import specifiers our sources use to `.ts`).
 * The built package starts `sandbox-worker.js` directly and never touches this.
 *
 * Each worker has its own hooks thread, and loading `typescript` there costs seconds of CPU: the
 * transpiled files are kept in `node_modules/.cache/browsermesh-dev-worker`, keyed by the
 * compiler's version and the file's content (so never stale), and `typescript` is loaded only
 * when a file is not there yet. A fresh worker then starts about ten times faster.
 */
export function devWorkerBootstrap(entryUrl: string): string {
  const require = createRequire(import.meta.url);
  const typescriptPath = require.resolve('typescript');
  const { version } = require('typescript/package.json') as { version: string };
  const cacheDir = join(dirname(dirname(dirname(typescriptPath))), '.cache', 'browsermesh-dev-worker');
  const loader = loaderSource(pathToFileURL(typescriptPath).href, version, cacheDir);
  const loaderUrl = `data:text/javascript,${encodeURIComponent(loader)}`;
  return `(async () => {
  const { register } = await import('node:module');
  register(${JSON.stringify(loaderUrl)});
  await import(${JSON.stringify(entryUrl)});
})();`;
}

function loaderSource(typescriptUrl: string, version: string, cacheDir: string): string {
  return `
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';

const cacheDir = ${JSON.stringify(cacheDir)};
let ts;

export async function resolve(specifier, context, next) {
  const relative = specifier.startsWith('./') || specifier.startsWith('../');
  if (relative && specifier.endsWith('.js') && context.parentURL && context.parentURL.endsWith('.ts')) {
    const candidate = new URL(specifier, context.parentURL);
    if (!existsSync(fileURLToPath(candidate))) return next(specifier.slice(0, -3) + '.ts', context);
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const text = await readFile(fileName, 'utf8');
  const key = createHash('sha256').update(${JSON.stringify(version)}).update('\\0').update(text).digest('hex');
  const cached = join(cacheDir, key + '.js');
  const hit = await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return { format: 'module', source: hit, shortCircuit: true };
  ts ??= (await import(${JSON.stringify(typescriptUrl)})).default;
  const source = ts.transpileModule(text, {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  // Written aside and renamed into place: a worker starting beside this one reads a whole file or none.
  const aside = cached + '.' + process.pid + '-' + threadId;
  await mkdir(cacheDir, { recursive: true })
    .then(() => writeFile(aside, source))
    .then(() => rename(aside, cached))
    .catch(() => undefined);
  return { format: 'module', source, shortCircuit: true };
}`;
}
