import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The library face's examples — the README's and the TSDoc's — are the same API and
// compile as written against the published types (`'browsermesh'` mapped to the built
// dist/index.d.ts, what a user's project compiles against; the e2e project builds first).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** The ```ts blocks of a TSDoc `@example`, without the comment's leading ` * `. */
function tsdocExamples(path: string): string[] {
  const examples = [...read(path).matchAll(/@example\s*\n((?:\s*\*.*\n)+?)\s*\*\//g)];
  return examples.map((match) => {
    const body = match[1]!.replace(/^\s*\* ?/gm, '');
    return /```ts\n([\s\S]*?)```/.exec(body)?.[1] ?? '';
  });
}

function readmeLibraryExample(): string {
  const section = read('README.md').split('\n## Library\n')[1]?.split('\n## ')[0] ?? '';
  return /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
}

/** Type errors of the snippets, each compiled as an ES module importing 'browsermesh'. */
function typeErrors(snippets: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bm-examples-'));
  const files = Object.entries(snippets).map(([name, code]) => {
    const file = join(dir, `${name}.mts`);
    // Each snippet is its own module; the export keeps top-level await legal.
    writeFileSync(file, `${code}\nexport {};\n`);
    return file;
  });
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    paths: { browsermesh: [join(ROOT, 'dist/index.d.ts')] },
    // Unused bindings in an example are fine; wrong names and shapes are not.
    noUnusedLocals: false,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || files.includes(d.file.fileName))
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('library examples', () => {
  it('README and TSDoc use the same entry points, and every example compiles as written', () => {
    const snippets: Record<string, string> = {
      readme: readmeLibraryExample(),
      index: tsdocExamples('src/index.ts')[0] ?? '',
      createMesh: tsdocExamples('src/create-mesh.ts')[0] ?? '',
      operations: tsdocExamples('src/library/operations.ts')[0] ?? '',
    };
    for (const [name, code] of Object.entries(snippets)) {
      expect(code, name).toContain("from 'browsermesh'");
      // One way to build the runtime everywhere: createBrowserMesh, never `new BrowserMesh(`.
      expect(code, name).toContain('createBrowserMesh(');
      expect(code, name).not.toContain('new BrowserMesh(');
    }
    expect(typeErrors(snippets)).toEqual([]);
  }, 60_000);
});
