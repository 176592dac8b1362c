import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISABLE_FEATURES_SWITCH, PLAYWRIGHT_DISABLED_FEATURES } from './chromium-features.js';
import { CHROMIUM_ARGS } from './local.js';

/** The features the installed playwright-core disables at launch, read from its own source. */
function playwrightDisabledFeatures(): string[] {
  const root = join(createRequire(import.meta.url).resolve('playwright-core/package.json'), '..');
  const source = readFileSync(join(root, 'lib', 'coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]/.exec(source)?.[1];
  if (list === undefined)
    throw new Error('playwright-core no longer declares disabledFeatures: update this test');
  return [...list.matchAll(/^\s*"([^"]+)",?\s*$/gm)].map((match) => match[1] ?? '');
}

describe('the --disable-features switch', () => {
  it("keeps every feature the installed playwright-core disables (only Chromium's last switch counts)", () => {
    const theirs = playwrightDisabledFeatures();
    expect(theirs.length).toBeGreaterThan(5);
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual(expect.arrayContaining(theirs));
  });

  it('is passed once, with the omnibox WebUI features off', () => {
    const switches = CHROMIUM_ARGS.filter((arg) => arg.startsWith('--disable-features='));
    expect(switches).toEqual([DISABLE_FEATURES_SWITCH]);
    expect(DISABLE_FEATURES_SWITCH).toMatch(/,WebUIOmniboxPopup,WebUIOmniboxAimPopup$/);
  });
});
