import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/load.js';
import { toolsForConfig } from '../tools/index.js';
import { toListing } from './listing.js';
import { listingKey } from './listing-key.js';
import { PREBUILT_LISTING_JSON, PREBUILT_LISTING_KEY } from './prebuilt-listing.js';
import { lazyToolCatalog } from './tool-catalog.js';

describe('the tools/list built at build time (run `npm run docs:tools` when this fails)', () => {
  it("is the default configuration's listing, exactly", () => {
    const config = defaultConfig();
    expect(PREBUILT_LISTING_KEY).toBe(listingKey(config));
    const live = toListing(toolsForConfig(config), { refs: config.schemaRefs, full: config.fullSchemas });
    expect(JSON.parse(PREBUILT_LISTING_JSON)).toEqual({ tools: JSON.parse(JSON.stringify(live)) });
  });

  it('is keyed on everything the listing depends on', () => {
    const config = defaultConfig();
    expect(listingKey({ ...config, tools: ['core'] })).not.toBe(PREBUILT_LISTING_KEY);
    expect(listingKey({ ...config, schemaRefs: false })).not.toBe(PREBUILT_LISTING_KEY);
    expect(listingKey({ ...config, fullSchemas: true })).not.toBe(PREBUILT_LISTING_KEY);
    expect(listingKey({ ...config, observabilityPageSize: 7 })).not.toBe(PREBUILT_LISTING_KEY);
    expect(listingKey({ ...config, tools: [...config.tools].reverse() })).toBe(PREBUILT_LISTING_KEY);
  });

  it('is what the server lists when it applies, and the live build otherwise', async () => {
    const live = (config: ReturnType<typeof defaultConfig>): unknown =>
      JSON.parse(JSON.stringify(toListing(toolsForConfig(config), { refs: config.schemaRefs })));
    const config = defaultConfig();
    const served = (await lazyToolCatalog({ config })()).listing();
    expect(served).toEqual(JSON.parse(PREBUILT_LISTING_JSON).tools);
    expect(served).toEqual(live(config));
    const core = { ...config, tools: ['core' as const] };
    const coreListing = (await lazyToolCatalog({ config: core })()).listing();
    expect(coreListing.length).toBeLessThan(served.length);
    expect(coreListing).toEqual(live(core));
    // Tools given by the caller are never answered from the prebuilt listing.
    const given = toolsForConfig(config).slice(0, 2);
    const own = (await lazyToolCatalog({ config, tools: given })()).listing();
    expect(own.map((tool) => tool.name)).toEqual(given.map((tool) => tool.name));
  });
});
