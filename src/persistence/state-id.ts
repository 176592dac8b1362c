import { invalidArgument } from '../errors.js';

/**
 * Saved states are addressed by logical ids, never paths: a letter or digit first, then letters,
 * digits, `_` and `-`, 64 characters at most. No dots, slashes or separators, so an id can neither
 * traverse nor name a hidden or temporary file.
 */
export const STATE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function checkStateId(id: string, field = 'stateId'): string {
  if (!STATE_ID_PATTERN.test(id)) {
    throw invalidArgument(field, 'must be 1-64 letters, digits, _ or -, starting with a letter or digit');
  }
  return id;
}
