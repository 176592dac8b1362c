import { describe, expect, it } from 'vitest';
import { BrowserMeshError } from '../errors.js';
import { parseTakeoverInput } from './takeover.js';

/** The field a refused input names (never its value). */
function refusedField(body: unknown): string | undefined {
  try {
    parseTakeoverInput(body);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(BrowserMeshError);
    expect((error as BrowserMeshError).code).toBe('INVALID_ARGUMENT');
    return String((error as BrowserMeshError).details?.field);
  }
}

describe('take-over inputs from the network', () => {
  it('accepts the mouse, the wheel, text and the allowed keys', () => {
    for (const type of ['click', 'down', 'move', 'up'] as const)
      expect(parseTakeoverInput({ type, x: 1.5, y: 2 })).toEqual({ type, x: 1.5, y: 2 });
    expect(parseTakeoverInput({ type: 'wheel', x: 0, y: 0, deltaX: -10_000, deltaY: 120 })).toEqual({
      type: 'wheel',
      x: 0,
      y: 0,
      deltaX: -10_000,
      deltaY: 120,
    });
    for (const key of ['ArrowUp', 'PageDown', 'Home', 'End', 'F12', 'a', 'Shift+Tab', 'ControlOrMeta+a'])
      expect(parseTakeoverInput({ type: 'key', key })).toEqual({ type: 'key', key });
    expect(parseTakeoverInput({ type: 'text', text: '' })).toEqual({ type: 'text', text: '' });
  });

  it('refuses the rest, naming the field', () => {
    expect(refusedField({ type: 'wheel', x: 0, y: 0, deltaX: 0, deltaY: 10_001 })).toBe('deltaY');
    expect(refusedField({ type: 'wheel', x: 0, y: 0, deltaY: 1 })).toBe('deltaX');
    expect(refusedField({ type: 'move', x: Number.POSITIVE_INFINITY, y: 0 })).toBe('x');
    expect(refusedField({ type: 'down', x: 0, y: -0.5 })).toBe('y');
    expect(refusedField({ type: 'up', x: '1', y: 0 })).toBe('x');
    for (const key of ['', 'Foo', 'Shift+', '+a', 'Shift+Shift+a', 'Super+a', 'ab', 'é', 'a'.repeat(41)])
      expect(refusedField({ type: 'key', key })).toBe('key');
    expect(refusedField({ type: 'text', text: 'x'.repeat(1001) })).toBe('text');
    expect(refusedField({ type: 'drag' })).toBe('type');
    expect(refusedField(null)).toBe('type');
  });
});
