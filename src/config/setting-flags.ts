import { SETTINGS } from './settings.js';
import type { SettingSpec } from './setting-spec.js';

/**
 * Which flags name a setting, and whether a value follows them. Kept apart from the loader (load.ts)
 * so the shell client can read its command line without loading the validators it does not need.
 */

export type CliCommand =
  'serve' | 'doctor' | 'install-browser' | 'help' | 'help-all' | 'version' | 'export-state';

export const COMMAND_FLAGS: Readonly<Record<string, CliCommand>> = {
  doctor: 'doctor',
  'install-browser': 'install-browser',
  help: 'help',
  h: 'help',
  'help-all': 'help-all',
  version: 'version',
};

/**
 * For the shell face, which passes setting flags through among its own options: whether `--name` is
 * a setting's flag, and whether a value follows it.
 */
export function settingFlagKind(name: string): 'switch' | 'value' | undefined {
  const match = findFlag(name);
  if (!match) return COMMAND_FLAGS[name] === undefined ? undefined : 'switch';
  return match.value === undefined ? 'value' : 'switch';
}

/** The setting a flag spelling names; a boolean's spellings imply their value. */
export function findFlag(name: string): { spec: SettingSpec; value?: string } | undefined {
  for (const spec of SETTINGS as readonly SettingSpec[]) {
    if (!spec.flag) continue;
    if (spec.type.kind === 'boolean') {
      if (name === spec.flag) return { spec, value: 'true' };
      if (name === `no-${spec.flag}`) return { spec, value: 'false' };
      if (spec.negativeFlag && name === spec.negativeFlag) return { spec, value: 'false' };
    } else if (name === spec.flag) {
      return { spec };
    }
  }
  return undefined;
}
