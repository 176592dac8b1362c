/**
 * Reads a thread id from a framework's per-call context without trusting its shape: the first of
 * the given keys that holds a non-empty string (at most 256 characters are kept).
 */
export function threadIdFrom(
  context: unknown,
  keys: readonly string[] = ['threadId', 'thread_id'],
): string | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  for (const key of keys) {
    const value: unknown = (context as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim() !== '') return value.slice(0, 256);
  }
  return undefined;
}
