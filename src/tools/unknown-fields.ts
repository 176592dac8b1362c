import type { z } from 'zod';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { closestName } from '../suggest.js';

/**
 * A misspelled argument (`ur` for `url`) makes zod report the real field as missing first, so the
 * message named the field the caller never typed. This puts the unknown key first and suggests the
 * field it most likely meant: one the same call also reported as missing or invalid beside it.
 * Keys are echoed only when they look like plain names; values never are (they may be secrets).
 */
export function unknownFieldError(error: z.ZodError): BrowserMeshError | undefined {
  const unknown = error.issues.find((issue) => issue.code === 'unrecognized_keys');
  if (!unknown || unknown.code !== 'unrecognized_keys') return undefined;
  const parent = unknown.path.map(String);
  const siblings = error.issues
    .filter((issue) => issue.code !== 'unrecognized_keys' && issue.path.length === parent.length + 1)
    .filter((issue) => parent.every((part, i) => String(issue.path[i]) === part))
    .map((issue) => String(issue.path[parent.length]));
  const keys = unknown.keys.slice(0, 5).map(String).filter(isPlainName);
  if (keys.length === 0) return undefined;
  const first = keys[0] as string;
  const suggestion = closestName(first, siblings.filter(isPlainName));
  const where = parent.filter(isPlainName);
  const field = [...where, first].join('.');
  const list = keys.length === 1 ? `unknown field ${field}` : `unknown fields ${keys.join(', ')}`;
  const hint = suggestion === undefined ? '' : `; did you mean ${[...where, suggestion].join('.')}?`;
  return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, `${field}: ${list}${hint}`, {
    details: {
      field,
      issues: error.issues.length,
      ...(suggestion === undefined ? {} : { suggestion }),
    },
  });
}

function isPlainName(key: string): boolean {
  return /^[A-Za-z0-9_$-]{1,64}$/.test(key);
}
