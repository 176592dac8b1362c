import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool, ToolHints } from '../tools/define.js';
import { inputSchemaOf, outputSchemaOf } from '../tools/invoke.js';
import { toPublishedSchema } from './json-schema.js';

/** How a listing is published: shared refs or inlined, lean (default) or full nested structure. */
export interface ListingOptions {
  refs: boolean;
  full?: boolean;
}

/**
 * The tools/list entries for these tools, in order. Each tool is complete on its own: every argument
 * carries its own description (clients may load or show one tool at a time), so shared descriptions
 * are kept short rather than given once.
 */
export function toListing(tools: readonly AnyTool[], options: ListingOptions): Tool[] {
  return tools.map((tool) => toListedTool(tool, options));
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
