import { describe, expect, it } from 'vitest';
import { ACTION, DESTRUCTIVE, IDEMPOTENT_ACTION, READ_ONLY } from '../tools/define.js';
import { toAnnotations } from './listing.js';

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
