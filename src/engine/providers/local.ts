import type { Browser, LaunchOptions } from 'playwright-core';
import type { Config } from '../../config/load.js';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { DISABLE_FEATURES_SWITCH } from './chromium-features.js';
import { findChromium, installHint } from './find-chromium.js';
import { loadChromium } from './playwright-loader.js';
import type { Placement } from './provider.js';
import { SharedBrowserProvider } from './shared-browser.js';

/** Flags a root, display-less, network-closed machine needs; harmless elsewhere. */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--disable-sync',
  // Chromium otherwise sends every form it sees to Google's autofill server (through the session's
  // proxy, so with the page's context). A non-http server URL turns those queries off.
  '--autofill-server-url=about:invalid',
  // Playwright's disabled features and ours, in the one switch Chromium reads (chromium-features.ts).
  DISABLE_FEATURES_SWITCH,
];

export interface LocalProviderOptions {
  headless: boolean;
  executablePath: string;
  /** Launch a new browser as soon as the shared one dies (the server); default false. */
  relaunchOnCrash?: boolean;
  /** Chromium's own sandbox (see useChromiumSandbox); off when omitted. */
  sandbox?: boolean;
}

/**
 * Whether launched Chromium keeps its own sandbox: always for `on`, never for `off`, and for `auto`
 * whenever the process is not root (Chromium refuses to sandbox as root, so it would not start).
 */
export function useChromiumSandbox(
  mode: 'auto' | 'on' | 'off',
  uid: number | undefined = process.getuid?.(),
): boolean {
  if (mode !== 'auto') return mode === 'on';
  return uid !== 0;
}

/**
 * How a local Chromium is launched, in one place: the sessions' browser and `--doctor` use the same
 * options, so a sandbox that cannot start fails at doctor, not at the first session.
 */
export function localLaunchOptions(
  options: Pick<LocalProviderOptions, 'headless' | 'sandbox'>,
  executablePath: string,
  timeoutMs: number,
): LaunchOptions {
  return {
    executablePath,
    headless: options.headless,
    chromiumSandbox: options.sandbox ?? false,
    args: CHROMIUM_ARGS,
    timeout: timeoutMs,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
}

/** Launches one Chromium here, shared by all sessions (one context each). */
export class LocalProvider extends SharedBrowserProvider {
  readonly name = 'local';
  protected readonly ownsProcess = true;
  readonly onThisMachine = true;

  protected override readonly relaunchOnCrash: boolean;

  constructor(private readonly options: LocalProviderOptions) {
    super();
    this.relaunchOnCrash = options.relaunchOnCrash ?? false;
  }

  protected obtain(timeoutMs: number): Promise<Browser> {
    return takeEarlyLaunch(this.options) ?? launchLocal(this.options, timeoutMs);
  }

  protected placement(): Placement {
    return { provider: 'local' };
  }

  protected async dispose(browser: Browser): Promise<void> {
    await browser.close();
  }

  override async shutdown(): Promise<void> {
    // A launch begun early that no session took (the client left during it) ends with the server.
    const unused = takeEarlyLaunch(this.options);
    await Promise.all([super.shutdown(), unused?.then((browser) => browser.close()).catch(() => undefined)]);
  }
}

/** Launches a local Chromium; BROWSER_ERROR when it is missing or does not start. */
async function launchLocal(options: LocalProviderOptions, timeoutMs: number): Promise<Browser> {
  const found = await chromiumOrThrow(options.executablePath);
  try {
    return await (await loadChromium()).launch(localLaunchOptions(options, found, timeoutMs));
  } catch (error) {
    throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'Chromium failed to launch', {
      cause: error,
      details: { reason: 'launch_failed' },
      recoveryHint: 'Run `browsermesh --doctor` to see what is missing.',
    });
  }
}

/** The options that make two launches alike (the relaunch policy is the provider's, not Chromium's). */
const launchKey = (options: LocalProviderOptions): string =>
  JSON.stringify([options.executablePath, options.headless, options.sandbox ?? false]);

/** A launch begun before the server was loaded, until a provider with the same options takes it. */
let early: { key: string; browser: Promise<Browser> } | undefined;

/**
 * Begins the local Chromium's launch before the rest of the server is loaded (cli/server-face.ts, at
 * a stdio client's first tools/list): Chromium starts up on the other core while this thread loads
 * the MCP SDK and the engine. Resolves once playwright-core is loaded (the spawn follows within a few
 * ms), not when the launch ended. The first LocalProvider made with the same options takes it as its
 * launch; a failure surfaces there, as that launch's own error.
 */
export async function launchEarly(options: LocalProviderOptions, timeoutMs: number): Promise<void> {
  if (early) return;
  const browser = launchLocal(options, timeoutMs);
  browser.catch(() => undefined);
  early = { key: launchKey(options), browser };
  // Launch's first step is loading playwright-core: waited for here so the caller's next imports
  // do not interleave with it; Chromium's own start-up then runs beside them.
  await loadChromium();
}

/** The launch begun early, once, if it was made with these options; otherwise it is closed. */
function takeEarlyLaunch(options: LocalProviderOptions): Promise<Browser> | undefined {
  const taken = early;
  early = undefined;
  if (!taken) return undefined;
  if (taken.key === launchKey(options)) return taken.browser;
  void taken.browser.then((browser) => browser.close()).catch(() => undefined);
  return undefined;
}

/** The local provider's options a server config asks for. */
export function localProviderOptions(config: Config): LocalProviderOptions {
  return {
    headless: config.headless,
    executablePath: config.executablePath,
    sandbox: useChromiumSandbox(config.chromiumSandbox),
  };
}

/** The Chromium to launch, or BROWSER_ERROR (browser_not_found) with the command that installs one. */
export async function chromiumOrThrow(executablePath: string): Promise<string> {
  const found = await findChromium(executablePath);
  if (found) return found.path;
  const what = executablePath ? 'The configured Chromium executable was not found' : 'No Chromium was found';
  throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, `${what}. Install one: ${installHint()}`, {
    details: { reason: 'browser_not_found' },
    recoveryHint: `Run: ${installHint()} — or pass --executable-path. \`browsermesh --doctor\` explains.`,
  });
}
