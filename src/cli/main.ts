#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, loadConfig, type LoadedConfig } from '../config/load.js';
import { createLogger } from '../engine/logger.js';
import { BrowserMesh } from '../engine/runtime.js';
import { VERSIONS } from '../engine/versions.js';
import { createMcpServer } from '../mcp/server.js';
import { runDoctor } from './doctor.js';
import { helpText } from './help.js';
import { installBrowser } from './install-browser.js';

/** flags → config → start; nothing else. stdout is the protocol's: everything human goes to stderr. */
async function main(): Promise<number | undefined> {
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`browsermesh: invalid configuration: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { config, command } = loaded;
  const out = (line: string): void => void process.stdout.write(line);
  switch (command) {
    case 'help':
      out(helpText());
      return 0;
    case 'version':
      out(`${VERSIONS.browsermesh}\n`);
      return 0;
    case 'doctor':
      return runDoctor(config, out);
    case 'install-browser':
      return installBrowser(config, out);
    case 'serve':
      await serve(loaded);
      return undefined;
  }
}

async function serve({ config }: LoadedConfig): Promise<void> {
  const logger = createLogger(config.logLevel);
  const mesh = new BrowserMesh({ config, logger });
  const server = createMcpServer({ mesh, logger });
  const transport = new StdioServerTransport();

  let stopping = false;
  const stop = async (reason: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { reason });
    const force = setTimeout(() => process.exit(0), 10_000);
    force.unref();
    await mesh.shutdown().catch(() => undefined);
    await server.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.stdin.on('end', () => void stop('stdin_closed'));
  process.stdin.on('close', () => void stop('stdin_closed'));
  transport.onclose = () => void stop('transport_closed');

  await server.connect(transport);
  logger.info('ready', { provider: config.provider });
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`browsermesh: fatal: ${error instanceof Error ? error.name : 'error'}\n`);
    process.exitCode = 1;
  },
);
