import { NotAvailable } from '../peers/browsermesh.mjs';
import { progress } from '../lib/progress.mjs';

/**
 * Runs one measurement for one contender. A missing tool becomes an `na` row, any other failure an
 * `error` row: one contender's failure never stops the others, and never becomes a number.
 */
export async function attempt(base, fn) {
  try {
    return { ...base, ...(await fn()) };
  } catch (error) {
    if (error instanceof NotAvailable) return { ...base, na: error.message };
    const message = String(error?.message ?? error).slice(0, 300);
    progress(`  ${message.startsWith(`${base.contender}:`) ? message : `${base.contender}: ${message}`}`);
    return { ...base, error: message };
  }
}

/** Repeats fn `times` times, sequentially; returns the results. */
export async function repeat(times, fn) {
  const out = [];
  for (let i = 0; i < times; i++) out.push(await fn(i));
  return out;
}
