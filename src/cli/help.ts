import { SETTINGS, type SettingSpec } from '../config/settings.js';
import { commandsHelp } from './face/commands.js';

/** `--help`, generated from the settings table so it never drifts from what the loader accepts. */
export function helpText(): string {
  const lines = [
    'browsermesh — isolated Chromium sessions for AI agents (MCP server on stdio, or Streamable HTTP with --http)',
    '',
    'Usage: browsermesh [options]',
    '',
    'Commands:',
    '  --doctor              Check Node, Playwright, Chromium and the data directory; exit 0 when all pass',
    '  --install-browser     Get a Chromium where possible, otherwise print the exact command',
    '  --help, --version',
    '',
    'Options (each also settable by its environment variable; flags win):',
  ];
  for (const spec of SETTINGS as readonly SettingSpec[]) {
    if (!spec.flag || spec.hidden) continue;
    lines.push(
      `  ${flagUsage(spec).padEnd(30)} ${spec.description} [${spec.env}, default ${spec.default || '(none)'}]`,
    );
  }
  lines.push('', 'Environment-only settings:');
  for (const spec of SETTINGS as readonly SettingSpec[]) {
    if (spec.flag || spec.hidden) continue;
    lines.push(`  ${spec.env.padEnd(44)} ${spec.description} (default ${spec.default})`);
  }
  return `${lines.join('\n')}\n\n${commandsHelp()}`;
}

function flagUsage(spec: SettingSpec): string {
  if (spec.type.kind === 'boolean') {
    return spec.negativeFlag
      ? `--${spec.flag} | --${spec.negativeFlag}`
      : `--${spec.flag} | --no-${spec.flag}`;
  }
  return `--${spec.flag} <value>`;
}
