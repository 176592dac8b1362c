import type { Browser, LaunchOptions } from 'playwright-core';
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

  protected async obtain(timeoutMs: number): Promise<Browser> {
    const found = await chromiumOrThrow(this.options.executablePath);
    try {
      return await (await loadChromium()).launch(localLaunchOptions(this.options, found, timeoutMs));
    } catch (error) {
      throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'Chromium failed to launch', {
        cause: error,
        details: { reason: 'launch_failed' },
        recoveryHint: 'Run `browsermesh --doctor` to see what is missing.',
      });
    }
  }

  protected placement(): Placement {
    return { provider: 'local' };
  }

  protected async dispose(browser: Browser): Promise<void> {
    await browser.close();
  }
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
