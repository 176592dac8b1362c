import { createRequire } from 'node:module';

type Devices = typeof import('playwright-core').devices;
let loaded: Devices | undefined;

/**
 * playwright-core's device list, loaded on first use: importing playwright-core costs ~350 ms, which
 * must not delay `initialize` (only a device preset in a config or a call needs it).
 */
function devicesList(): Devices {
  loaded ??= (createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')).devices;
  return loaded;
}

/** What a device preset sets: the emulation fields of playwright-core's own device descriptors. */
export interface DeviceEmulation {
  viewport: { width: number; height: number };
  screen?: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  userAgent: string;
}

/**
 * Device names come from the installed playwright-core (e.g. "Pixel 7", "iPhone 15 Pro landscape"),
 * so the list follows Playwright's updates. Names are matched exactly; a name Playwright does not know
 * is refused rather than guessed.
 */
export function isDeviceName(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(devicesList(), name);
}

/** Every preset name, sorted, for docs and error hints. */
export function deviceNames(): string[] {
  return Object.keys(devicesList()).sort();
}

/** The emulation a preset sets; `undefined` for an unknown name. `defaultBrowserType` is dropped: always Chromium. */
export function deviceEmulation(name: string): DeviceEmulation | undefined {
  if (!isDeviceName(name)) return undefined;
  const device = devicesList()[name];
  if (!device) return undefined;
  // The descriptors carry a screen size their published type omits.
  const { screen } = device as { screen?: { width: number; height: number } };
  return {
    viewport: { ...device.viewport },
    ...(screen ? { screen: { ...screen } } : {}),
    deviceScaleFactor: device.deviceScaleFactor,
    isMobile: device.isMobile,
    hasTouch: device.hasTouch,
    userAgent: device.userAgent,
  };
}
