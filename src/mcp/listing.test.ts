import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ACTION, DESTRUCTIVE, IDEMPOTENT_ACTION, READ_ONLY } from '../tools/define.js';
import { dedupeFieldDescriptions, toAnnotations } from './listing.js';

describe('toAnnotations', () => {
  it('omits hints equal to the MCP defaults or meaningless for read-only tools', () => {
    expect(toAnnotations(READ_ONLY)).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(toAnnotations(ACTION)).toEqual({ destructiveHint: false });
    expect(toAnnotations(IDEMPOTENT_ACTION)).toEqual({
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(toAnnotations(DESTRUCTIVE)).toEqual({ idempotentHint: true, openWorldHint: false });
  });
});

describe('dedupeFieldDescriptions', () => {
  const tool = (name: string, description: string): Tool => ({
    name,
    inputSchema: {
      type: 'object',
      properties: {
        sessionId: { type: 'string', minLength: 1, description },
        other: { type: 'string', description: name },
      },
    },
  });

  it('keeps a repeated description on the first tool only, and every validation keyword everywhere', () => {
    const [first, second, third] = dedupeFieldDescriptions([
      tool('a', 'Session id.'),
      tool('b', 'Session id.'),
      tool('c', 'Other.'),
    ]);
    expect(first?.inputSchema.properties?.sessionId).toEqual({
      type: 'string',
      minLength: 1,
      description: 'Session id.',
    });
    expect(second?.inputSchema.properties?.sessionId).toEqual({ type: 'string', minLength: 1 });
    expect(second?.inputSchema.properties?.other).toEqual({ type: 'string', description: 'b' });
    expect(third?.inputSchema.properties?.sessionId).toEqual({
      type: 'string',
      minLength: 1,
      description: 'Other.',
    });
  });
});
