import { cpSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalAction } from './command-spec.js';

/**
 * `browsermesh skill install`: copies skills/browsermesh (SKILL.md + references) where an agent
 * looks for skills. The user-level folders, from each agent's own documentation (docs/cli.md
 * names the pages): Claude Code ~/.claude/skills, Codex ~/.agents/skills, Cursor ~/.cursor/skills,
 * Gemini CLI ~/.gemini/skills.
 */
export const SKILL_TARGETS: Readonly<Record<string, string>> = {
  claude: '.claude/skills',
  codex: '.agents/skills',
  cursor: '.cursor/skills',
  gemini: '.gemini/skills',
};

/** The skill folder shipped in the package (next to dist/). */
const SKILL_SOURCE = fileURLToPath(new URL('../../../skills/browsermesh', import.meta.url));

export function installSkill(action: Extract<LocalAction, { kind: 'skill-install' }>): number {
  const base =
    action.target === 'dir'
      ? action.dir
      : SKILL_TARGETS[action.target] && join(homedir(), SKILL_TARGETS[action.target] ?? '');
  if (base === undefined) {
    const known = [...Object.keys(SKILL_TARGETS), 'dir'].join(', ');
    process.stderr.write(
      action.target === 'dir'
        ? 'USAGE: skill install --target dir needs --dir PATH\n'
        : `USAGE: skill install: --target is one of ${known}\n`,
    );
    return 2;
  }
  if (!existsSync(join(SKILL_SOURCE, 'SKILL.md'))) {
    process.stderr.write(`FILE_NOT_FOUND: the packaged skill is missing (${SKILL_SOURCE})\n`);
    return 1;
  }
  const destination = join(base, 'browsermesh');
  cpSync(SKILL_SOURCE, destination, { recursive: true });
  process.stdout.write(`${join(destination, 'SKILL.md')}\n`);
  return 0;
}
