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

  it('matches by field name and text wherever the field sits, never across names', () => {
    const nested = (name: string): Tool => ({
      name,
      inputSchema: {
        type: 'object',
        properties: {
          scope: {
            type: 'object',
            properties: { maxChars: { type: 'integer', description: 'Default 10.' } },
          },
          limit: { type: 'integer', description: 'Default 10.' },
        },
      },
    });
    const [, second] = dedupeFieldDescriptions([tool('a', 'Default 10.'), nested('b'), nested('c')]);
    const props = second?.inputSchema.properties as Record<
      string,
      { description?: string; properties?: object }
    >;
    expect(props.limit?.description).toBe('Default 10.');
    expect(props.scope?.properties).toEqual({ maxChars: { type: 'integer', description: 'Default 10.' } });
    const [, , third] = dedupeFieldDescriptions([tool('a', 'x'), nested('b'), nested('c')]);
    expect(JSON.stringify(third)).not.toContain('Default 10.');
  });
});
