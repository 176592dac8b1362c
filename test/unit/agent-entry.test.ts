/**
 * `import 'browsermesh'` must never load an agent framework: Mastra, the AI SDK and LangChain are
 * optional peers, reached only through their subpaths (`browsermesh/mastra`, `/ai-sdk`,
 * `/langchain`). Walks the static and dynamic import graph of the entry, module by module.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FRAMEWORK = /^(ai|ai\/.*|@ai-sdk\/.*|@mastra\/.*|@langchain\/.*)$/;

/** Every bare package specifier reachable from `entry` through local imports (type-only imports skipped). */
function packagesReachedFrom(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const specifiers = [
      ...[...source.matchAll(/^\s*(?:import|export)(?!\s+type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(
        (m) => m[1],
      ),
      ...[...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
      ...[...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
    ];
    for (const specifier of specifiers) {
      if (!specifier) continue;
      if (specifier.startsWith('.')) queue.push(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!packages.has(specifier)) packages.set(specifier, file);
    }
  }
  return packages;
}

describe('package entry points', () => {
  it('browsermesh (src/index.ts) reaches no agent framework', () => {
    const reached = packagesReachedFrom(join(ROOT, 'src/index.ts'));
    const frameworks = [...reached]
      .filter(([name]) => FRAMEWORK.test(name))
      .map(([name, from]) => `${name} (from ${from})`);
    expect(frameworks).toEqual([]);
    expect(reached.has('playwright-core')).toBe(true);
  });

  it('each adapter subpath loads only its own framework', () => {
    const frameworksOf = (adapter: string): string[] =>
      [...packagesReachedFrom(join(ROOT, `src/agent/adapters/${adapter}.ts`)).keys()]
        .filter((name) => FRAMEWORK.test(name))
        .sort();
    expect(frameworksOf('mastra')).toEqual(['@mastra/core/browser', '@mastra/core/tools']);
    expect(frameworksOf('ai-sdk')).toEqual(['ai']);
    expect(frameworksOf('langchain')).toEqual(['@langchain/core/messages', '@langchain/core/tools']);
  });

  it('package.json exposes the adapters as subpaths and keeps the frameworks optional peers', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { import: string; types: string }>;
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional: boolean }>;
    };
    for (const [subpath, file] of [
      ['./mastra', 'mastra'],
      ['./ai-sdk', 'ai-sdk'],
      ['./langchain', 'langchain'],
    ] as const) {
      expect(pkg.exports[subpath]).toEqual({
        types: `./dist/agent/adapters/${file}.d.ts`,
        import: `./dist/agent/adapters/${file}.js`,
      });
    }
    for (const name of ['@mastra/core', 'ai', '@langchain/core']) {
      expect(pkg.dependencies[name]).toBeUndefined();
      expect(pkg.peerDependencies[name]).toBeDefined();
      expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
    }
  });
});
