import type { Config } from '../config/config-types.js';

/** What a tools/list answer depends on besides the tools' code (see toolsForConfig and toListing). */
export type ListingInputs = Pick<Config, 'tools' | 'schemaRefs' | 'fullSchemas' | 'observabilityPageSize'>;

/**
 * A key equal for two configurations exactly when their tools/list answers are equal, so the
 * listing generated at build time (prebuilt-listing.ts) is served only to a server it describes.
 */
export function listingKey(config: ListingInputs): string {
  return JSON.stringify({
    tools: [...new Set(config.tools)].sort(),
    refs: config.schemaRefs,
    full: config.fullSchemas,
    pageSize: config.observabilityPageSize,
  });
}
