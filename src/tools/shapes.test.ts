import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_TOOLS } from './index.js';
import { inputSchemaOf } from './invoke.js';

type Json = { [key: string]: unknown };

/** Every property name below a schema node (following refs into $defs), at any depth. */
function fieldNames(node: unknown, defs: Record<string, Json>, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const record = value as Json;
    const ref = typeof record.$ref === 'string' ? record.$ref.replace('#/$defs/', '') : undefined;
    if (ref !== undefined && !seen.has(ref)) {
      seen.add(ref);
      visit(defs[ref]);
    }
    for (const [key, child] of Object.entries(record)) {
      if (key === 'properties') {
        for (const [name, schema] of Object.entries(child as Json)) {
          names.add(name);
          visit(schema);
        }
      } else if (key !== 'shape' && key !== 'description') {
        visit(child);
      }
    }
  };
  visit(node);
  return names;
}

/** The nodes that carry a one-line shape for the lean listing, with the tool they belong to. */
function shapedNodes(): Array<{ tool: string; shape: string; names: Set<string> }> {
  const found: Array<{ tool: string; shape: string; names: Set<string> }> = [];
  for (const tool of ALL_TOOLS) {
    const json = z.toJSONSchema(inputSchemaOf(tool), { target: 'draft-2020-12', io: 'input' }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (value === null || typeof value !== 'object') return;
      const record = value as Json;
      if (typeof record.shape === 'string')
        found.push({ tool: tool.name, shape: record.shape, names: fieldNames(record, defs) });
      Object.values(record).forEach(visit);
    };
    visit(json);
  }
  return found;
}

describe('lean shapes', () => {
  const nodes = shapedNodes();

  it('exist where the lean listing relies on them', () => {
    const tools = new Set(nodes.map((node) => node.tool));
    for (const name of ['browser_click', 'browser_session_create', 'browser_action_and_wait', 'browser_run'])
      expect(tools).toContain(name);
  });

  it('name every field of the schema they stand for', () => {
    for (const { tool, shape, names } of nodes) {
      // A field that takes the same form as a sibling in the same tool says so (a drag's drop target).
      if (shape.startsWith('same form as ')) continue;
      // A shape may refer to the Locator by name instead of repeating its fields, or point to
      // browser_click, whose listing spells the locator out whole (frame option included).
      const pointsToClick = shape.includes('as in browser_click');
      const missing = [...names].filter(
        (name) =>
          !new RegExp(`\\b${name}\\b`).test(shape) &&
          !(shape.includes('Locator') && isLocatorField(name)) &&
          !(pointsToClick && isLocatorField(name)),
      );
      expect([tool, shape, missing]).toEqual([tool, shape, []]);
    }
  });
});

const LOCATOR_FIELDS = new Set([
  'role',
  'name',
  'text',
  'label',
  'placeholder',
  'testId',
  'css',
  'exact',
  'frame',
  'kind',
  'chain',
]);

function isLocatorField(name: string): boolean {
  return LOCATOR_FIELDS.has(name);
}
