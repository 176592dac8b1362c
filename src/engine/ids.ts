import { randomInt } from 'node:crypto';

/**
 * Ids cost the model tokens on every call (each page operation sends a sessionId and a pageId), so
 * they are as short as what they must guarantee:
 * - session ids (`s_` + 10 random lowercase letters, ~47 bits) are unguessable: a session is the unit
 *   of isolation, and a guessed id must never reach another client's session (over HTTP each principal
 *   also sees only its own). Lowercase letters cost about half the tokens of mixed-case base64.
 * - page ids (`p1`, `p2`, …) are unique in the process, never reused, and only ever used together
 *   with their session id, which the runtime checks the page belongs to: uniqueness keeps "a pageId
 *   of another session is refused" exact, and nothing is gained by making them unguessable.
 * - operation ids (`op_` + 7 random lowercase letters) correlate a result with logs and traces.
 * errors.ts `safeId` knows these shapes: keep the two in step.
 */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const SESSION_CHARS = 10;
const OPERATION_CHARS = 7;
let pagesIssued = 0;

export function newId(prefix: 's' | 'p' | 'op'): string {
  if (prefix === 'p') return `p${++pagesIssued}`;
  return `${prefix}_${randomLetters(prefix === 's' ? SESSION_CHARS : OPERATION_CHARS)}`;
}

function randomLetters(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += LETTERS[randomInt(LETTERS.length)];
  return out;
}
