import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hover } from '../operations/act/actions.js';
import { FACADE_OPS } from '../code-mode/facade-parse.js';
import { codeParts, codeTableOf, opsWithoutRunner, runnersOf, stepTableOf } from './code-parts.js';
import type { AnyTool } from './define.js';
import { ALL_TOOLS, CODE_TABLE } from './index.js';
import { ELEMENT_ACTION_TOOLS } from './element-actions.js';
import { ELEMENT_ACTION_KINDS } from '../operations/journal/element-actions.js';
import { PUBLISHED_STEPS, acted } from './run-step-table.js';

// CONTRIBUTING.md "Add a tool": a tool reaches code mode and browser_run through its definition's
// `code` parts; these tests fail when an op or a step lacks its part, or has two.

const without = (tool: AnyTool): AnyTool[] => ALL_TOOLS.filter((t) => t !== tool);
const hoverTool = ELEMENT_ACTION_TOOLS.hover;

describe('code parts of the definitions', () => {
  it('give every facade op of FACADE_OPS a runner, and every published step an entry', () => {
    expect(opsWithoutRunner(CODE_TABLE.runners)).toEqual([]);
    expect([...CODE_TABLE.runners.keys()].sort()).toEqual(Object.keys(FACADE_OPS).sort());
    // The element-action rows that were not steps before come after the published ones, in table order.
    const published: readonly string[] = PUBLISHED_STEPS;
    const later = ELEMENT_ACTION_KINDS.filter((kind) => !published.includes(kind));
    expect([...CODE_TABLE.steps.table.keys()]).toEqual([...PUBLISHED_STEPS, ...later]);
  });

  it('give every row of the element-action table a runner and a step from its tool', () => {
    for (const kind of ELEMENT_ACTION_KINDS) {
      const table = codeTableOf(without(ELEMENT_ACTION_TOOLS[kind] as AnyTool));
      expect(opsWithoutRunner(table.runners)).toEqual([kind]);
      expect(table.steps.table.has(kind)).toBe(false);
    }
  });

  it('come from the definition: hover lives only in its tool', () => {
    const table = codeTableOf(without(hoverTool as AnyTool));
    expect(opsWithoutRunner(table.runners)).toEqual(['hover']);
    expect(table.steps.table.has('hover')).toBe(false);
    expect(() => table.steps.toActionSteps([{ action: 'hover', ref: '@e1' }])).toThrow(/unknown action/);
  });

  it('refuse an op or a step given twice', () => {
    const twice = { ...hoverTool, name: 'browser_hover_again' } as AnyTool;
    expect(() => runnersOf([...ALL_TOOLS, twice])).toThrow('code mode: two runners of hover');
    expect(() => stepTableOf([...ALL_TOOLS, twice])).toThrow('browser_run: two steps named hover');
  });

  it('list a step added later after the published ones', () => {
    const later = {
      ...hoverTool,
      name: 'browser_later',
      code: codeParts({
        steps: {
          later: {
            shape: 'later',
            fields: [],
            targeting: 'required',
            prepare: (_input, spec) => acted((ctx, field) => hover(ctx, spec, field)),
          },
        },
      }),
    } as AnyTool;
    const steps = stepTableOf([...ALL_TOOLS, later]);
    expect([...steps.keys()].slice(0, PUBLISHED_STEPS.length)).toEqual([...PUBLISHED_STEPS]);
    expect([...steps.keys()].at(-1)).toBe('later');
  });
});

describe('CONTRIBUTING.md "Add a tool"', () => {
  it('shows an element-action row as it is in the table', () => {
    const doc = readFileSync(new URL('../../CONTRIBUTING.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Add a tool'));
    const block = /```ts\n([\s\S]*?)\n\s*```/.exec(section)?.[1] ?? '';
    const shown = block
      .split('\n')
      .map((line) => line.replace(/^ {3}/, ''))
      .join('\n');
    expect(shown).toMatch(/^ {2}\w+: \{\n/);
    const table = new URL('../operations/journal/element-actions.ts', import.meta.url);
    expect(readFileSync(table, 'utf8')).toContain(shown);
  });
});
