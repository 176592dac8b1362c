/** A JSON Schema as published: plain data (json-schema.ts builds it; this walker is its leaf). */
export type JsonSchema = { [key: string]: unknown };

/** Keywords whose values are data (values, lists of names, lean metadata), never schemas. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required', 'shape', 'leanOmit']);

/** Keywords whose values map names to schemas: the names are data, every value is a schema. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties']);

/** Where a schema object sits: the root, and the name of the property or definition it describes. */
export interface SchemaPlace {
  isRoot: boolean;
  /** The nearest property or `$defs` name above (kept through items and combinators); '' at the root. */
  field: string;
}

/**
 * Calls `visit` on every schema object of a JSON Schema, pre-order (so a visit may rewrite a node
 * before its children are reached); returning false skips the node's children.
 */
export function visitSchemas(
  node: unknown,
  visit: (record: JsonSchema, place: SchemaPlace) => boolean,
): void {
  walk(node, visit, { isRoot: true, field: '' });
}

function walk(
  node: unknown,
  visit: (record: JsonSchema, place: SchemaPlace) => boolean,
  place: SchemaPlace,
): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit, { isRoot: false, field: place.field });
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as JsonSchema;
  if (!visit(record, place)) return;
  for (const [key, value] of Object.entries(record)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      for (const [name, child] of Object.entries(value as JsonSchema))
        walk(child, visit, { isRoot: false, field: key === 'patternProperties' ? place.field : name });
    } else {
      walk(value, visit, { isRoot: false, field: place.field });
    }
  }
}
