/**
 * What changed between two renderings of the same page, line by line: `+` added, `-` removed, `~` an
 * element (same ref) whose line changed. Cheap to read after an action; the indentation of each line
 * is kept so an agent still sees where it sits.
 */

export interface Delta {
  lines: string[];
  added: number;
  removed: number;
  changed: number;
}

type Op = { kind: '+' | '-' | '='; line: string };

/** The LCS table is only built for a changed middle this big (cells); larger changes use a multiset diff. */
const MAX_LCS_CELLS = 4_000_000;
const REF = /@e\d+/;

export function diffSnapshots(before: readonly string[], after: readonly string[]): Delta {
  const ops = diffLines(before, after);
  const firstRemovedByRef = new Map<string, number>();
  ops.forEach((op, index) => {
    const ref = op.kind === '-' ? refOf(op.line) : undefined;
    if (ref !== undefined && !firstRemovedByRef.has(ref)) firstRemovedByRef.set(ref, index);
  });
  // An added line whose ref was also removed is the same element, changed: shown once, as `~`.
  const twinOf = new Map<number, number>();
  const pairedRemovals = new Set<number>();
  ops.forEach((op, index) => {
    const ref = op.kind === '+' ? refOf(op.line) : undefined;
    const twin = ref === undefined ? undefined : firstRemovedByRef.get(ref);
    if (twin === undefined || pairedRemovals.has(twin)) return;
    twinOf.set(index, twin);
    pairedRemovals.add(twin);
  });
  const lines: string[] = [];
  let added = 0;
  let removed = 0;
  ops.forEach((op, index) => {
    if (op.kind === '-' && !pairedRemovals.has(index)) {
      removed++;
      lines.push(`- ${op.line}`);
    } else if (op.kind === '+') {
      if (!twinOf.has(index)) added++;
      lines.push(`${twinOf.has(index) ? '~' : '+'} ${op.line}`);
    }
  });
  const changed = twinOf.size;
  const header =
    lines.length === 0
      ? '[delta] no changes since the previous snapshot'
      : `[delta] +${added} -${removed} ~${changed} since the previous snapshot`;
  return { lines: [header, ...lines], added, removed, changed };
}

function refOf(line: string): string | undefined {
  return REF.exec(line)?.[0];
}

/** Line diff: common prefix and suffix, then an LCS of the middle (or a multiset diff when huge). */
export function diffLines(before: readonly string[], after: readonly string[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endA = before.length;
  let endB = after.length;
  while (endA > start && endB > start && before[endA - 1] === after[endB - 1]) {
    endA--;
    endB--;
  }
  const a = before.slice(start, endA);
  const b = after.slice(start, endB);
  const middle = a.length * b.length <= MAX_LCS_CELLS ? lcsDiff(a, b) : multisetDiff(a, b);
  const same = (lines: readonly string[]): Op[] => lines.map((line) => ({ kind: '=', line }));
  return [...same(before.slice(0, start)), ...middle, ...same(before.slice(endA))];
}

function lcsDiff(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  // lengths[i * (m + 1) + j] = LCS of a[i..] and b[j..]
  const lengths = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * (m + 1) + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * (m + 1) + j] ?? 0, lengths[i * (m + 1) + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: '=', line: a[i++] ?? '' });
      j++;
    } else if ((lengths[(i + 1) * (m + 1) + j] ?? 0) >= (lengths[i * (m + 1) + j + 1] ?? 0))
      ops.push({ kind: '-', line: a[i++] ?? '' });
    else ops.push({ kind: '+', line: b[j++] ?? '' });
  }
  while (i < n) ops.push({ kind: '-', line: a[i++] ?? '' });
  while (j < m) ops.push({ kind: '+', line: b[j++] ?? '' });
  return ops;
}

/** Order-blind fallback for very large changes: lines present more often on one side. */
function multisetDiff(a: readonly string[], b: readonly string[]): Op[] {
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  const ops: Op[] = [];
  for (const line of b) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else ops.push({ kind: '+', line });
  }
  const removed: Op[] = [];
  for (const line of a) {
    const left = counts.get(line) ?? 0;
    if (left > 0) {
      counts.set(line, left - 1);
      removed.push({ kind: '-', line });
    }
  }
  return [...removed, ...ops];
}
