import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));
const SRC = resolve(HERE, '..');

/** Modules a source file loads at run time: relative imports and re-exports that are not type-only. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^(?:import|export)(?!\s+type\s)[^;]*?from\s+'([^']+)'/gms)];
  return specifiers.map((match) => match[1] ?? '');
}

/** Every module the sandbox worker's entry loads, as paths under src/ (and bare package names). */
function workerGraph(): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    for (const specifier of runtimeImports(file)) {
      if (!specifier.startsWith('.')) {
        seen.add(specifier);
        continue;
      }
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      const key = relative(SRC, target);
      if (seen.has(key)) continue;
      seen.add(key);
      visit(target);
    }
  };
  visit(join(HERE, 'sandbox-worker.ts'));
  return seen;
}

describe('the sandbox worker thread', () => {
  // Each worker loads its own copy of every module it imports, on the path to the first script.
  it('loads no engine, browser driver, config or tools module', () => {
    const graph = [...workerGraph()];
    expect(graph).toContain('code-mode/prelude.ts');
    expect(graph.filter((path) => /^(engine|config|tools|mcp|snapshot)\//.test(path))).toEqual([]);
    expect(graph).not.toContain('playwright-core');
  });
});
