import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The library's types are checked by the compiler itself. test/types/library-types.ts holds
// calls that must compile and `@ts-expect-error` calls that must not (ref and locator both, neither,
// a misspelled field); tsc fails on either kind of mistake.
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const project = fileURLToPath(new URL('../types/tsconfig.json', import.meta.url));

describe('library types (compile-time)', () => {
  it('make exactly one of ref or locator a compile error and name the input types', () => {
    const result = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', timeout: 180_000 });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 200_000);
});
