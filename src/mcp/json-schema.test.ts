import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toPublishedSchema, type JsonSchema } from './json-schema.js';

// ajv is CommonJS: under NodeNext its class is the default export's `default`.
const Ajv2020 = Ajv2020Module.default;
const ajv = new Ajv2020({ strict: false });
const Id = z.string().min(1).max(8).describe('An id.').meta({ id: 'TestId' });
const Point = z.object({ x: z.number().int(), y: z.number().int() }).strict().meta({ id: 'TestPoint' });

const input = z
  .object({
    a: Id,
    from: Point,
    to: Point.optional().describe('Where to.'),
    mode: z.enum(['fast', 'slow']).nullable().optional(),
    tags: z.record(z.string(), z.string()).optional(),
    box: z.object({ w: z.number() }).nullable().optional(),
  })
  .strict();

const samples: unknown[] = [
  { a: 'x', from: { x: 1, y: 2 } },
  { a: 'x', from: { x: 1, y: 2 }, to: { x: 0, y: 0 }, mode: null, box: null, tags: { k: 'v' } },
  { a: 'x', from: { x: 1, y: 2 }, mode: 'fast', box: { w: 3 } },
  { a: 'x', from: { x: 1.5, y: 2 } },
  { a: 'x', from: { x: 1, y: 2 }, mode: 'medium' },
  { a: 'x', from: { x: 1, y: 2 }, box: 'no' },
  { a: 'x', from: { x: 1, y: 2 }, extra: true },
  { a: 'x', from: { x: 1, y: 2 }, tags: { k: 1 } },
];

const text = (schema: JsonSchema): string => JSON.stringify(schema);

describe('toPublishedSchema', () => {
  it('accepts and refuses exactly what the runtime does, with refs and inlined', () => {
    for (const refs of [true, false]) {
      const validate = ajv.compile(toPublishedSchema(input, { refs, io: 'input' }));
      for (const sample of samples)
        expect([refs, sample, validate(sample)]).toEqual([refs, sample, input.safeParse(sample).success]);
    }
  });

  it('leaves string length caps to the runtime (they name the field there)', () => {
    const published = toPublishedSchema(input, { refs: true, io: 'input' });
    const tooShort = { a: '', from: { x: 1, y: 2 } };
    expect(ajv.compile(published)(tooShort)).toBe(true);
    expect(input.safeParse(tooShort).success).toBe(false);
    expect(text(published)).not.toMatch(/minLength|maxLength/);
  });

  it('shares a definition used twice and inlines one used once', () => {
    const published = toPublishedSchema(input, { refs: true, io: 'input' });
    expect(Object.keys(published.$defs as object)).toEqual(['TestPoint']);
    expect(text(published)).not.toContain('TestId');
    expect((published.properties as Record<string, JsonSchema>).to).toMatchObject({
      $ref: '#/$defs/TestPoint',
      description: 'Where to.',
    });
    expect((published.properties as Record<string, JsonSchema>).a).toMatchObject({
      type: 'string',
      description: 'An id.',
    });
  });

  it('inlines everything with refs off', () => {
    const published = text(toPublishedSchema(input, { refs: false, io: 'input' }));
    expect(published).not.toContain('$ref');
    expect(published).not.toContain('$defs');
  });

  it('drops keywords that change nothing and keeps the ones that do', () => {
    const published = toPublishedSchema(input, { refs: true, io: 'input' });
    const json = text(published);
    expect(json).not.toContain('$schema');
    expect(json).not.toContain('propertyNames');
    expect(published.additionalProperties).toBe(false);
    expect(text(published.$defs as JsonSchema)).not.toContain('additionalProperties');
    // A nullable object merges into one nullable type; a nullable enum keeps its anyOf (null is not in the enum).
    expect((published.properties as Record<string, JsonSchema>).box).toMatchObject({
      type: ['object', 'null'],
    });
    expect((published.properties as Record<string, JsonSchema>).mode).toHaveProperty('anyOf');
  });

  it('keeps top-level output fields required and drops nested lists and safe-integer bounds', () => {
    const output = z.object({
      count: z.number().int(),
      point: Point,
      items: z.array(z.object({ id: z.string() })),
    });
    const published = toPublishedSchema(output, { refs: true, io: 'output' });
    expect(published.required).toEqual(['count', 'point', 'items']);
    const json = text(published);
    expect(json).not.toContain('9007199254740991');
    expect(json.match(/"required"/g)).toHaveLength(1);
    expect(ajv.compile(published)({ count: 1, point: { x: 1, y: 2 }, items: [{ id: 'a' }] })).toBe(true);
  });

  it('leaves data keywords alone', () => {
    const schema = z.object({ kind: z.literal('main'), level: z.enum(['a', 'b']).default('a') });
    const published = toPublishedSchema(schema, { refs: true, io: 'input' });
    expect(published.properties).toEqual({
      kind: { const: 'main' },
      level: { enum: ['a', 'b'], default: 'a' },
    });
  });
});
