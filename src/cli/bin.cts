#!/usr/bin/env node
import { runWarm, warmCandidate } from './face/thin-client.cjs';

/**
 * The `browsermesh` command. CommonJS, so a warm shell command (`browsermesh click @e5` while a daemon
 * runs) skips Node's ES module loader, ~10 ms of every command an agent sends (docs/cli.md, "The
 * client is light"): it loads only the thin client, which sends the command line to the daemon.
 * Everything else — the cold path, the full client, the MCP server — is main.js, imported on demand.
 */
async function bin(): Promise<number | undefined> {
  const argv = process.argv.slice(2);
  if (warmCandidate(argv)) {
    const code = await runWarm(argv);
    if (code !== undefined) return code;
  }
  const { runMain } = await import('./main.js');
  return runMain(argv);
}

bin().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`browsermesh: fatal: ${error instanceof Error ? error.name : 'error'}\n`);
    process.exitCode = 1;
  },
);
