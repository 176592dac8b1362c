/** The shared MCP contract over stdio, against the built CLI. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server.mjs';
import { baseEnv, CLI } from './cli-helpers.js';
import { defineContract } from './contract.js';

let site: FixtureServer;
let client: Client;

beforeAll(async () => {
  site = await startFixtureServer();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: baseEnv({ BROWSERMESH_LOG_LEVEL: 'warn', BROWSERMESH_WARM_UP: 'false' }),
    stderr: 'ignore',
  });
  client = new Client({ name: 'contract-stdio', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await site?.close();
});

describe('MCP contract over stdio', () => {
  defineContract(
    () => client,
    () => site,
  );
});
