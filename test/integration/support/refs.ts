/** The ref captured by `pattern`'s first group in a snapshot's text; throws with the snapshot when absent. */
export function refOf(snapshot: string, pattern: RegExp): string {
  const found = pattern.exec(snapshot)?.[1];
  if (!found) throw new Error(`no ref for ${String(pattern)} in:\n${snapshot}`);
  return found;
}
