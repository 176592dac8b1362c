import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/tools/index.js';
import { renderToolTable, TOOLS_BEGIN, TOOLS_END } from '../../src/tools/reference.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const toolsDoc = readFileSync(new URL('../../docs/tools.md', import.meta.url), 'utf8');

function block(text: string, begin: string, end: string): string {
  return text.slice(text.indexOf(begin), text.indexOf(end) + end.length);
}

describe('README', () => {
  it('docs/tools.md lists exactly the tools the definitions publish (run `npm run docs:tools` when this fails)', () => {
    expect(block(toolsDoc, TOOLS_BEGIN, TOOLS_END)).toBe(renderToolTable(ALL_TOOLS));
  });

  it('is a pitch: no generated table inside, links to the docs that hold them', () => {
    expect(readme).not.toContain(TOOLS_BEGIN);
    expect(readme).not.toContain('<!-- config:begin');
    expect(readme).toContain('](docs/tools.md)');
    expect(readme).toContain('](docs/configuration.md');
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(2000);
  });

  it('leads with what only BrowserMesh does, the dashboard and the CLI, then how to start', () => {
    const firstScreen = readme.split('\n').slice(0, 40).join('\n');
    for (const claim of [
      'isolated sessions',
      'URL policy',
      'Secrets the model never sees',
      'person in the loop',
    ])
      expect(firstScreen).toContain(claim);
    expect(firstScreen).toMatch(/!\[[^\]]*dashboard[^\]]*\]\(docs\/dashboard\.png\)/);
    expect(firstScreen).toContain('browsermesh open URL');
    expect(firstScreen).toMatch(/browser_navigate/);
    expect(firstScreen).toContain('docs/benchmarks.md');
    expect(readme.split('\n').slice(0, 80).join('\n')).toContain('claude mcp add browsermesh');
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
