import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * Checks on raw and parsed JSON-RPC messages that run before the MCP SDK sees them. The SDK answers
 * a malformed `tools/call` with -32603 and its whole validation dump, and recursive checks on a very
 * deep value can overflow the stack and answer nothing; these checks are flat, iterative and bounded,
 * and their messages never echo a value.
 */

/** Deepest nesting accepted in one message. Tool arguments need about ten levels. */
export const MAX_JSON_DEPTH = 64;

export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INVALID_PARAMS = -32602;

/**
 * Whether raw JSON text nests deeper than `maxDepth`, by one pass over its characters (strings
 * skipped). Runs before `JSON.parse`, so a million-deep value costs one linear scan.
 */
export function jsonTextTooDeep(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped char
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Whether a parsed value nests deeper than `maxDepth` (iterative: never overflows the stack). */
export function valueTooDeep(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let visited = 0;
  while (stack.length > 0) {
    const top = stack.pop();
    if (top === undefined || typeof top.value !== 'object' || top.value === null) continue;
    if (top.depth + 1 > maxDepth) return true;
    // A parsed message has no cycles, but an in-process caller could pass one: bound the walk.
    if (++visited > 1_000_000) return true;
    for (const child of Object.values(top.value)) stack.push({ value: child, depth: top.depth + 1 });
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why a request must be refused before the SDK parses it, or undefined. Checks the shape the SDK's
 * own `tools/call` schema would reject with a dump, and the nesting depth of any request's params.
 */
export function refusalOf(message: unknown): { code: number; message: string } | undefined {
  if (!isPlainObject(message) || typeof message.method !== 'string' || !('id' in message)) return undefined;
  const params = message.params;
  if (params !== undefined && !isPlainObject(params))
    return {
      code: JSONRPC_INVALID_PARAMS,
      message: `${message.method.slice(0, 64)}: params must be an object`,
    };
  if (params !== undefined && valueTooDeep(params))
    return { code: JSONRPC_INVALID_PARAMS, message: `params nest deeper than ${MAX_JSON_DEPTH} levels` };
  if (params !== undefined && params._meta !== undefined && !isPlainObject(params._meta))
    return { code: JSONRPC_INVALID_PARAMS, message: '_meta must be an object' };
  if (message.method !== 'tools/call') return undefined;
  if (params === undefined || typeof params.name !== 'string')
    return { code: JSONRPC_INVALID_PARAMS, message: 'tools/call: name must be a string' };
  if (params.arguments !== undefined && !isPlainObject(params.arguments))
    return { code: JSONRPC_INVALID_PARAMS, message: 'tools/call: arguments must be an object' };
  return undefined;
}

/** A request id as JSON-RPC allows it (string or number), or null when there is none to answer. */
export function requestIdOf(message: unknown): RequestId | null {
  if (!isPlainObject(message)) return null;
  const id = message.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * The id of a request whose text was too large to parse, from its head or tail: JSON-RPC clients put
 * `id` first or (the MCP SDK) last. Only a top-level position is trusted, so a nested "id" inside the
 * arguments is never taken for it. Null when neither end shows one.
 */
export function requestIdFromEnds(head: string, tail: string): RequestId | null {
  const value = '(-?\\d{1,15}|"[^"\\\\]{0,128}")';
  const first = new RegExp(`^\\s*\\{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?"id"\\s*:\\s*${value}`).exec(
    head,
  );
  const last = new RegExp(`"id"\\s*:\\s*${value}\\s*\\}\\s*$`).exec(tail);
  const raw = first?.[1] ?? last?.[1];
  if (raw === undefined) return null;
  return raw.startsWith('"') ? raw.slice(1, -1) : Number(raw);
}

/** A JSON-RPC error response. `id` null answers a request whose id could not be read. */
export function rpcError(id: RequestId | null, code: number, message: string): JSONRPCErrorResponse {
  // The SDK types want an id; JSON-RPC 2.0 answers an unreadable request with id null.
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message } };
}
