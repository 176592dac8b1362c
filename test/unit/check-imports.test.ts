import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/** scripts/check-imports.mjs run on a small tree of its own: which folder pairs it refuses. */
const SCRIPT = new URL('../../scripts/check-imports.mjs', import.meta.url).pathname;
let root: string | undefined;

function check(files: Record<string, string>): { status: number | null; output: string } {
  root = mkdtempSync(join(tmpdir(), 'bm-imports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('check-imports: no two folders import each other', () => {
  it('refuses two sibling folders importing each other, naming a file of each direction', () => {
    const result = check({
      'operations/act/click.ts': "import { log } from '../journal/log.js';\nexport const click = log;\n",
      'operations/journal/log.ts': 'export const log = 1;\n',
      'operations/journal/replay.ts':
        "import type { click } from '../act/click.js';\nexport type R = typeof click;\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain(
      'folders import each other: operations/act ↔ operations/journal (operations/act/click.ts → operations/journal/, operations/journal/replay.ts → operations/act/)',
    );
  });

  it('counts a dynamic import too', () => {
    const result = check({
      'a/one.ts': "export const one = () => import('../b/two.js');\n",
      'b/two.ts': "import { three } from '../a/three.js';\nexport const two = three;\n",
      'a/three.ts': 'export const three = 3;\n',
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('folders import each other: a ↔ b');
  });

  it('accepts a folder and its own subfolder, and files directly in the tree used by everyone', () => {
    const result = check({
      'errors.ts': 'export const E = 1;\n',
      'index.ts': "export { engine } from './engine/engine.js';\n",
      'engine/engine.ts':
        "import { E } from '../errors.js';\nimport { p } from './providers/p.js';\nexport const engine = E + p;\n",
      'engine/ids.ts': 'export const id = 1;\n',
      'engine/providers/p.ts': "import { id } from '../ids.js';\nexport const p = id;\n",
    });
    expect(result.output).toContain('no two folders importing each other');
    expect(result.status).toBe(0);
  });
});
