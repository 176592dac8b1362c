#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runWarm, warmCandidate } from './face/thin-client.cjs';

/**
 * The server side of the `browsermesh` entry (bin.cts is the command itself): a shell command
 * (`browsermesh click @e5`) goes to the shell face, anything else (flags alone, as MCP client
 * configurations pass them) to the server side. While a daemon runs, a shell command loads only the
 * thin client (src/cli/face/thin-client.cts: Node built-ins) and the daemon parses it; everything else
 * is imported on demand, and test/e2e/cli-client-imports.test.ts fails when a warm command loads more
 * (docs/cli.md, "The client is light"). Run directly (`node dist/cli/main.js`, as MCP configurations
 * and the benchmark do), it tries the warm path itself.
 */
async function main(): Promise<number | undefined> {
  const argv = process.argv.slice(2);
  if (warmCandidate(argv)) {
    const code = await runWarm(argv);
    if (code !== undefined) return code;
  }
  return runMain(argv);
}

function isEntry(): boolean {
  const entry = process.argv[1];
  try {
    return entry !== undefined && import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

/** Everything but the warm path (which the caller has tried): the daemon, the full client, the server. */
export async function runMain(argv: string[]): Promise<number | undefined> {
  if (argv[0] === 'daemon' && argv[1] === 'run')
    return (await import('./server-face.js')).runDaemon(argv.slice(2));
  // A first word that is not a flag is a shell command; options may come before it (`-s buyer open URL`).
  const first = argv[0];
  const { commandWordAt, wordFirst } = await import('./face/argv.js');
  const word =
    first === undefined
      ? undefined
      : !first.startsWith('-')
        ? 0
        : commandWordAt(argv, (await import('../config/setting-flags.js')).settingFlagKind);
  if (word !== undefined) return (await import('./face/client.js')).runCommand(wordFirst(argv, word));
  return (await import('./server-face.js')).runServerFace(argv);
}

// Imported by bin.cts, this module only exports; run as the entry itself (through a link too), it runs.
if (isEntry())
  main().then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`browsermesh: fatal: ${error instanceof Error ? error.name : 'error'}\n`);
      process.exitCode = 1;
    },
  );
