import { describe, expect, it } from 'vitest';
import { ErrorCodes, isBrowserMeshError } from '../errors.js';
import type { z } from 'zod';
import { ELEMENT_ACTION_KINDS } from '../operations/journal/element-actions.js';
import { CODE_TABLE } from './index.js';
import { PUBLISHED_STEPS, stepFields, type StepEntry } from './run-step-table.js';
import type { ActionStepInput } from './run-steps.js';

// The joined table browser_run publishes: run-step-table.ts's steps and the definitions' (hover, …).
const STEP_TABLE = Object.fromEntries(CODE_TABLE.steps.table);
const ActionStepSchema = CODE_TABLE.steps.schema as unknown as z.ZodObject<{ action: z.ZodEnum }>;
const toActionSteps = CODE_TABLE.steps.toActionSteps;

const TARGETINGS = ['none', 'optional', 'required'];

function refusal(input: Record<string, unknown>): { field: unknown; message: string } {
  try {
    toActionSteps([input as ActionStepInput]);
  } catch (error) {
    if (!isBrowserMeshError(error) || error.code !== ErrorCodes.INVALID_ARGUMENT) throw error;
    return { field: error.details?.field, message: error.message };
  }
  throw new Error('the step was accepted');
}

describe('the browser_run step table', () => {
  it('gives every step its fields, its targeting and a runner', () => {
    const entries: [string, StepEntry][] = Object.entries(STEP_TABLE);
    expect(entries.length).toBeGreaterThan(0);
    for (const [name, entry] of entries) {
      expect(Array.isArray(entry.fields), name).toBe(true);
      expect(TARGETINGS, name).toContain(entry.targeting);
      expect(typeof entry.prepare, name).toBe('function');
      expect(entry.shape.split(' ')[0], name).toBe(name);
      for (const field of entry.fields) expect(Object.keys(stepFields), `${name}.${field}`).toContain(field);
    }
  });

  it('publishes exactly the table as the action enum, and no field that no step takes', () => {
    const published = ActionStepSchema.shape.action.options;
    expect([...published]).toEqual(Object.keys(STEP_TABLE));
    // The published steps keep their order; the element-action rows that were not steps come after.
    const before: readonly string[] = PUBLISHED_STEPS;
    const later = ELEMENT_ACTION_KINDS.filter((kind) => !before.includes(kind));
    expect(Object.keys(STEP_TABLE)).toEqual([...PUBLISHED_STEPS, ...later]);
    const used = new Set<string>(Object.values(STEP_TABLE).flatMap((entry: StepEntry) => entry.fields));
    const unused = Object.keys(stepFields).filter((f) => f !== 'ref' && f !== 'locator' && !used.has(f));
    expect(unused).toEqual([]);
  });

  it('prepares each valid step to a runner named by its action', () => {
    const steps = toActionSteps([
      { action: 'goto', url: 'http://127.0.0.1:1/' },
      { action: 'click', ref: '@e1', clickCount: 2 },
      { action: 'fill', locator: { label: 'Email' }, value: 'a' },
      { action: 'type', text: 'x' },
      { action: 'press', key: 'Enter' },
      { action: 'select', ref: '@e2', index: [0, 1] },
      { action: 'check', ref: '@e3' },
      { action: 'uncheck', ref: '@e3' },
      { action: 'hover', ref: '@e4' },
      { action: 'focus', ref: '@e4' },
      { action: 'scrollIntoView', locator: { label: 'Email' } },
      { action: 'scroll', deltaY: 100 },
      { action: 'wait', ms: 10 },
      { action: 'wait', text: 'Done' },
      { action: 'snapshot', interactiveOnly: true },
    ]);
    expect(steps.map((s) => s.action)).toEqual([
      'goto',
      'click',
      'fill',
      'type',
      'press',
      'select',
      'check',
      'uncheck',
      'hover',
      'focus',
      'scrollIntoView',
      'scroll',
      'wait',
      'wait',
      'snapshot',
    ]);
    for (const step of steps) expect(typeof step.run).toBe('function');
  });

  it('refuses a field of another step, naming it and the step', () => {
    expect(refusal({ action: 'hover', ref: '@e1', value: 'x' })).toEqual({
      field: 'actions.0.value',
      message: 'actions.0.value: does not go with action hover',
    });
    expect(refusal({ action: 'goto', url: 'http://127.0.0.1:1/', ref: '@e1' }).field).toBe('actions.0.ref');
  });

  it('keeps the targeting rules: required, optional, at most one', () => {
    expect(refusal({ action: 'click' })).toEqual({
      field: 'actions.0.locator',
      message: 'actions.0.locator: give exactly one of ref or locator (got neither)',
    });
    expect(refusal({ action: 'press', key: 'a', ref: '@e1', locator: { label: 'x' } }).message).toBe(
      'actions.0.locator: give exactly one of ref or locator (got both)',
    );
    expect(toActionSteps([{ action: 'press', key: 'a' }])).toHaveLength(1);
  });

  it("keeps each step's own rules", () => {
    expect(refusal({ action: 'goto' }).message).toBe('actions.0.url: is required with this action');
    expect(refusal({ action: 'fill', ref: '@e1', value: ['a'] }).message).toBe(
      'actions.0.value: is required (a string) with fill',
    );
    expect(refusal({ action: 'select', ref: '@e1' }).field).toBe('actions.0.value');
    expect(refusal({ action: 'wait', ms: 5, text: 'x' }).message).toBe(
      'actions.0.ms: give ms or a condition, not both',
    );
    expect(refusal({ action: 'wait', text: 'x'.repeat(1001) }).message).toBe(
      'actions.0.text: is too long (max 1000)',
    );
    expect(refusal({ action: 'wait' }).field).toBe('actions.0.condition');
  });
});
