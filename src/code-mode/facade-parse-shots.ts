import type { ScreenshotCall, ShotFormat } from './facade-calls.js';
import { parseSelector } from './facade-validate.js';
import { bool, fail, int, oneOf, opt, options, timeoutOf, type Raw } from './validate-helpers.js';

/**
 * `page.screenshot(options)` and `locator.screenshot(options)` with the options of Playwright's that
 * mean something here: `fullPage` (page only), `type`, `quality` (jpeg only, 0-100, as Playwright
 * checks it) and `timeout`. The image is attached to the run's result, so `path` has nowhere to go.
 */
function screenshot(m: string, a: Raw): ScreenshotCall {
  const onElement = a['target'] !== undefined && a['target'] !== null;
  const raw = a['options'];
  if (raw !== null && typeof raw === 'object' && 'path' in raw) {
    fail(m, "option 'path'", 'is not supported: the image is attached to the browser_run result');
  }
  const o = options(
    m,
    raw,
    onElement ? ['type', 'quality', 'timeout'] : ['fullPage', 'type', 'quality', 'timeout'],
  );
  const type = opt(o['type'], (v) => oneOf(m, "option 'type'", v, ['png', 'jpeg'] as const)) ?? 'png';
  const quality = opt(o['quality'], (v) => int(m, "option 'quality'", v, 0, 100));
  if (quality !== undefined && type !== 'jpeg') fail(m, "option 'quality'", "applies to type 'jpeg' only");
  const format: ShotFormat = quality === undefined ? { type } : { type, quality };
  const call: ScreenshotCall = { op: 'screenshot', format, ...timeoutOf(m, o) };
  if (onElement) call.target = parseSelector(m, a['target']);
  const fullPage = opt(o['fullPage'], (v) => bool(m, "option 'fullPage'", v));
  if (fullPage !== undefined) call.fullPage = fullPage;
  return call;
}

export const SHOT_PARSERS = { screenshot };
