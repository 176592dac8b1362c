import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool, ToolHints } from '../tools/define.js';
import { inputSchemaOf, outputSchemaOf } from '../tools/invoke.js';
import { toPublishedSchema } from './json-schema.js';
import { visitSchemas, type SchemaPlace } from './schema-walk.js';

/** How a listing is published: shared refs or inlined, lean (default) or full nested structure. */
export interface ListingOptions {
  refs: boolean;
  full?: boolean;
}

/** The tools/list entries for these tools, in order, with shared field descriptions given once. */
export function toListing(tools: readonly AnyTool[], options: ListingOptions): Tool[] {
  return dedupeFieldDescriptions(tools.map((tool) => toListedTool(tool, options)));
}

export function toListedTool(tool: AnyTool, options: ListingOptions): Tool {
  const { refs, full } = options;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toPublishedSchema(inputSchemaOf(tool), { refs, full, io: 'input' }) as Tool['inputSchema'],
    outputSchema: toPublishedSchema(outputSchemaOf(tool), {
      refs,
      full,
      io: 'output',
    }) as Tool['outputSchema'],
    annotations: toAnnotations(tool.hints),
  };
}

/**
 * MCP hints as published: a hint equal to the protocol's default (readOnly=false, destructive=true,
 * idempotent=false, openWorld=true) or meaningless in context (destructive and idempotent apply only
 * to tools that modify) is left out. Clients read the same meaning from fewer bytes.
 */
export function toAnnotations(hints: ToolHints): ToolAnnotations {
  const out: ToolAnnotations = {};
  if (hints.readOnlyHint) {
    out.readOnlyHint = true;
  } else {
    if (!hints.destructiveHint) out.destructiveHint = false;
    if (hints.idempotentHint) out.idempotentHint = true;
  }
  if (!hints.openWorldHint) out.openWorldHint = false;
  return out;
}

/** Bytes of a tools/list result as a client receives it (compact JSON, UTF-8). */
export function listingBytes(result: { tools: unknown[] }): number {
  return Buffer.byteLength(JSON.stringify(result));
}

/**
 * Drops a field's description when an earlier place in the listing already gave the same field name
 * the same description (sessionId, pageId, timeoutMs, ref, locator, …): repeated prose is the largest
 * avoidable cost of a listing, and a model reads the whole list. The name is part of the key, so a
 * short text ("Default 50000.") is never taken from one field for another. Only descriptions go;
 * every validation keyword stays, so each tool's schema is still complete.
 */
export function dedupeFieldDescriptions(tools: Tool[]): Tool[] {
  const seen = new Set<string>();
  // Mutates freshly generated schemas: `toListedTool` builds new objects for every listing.
  const dropSeen = (record: Record<string, unknown>, { field }: SchemaPlace): boolean => {
    if (field !== '' && typeof record.description === 'string') {
      const key = `${field}\u0000${record.description}`;
      if (seen.has(key)) delete record.description;
      else seen.add(key);
    }
    return true;
  };
  for (const tool of tools) {
    visitSchemas(tool.inputSchema, dropSeen);
    if (tool.outputSchema) visitSchemas(tool.outputSchema, dropSeen);
  }
  return tools;
}
