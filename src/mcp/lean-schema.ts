import type { JsonSchema } from './json-schema.js';
import { visitSchemas } from './schema-walk.js';

/**
 * The lean listing (the default; `--full-schemas` publishes everything as JSON Schema).
 *
 * A model reads every byte of tools/list before its first call, and MCP tool schemas cannot share
 * definitions across tools, so structure repeated in twenty tools is the largest cost of a listing.
 * The lean rules move what repeats into prose given once, and leave to the runtime what only it needs
 * to know. The schemas stay true: they never refuse what the runtime accepts, and the runtime checks
 * every field, answering INVALID_ARGUMENT with the field's path and what it takes.
 *
 * Inputs
 * - A nested object whose zod schema carries a `shape` (metadata: a one-line TypeScript-like
 *   signature, such as the locator's) is published as `{type: object}` with the shape in its
 *   description. Models read such a line as well as nested JSON Schema, at a quarter of the bytes,
 *   and the listing gives each description once.
 * - Keywords named in a schema's `leanOmit` metadata go (timeoutMs states its range in its
 *   description instead of in thirty-four tools).
 * - String patterns go, as length caps already do: a ref or id is copied from an example the model
 *   has seen (`@e5`, a returned id).
 * - The root's `additionalProperties: false` goes: the runtime refuses an unknown field by name.
 *
 * Outputs
 * - Top-level fields keep their types, enums and descriptions; what they nest (a record's fields, an
 *   array's items) and which fields are always present are left out. Every result shows them.
 * - A field whose `leanOmit` metadata is `true` goes: a report that rides on every result of many
 *   tools (an action's `settled`), documented once in the README rather than in each tool.
 */

/** Metadata keywords of the lean listing (data to the schema walker); the full listing removes them. */
const SHAPE = 'shape';
const LEAN_OMIT = 'leanOmit';

/** An input schema, published lean (mutates the freshly generated schema). */
export function toLeanInput(root: JsonSchema): void {
  leanInputNode(root);
  if (root.additionalProperties === false) delete root.additionalProperties;
}

/** An output schema, published lean: its top-level fields only. */
export function toLeanOutput(root: JsonSchema): void {
  const properties = root.properties;
  if (properties !== null && typeof properties === 'object') {
    const fields = properties as Record<string, unknown>;
    for (const [name, field] of Object.entries(fields))
      if ((field as JsonSchema | null)?.[LEAN_OMIT] === true) delete fields[name];
  }
  stripLeanMetadata(root);
  delete root.required;
  if (properties === null || typeof properties !== 'object') return;
  for (const field of Object.values(properties as Record<string, unknown>)) dropNested(field);
}

/** Removes the lean metadata keywords (the full listing publishes the structure itself). */
export function stripLeanMetadata(node: unknown): void {
  visitSchemas(node, (record) => {
    delete record[SHAPE];
    delete record[LEAN_OMIT];
    return true;
  });
}

function leanInputNode(node: unknown): void {
  visitSchemas(node, (record) => {
    const shape = record[SHAPE];
    if (typeof shape === 'string') {
      collapseToShape(record, shape);
      return false;
    }
    const omit = record[LEAN_OMIT];
    if (Array.isArray(omit)) for (const keyword of omit) delete record[String(keyword)];
    delete record[LEAN_OMIT];
    if (typeof record.pattern === 'string') delete record.pattern;
    // Object keys are strings: without its pattern, `propertyNames: {type: string}` says nothing.
    const names = record.propertyNames as JsonSchema | undefined;
    if (names && typeof names.pattern === 'string') delete names.pattern;
    if (names && Object.keys(names).length === 1 && names.type === 'string') delete record.propertyNames;
    return true;
  });
}

/** Turns a node into `{type: object, description: "<its description> <shape>"}`. */
function collapseToShape(record: JsonSchema, shape: string): void {
  const description = typeof record.description === 'string' ? `${record.description} ${shape}` : shape;
  const nullable = Array.isArray(record.type) && record.type.includes('null');
  for (const key of Object.keys(record)) delete record[key];
  record.type = nullable ? ['object', 'null'] : 'object';
  record.description = description;
}

const NESTED = [
  'properties',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'required',
  'items',
  'prefixItems',
];

function dropNested(node: unknown): void {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const record = node as JsonSchema;
  for (const key of NESTED) delete record[key];
  for (const key of ['anyOf', 'oneOf'])
    if (Array.isArray(record[key])) for (const option of record[key] as unknown[]) dropNested(option);
}
