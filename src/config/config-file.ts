import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.js';
import { SETTINGS, type SettingSpec } from './settings.js';

export type RawValues = Map<string, { value: string; source: string }>;

/** Settings a config file may not hold: the file cannot point at another file. */
const NOT_IN_FILE = new Set(['configFile']);

/**
 * Reads a `--config` JSON file: an object keyed by setting key (`timeoutMs`, `device`, …). Each value
 * becomes the same text a flag would carry, so it goes through the same validation and error
 * messages; the source of an error is `config file: <key>`. Values are never echoed (the file may
 * hold a proxy password or headers).
 */
export function readConfigFile(path: string, source: string): RawValues {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(source, `cannot read the config file (${code})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(source, 'the config file must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ConfigError(source, 'the config file must be a JSON object');
  const raw: RawValues = new Map();
  const specs = new Map((SETTINGS as readonly SettingSpec[]).map((spec) => [spec.key, spec]));
  for (const [key, value] of Object.entries(parsed)) {
    const spec = specs.get(key);
    const where = `config file: ${/^\w{1,40}$/.test(key) ? key : '…'}`;
    if (!spec || NOT_IN_FILE.has(key))
      throw new ConfigError(where, 'unknown setting (see docs/configuration.md)');
    raw.set(key, { value: toFlagText(spec, value, where), source: where });
  }
  return raw;
}

function toFlagText(spec: SettingSpec, value: unknown, where: string): string {
  if (spec.type.kind === 'json') {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return JSON.stringify(value);
    throw new ConfigError(where, 'must be a JSON object');
  }
  if (Array.isArray(value) && (spec.type.kind === 'list' || spec.type.kind === 'strings')) {
    if (value.every((item) => typeof item === 'string')) return value.join(',');
    throw new ConfigError(where, 'must be an array of strings');
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && spec.type.kind === 'integer') return String(value);
  if (typeof value === 'boolean' && spec.type.kind === 'boolean') return String(value);
  throw new ConfigError(where, `must be ${expected(spec)}`);
}

function expected(spec: SettingSpec): string {
  switch (spec.type.kind) {
    case 'integer':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'list':
    case 'strings':
      return 'an array of strings or a comma-separated string';
    default:
      return 'a string';
  }
}
