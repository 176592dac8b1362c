import type { BrowserContextOptions } from 'playwright-core';

/** Per-session browser settings, already validated at the boundary. */
export interface ContextSettings {
  /** Emulated viewport; `null` disables emulation so pages follow the real window (library only). */
  viewport?: { width: number; height: number } | null;
  deviceScaleFactor?: number;
  locale?: string;
  timezoneId?: string;
  colorScheme?: 'light' | 'dark' | 'no-preference';
  reducedMotion?: 'reduce' | 'no-preference';
  userAgent?: string;
  geolocation?: { latitude: number; longitude: number; accuracy?: number };
  /** The only permission supported: geolocation, granted to one exact origin. */
  permissions?: Array<{ permission: 'geolocation'; origin: string }>;
  /** Record a Playwright trace from creation until stopped or the session closes. */
  trace?: boolean;
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

export function toContextOptions(settings: ContextSettings): BrowserContextOptions {
  const options: BrowserContextOptions = {
    viewport: settings.viewport === undefined ? DEFAULT_VIEWPORT : settings.viewport,
  };
  if (settings.deviceScaleFactor !== undefined) options.deviceScaleFactor = settings.deviceScaleFactor;
  if (settings.locale !== undefined) options.locale = settings.locale;
  if (settings.timezoneId !== undefined) options.timezoneId = settings.timezoneId;
  if (settings.colorScheme !== undefined) options.colorScheme = settings.colorScheme;
  if (settings.reducedMotion !== undefined) options.reducedMotion = settings.reducedMotion;
  if (settings.userAgent !== undefined) options.userAgent = settings.userAgent;
  if (settings.geolocation !== undefined) options.geolocation = settings.geolocation;
  return options;
}

/** The effective settings reported back to the caller (user agent left out: long and rarely useful). */
export function effectiveSettings(settings: ContextSettings): Record<string, unknown> {
  return {
    viewport: settings.viewport === undefined ? DEFAULT_VIEWPORT : settings.viewport,
    ...withoutViewport(settings),
  };
}

function withoutViewport(settings: ContextSettings): Record<string, unknown> {
  const { viewport: _viewport, ...rest } = settings;
  return rest;
}
