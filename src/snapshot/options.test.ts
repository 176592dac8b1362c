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
        maxDepth: null,
        maxChildren: null,
        scopeRef: null,
        includeBoundingBoxes: false,
        includeUrls: false,
        maxChars: SNAPSHOT_LIMITS.defaultMaxChars,
        maxBytes: SNAPSHOT_LIMITS.defaultMaxBytes,
        since: null,
      },
    });
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
  ] as Array<[SnapshotInput, string]>)('refuses %j naming %s', (input, field) => {
    expect(failure(input)).toEqual({ code: 'INVALID_ARGUMENT', field });
  });

  it('leaves a scope locator to the operations layer (it resolves it like the element tools)', () => {
    const validated = validateSnapshotInput({ scope: { locator: { role: 'main' } } });
    expect('options' in validated && validated.options.scopeRef).toBeNull();
  });
});
