import { SETTINGS, type SettingSpec } from '../config/settings.js';
import { commandsHelp } from './face/commands.js';

/** The server flags most people need; `--help-all` lists every one. */
const FIRST_FLAGS = ['http', 'port', 'headless', 'tools', 'secrets', 'allowed-origins', 'dashboard'];

/**
 * `--help`: the shell commands first, then the few server flags people need. `--help-all` adds every
 * flag and environment setting, generated from the settings table so it never drifts from what the
 * loader accepts.
 */
export function helpText(options: { all?: boolean } = {}): string {
  const settings = (SETTINGS as readonly SettingSpec[]).filter((spec) => !spec.hidden);
  const head = [
    'browsermesh — many isolated Chromium sessions for AI agents: shell commands, an MCP server, a library',
    '',
    'Usage:',
    '  browsermesh <command> [args]   a shell command (below); a per-user daemon keeps the sessions',
    '  browsermesh [options]          the MCP server on stdio (Streamable HTTP with --http --port N)',
    '',
  ];
  const server = [
    options.all
      ? 'Server options (each also settable by its environment variable; flags win):'
      : 'Server options people start with (browsermesh --help-all lists every one):',
  ];
  for (const spec of settings) {
    if (!spec.flag || (!options.all && !FIRST_FLAGS.includes(spec.flag))) continue;
    server.push(
      `  ${flagUsage(spec).padEnd(30)} ${spec.description} [${spec.env}, default ${spec.default || '(none)'}]`,
    );
  }
  server.push(
    '',
    'Other commands:',
    '  --doctor              Check Node, Playwright, Chromium and the data directory; exit 0 when all pass',
    '  --install-browser     Get a Chromium where possible, otherwise print the exact command',
    '  --help-all            Every server option and environment setting',
    '  --help, --version',
  );
  if (options.all) {
    server.push('', 'Environment-only settings:');
    for (const spec of settings)
      if (!spec.flag) server.push(`  ${spec.env.padEnd(44)} ${spec.description} (default ${spec.default})`);
  }
  return `${head.join('\n')}\n${commandsHelp()}\n${server.join('\n')}\n`;
}

function flagUsage(spec: SettingSpec): string {
  if (spec.type.kind === 'boolean') {
    return spec.negativeFlag
      ? `--${spec.flag} | --${spec.negativeFlag}`
      : `--${spec.flag} | --no-${spec.flag}`;
  }
  return `--${spec.flag} <value>`;
}
