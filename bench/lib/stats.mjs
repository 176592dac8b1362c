// Small, dependency-free statistics for benchmark samples.

/** The p-th percentile (0-100) by linear interpolation between closest ranks; undefined when empty. */
export function percentile(values, p) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

export const median = (values) => percentile(values, 50);
export const p90 = (values) => percentile(values, 90);

export const sum = (values) => values.reduce((total, v) => total + v, 0);

/** a / b, or undefined when either is missing or b is zero. */
export function ratio(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : undefined;
}

/** Median of each numeric field over a list of records with the same shape. */
export function medianFields(records, fields) {
  const out = {};
  for (const field of fields) out[field] = median(records.map((r) => r[field]));
  return out;
}
