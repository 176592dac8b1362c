import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Only for running from TypeScript sources (vitest, dev): Node 20 cannot load a `.ts` worker, so
 * the worker starts from a tiny bootstrap that registers loader hooks which transpile `.ts` with
 * the `typescript` dev dependency (and map the `.js` import specifiers our sources use to `.ts`).
 * The built package starts `sandbox-worker.js` directly and never touches this.
 */
export function devWorkerBootstrap(entryUrl: string): string {
  const typescriptUrl = pathToFileURL(createRequire(import.meta.url).resolve('typescript')).href;
  const loaderUrl = `data:text/javascript,${encodeURIComponent(loaderSource(typescriptUrl))}`;
  return `(async () => {
  const { register } = await import('node:module');
  register(${JSON.stringify(loaderUrl)});
  await import(${JSON.stringify(entryUrl)});
})();`;
}

function loaderSource(typescriptUrl: string): string {
  return `
import ts from ${JSON.stringify(typescriptUrl)};
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

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
  const output = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return { format: 'module', source: output.outputText, shortCircuit: true };
}`;
}
