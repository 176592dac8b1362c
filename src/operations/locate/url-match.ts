import { invalidArgument } from '../../errors.js';
import { matchOffLoop, toRegexPattern, type RegexBudget } from '../../engine/regex-worker.js';

/** A URL condition: an exact URL, or a glob where `*` is any run of characters but `/` and `**` is any run. */
export type UrlMatcher = (url: string) => boolean;

const MAX_PATTERN_CHARS = 2048;

/**
 * Compiles a caller's URL pattern. Callers never supply a regular expression: the pattern is escaped
 * character by character and only `*` / `**` become wildcards, so a pattern cannot backtrack
 * catastrophically or match more than it says. A pattern without `*` matches the exact URL (also in
 * its normalized form, so `http://a.test` matches `http://a.test/`).
 */
export function compileUrlPattern(pattern: string, field: string): UrlMatcher {
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_CHARS) {
    throw invalidArgument(field, `must be 1-${MAX_PATTERN_CHARS} characters`);
  }
  if (!pattern.includes('*')) {
    const normalized = normalize(pattern);
    return (url) => url === pattern || normalize(url) === normalized;
  }
  const { source, flags } = globRegex(pattern, field);
  const regex = new RegExp(source, flags);
  return (url) => regex.test(url);
}

/** A URL condition checked against a URL the page chose: a glob never runs on the event loop. */
export type UrlMatcherOffLoop = (url: string, budget: RegexBudget) => Promise<boolean>;

/**
 * As compileUrlPattern, but a glob is matched on a worker thread within the caller's budget: its
 * wildcards backtrack on a long URL, and the page chooses the URL's length.
 */
export function compileUrlPatternOffLoop(pattern: string, field: string): UrlMatcherOffLoop {
  if (!pattern.includes('*')) {
    const exact = compileUrlPattern(pattern, field);
    return (url) => Promise.resolve(exact(url));
  }
  const glob = globRegex(pattern, field);
  const regex = toRegexPattern(glob.source, glob.flags, field);
  return async (url, budget) => (await matchOffLoop(regex, [url], { field, ...budget })).length > 0;
}

/**
 * A glob pattern (with `*`) as the regular expression that matches it. Its wildcards backtrack on
 * a long URL (the page chooses it), so where the URL is the page's, match it off the event loop.
 */
export function globRegex(pattern: string, field: string): { source: string; flags: string } {
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_CHARS) {
    throw invalidArgument(field, `must be 1-${MAX_PATTERN_CHARS} characters`);
  }
  if (/\*{3,}/.test(pattern))
    throw invalidArgument(field, 'use * (within one path segment) or ** (anything), not ***');
  return { source: `^${toRegexSource(pattern)}$`, flags: 's' };
}

function toRegexSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? '';
    if (ch !== '*') {
      out += ch.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&');
      continue;
    }
    if (glob[i + 1] === '*') {
      out += '.*';
      i++;
    } else {
      out += '[^/]*';
    }
  }
  return out;
}

function normalize(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
