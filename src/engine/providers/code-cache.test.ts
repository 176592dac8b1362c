import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { produceCodeCache, requireWithCodeCache } from './code-cache.js';

/** A CommonJS package `cc-probe-<n>` in a fresh folder, with two files that require each other's parts. */
function probePackage(n: number, answer = 42): { from: string; root: string; name: string; files: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'bm-code-cache-'));
  const name = `cc-probe-${n}`;
  const dir = join(root, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  const index = `const part = require('./part.js');
module.exports = { answer: part.value, file: __filename, dir: __dirname, resolved: require.resolve('./part.js'), self: module.exports === exports };\n`;
  const part = `exports.value = ${answer};\n`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
  writeFileSync(join(dir, 'index.js'), index);
  writeFileSync(join(dir, 'part.js'), part);
  return { from: join(root, 'main.js'), root: dir, name, files: [index, part] };
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('requireWithCodeCache', () => {
  it('makes one cache file per source, named by its SHA-256, and the package works', () => {
    const probe = probePackage(1);
    const cache = mkdtempSync(join(tmpdir(), 'bm-code-cache-out-'));
    expect(produceCodeCache(probe.name, probe.from, cache)).toBe(2);
    expect(readdirSync(cache).sort()).toEqual(probe.files.map((f) => `${sha(f)}.bin`).sort());
    const loaded = createRequire(probe.from)(probe.name) as Record<string, unknown>;
    expect(loaded).toEqual({
      answer: 42,
      file: join(probe.root, 'index.js'),
      dir: probe.root,
      resolved: join(probe.root, 'part.js'),
      self: true,
    });
  });

  it("uses the cache V8 accepts, and compiles as usual a source that is not the cache's", () => {
    const cache = mkdtempSync(join(tmpdir(), 'bm-code-cache-out-'));
    const first = probePackage(2);
    produceCodeCache(first.name, first.from, cache);
    // The same sources in another package: the cache is found by content and accepted.
    const same = probePackage(3);
    const compiledWithout: string[] = [];
    const loaded = requireWithCodeCache(same.name, same.from, cache, ({ file }) =>
      compiledWithout.push(file),
    );
    expect(compiledWithout).toEqual([]);
    expect(loaded).toMatchObject({ answer: 42, dir: same.root });
    // A changed source has no cache file: compiled as usual, with its own result.
    const changed = probePackage(4, 7);
    const missed: string[] = [];
    const other = requireWithCodeCache(changed.name, changed.from, cache, ({ file }) => missed.push(file));
    expect(other).toMatchObject({ answer: 7 });
    expect(missed).toEqual([join(cache, `${sha(changed.files[1] ?? '')}.bin`)]);
  });

  it('compiles as usual when a cache file is not V8 code cache', () => {
    const probe = probePackage(5);
    const cache = mkdtempSync(join(tmpdir(), 'bm-code-cache-out-'));
    for (const source of probe.files) writeFileSync(join(cache, `${sha(source)}.bin`), 'not a code cache');
    const rejected: string[] = [];
    const loaded = requireWithCodeCache(probe.name, probe.from, cache, ({ file }) => rejected.push(file));
    expect(loaded).toMatchObject({ answer: 42 });
    expect(rejected).toHaveLength(2);
  });

  it('leaves every other require as it was', () => {
    const probe = probePackage(6);
    const outside = join(probe.root, '..', '..', 'outside.js');
    writeFileSync(outside, 'module.exports = __filename;\n');
    const cache = mkdtempSync(join(tmpdir(), 'bm-code-cache-out-'));
    produceCodeCache(probe.name, probe.from, cache);
    expect(createRequire(probe.from)(outside)).toBe(outside);
    expect(readdirSync(cache)).toHaveLength(2);
  });
});
