import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_BEGIN, CONFIG_END, renderConfigTable } from '../../src/config/reference.js';
import { ALL_TOOLS } from '../../src/tools/index.js';
import { renderToolTable, TOOLS_BEGIN, TOOLS_END } from '../../src/tools/reference.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function block(begin: string, end: string): string {
  return readme.slice(readme.indexOf(begin), readme.indexOf(end) + end.length);
}

describe('README', () => {
  it('lists exactly the tools the definitions publish (run `npm run docs:tools` when this fails)', () => {
    expect(block(TOOLS_BEGIN, TOOLS_END)).toBe(renderToolTable(ALL_TOOLS));
  });

  it('documents exactly the configuration the loader accepts (run `npm run docs:tools` when this fails)', () => {
    expect(block(CONFIG_BEGIN, CONFIG_END)).toBe(renderConfigTable());
  });

  it('has a quick start of exactly two commands', () => {
    const quick = readme.slice(
      readme.indexOf('## Quick start'),
      readme.indexOf('\n## ', readme.indexOf('## Quick start') + 5),
    );
    const commands = [...quick.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trim().split('\n'));
    expect(commands).toEqual(['npm run quickstart', 'npm test']);
  });
});
