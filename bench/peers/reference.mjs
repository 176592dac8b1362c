// Functions passed to page.evaluate run in the browser, not in Node.
/* global document, MutationObserver */

// The physical limit: the same work done directly with playwright-core in this process (no MCP,
// no server, no model-facing formatting) and, for the click, as raw CDP mouse events. These rows
// show how close the tools come to what the browser itself allows.

import { chromium } from 'playwright-core';
import { createRequire } from 'node:module';
import { playwrightLaunchOptions } from '../lib/chromium.mjs';
import { LATE_TEXT, appearedAtIn, checkoutFunctionSource, expectOrder } from '../lib/flows.mjs';
import { childProcesses } from '../lib/proc.mjs';
import { countTokens } from '../lib/tokens.mjs';

const require = createRequire(import.meta.url);

export const REFERENCE_LABEL = 'playwright-core (direct)';
export const RAW_CDP_LABEL = 'raw CDP mouse events';

export function playwrightCoreVersion() {
  return require('playwright-core/package.json').version;
}

/** Launches a Chromium with the shared flags; returns the browser and its process id. */
export async function launchReference() {
  const before = new Set(childProcesses(process.pid).map((p) => p.pid));
  const browser = await chromium.launch(playwrightLaunchOptions());
  const root = childProcesses(process.pid).find((p) => !before.has(p.pid) && /chrom/i.test(p.comm));
  return { browser, pid: root?.pid };
}

/** The bench's own Playwright checkout script, compiled once into `async (page) => …`. */
export function compileCheckout(origin) {
  // The harness runs its own fixed script here, exactly as @playwright/mcp's code tool would.
  return new Function(`return (${checkoutFunctionSource(origin)});`)();
}

export async function referenceCheckout(page, origin) {
  const run = compileCheckout(origin);
  const text = await run(page);
  return expectOrder(REFERENCE_LABEL, String(text));
}

export async function referenceSnapshot(page) {
  const started = performance.now();
  const text = await page.locator('body').ariaSnapshot();
  return { ms: performance.now() - started, chars: text.length, tokens: countTokens(text) };
}

/** Per-click times of `page.click()` (Playwright's full actionability checks: five CDP round trips). */
export async function referenceClicks(page, count) {
  await page.click('#increment');
  const samples = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await page.click('#increment');
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Per-click times of three raw CDP mouse events at a precomputed point: no checks at all, the floor. */
export async function rawCdpClicks(page, count) {
  const box = await page.getByRole('button', { name: 'Increment' }).boundingBox();
  if (!box) throw new Error('raw CDP: button has no box');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const click = async () => {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
    await cdp.send('Input.dispatchMouseEvent', {
      type: 'mouseReleased',
      x,
      y,
      button: 'left',
      clickCount: 1,
    });
  };
  await click();
  const samples = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await click();
    samples.push(performance.now() - started);
  }
  await cdp.detach();
  return samples;
}

/**
 * Waits for the late content with Playwright's own waiting (`getByText().waitFor()`, which polls),
 * or with a MutationObserver in the page (`mutation`: what the browser itself allows); returns how
 * long after its appearance it was seen.
 */
export async function referenceLateWait(page, url, how = 'locator') {
  await page.goto(url);
  const started = performance.now();
  if (how === 'mutation') {
    await page.evaluate(
      (text) =>
        new Promise((resolve) => {
          const seen = () => document.body.innerText.includes(text);
          if (seen()) return resolve(true);
          const observer = new MutationObserver(() => {
            if (!seen()) return;
            observer.disconnect();
            resolve(true);
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        }),
      LATE_TEXT,
    );
  } else {
    await page.getByText(LATE_TEXT).waitFor();
  }
  const seenAt = Date.now();
  const ms = performance.now() - started;
  const appearedAt = appearedAtIn((await page.locator('#appeared-at').textContent()) ?? '');
  return { ms, latenessMs: appearedAt ? seenAt - appearedAt : undefined };
}
