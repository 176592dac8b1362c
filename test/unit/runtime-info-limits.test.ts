/**
 * browser_runtime_info reports the effective limits before any session (seed 003: "the effective
 * configuration and limits"), without launching Chromium: what a caller needs to size its reads.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { McpHarness } from '../helpers/harness.js';

let mcp: McpHarness;

beforeAll(async () => {
  mcp = await McpHarness.start({
    maxQueuedOps: 7,
    observabilityEvents: 321,
    screenshotMaxBytes: 654_321,
    visibleTextMaxChars: 12_345,
    maxSavedStates: 9,
  });
});
afterAll(async () => {
  await mcp.close();
});

it('names the observability, screenshot, visible-text, saved-state and queue limits in force', async () => {
  const info = await mcp.ok<{ limits: Record<string, unknown>; browser: { state: string } }>(
    'browser_runtime_info',
  );
  const config = mcp.mesh.config;
  expect(info.limits).toMatchObject({
    maxQueuedOps: 7,
    observability: {
      events: 321,
      stringChars: config.observabilityStringChars,
      pageSize: config.observabilityPageSize,
      responseBytes: config.observabilityResponseBytes,
    },
    screenshot: {
      maxDimension: config.screenshotMaxDimension,
      maxPixels: config.screenshotMaxPixels,
      maxBytes: 654_321,
    },
    visibleText: { maxChars: 12_345, maxBytes: config.visibleTextMaxBytes },
    savedStates: { max: 9, maxBytes: config.maxStateBytes, maxTotalBytes: config.maxStateTotalBytes },
  });
  expect(info.browser.state).toBe('idle');
});
