import { randomBytes } from 'node:crypto';

/**
 * Short random ids: long enough to never collide inside one runtime and to be unguessable across
 * clients, short enough to cost the model few tokens.
 */
export function newId(prefix: 's' | 'p' | 'op'): string {
  return `${prefix}_${randomBytes(prefix === 'op' ? 6 : 8).toString('base64url')}`;
}
