import type { Deadline } from '../engine/deadline.js';
import type { ManagedPage } from '../engine/page.js';
import { resolveRef } from './element.js';
import type { ElementTarget } from './remote-element.js';

/**
 * A snapshot ref as an action target, through the snapshot layer's node identity (never re-guessed
 * by role and name). `field` is '' for tools whose ref is a top-level argument.
 */
export function resolveRefTarget(
  page: ManagedPage,
  ref: string,
  deadline: Deadline,
  field: string,
  signal?: AbortSignal,
): Promise<ElementTarget> {
  return resolveRef(page, ref, deadline, { signal, field: field === '' ? 'ref' : `${field}.ref` });
}
