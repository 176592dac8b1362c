import { z } from 'zod';
import { stripLeanMetadata, toLeanInput, toLeanOutput } from './lean-schema.js';
import { visitSchemas } from './schema-walk.js';

import type { JsonSchema } from './schema-walk.js';

export type { JsonSchema } from './schema-walk.js';

export interface PublishOptions {
  /** Share a sub-schema a tool uses twice through `$defs`/`$ref` (false: inline everything). */
  refs: boolean;
  io: 'input' | 'output';
  /** Publish nested structure whole instead of the lean form (see lean-schema.ts). */
  full?: boolean;
}

/**
 * Publishes a zod object as JSON Schema 2020-12, as lean as it can be while staying truthful: every
 * listing is paid for in every client's context. A sub-schema with a metadata id that a tool uses more
 * than once is shared through `$defs`/`$ref` where that is smaller than a copy per use (a full
 * locator is; a lean one-line object is not), and inlined otherwise. With `refs: false` everything is
 * inlined for clients whose validator cannot follow refs.
 */
export function toPublishedSchema(schema: z.ZodObject, options: PublishOptions): JsonSchema {
  let json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: options.io,
    unrepresentable: 'any',
  }) as JsonSchema;
  // Clients assume 2020-12 for MCP tool schemas; the dialect URI repeated per tool is pure overhead.
  delete json.$schema;
  dropRedundantKeywords(json, options.io);
  if (options.full === true) {
    stripLeanMetadata(json);
  } else if (options.io === 'input') {
    toLeanInput(json);
  } else {
    // Nested records may sit behind refs: resolve them first, then keep only the top level.
    json = inlineRefs(json, false);
    toLeanOutput(json);
  }
  return inlineRefs(json, options.refs);
}

/**
 * Removes keywords that cannot change what validates here:
 * - `propertyNames: {type: string}` (JSON object keys are always strings);
 * - `additionalProperties: {}` (the default);
 * - `additionalProperties: false` below the input root (the runtime refuses unknown fields itself)
 *   and anywhere in outputs (a result never carries more than its schema lists, and clients must not
 *   rely on the closed form to parse it);
 * - the ±(2^53-1) bounds zod puts on an integer without bounds of its own: JSON numbers past them
 *   are not integers a client can send or read exactly, and results are always safe integers;
 * - `type: string` next to an `enum` of strings, and any `type` next to a `const` (the values
 *   already fix the type);
 * - in outputs, `required` below the root: the top-level fields a tool always returns stay promised,
 *   nested records (session and page info, events) describe their fields without the repeated list.
 * - in inputs, `minLength`/`maxLength` on strings: these are safety caps (no empty selector, no
 *   1,000-character role, no 8 KiB URL) that the runtime enforces with INVALID_ARGUMENT naming the
 *   field; no agent writes near them, and repeated over every locator field of every tool they were
 *   a tenth of the listing. Patterns and enums, which tell an agent the format, stay.
 * It also writes `anyOf: [X, null]` as X with a nullable type (see mergeNullable).
 */
function dropRedundantKeywords(root: JsonSchema, io: 'input' | 'output'): void {
  visitSchemas(root, (record, { isRoot }) => {
    mergeNullable(record);
    if (isStringTypeOnly(record.propertyNames)) delete record.propertyNames;
    const extra = record.additionalProperties;
    if (isEmptyObject(extra) || (extra === false && (io === 'output' || !isRoot)))
      delete record.additionalProperties;
    if (record.type === 'string' && isStringList(record.enum)) delete record.type;
    // A const fixes the value, and so its type.
    if ('const' in record && typeof record.type === 'string') delete record.type;
    if (io === 'output' && !isRoot) delete record.required;
    if (io === 'input' && typeof record.maxLength === 'number') delete record.maxLength;
    if (io === 'input' && typeof record.minLength === 'number') delete record.minLength;
    if (record.type === 'integer') {
      if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
      if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
    }
    return true;
  });
}

/** Keywords that only constrain values of the schema's own type, so `null` passes them untouched. */
const TYPE_SPECIFIC = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);

/**
 * `anyOf: [{type: T, …}, {type: null}]` → `{type: [T, null], …}` when every other keyword of the
 * first branch applies to T only (never enum, const or combinators): the same values validate.
 */
function mergeNullable(record: JsonSchema): void {
  const options = record.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return;
  const [first, second] = options as unknown[];
  if (!isNullType(second) || typeof first !== 'object' || first === null || Array.isArray(first)) return;
  const schema = first as JsonSchema;
  if (typeof schema.type !== 'string' || !Object.keys(schema).every((key) => TYPE_SPECIFIC.has(key))) return;
  delete record.anyOf;
  // The wrapper's own keywords (its description) win over the branch's.
  for (const [key, value] of Object.entries(schema)) if (!(key in record)) record[key] = value;
  record.type = [schema.type, 'null'];
}

function isNullType(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    (value as JsonSchema).type === 'null'
  );
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isStringTypeOnly(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    (value as JsonSchema).type === 'string'
  );
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

/**
 * Keeps a `$defs` entry shared where that makes the tool's schema smaller (with `share`), and inlines
 * every other one. A `$ref` with sibling keywords (a field's own description) keeps them, as in
 * 2020-12 where siblings of `$ref` apply alongside it.
 */
function inlineRefs(root: JsonSchema, share: boolean): JsonSchema {
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const uses = new Map<string, number>();
  countRefs(root, uses);
  const shared = new Set(
    [...uses]
      .filter(([name, count]) => share && sharingSaves(name, defs[name] ?? {}, count))
      .map(([name]) => name),
  );
  const resolve = (node: unknown, depth: number): unknown => {
    if (depth > 64) throw new Error('Schema nesting too deep to publish');
    if (Array.isArray(node)) return node.map((item) => resolve(item, depth + 1));
    if (node === null || typeof node !== 'object') return node;
    const record = node as JsonSchema;
    const name = refName(record.$ref);
    if (name !== undefined && !shared.has(name)) {
      const { $ref: _ref, ...siblings } = record;
      return {
        ...(resolve(defs[name] ?? {}, depth + 1) as JsonSchema),
        ...(resolve(siblings, depth + 1) as JsonSchema),
      };
    }
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(record))
      if (key !== '$defs') out[key] = resolve(value, depth + 1);
    return out;
  };
  const out = resolve(root, 0) as JsonSchema;
  if (shared.size > 0) {
    const kept: Record<string, unknown> = {};
    for (const name of shared) kept[name] = resolve(defs[name] ?? {}, 1);
    out.$defs = kept;
  }
  return out;
}

/**
 * Whether one shared definition plus a `$ref` per use is smaller than a copy per use. Copies after the
 * first are counted without descriptions: the listing gives each description once.
 */
function sharingSaves(name: string, def: JsonSchema, uses: number): boolean {
  if (uses < 2) return false;
  const size = (value: unknown): number => JSON.stringify(value).length;
  const copies = size(def) + (uses - 1) * size(withoutDescriptions(def));
  const sharedCost = size({ $defs: { [name]: def } }) + uses * size({ $ref: `#/$defs/${name}` });
  return sharedCost < copies;
}

function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema))
    if (key !== 'description') out[key] = withoutDescriptions(value);
  return out;
}

/** Counts references to each definition, following definitions as they are reached. */
function countRefs(root: JsonSchema, uses: Map<string, number>): void {
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const visit = (node: unknown, depth: number): void => {
    if (depth > 64 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const record = node as JsonSchema;
    const name = refName(record.$ref);
    if (name !== undefined) {
      const count = (uses.get(name) ?? 0) + 1;
      uses.set(name, count);
      // A definition's own references count once, however often the definition is used.
      if (count === 1) visit(defs[name], depth + 1);
    }
    for (const [key, value] of Object.entries(record)) if (key !== '$defs') visit(value, depth + 1);
  };
  visit(root, 0);
}

function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
}
