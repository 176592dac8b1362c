/**
 * "Did you mean …" for a mistyped name (a flag, a tool argument, a time zone). The candidates are
 * always the program's own names, never user input, so a suggestion can be echoed safely.
 */

/** Optimal-string-alignment distance: Levenshtein plus one swap of neighbours ("devcie" → "device"). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to `name` (case-insensitive), when it is close enough to be the likely
 * intent: at most a third of the name's length in edits (at least one, at most three).
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** `; did you mean X?` or nothing, for appending to a message. */
export function didYouMean(name: string, candidates: Iterable<string>, prefix = ''): string {
  const match = closestName(name, candidates);
  return match === undefined ? '' : `; did you mean ${prefix}${match}?`;
}
