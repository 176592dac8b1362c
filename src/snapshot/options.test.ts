import { describe, expect, it } from 'vitest';
import { isBrowserMeshError } from '../errors.js';
import { SNAPSHOT_LIMITS, validateSnapshotInput, type SnapshotInput } from './options.js';

function failure(input: SnapshotInput): { code: string; field: unknown } {
  try {
    validateSnapshotInput(input);
  } catch (error) {
    if (isBrowserMeshError(error)) return { code: error.code, field: error.details?.field };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('validateSnapshotInput', () => {
  it('applies the bounded defaults', () => {
    expect(validateSnapshotInput({})).toEqual({
      cursor: null,
      options: {
        interactiveOnly: false,
        textLines: false,
        maxDepth: null,
        maxChildren: null,
        scopeRef: null,
        includeBoundingBoxes: false,
        includeUrls: false,
        maxChars: SNAPSHOT_LIMITS.defaultMaxChars,
        maxBytes: SNAPSHOT_LIMITS.defaultMaxBytes,
        since: null,
        maxRefs: null,
      },
    });
  });

  it("maps seed 003's includeRefs / maxRefs to a ref cap", () => {
    const cap = (input: Parameters<typeof validateSnapshotInput>[0]): unknown => {
      const v = validateSnapshotInput(input);
      return v.cursor === null ? v.options.maxRefs : undefined;
    };
    expect(cap({ includeRefs: true })).toBe(SNAPSHOT_LIMITS.defaultMaxRefs);
    expect(cap({ includeRefs: true, maxRefs: 7 })).toBe(7);
    expect(cap({ maxRefs: 7 })).toBe(7);
    expect(cap({ includeRefs: false })).toBe(0);
    expect(() => cap({ includeRefs: false, maxRefs: 3 })).toThrow(/maxRefs/);
    expect(() => cap({ maxRefs: 101 })).toThrow(/maxRefs/);
  });

  it('accepts a cursor alone', () => {
    expect(validateSnapshotInput({ cursor: 'abcdefghijkl.1.0' })).toEqual({ cursor: 'abcdefghijkl.1.0' });
  });

  it.each([
    [{ cursor: 'c', maxChars: 1000 }, 'maxChars'],
    [{ cursor: 'c', since: 'previous' }, 'since'],
    [{ cursor: 'c', scope: { ref: '@e1' } }, 'scope'],
    [{ cursor: 'c', interactiveOnly: false }, 'interactiveOnly'],
    [{ maxDepth: 0 }, 'maxDepth'],
    [{ maxDepth: 1.5 }, 'maxDepth'],
    [{ maxChildren: 0 }, 'maxChildren'],
    [{ maxChars: 10 }, 'maxChars'],
    [{ maxBytes: 10_000_000 }, 'maxBytes'],
    [{ since: 'yesterday' }, 'since'],
    [{ scope: {} }, 'scope'],
    [{ scope: { ref: '@e1', locator: { role: 'button' } } }, 'scope'],
    [{ scope: { ref: 'button' } }, 'scope.ref'],
    [{ interactiveOnly: 'yes' }, 'interactiveOnly'],
    [{ textLines: 1 }, 'textLines'],
    [{ cursor: 'c', textLines: true }, 'textLines'],
  ] as Array<[SnapshotInput, string]>)('refuses %j naming %s', (input, field) => {
    expect(failure(input)).toEqual({ code: 'INVALID_ARGUMENT', field });
  });

  it('leaves a scope locator to the operations layer (it resolves it like the element tools)', () => {
    const validated = validateSnapshotInput({ scope: { locator: { role: 'main' } } });
    expect('options' in validated && validated.options.scopeRef).toBeNull();
  });
});
