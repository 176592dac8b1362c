/**
 * Where a shell command's word is, when there is one: options may come first (`-s buyer open URL`,
 * `--headed open URL`). Flags alone, as every MCP client configuration passes them, mean the server.
 */
export function commandWordAt(
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

/** The command line with its word first (`-s buyer open URL` → `open URL -s buyer`), as the parser reads it. */
export function wordFirst(argv: readonly string[], word: number): string[] {
  return [argv[word] ?? '', ...argv.slice(0, word), ...argv.slice(word + 1)];
}

/** A session's name (`-s NAME`). */
export const SESSION_NAME = /^[\w.-]{1,64}$/;
