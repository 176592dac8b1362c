import fc from 'fast-check';

/**
 * fast-check arbitraries built from a tool's published JSON Schema (the `--full-schemas` form), each
 * value sometimes swapped for a hostile one: huge, NUL, RTL, `__proto__`, a wrong type, too deep.
 * Every hostile string carries CANARY so a test can prove no error ever echoes it.
 */

type Schema = { [key: string]: unknown };

export const CANARY = 'CANARY7f3e';

/** Stress level: 'long' (npm run test:stress) or the bounded CI form. */
export const LONG = process.env.BROWSERMESH_STRESS === 'long';

const deep = (levels: number): unknown => {
  let value: unknown = CANARY;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

const hostileStrings = fc.constantFrom(
  `${CANARY}${'x'.repeat(LONG ? 3_000_000 : 300_000)}`,
  `${CANARY}\u0000\u0000nul`,
  `\u202e${CANARY}\u202dRTL\u200f`,
  `__proto__${CANARY}`,
  `${CANARY}\ud800`, // lone surrogate
  `../../${CANARY}/etc/passwd`,
  `javascript:${CANARY}`,
);

/** Hostile values of every type; objects with an own `__proto__` key come from JSON.parse. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileStrings,
  fc.constantFrom(
    null,
    -1,
    0,
    1e308,
    -1e308,
    2 ** 53 + 1,
    1.5,
    true,
    [],
    {},
    [CANARY],
    JSON.parse(`{"__proto__":{"polluted":"${CANARY}"}}`) as unknown,
    JSON.parse(`{"constructor":{"prototype":{"polluted":"${CANARY}"}}}`) as unknown,
    deep(70),
  ),
);

/** Arguments that are not an object at all. */
export const nonObjectArguments = fc.constantFrom<unknown>(null, [], 'x', 42, true, [{}], CANARY);

export function fromSchema(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const valid = validFrom(schema, depth);
  return fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: hostileValue });
}

function validFrom(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union) return fc.oneof(...union.map((s) => fromSchema(s, depth + 1)));
  switch (schema.type) {
    case 'string':
      return stringFrom(schema);
    case 'integer':
      return fc.integer({ min: num(schema.minimum, -1_000_000), max: num(schema.maximum, 1_000_000) });
    case 'number':
      return fc.double({ min: num(schema.minimum, -1e6), max: num(schema.maximum, 1e6), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = (schema.items as Schema | undefined) ?? {};
      const maxLength = Math.min(num(schema.maxItems, 3), 3);
      return fc.array(fromSchema(items, depth + 1), { maxLength });
    }
    case 'object':
      return objectFrom(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFrom(schema: Schema): fc.Arbitrary<string> {
  const maxLength = Math.min(num(schema.maxLength, 40), 40);
  const minLength = Math.min(num(schema.minLength, 0), maxLength);
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'binary' }),
    fc.constantFrom('s_1', 'p_1', '@e1', 'e5', 'button', 'http://127.0.0.1:9/', 'about:blank'),
  );
}

function objectFrom(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant({});
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) model[key] = fromSchema(sub, depth + 1);
  const record = fc.record(model, { requiredKeys: required.filter((key) => key in properties) });
  // Sometimes an unknown or hostile extra key as well.
  const extra = fc.option(fc.constantFrom('__proto__', 'constructor', `\u202e${CANARY}`, ''), {
    nil: undefined,
  });
  return fc
    .tuple(record, extra, hostileValue)
    .map(([value, key, hostile]) =>
      key === undefined
        ? value
        : Object.defineProperty({ ...(value as object) }, key, { value: hostile, enumerable: true }),
    );
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
