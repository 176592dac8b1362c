// The one Chromium every contender drives, and the flags all of them get: as root Chromium needs
// --no-sandbox, and the machine's network is closed, so background networking and component updates
// are off. BrowserMesh adds the same list itself (src/engine/providers/local.ts).

export const CHROMIUM_PATH = process.env.BROWSERMESH_BENCH_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--disable-sync',
];

/** Launch options for playwright-core, the same as BrowserMesh's local provider uses. */
export function playwrightLaunchOptions() {
  return {
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false,
    args: CHROMIUM_ARGS.filter((arg) => arg !== '--no-sandbox'),
  };
}
