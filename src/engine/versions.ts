import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function versionOf(specifier: string): string {
  try {
    return (require(specifier) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Exact versions for runtime_info and --doctor (this file sits two levels below the package root). */
export const VERSIONS = {
  browsermesh: versionOf('../../package.json'),
  playwright: versionOf('playwright-core/package.json'),
  node: process.versions.node,
};
