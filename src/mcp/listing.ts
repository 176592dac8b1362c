import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolHints } from '../tools/define.js';

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
  for (const tool of tools) {
    dropSeenDescriptions(tool.inputSchema, '', seen);
    if (tool.outputSchema) dropSeenDescriptions(tool.outputSchema, '', seen);
  }
  return tools;
}

/** Mutates freshly generated schemas: `toListedTool` builds new objects for every listing. */
function dropSeenDescriptions(node: unknown, field: string, seen: Set<string>): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) dropSeenDescriptions(item, field, seen);
    return;
  }
  const record = node as Record<string, unknown>;
  if (field !== '' && typeof record.description === 'string') {
    const key = `${field}\u0000${record.description}`;
    if (seen.has(key)) delete record.description;
    else seen.add(key);
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'properties' || key === '$defs') {
      // Keys of these maps name the schemas below them.
      for (const [name, child] of Object.entries(value as Record<string, unknown>))
        dropSeenDescriptions(child, name, seen);
    } else if (key !== 'enum' && key !== 'const' && key !== 'required') {
      dropSeenDescriptions(value, field, seen);
    }
  }
}
