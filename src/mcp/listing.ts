import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
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
