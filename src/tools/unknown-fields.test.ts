import { describe, expect, it } from 'vitest';
import { fromZodError, inputSchemaOf } from './invoke.js';
import { navigateTool } from './navigation.js';
import type { AnyTool } from './define.js';

const schema = inputSchemaOf(navigateTool as unknown as AnyTool);

function errorFor(args: Record<string, unknown>) {
  const parsed = schema.safeParse(args);
  if (parsed.success) throw new Error('expected the arguments to be refused');
  return fromZodError(parsed.error);
}

describe('a misspelled tool argument', () => {
  it('is named first, with the field it most likely meant', () => {
    const error = errorFor({ sessionId: 's_0123456789', pageId: 'p_0123456789', ur: 'http://127.0.0.1/' });
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe('ur: unknown field ur; did you mean url?');
    expect(error.details).toMatchObject({ field: 'ur', suggestion: 'url' });
  });

  it('is named even when no field is close, and never echoes a value', () => {
    const error = errorFor({
      sessionId: 's_0123456789',
      pageId: 'p_0123456789',
      url: 'http://127.0.0.1/',
      zzzzzz: 'hunter2secret',
    });
    expect(error.message).toBe('zzzzzz: unknown field zzzzzz');
    expect(JSON.stringify(error.details)).not.toContain('hunter2secret');
    expect(error.message).not.toContain('hunter2secret');
  });

  it('leaves other mistakes as they were', () => {
    expect(errorFor({ sessionId: 's_0123456789', pageId: 'p_0123456789' }).message).toMatch(/^url: /);
  });
});
