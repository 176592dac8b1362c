import type { Config } from '../../config/load.js';
import { CdpProvider } from './cdp.js';
import { LocalProvider } from './local.js';
import type { BrowserProvider } from './provider.js';

export function createProvider(config: Config): BrowserProvider {
  switch (config.provider) {
    case 'cdp':
      return new CdpProvider({ endpoint: config.cdpEndpoint });
    case 'local':
      return new LocalProvider({ headless: config.headless, executablePath: config.executablePath });
  }
}
