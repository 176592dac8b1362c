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
 * Drops a description when an earlier tool in the listing already carried the same description at
 * the same place (the sessionId, pageId and timeoutMs fields, a shared locator's sub-fields, …):
 * repeated prose is the largest avoidable cost of a listing, and a model reads the whole list. Only
 * descriptions go; every validation keyword stays, so each tool's schema is still complete.
 */
export function dedupeFieldDescriptions(tools: Tool[]): Tool[] {
  const seen = new Set<string>();
  for (const tool of tools) {
    dropSeenDescriptions(tool.inputSchema, 'in', seen, true);
    if (tool.outputSchema) dropSeenDescriptions(tool.outputSchema, 'out', seen, true);
  }
  return tools;
}

/** Mutates freshly generated schemas: `toListedTool` builds new objects for every listing. */
function dropSeenDescriptions(node: unknown, path: string, seen: Set<string>, isRoot: boolean): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    node.forEach((item, index) => dropSeenDescriptions(item, `${path}/${index}`, seen, false));
    return;
  }
  const record = node as Record<string, unknown>;
  if (!isRoot && typeof record.description === 'string') {
    const key = `${path}\u0000${record.description}`;
    if (seen.has(key)) delete record.description;
    else seen.add(key);
  }
  for (const [key, value] of Object.entries(record))
    dropSeenDescriptions(value, `${path}/${key}`, seen, false);
}
