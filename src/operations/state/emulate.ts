import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import { invalidArgument } from '../../errors.js';

/**
 * Emulation of one open page: media features through Playwright's emulateMedia, the rest through
 * DevTools (network conditions, CPU throttling, geolocation, time zone, locale), which Chromium
 * applies to an open page. `reset` returns to the session's own settings.
 */

export interface EmulateInput {
  colorScheme?: 'light' | 'dark' | 'no-preference' | undefined;
  reducedMotion?: 'reduce' | 'no-preference' | undefined;
  forcedColors?: 'active' | 'none' | undefined;
  media?: 'screen' | 'print' | undefined;
  offline?: boolean | undefined;
  network?: NetworkPreset | CustomNetwork | undefined;
  /** 1 = no throttling, 4 = four times slower. */
  cpuThrottling?: number | undefined;
  geolocation?: { latitude: number; longitude: number; accuracy?: number | undefined } | undefined;
  timezoneId?: string | undefined;
  locale?: string | undefined;
  reset?: boolean | undefined;
}

export type NetworkPreset = 'slow3g' | 'fast3g' | 'none';
export interface CustomNetwork {
  latencyMs: number;
  /** Bytes per second; -1 = unlimited. */
  downloadBps: number;
  uploadBps: number;
}

/** Chrome DevTools' own presets (its throttling menu). */
const PRESETS: Record<NetworkPreset, CustomNetwork> = {
  slow3g: { latencyMs: 2000, downloadBps: 50_000, uploadBps: 50_000 },
  fast3g: { latencyMs: 562.5, downloadBps: 180_000, uploadBps: 84_375 },
  none: { latencyMs: 0, downloadBps: -1, uploadBps: -1 },
};

export interface EmulateResult {
  /** The settings now applied by this call (reset: the ones put back). */
  applied: string[];
}

export function emulate(ctx: PageOperationContext, input: EmulateInput): Promise<EmulateResult> {
  return withDeadline(apply(ctx, input), ctx.deadline, ctx.signal);
}

async function apply(ctx: PageOperationContext, input: EmulateInput): Promise<EmulateResult> {
  if (input.reset === true) {
    const others = Object.entries(input).filter(([k, v]) => k !== 'reset' && v !== undefined);
    if (others.length > 0) throw invalidArgument('reset', 'cannot be combined with other settings');
    return reset(ctx);
  }
  const page = ctx.page.page;
  const cdp = await ctx.page.cdp();
  const applied: string[] = [];
  const media = {
    colorScheme: input.colorScheme,
    reducedMotion: input.reducedMotion,
    forcedColors: input.forcedColors,
    media: input.media,
  };
  const mediaKeys = Object.entries(media).filter(([, v]) => v !== undefined);
  if (mediaKeys.length > 0) {
    await page.emulateMedia(Object.fromEntries(mediaKeys));
    applied.push(...mediaKeys.map(([k]) => k));
  }
  if (input.offline !== undefined || input.network !== undefined) {
    const net =
      input.network === undefined
        ? PRESETS.none
        : typeof input.network === 'string'
          ? PRESETS[input.network]
          : input.network;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: input.offline ?? false,
      latency: net.latencyMs,
      downloadThroughput: net.downloadBps,
      uploadThroughput: net.uploadBps,
    });
    applied.push(
      ...(input.offline !== undefined ? ['offline'] : []),
      ...(input.network !== undefined ? ['network'] : []),
    );
  }
  if (input.cpuThrottling !== undefined) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: input.cpuThrottling });
    applied.push('cpuThrottling');
  }
  if (input.geolocation !== undefined) {
    const origin = originOf(page.url());
    if (origin !== undefined) await page.context().grantPermissions(['geolocation'], { origin });
    await cdp.send('Emulation.setGeolocationOverride', {
      ...input.geolocation,
      accuracy: input.geolocation.accuracy ?? 10,
    });
    applied.push('geolocation');
  }
  if (input.timezoneId !== undefined) {
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: input.timezoneId }).catch(() => {
      throw invalidArgument('timezoneId', 'is not a time zone Chromium knows (IANA name, e.g. Europe/Paris)');
    });
    applied.push('timezoneId');
  }
  if (input.locale !== undefined) {
    await cdp.send('Emulation.setLocaleOverride', { locale: input.locale }).catch(() => {
      throw invalidArgument('locale', 'is not a locale Chromium accepts (e.g. de-DE)');
    });
    applied.push('locale');
  }
  if (applied.length === 0) throw invalidArgument('colorScheme', 'give at least one setting, or reset');
  return { applied };
}

/** Back to the session's settings: what it was created with, or the browser's defaults. */
async function reset(ctx: PageOperationContext): Promise<EmulateResult> {
  const settings = ctx.session.toInfo().contextSettings as {
    colorScheme?: 'light' | 'dark' | 'no-preference';
    timezoneId?: string;
    locale?: string;
    geolocation?: { latitude: number; longitude: number; accuracy?: number };
  };
  const page = ctx.page.page;
  const cdp = await ctx.page.cdp();
  await page.emulateMedia({
    colorScheme: settings.colorScheme ?? null,
    reducedMotion: null,
    forcedColors: null,
    media: null,
  });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  if (settings.geolocation)
    await cdp.send('Emulation.setGeolocationOverride', { accuracy: 10, ...settings.geolocation });
  else await cdp.send('Emulation.clearGeolocationOverride');
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: settings.timezoneId ?? '' });
  await cdp.send('Emulation.setLocaleOverride', settings.locale ? { locale: settings.locale } : {});
  return { applied: ['media', 'network', 'cpuThrottling', 'geolocation', 'timezoneId', 'locale'] };
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
