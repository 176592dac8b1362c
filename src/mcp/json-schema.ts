import { z } from 'zod';

export type JsonSchema = { [key: string]: unknown };

/**
 * Publishes a zod object as JSON Schema 2020-12. Sub-schemas with a metadata id are shared through
 * `$defs`/`$ref`; with `refs: false` they are inlined for clients whose validator cannot follow refs.
 */
export function toPublishedSchema(schema: z.ZodObject, options: { refs: boolean; io: 'input' | 'output' }): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: options.io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  if (options.io === 'input') stripAdditionalPropertiesFalse(json, true);
  return options.refs ? json : inlineRefs(json);
}

function inlineRefs(root: JsonSchema): JsonSchema {
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const resolve = (node: unknown, depth: number): unknown => {
    if (depth > 32) return {};
    if (Array.isArray(node)) return node.map((item) => resolve(item, depth + 1));
    if (node === null || typeof node !== 'object') return node;
    const record = node as JsonSchema;
    const ref = record.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
      const { $ref: _ref, ...rest } = record;
      return { ...(resolve(defs[ref.slice('#/$defs/'.length)] ?? {}, depth + 1) as JsonSchema), ...rest };
    }
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(record)) if (key !== '$defs') out[key] = resolve(value, depth + 1);
    return out;
  };
  return resolve(root, 0) as JsonSchema;
}

/**
 * Keeps `additionalProperties: false` only at the root (unknown top-level fields are refused by the
 * runtime anyway); nested copies are redundant bytes in every listing.
 */
function stripAdditionalPropertiesFalse(node: unknown, isRoot: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) stripAdditionalPropertiesFalse(item, false);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as JsonSchema;
  if (!isRoot && record.additionalProperties === false) delete record.additionalProperties;
  for (const value of Object.values(record)) stripAdditionalPropertiesFalse(value, false);
}
