import type { BrowserContextOptions } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { deviceEmulation } from '../config/devices.js';

/** Per-session browser settings, already validated at the boundary. */
export interface ContextSettings {
  /**
   * A playwright-core device preset by exact name (e.g. "Pixel 7"): sets viewport, screen, DPR, touch,
   * mobile and user agent. Fields given next to it win over the preset's.
   */
  device?: string;
  /** Emulated viewport; `null` disables emulation so pages follow the real window (library only). */
  viewport?: { width: number; height: number } | null;
  deviceScaleFactor?: number;
  isMobile?: boolean;
  hasTouch?: boolean;
  locale?: string;
  timezoneId?: string;
  colorScheme?: 'light' | 'dark' | 'no-preference';
  reducedMotion?: 'reduce' | 'no-preference';
  userAgent?: string;
  /** Accept invalid or self-signed TLS certificates (test and staging hosts). */
  ignoreHttpsErrors?: boolean;
  geolocation?: { latitude: number; longitude: number; accuracy?: number };
  /** The only permission supported: geolocation, granted to one exact origin. */
  permissions?: Array<{ permission: 'geolocation'; origin: string }>;
  /** Record a Playwright trace from creation until stopped or the session closes. */
  trace?: boolean;
}

/**
 * Server-wide options only the operator sets (flags, env, config file): they name files or carry
 * credentials, so no MCP client can set them and none of them is ever reported back or logged.
 */
export interface OperatorContextOptions {
  proxy?: { server: string; bypass?: string; username?: string; password?: string };
  extraHttpHeaders?: Record<string, string>;
  /** Scripts run in every page before its own scripts, in this order. */
  initScriptPaths?: string[];
  /** A Playwright storageState file every session starts from unless it names a saved state. */
  storageStatePath?: string;
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

/**
 * The settings a session really gets: the server's defaults, then the session's own. At each level a
 * device preset is expanded first and the fields given beside it override it, so a session's device
 * replaces the server's viewport while a session's viewport still beats its own device.
 */
export function resolveContextSettings(
  serverDefaults: ContextSettings,
  session: ContextSettings = {},
): ContextSettings {
  return { ...expandDevice(serverDefaults, 'device'), ...expandDevice(session, 'contextSettings.device') };
}

function expandDevice(settings: ContextSettings, field: string): ContextSettings {
  const explicit = withoutUndefined(settings);
  if (settings.device === undefined) return explicit;
  const preset = deviceEmulation(settings.device);
  if (!preset) {
    // The library path has no schema in front of it; the name itself is not echoed.
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'Unknown device preset', {
      details: { field },
      recoveryHint: "Use a name from playwright-core's device list, e.g. Pixel 7 or iPhone 15.",
    });
  }
  const { screen: _screen, ...fields } = preset;
  return { ...fields, ...explicit };
}

function withoutUndefined(settings: ContextSettings): ContextSettings {
  return Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== undefined),
  ) as ContextSettings;
}

/** Playwright context options for already resolved settings plus the operator's options. */
export function toContextOptions(
  settings: ContextSettings,
  operator: OperatorContextOptions = {},
): BrowserContextOptions {
  const options: BrowserContextOptions = {
    viewport: settings.viewport === undefined ? DEFAULT_VIEWPORT : settings.viewport,
  };
  const preset = settings.device === undefined ? undefined : deviceEmulation(settings.device);
  // A device's screen size only makes sense with its own viewport.
  if (preset?.screen && sameSize(preset.viewport, settings.viewport)) options.screen = preset.screen;
  if (settings.deviceScaleFactor !== undefined) options.deviceScaleFactor = settings.deviceScaleFactor;
  if (settings.isMobile !== undefined) options.isMobile = settings.isMobile;
  if (settings.hasTouch !== undefined) options.hasTouch = settings.hasTouch;
  if (settings.locale !== undefined) options.locale = settings.locale;
  if (settings.timezoneId !== undefined) options.timezoneId = settings.timezoneId;
  if (settings.colorScheme !== undefined) options.colorScheme = settings.colorScheme;
  if (settings.reducedMotion !== undefined) options.reducedMotion = settings.reducedMotion;
  if (settings.userAgent !== undefined) options.userAgent = settings.userAgent;
  if (settings.ignoreHttpsErrors !== undefined) options.ignoreHTTPSErrors = settings.ignoreHttpsErrors;
  if (settings.geolocation !== undefined) options.geolocation = settings.geolocation;
  if (operator.proxy !== undefined) options.proxy = { ...operator.proxy };
  if (operator.extraHttpHeaders !== undefined) options.extraHTTPHeaders = { ...operator.extraHttpHeaders };
  return options;
}

function sameSize(
  a: { width: number; height: number },
  b: { width: number; height: number } | null | undefined,
): boolean {
  return b !== null && b !== undefined && a.width === b.width && a.height === b.height;
}

/** The effective settings reported back to the caller (user agent left out: long and rarely useful). */
export function effectiveSettings(settings: ContextSettings): Record<string, unknown> {
  const { viewport: _viewport, userAgent: _userAgent, ...rest } = settings;
  return {
    viewport: settings.viewport === undefined ? DEFAULT_VIEWPORT : settings.viewport,
    ...rest,
  };
}
