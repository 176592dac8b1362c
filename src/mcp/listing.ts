import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolHints } from '../tools/define.js';
import { visitSchemas, type SchemaPlace } from './schema-walk.js';

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
