import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeviceName } from './devices.js';
import { ConfigError } from './config-error.js';
import { didYouMean } from '../suggest.js';
import type { RawValues } from './config-file.js';

/** The browser-default settings the loader checks beyond their type (see settings.ts). */
export interface BrowserDefaultValues {
  device: string;
  viewport: string;
  timezone: string;
  initScripts: string[];
  storageState: string;
}

const VIEWPORT_MAX = { width: 7680, height: 4320 };
const VIEWPORT_MIN = 100;

/**
 * Checks what a pattern cannot: the device is one playwright-core knows, the viewport is in bounds,
 * and the files exist now (a missing init script found at the first session would fail every
 * session). Paths become absolute so a later working-directory change cannot redirect them.
 */
export function checkBrowserDefaults(config: BrowserDefaultValues, raw: RawValues): void {
  const sourceOf = (key: string, env: string): string => raw.get(key)?.source ?? env;
  if (config.device !== '' && !isDeviceName(config.device)) {
    throw new ConfigError(
      sourceOf('device', 'BROWSERMESH_DEVICE'),
      "unknown device; use a name from playwright-core's device list, e.g. Pixel 7 (see docs/configuration.md)",
    );
  }
  if (config.timezone !== '' && !isTimeZone(config.timezone)) {
    throw new ConfigError(
      sourceOf('timezone', 'BROWSERMESH_TIMEZONE'),
      `unknown time zone${didYouMean(config.timezone, Intl.supportedValuesOf('timeZone'))} (an IANA id like Europe/Paris)`,
    );
  }
  if (config.viewport !== '') {
    const [width = 0, height = 0] = config.viewport.split('x').map(Number);
    if (
      width < VIEWPORT_MIN ||
      height < VIEWPORT_MIN ||
      width > VIEWPORT_MAX.width ||
      height > VIEWPORT_MAX.height
    )
      throw new ConfigError(
        sourceOf('viewport', 'BROWSERMESH_VIEWPORT'),
        `must be WIDTHxHEIGHT within ${VIEWPORT_MIN}-${VIEWPORT_MAX.width} x ${VIEWPORT_MIN}-${VIEWPORT_MAX.height}`,
      );
  }
  const scriptsSource = sourceOf('initScripts', 'BROWSERMESH_INIT_SCRIPTS');
  config.initScripts = config.initScripts.map((path) => {
    if (!isFile(path)) throw new ConfigError(scriptsSource, 'every init script must be a readable file');
    return resolve(path);
  });
  if (config.storageState !== '') {
    const source = sourceOf('storageState', 'BROWSERMESH_STORAGE_STATE');
    checkStorageStateFile(config.storageState, source);
    config.storageState = resolve(config.storageState);
  }
}

/**
 * The runtime's own IANA list (what Chromium's ICU knows too), plus the aliases it resolves
 * (US/Pacific, Etc/GMT+5): otherwise a zone Chromium refuses fails every session with no reason.
 */
function isTimeZone(zone: string): boolean {
  if (Intl.supportedValuesOf('timeZone').includes(zone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A Playwright storageState file: `{cookies?: [], origins?: []}`. Its content is never echoed. */
function checkStorageStateFile(path: string, source: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new ConfigError(source, 'must be a readable Playwright storageState JSON file');
  }
  const state = parsed as { cookies?: unknown; origins?: unknown } | null;
  const ok =
    typeof state === 'object' &&
    state !== null &&
    !Array.isArray(state) &&
    (state.cookies === undefined || Array.isArray(state.cookies)) &&
    (state.origins === undefined || Array.isArray(state.origins));
  if (!ok)
    throw new ConfigError(source, 'must be a Playwright storageState file ({cookies: [], origins: []})');
}
