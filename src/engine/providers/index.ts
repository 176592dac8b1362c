import type { Config } from '../../config/load.js';
import type { Logger } from '../logger.js';
import { CdpProvider } from './cdp.js';
import { LocalProvider } from './local.js';
import type { BrowserProvider } from './provider.js';
import { SeleniumProvider } from './selenium.js';

export function createProvider(config: Config, logger?: Logger): BrowserProvider {
  switch (config.provider) {
    case 'cdp':
      return new CdpProvider({ endpoint: config.cdpEndpoint, headers: config.remoteHeaders });
    case 'selenium':
      return new SeleniumProvider({
        url: config.seleniumUrl,
        headers: config.remoteHeaders,
        capabilities: config.seleniumCapabilities,
        headless: config.headless,
        probeIntervalMs: config.seleniumProbeMs,
        ...(logger ? { logger } : {}),
      });
    case 'local':
      return new LocalProvider({ headless: config.headless, executablePath: config.executablePath });
  }
}
