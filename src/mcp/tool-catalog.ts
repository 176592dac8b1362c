import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config/load.js';
import type { AnyTool } from '../tools/define.js';
import type { InvokeContext, InvokeResult } from '../tools/invoke.js';
import type { Services } from '../tools/services.js';
import { listingKey } from './listing-key.js';
import { PREBUILT_LISTING_JSON, PREBUILT_LISTING_KEY } from './prebuilt-listing.js';

/** The published tools and their call path, once loaded. */
export interface ToolCatalog {
  byName: ReadonlyMap<string, AnyTool>;
  /** The tools/list entries, built on first use and kept (they depend only on tools and config). */
  listing(): Tool[];
  services: Services;
  invoke(tool: AnyTool, args: unknown, ctx: Omit<InvokeContext, 'services'>): Promise<InvokeResult>;
}

export interface CatalogSource {
  config: Config;
  /** Override the published tools (defaults to the configured profiles). */
  tools?: AnyTool[] | undefined;
  services?: Services | undefined;
  principal?: string | undefined;
  dashboardUrl?: (() => string | undefined) | undefined;
}

/**
 * The tools are loaded on first use, not when the server is built: their modules, zod schemas and
 * JSON schemas cost more start-up time than everything `initialize` needs. The MCP server
 * asks for them on its first tools/list, tools/call or prompt request, and starts loading them in the
 * background once a client has initialized. Concurrent callers share one load; a failed load is
 * retried by the next caller.
 */
export function lazyToolCatalog(source: CatalogSource): () => Promise<ToolCatalog> {
  let loading: Promise<ToolCatalog> | undefined;
  return () => {
    loading ??= loadCatalog(source).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

async function loadCatalog(source: CatalogSource): Promise<ToolCatalog> {
  const [{ toolsForConfig }, { invokeTool }, { createServices }, { toListing }] = await Promise.all([
    import('../tools/index.js'),
    import('../tools/invoke.js'),
    import('../tools/services.js'),
    import('./listing.js'),
  ]);
  const { config } = source;
  const tools = source.tools ?? toolsForConfig(config);
  const services = source.services ?? createServices(config, source.principal);
  if (source.dashboardUrl) services.dashboardUrl = source.dashboardUrl;
  let listing: Tool[] | undefined;
  return {
    byName: new Map(tools.map((tool) => [tool.name, tool])),
    listing: () =>
      (listing ??=
        prebuiltListing(source) ?? toListing(tools, { refs: config.schemaRefs, full: config.fullSchemas })),
    services,
    invoke: (tool, args, ctx) => invokeTool(tool, args, { ...ctx, services }),
  };
}

/**
 * The listing generated at build time, when it describes this catalog (the configured profiles'
 * tools, and the settings the listing depends on): building it from the zod schemas costs ~120 ms of
 * the thread that answers Chromium's launch handshake. prebuilt-listing.test.ts keeps it equal to
 * the live build.
 */
export function prebuiltListing(source: CatalogSource): Tool[] | undefined {
  if (source.tools !== undefined || listingKey(source.config) !== PREBUILT_LISTING_KEY) return undefined;
  return (JSON.parse(PREBUILT_LISTING_JSON) as { tools: Tool[] }).tools;
}
