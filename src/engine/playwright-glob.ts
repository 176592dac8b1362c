import { createRequire } from 'node:module';
import { invalidArgument } from '../errors.js';
import type { RegexPattern } from './regex-worker.js';

interface GlobHelpers {
  iso: { resolveGlobToRegexPattern(baseURL: string | undefined, glob: string): string };
}

let helpers: GlobHelpers | undefined;

/**
 * The regular expression Playwright itself makes of a URL glob (`**\/api/*`, `{a,b}`), so a route
 * can be matched off the event loop with exactly Playwright's meaning: its globs become backtracking
 * expressions, and the page chooses the URL they run on. Read from playwright-core's own bundle (the
 * version is pinned), loaded already by the time a route is added.
 */
export function playwrightGlobRegex(glob: string, field: string): RegexPattern {
  helpers ??= createRequire(import.meta.url)('playwright-core/lib/coreBundle') as GlobHelpers;
  try {
    return { source: helpers.iso.resolveGlobToRegexPattern(undefined, glob), flags: '' };
  } catch {
    throw invalidArgument(field, 'is not a valid glob');
  }
}
