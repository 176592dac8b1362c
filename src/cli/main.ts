#!/usr/bin/env node

/**
 * The `browsermesh` entry: a shell command (`browsermesh click @e5`) goes to the shell face's client,
 * anything else (flags alone, as MCP client configurations pass them) to the server side. Nothing is
 * imported statically: a warm shell command loads only the client (src/cli/face/client.ts), and
 * test/e2e/cli-client-imports.test.ts fails when it loads more.
 */
async function main(): Promise<number | undefined> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'daemon' && argv[1] === 'run')
    return (await import('./server-face.js')).runDaemon(argv.slice(2));
  // A first word that is not a flag is a shell command; options may come before it (`-s buyer open URL`).
  const first = argv[0];
  const word =
    first === undefined
      ? undefined
      : !first.startsWith('-')
        ? 0
        : commandWordAt(argv, (await import('../config/setting-flags.js')).settingFlagKind);
  if (word !== undefined)
    return (await import('./face/client.js')).runCommand([
      argv[word] ?? '',
      ...argv.slice(0, word),
      ...argv.slice(word + 1),
    ]);
  return (await import('./server-face.js')).runServerFace(argv);
}

/**
 * Where a shell command's word is, when there is one: options may come first (`-s buyer open URL`,
 * `--headed open URL`). Flags alone, as every MCP client configuration passes them, mean the server.
 */
function commandWordAt(
  argv: readonly string[],
  settingFlagKind: (name: string) => 'switch' | 'value' | undefined,
): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('-')) return i;
    const name = arg.replace(/^--?/, '').split('=')[0] ?? '';
    const inline = arg.includes('=');
    if (arg === '-s' || arg === '--session') i++;
    else if (arg === '--json' || arg.startsWith('-s=') || arg.startsWith('--session=')) continue;
    else if (settingFlagKind(name) === 'value' && !inline) i++;
    else if (settingFlagKind(name) === undefined) return undefined;
  }
  return undefined;
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
