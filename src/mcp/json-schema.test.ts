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

const full = { full: true } as const;
const props = (schema: JsonSchema): Record<string, JsonSchema> =>
  schema.properties as Record<string, JsonSchema>;

describe('toPublishedSchema (full)', () => {
  it('accepts and refuses exactly what the runtime does, with refs and inlined', () => {
    for (const refs of [true, false]) {
      const validate = ajv.compile(toPublishedSchema(input, { refs, io: 'input', ...full }));
      for (const sample of samples)
        expect([refs, sample, validate(sample)]).toEqual([refs, sample, input.safeParse(sample).success]);
    }
  });

  it('leaves string length caps to the runtime (they name the field there)', () => {
    const published = toPublishedSchema(input, { refs: true, io: 'input', ...full });
    const tooShort = { a: '', from: { x: 1, y: 2 } };
    expect(ajv.compile(published)(tooShort)).toBe(true);
    expect(input.safeParse(tooShort).success).toBe(false);
    expect(text(published)).not.toMatch(/minLength|maxLength/);
  });

  it('shares a definition used twice and inlines one used once', () => {
    const published = toPublishedSchema(input, { refs: true, io: 'input', ...full });
    expect(Object.keys(published.$defs as object)).toEqual(['TestPoint']);
    expect(text(published)).not.toContain('TestId');
    expect(props(published).to).toMatchObject({ $ref: '#/$defs/TestPoint', description: 'Where to.' });
    expect(props(published).a).toMatchObject({ type: 'string', description: 'An id.' });
  });

  it('inlines everything with refs off', () => {
    const published = text(toPublishedSchema(input, { refs: false, io: 'input', ...full }));
    expect(published).not.toContain('$ref');
    expect(published).not.toContain('$defs');
  });

  it('drops keywords that change nothing and keeps the ones that do', () => {
    const published = toPublishedSchema(input, { refs: true, io: 'input', ...full });
    const json = text(published);
    expect(json).not.toContain('$schema');
    expect(json).not.toContain('propertyNames');
    expect(published.additionalProperties).toBe(false);
    expect(text(published.$defs as JsonSchema)).not.toContain('additionalProperties');
    // A nullable object merges into one nullable type; a nullable enum keeps its anyOf (null is not in the enum).
    expect(props(published).box).toMatchObject({ type: ['object', 'null'] });
    expect(props(published).mode).toHaveProperty('anyOf');
  });

  it('keeps top-level output fields required and drops nested lists and safe-integer bounds', () => {
    const published = toPublishedSchema(output, { refs: true, io: 'output', ...full });
    expect(published.required).toEqual(['count', 'point', 'items']);
    const json = text(published);
    expect(json).not.toContain('9007199254740991');
    expect(json.match(/"required"/g)).toHaveLength(1);
    expect(ajv.compile(published)({ count: 1, point: { x: 1, y: 2 }, items: [{ id: 'a' }] })).toBe(true);
  });

  it('publishes shaped objects whole, without the lean metadata', () => {
    const published = text(toPublishedSchema(shaped, { refs: true, io: 'input', ...full }));
    expect(published).toContain('"kind"');
    expect(published).toContain('"minimum":1');
    expect(published).not.toMatch(/"shape"|"leanOmit"/);
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

const output = z.object({
  count: z.number().int(),
  point: Point,
  items: z.array(z.object({ id: z.string() })),
});

const Spot = z
  .object({ kind: z.enum(['a', 'b']), at: z.number().int().min(0).optional() })
  .strict()
  .describe('Where:')
  .meta({ shape: '{kind: "a"|"b", at?}' });
const shaped = z
  .object({
    spot: Spot,
    code: z.string().regex(/^[a-z]+$/),
    wait: z
      .number()
      .int()
      .min(1)
      .max(9)
      .describe('1-9.')
      .meta({ leanOmit: ['minimum', 'maximum'] }),
    count: z.number().int().min(0).max(5),
  })
  .strict();

describe('toPublishedSchema (lean, the default)', () => {
  it('never refuses what the runtime accepts', () => {
    for (const [schema, cases] of [
      [input, samples],
      [
        shaped,
        [
          { spot: { kind: 'a', at: 2 }, code: 'ab', wait: 3, count: 5 },
          { spot: { kind: 'b' }, code: 'x', wait: 9, count: 0 },
        ],
      ],
    ] as const) {
      const validate = ajv.compile(toPublishedSchema(schema, { refs: true, io: 'input' }));
      for (const sample of cases)
        if (schema.safeParse(sample).success) expect([sample, validate(sample)]).toEqual([sample, true]);
    }
  });

  it('gives a shaped object as one described object, and drops patterns and named keywords', () => {
    const published = toPublishedSchema(shaped, { refs: true, io: 'input' });
    expect(props(published).spot).toEqual({ type: 'object', description: 'Where: {kind: "a"|"b", at?}' });
    expect(props(published).code).toEqual({ type: 'string' });
    expect(props(published).wait).toEqual({ type: 'integer', description: '1-9.' });
    // Bounds nobody asked to omit stay: the schema still refuses what the runtime refuses there.
    expect(props(published).count).toEqual({ type: 'integer', minimum: 0, maximum: 5 });
    expect(published.required).toEqual(['spot', 'code', 'wait', 'count']);
    expect(published).not.toHaveProperty('additionalProperties');
  });

  it('publishes an output as its object root only, which accepts what the tool returns', () => {
    const published = toPublishedSchema(output, { refs: true, io: 'output' });
    expect(published).toEqual({ type: 'object' });
    expect(ajv.compile(published)({ count: 1, point: { x: 1, y: 2 }, items: [{ id: 'a' }] })).toBe(true);
  });

  it('keeps an output field marked leanOmit out of the lean listing, and in the full one', () => {
    const report = z.object({ n: z.number() }).meta({ leanOmit: true });
    const schema = z.object({ done: z.boolean(), report });
    const published = toPublishedSchema(schema, { refs: true, io: 'output' });
    expect(published).toEqual({ type: 'object' });
    expect(ajv.compile(published)({ done: true, report: { n: 1 } })).toBe(true);
    const full = toPublishedSchema(schema, { refs: true, io: 'output', full: true });
    expect(JSON.stringify(full)).toContain('"report"');
    expect(JSON.stringify(full)).not.toContain('leanOmit');
  });
});
