import { COMMANDS, GLOBAL_OPTIONS, optionUsage } from './commands.js';
import { LOCATOR_OPTIONS } from './command-helpers.js';

/** docs/cli.md's command reference, rendered from the command table (scripts/gen-cli-docs.mjs). */
export function commandsMarkdown(): string {
  const lines = ['| command | what it does | options |', '|---|---|---|'];
  for (const spec of COMMANDS) {
    const usage = `\`${`${spec.name} ${spec.usage}`.trim()}\``.replace(/\|/g, '\\|');
    const options = (spec.options ?? []).map((o) => `\`${optionUsage(o)}\``).join(', ');
    const more = [
      ...(spec.target ? ['locator options'] : []),
      ...(spec.aliases ?? []).map((a) => `alias \`${a}\``),
    ];
    lines.push(
      `| ${usage} | ${spec.summary.replace(/\|/g, '\\|')} | ${[options, ...more].filter(Boolean).join('; ')} |`,
    );
  }
  lines.push('', 'Locator options (instead of a ref):', '');
  for (const option of LOCATOR_OPTIONS) lines.push(`- \`${optionUsage(option)}\`: ${option.help}`);
  lines.push('', 'On every command:', '');
  for (const option of GLOBAL_OPTIONS) lines.push(`- \`${optionUsage(option)}\`: ${option.help}`);
  return `${lines.join('\n')}\n`;
}
