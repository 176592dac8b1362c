import type { JsonSchema } from './schema-walk.js';
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
 *   description. Models read such a line as well as nested JSON Schema, at a quarter of the bytes.
 * - Keywords named in a schema's `leanOmit` metadata go (timeoutMs states its range in its
 *   description instead of in thirty-four tools).
 * - String patterns go, as length caps already do: a ref or id is copied from an example the model
 *   has seen (`@e5`, a returned id). Array sizes (minItems/maxItems) go too.
 * - Every tool stands on its own: a field shared by many tools (sessionId, locator, …) carries its
 *   own short description in each, so a client that shows one tool at a time loses nothing.
 * - The root's `additionalProperties: false` goes: the runtime refuses an unknown field by name.
 *
 * Outputs
 * - An output schema is published as its root only: `{type: object}`. MCP requires structuredContent
 *   to match it, and a client validates against it; a model learns a result's fields from the tool's
 *   description and from the result itself, which shows them. Field-by-field output schemas were a
 *   quarter of the listing; `--full-schemas` still publishes them whole (with the `leanOmit` fields).
 */

/** Metadata keywords of the lean listing (data to the schema walker); the full listing removes them. */
const SHAPE = 'shape';
const LEAN_OMIT = 'leanOmit';

/** An input schema, published lean (mutates the freshly generated schema). */
export function toLeanInput(root: JsonSchema): void {
  leanInputNode(root);
  if (root.additionalProperties === false) delete root.additionalProperties;
}

/** An output schema, published lean: its object root only (see Outputs above). */
export function toLeanOutput(root: JsonSchema): void {
  for (const key of Object.keys(root)) delete root[key];
  root.type = 'object';
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
    // Array sizes go as string lengths do: the runtime refuses an oversized list, naming the limit.
    delete record.minItems;
    delete record.maxItems;
    // Object keys are strings: without its pattern, `propertyNames: {type: string}` says nothing.
    const names = record.propertyNames as JsonSchema | undefined;
    if (names && typeof names.pattern === 'string') delete names.pattern;
    if (names && Object.keys(names).length === 1 && names.type === 'string') delete record.propertyNames;
    return true;
  });
}

/** Turns a node into `{type: object, description: "<its description> <shape>"}`. */
function collapseToShape(record: JsonSchema, shape: string): void {
  const description = [record.description, shape]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' ');
  const nullable = Array.isArray(record.type) && record.type.includes('null');
  for (const key of Object.keys(record)) delete record[key];
  record.type = nullable ? ['object', 'null'] : 'object';
  record.description = description;
}
