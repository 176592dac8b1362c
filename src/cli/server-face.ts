// The CLI's server side, loaded by main.ts for everything that is not a shell command: the MCP
// server (stdio or HTTP), doctor, install-browser, export-state, --help, --version, and the shell
// face's daemon. Split from main.ts so a shell command does not load it.
import module from 'node:module';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config, type LoadedConfig } from '../config/load.js';
import { VERSIONS } from '../engine/versions.js';
import { serverIdentity } from '../mcp/early-initialize.js';
import { listingKey } from '../mcp/listing-key.js';
import { PREBUILT_LISTING_JSON, PREBUILT_LISTING_KEY } from '../mcp/prebuilt-listing.js';
import { BoundedStdioServerTransport } from '../mcp/stdio-transport.js';
import type { EarlyStdio } from './serve.js';

/**
 * flags → config → start; nothing else. stdout is the protocol's: everything human goes to stderr.
 * Only what parsing the flags and answering `initialize` need is imported statically; each command
 * loads its own modules (see docs/performance.md, "Startup").
 */
export async function runServerFace(argv: string[]): Promise<number | undefined> {
  const loaded = loadOrRefuse(argv);
  if (loaded === undefined) return 2;
  const { config, command } = loaded;
  const out = (line: string): void => void process.stdout.write(line);
  switch (command) {
    case 'help':
    case 'help-all':
      out((await import('./help.js')).helpText({ all: command === 'help-all' }));
      return 0;
    case 'version':
      out(`${VERSIONS.browsermesh}\n`);
      return 0;
    case 'doctor':
      return (await import('./doctor.js')).runDoctor(config, out);
    case 'install-browser':
      return (await import('./install-browser.js')).installBrowser(config, out);
    case 'export-state': {
      const { exportState } = await import('./export-state.js');
      return exportState(config, out, (line) => void process.stderr.write(line));
    }
    case 'serve': {
      const early = config.http ? undefined : readStdioEarly(config);
      keepCompiledCode(config.dataDir);
      if (early && launchesEarly(config)) await launchAtFirstListing(config, early);
      await (await import('./serve.js')).serve(loaded, early);
      return undefined;
    }
  }
}

/** The flags and environment as a config, or undefined once a bad value was named on stderr. */
function loadOrRefuse(argv: string[]): LoadedConfig | undefined {
  try {
    return loadConfig(argv);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`browsermesh: invalid configuration: ${error.message}\n`);
      return undefined;
    }
    throw error;
  }
}

/** The shell face's daemon (started in the background by the first shell command). */
export async function runDaemon(argv: string[]): Promise<number | undefined> {
  const loaded = loadOrRefuse(argv);
  if (loaded === undefined) return 2;
  keepCompiledCode(loaded.config.dataDir);
  await (await import('./face/daemon.js')).runDaemon(loaded, argv);
  return undefined;
}

/**
 * Node 22.1+ can keep the compiled code of the modules loaded from now on (playwright-core, the
 * tools, the SDK) on disk, so a later start skips compiling them (measured on Node 24: playwright-core
 * loads in ~55% of the time, the tools in ~60%). Kept in the user's own data directory, not a shared
 * temporary folder whose cache another local user could write. Node 20 has no such API: nothing
 * happens, and a cache that cannot be written is simply not used.
 */
function keepCompiledCode(dataDir: string): void {
  const enable = (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  try {
    enable?.(join(dataDir, 'compile-cache'));
  } catch {
    // An unusable cache directory only costs the speed-up.
  }
}

/** How long the server waits for a client's `initialize`, then its tools/list, before loading itself. */
const FIRST_MESSAGES_WAIT_MS = 150;
const LISTING_WAIT_MS = 50;

/** A stdio server whose browser is this machine's Chromium, launched by the warm-up. */
const launchesEarly = (config: Config): boolean =>
  config.warmUp && config.provider === 'local' && config.userDataDir === '';

/**
 * The cold start's longest wait is Chromium's launch, which needs playwright-core (~150–250 ms of
 * this thread) before it can spawn the browser; loading the rest of the server first made the launch
 * wait for it. So a client that lists the tools right after `initialize` (every agent does) gets its
 * Chromium spawned first, and the server loads while Chromium starts up on the other core. A client
 * whose first request is another one (a one-shot call) gets the server at once, one that sends
 * nothing within the wait gets it then; the warm-up, if any, begins at a later listing (serve.ts).
 */
async function launchAtFirstListing(config: Config, early: EarlyStdio): Promise<void> {
  const timers: NodeJS.Timeout[] = [];
  const after = (ms: number): Promise<false> =>
    new Promise((resolve) => timers.push(setTimeout(() => resolve(false), ms)));
  const listed = await Promise.race([
    early.toolsListed.then(() => true),
    early.otherFirst.then(() => false),
    early.initialized.then(() => after(LISTING_WAIT_MS)),
    after(FIRST_MESSAGES_WAIT_MS),
  ]);
  for (const timer of timers) clearTimeout(timer);
  if (!listed) return;
  const { launchEarly, localProviderOptions } = await import('../engine/providers/local.js');
  await launchEarly(localProviderOptions(config), config.timeoutMs);
}

/**
 * Starts reading stdin before the server is loaded, so `initialize` is answered in the time Node
 * takes to start plus this file's few imports; the rest loads meanwhile. With the default
 * tools settings, `tools/list` is answered the same way, from the listing generated at build time:
 * a client's startup timeout covers both.
 */
function readStdioEarly(config: Config): EarlyStdio {
  const transport = new BoundedStdioServerTransport(config.maxMessageBytes);
  const listing =
    listingKey(config) === PREBUILT_LISTING_KEY ? (): string => PREBUILT_LISTING_JSON : undefined;
  let listed = (): void => undefined;
  let other = (): void => undefined;
  const toolsListed = new Promise<void>((resolve) => (listed = resolve));
  const otherFirst = new Promise<void>((resolve) => (other = resolve));
  const initialized = new Promise<void>((resolve) =>
    transport.answerEarly(
      serverIdentity(VERSIONS.browsermesh, config.agentGuidelines, config.dashboard),
      resolve,
      listing,
      { onList: () => listed(), onOther: () => other() },
    ),
  );
  return { transport, initialized, toolsListed, otherFirst };
}
