import type { Config } from '../../config/load.js';
import type { Logger } from '../logger.js';
import { CdpProvider, SESSION_PLACEHOLDER } from './cdp.js';
import { PerSessionCdpProvider, templateMinter } from './cdp-per-session.js';
import { LocalProvider, localProviderOptions, useChromiumSandbox } from './local.js';
import type { BrowserProvider } from './provider.js';
import { PlaywrightProvider } from './playwright.js';
import { SeleniumProvider } from './selenium.js';
import { PersistentProfileProvider } from './persistent.js';
import { resolveContextSettings, toContextOptions } from '../context-settings.js';
import { sessionDefaultsFromConfig } from '../session-defaults.js';
import { urlPolicyFromConfig } from '../../url-policy/index.js';

export function createProvider(config: Config, logger?: Logger): BrowserProvider {
  switch (config.provider) {
    case 'cdp':
      // A `{session}` placeholder mints one endpoint (and one connection) per session.
      return config.cdpEndpoint.includes(SESSION_PLACEHOLDER)
        ? new PerSessionCdpProvider({
            mint: templateMinter(config.cdpEndpoint),
            headers: config.remoteHeaders,
            ...(config.guardHost ? { guardHost: config.guardHost } : {}),
          })
        : new CdpProvider({
            endpoint: config.cdpEndpoint,
            headers: config.remoteHeaders,
            guard: config.cdpGuard,
            ...(config.guardHost ? { guardHost: config.guardHost } : {}),
          });
    case 'selenium':
      return new SeleniumProvider({
        url: config.seleniumUrl,
        headers: config.remoteHeaders,
        capabilities: config.seleniumCapabilities,
        headless: config.headless,
        probeIntervalMs: config.seleniumProbeMs,
        ...(config.guardHost ? { guardHost: config.guardHost } : {}),
        ...(logger ? { logger } : {}),
      });
    case 'playwright':
      return new PlaywrightProvider({
        endpoint: config.playwrightEndpoint,
        headers: config.playwrightHeaders,
        tunnel: config.playwrightTunnel,
      });
    case 'local':
      if (config.userDataDir) return persistentProvider(config);
      return new LocalProvider({ ...localProviderOptions(config), relaunchOnCrash: true });
  }
}

/** `--user-data-dir`: the server's browser defaults become the one shared context's options. */
function persistentProvider(config: Config): PersistentProfileProvider {
  const { settings, operator } = sessionDefaultsFromConfig(config);
  return new PersistentProfileProvider({
    userDataDir: config.userDataDir,
    headless: config.headless,
    executablePath: config.executablePath,
    sandbox: useChromiumSandbox(config.chromiumSandbox),
    contextOptions: toContextOptions(resolveContextSettings(settings), operator),
    initScriptPaths: operator.initScriptPaths ?? [],
    urlPolicy: urlPolicyFromConfig(config),
  });
}
