import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { SETTINGS, type SettingSpec } from './settings.js';
import { checkBrowserDefaults } from './browser-checks.js';
import { checkUserDataDir } from './profile-checks.js';
import { ConfigError } from './config-error.js';
import { readConfigFile, type RawValues } from './config-file.js';

export { ConfigError } from './config-error.js';
import { parseRange } from '../url-policy/address.js';
import { parseOriginPattern } from '../url-policy/origin-pattern.js';
import { parseSecretsFile } from '../secrets.js';
import { readTokensFile } from './principal-secrets.js';
import { didYouMean } from '../suggest.js';
import { COMMAND_FLAGS, findFlag } from './setting-flags.js';
import { resolveDataDir } from './client-settings.js';

export { settingFlagKind } from './setting-flags.js';

/** The only module that reads process.env and argv. Everything else receives a validated Config. */

export type { Config, LogLevel, ProviderKind, ToolProfile } from './config-types.js';
import type { Config } from './config-types.js';

export type { CliCommand } from './setting-flags.js';
import type { CliCommand } from './setting-flags.js';
import { checkGuardHost } from './guard-host.js';

export interface LoadedConfig {
  config: Config;
  command: CliCommand;
}

/** Reads env, then argv (flags win), validates every value, and returns a typed Config. */
export function loadConfig(
  argv: readonly string[] = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
): LoadedConfig {
  // Precedence, lowest first: defaults, the --config file, the environment, flags.
  const fromEnv: RawValues = new Map();
  for (const spec of SETTINGS) {
    const value = env[spec.env];
    if (value !== undefined && value !== '') fromEnv.set(spec.key, { value, source: spec.env });
  }
  const fromFlags: RawValues = new Map();
  let command = applyArgv(argv, fromFlags);
  const configPath = fromFlags.get('configFile') ?? fromEnv.get('configFile');
  const raw: RawValues = new Map([
    ...(configPath ? readConfigFile(configPath.value, configPath.source) : new Map()),
    ...fromEnv,
    ...fromFlags,
  ]);
  const values: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    const entry = raw.get(spec.key);
    values[spec.key] = parseValue(
      spec,
      entry?.value ?? spec.default,
      entry?.source ?? `${spec.env} (default)`,
    );
  }
  const config = values as unknown as Config;
  config.dataDir = resolveDataDir(config.dataDir);
  checkProvider(config, raw);
  checkGuardHost(config, raw);
  checkUrlPolicy(config, raw);
  config.secrets = readSecretsFile(config.secretsFile, raw.get('secretsFile')?.source);
  Object.assign(config, readTokensFile(config.httpTokensFile, raw.get('httpTokensFile')?.source));
  checkHttp(config, raw);
  checkBrowserDefaults(config, raw);
  checkUserDataDir(config, raw);
  if (command === 'serve' && config.exportState !== '') command = 'export-state';
  config.uploadRoots = toUploadRoots(config.uploadRoots, raw.get('uploadRoots')?.source);
  return { config, command };
}

/** An endpoint implies its provider; a provider without its endpoint is refused. */
function checkProvider(config: Config, raw: RawValues): void {
  if (!raw.has('provider')) {
    const given = [config.cdpEndpoint, config.seleniumUrl, config.playwrightEndpoint].filter((e) => e !== '');
    if (given.length > 1) {
      throw new ConfigError(
        raw.get('seleniumUrl')?.source ?? raw.get('playwrightEndpoint')?.source ?? 'BROWSERMESH_SELENIUM_URL',
        'set only one of --cdp-endpoint, --selenium-url and --playwright-endpoint, or choose with --provider',
      );
    }
    if (config.cdpEndpoint !== '') config.provider = 'cdp';
    if (config.seleniumUrl !== '') config.provider = 'selenium';
    if (config.playwrightEndpoint !== '') config.provider = 'playwright';
  }
  const source = raw.get('provider')?.source ?? 'BROWSERMESH_BROWSER_PROVIDER';
  if (config.provider === 'cdp' && config.cdpEndpoint === '') {
    throw new ConfigError(source, 'the cdp provider needs --cdp-endpoint (BROWSERMESH_CDP_ENDPOINT)');
  }
  if (config.provider === 'selenium' && config.seleniumUrl === '') {
    throw new ConfigError(source, 'the selenium provider needs --selenium-url (BROWSERMESH_SELENIUM_URL)');
  }
  if (config.provider === 'playwright' && config.playwrightEndpoint === '') {
    throw new ConfigError(
      source,
      'the playwright provider needs --playwright-endpoint (BROWSERMESH_PLAYWRIGHT_ENDPOINT)',
    );
  }
}

/** Upload roots must be absolute (`~` allowed); symlinks are resolved when a file is checked. */
function toUploadRoots(roots: string[], source = 'BROWSERMESH_UPLOAD_ROOTS'): string[] {
  return roots.map((root) => {
    const expanded = root === '~' || root.startsWith('~/') ? join(homedir(), root.slice(1)) : root;
    if (!isAbsolute(expanded)) throw new ConfigError(source, 'each upload root must be an absolute path');
    return resolve(expanded);
  });
}

/** A server reachable from other machines must demand a token. */
function checkHttp(config: Config, raw: RawValues): void {
  const noToken = config.httpToken === '' && config.httpTokens.length === 0;
  if (config.http && !isLoopbackHost(config.httpHost) && noToken) {
    throw new ConfigError(
      raw.get('httpHost')?.source ?? 'BROWSERMESH_HTTP_HOST',
      'a non-loopback host needs a bearer token in BROWSERMESH_HTTP_TOKEN',
    );
  }
}

/** Origin patterns and CIDR ranges are parsed once here, so a typo exits with status 2 at start. */
function checkUrlPolicy(config: Config, raw: RawValues): void {
  const lists = [
    ['allowedOrigins', config.allowedOrigins, parseOriginPattern],
    ['blockedOrigins', config.blockedOrigins, parseOriginPattern],
    ['blockedAddresses', config.blockedAddresses, parseRange],
  ] as const;
  for (const [key, items, parse] of lists) {
    for (const item of items) {
      let ok = true;
      try {
        ok = parse(item) !== undefined;
      } catch {
        ok = false;
      }
      if (!ok) throw new ConfigError(raw.get(key)?.source ?? key, `entry "${safe(item)}" is not valid`);
    }
  }
}

function readSecretsFile(path: string, source = 'BROWSERMESH_SECRETS_FILE'): Record<string, string> {
  if (path === '') return {};
  try {
    return parseSecretsFile(readFileSync(resolve(path), 'utf8'));
  } catch (error) {
    // parseSecretsFile's messages name a line number only, never content.
    const detail =
      error instanceof Error && /^line \d+/.test(error.message) ? error.message : 'cannot be read';
    throw new ConfigError(source, `the secrets file ${detail}`);
  }
}

/** Whether a bind address or host name only reaches this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** The defaults, as a library user gets them without env or flags. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig([], {}).config, ...overrides };
}

function applyArgv(argv: readonly string[], raw: RawValues): CliCommand {
  let command: CliCommand = 'serve';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('-')) throw new ConfigError(arg, 'unexpected argument (see --help)');
    const [name = '', inline] = splitFlag(arg.replace(/^--?/, ''));
    const commandName = COMMAND_FLAGS[name];
    if (commandName) {
      command = commandName;
      continue;
    }
    const match = findFlag(name);
    if (!match) {
      const hint = didYouMean(name, [...Object.keys(COMMAND_FLAGS), ...flagNames()], '--');
      throw new ConfigError(`--${name}`, `unknown option${hint} (see --help)`);
    }
    const { spec, value: implied } = match;
    if (implied !== undefined) {
      if (inline !== undefined) throw new ConfigError(`--${name}`, 'takes no value');
      raw.set(spec.key, { value: implied, source: `--${name}` });
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) {
      throw new ConfigError(`--${name}`, 'needs a value');
    }
    raw.set(spec.key, { value, source: `--${name}` });
  }
  return command;
}

function splitFlag(text: string): [string, string | undefined] {
  const eq = text.indexOf('=');
  return eq < 0 ? [text, undefined] : [text.slice(0, eq), text.slice(eq + 1)];
}

/** Every flag spelling the loader accepts, for "did you mean". */
function flagNames(): string[] {
  return (SETTINGS as readonly SettingSpec[]).flatMap((spec) => {
    if (!spec.flag) return [];
    if (spec.type.kind !== 'boolean') return [spec.flag];
    return [spec.flag, `no-${spec.flag}`, ...(spec.negativeFlag ? [spec.negativeFlag] : [])];
  });
}

function parseValue(spec: SettingSpec, value: string, source: string): unknown {
  const type = spec.type;
  switch (type.kind) {
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      throw new ConfigError(source, 'must be true or false');
    case 'integer': {
      if (!/^-?\d+$/.test(value.trim()))
        throw new ConfigError(source, `must be an integer from ${type.min} to ${type.max}`);
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < type.min || n > type.max) {
        throw new ConfigError(source, `must be an integer from ${type.min} to ${type.max}`);
      }
      return n;
    }
    case 'enum':
      if (!type.values.includes(value))
        throw new ConfigError(source, `must be one of ${type.values.join(', ')}`);
      return value;
    case 'list': {
      const items = value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      if (items.length === 0)
        throw new ConfigError(source, `must list at least one of ${type.values.join(', ')}`);
      for (const item of items) {
        if (!type.values.includes(item))
          throw new ConfigError(source, `unknown value "${safe(item)}"; use ${type.values.join(', ')}`);
      }
      return [...new Set(items)];
    }
    case 'json':
      return parseJsonObject(type.shape, value, source);
    case 'strings': {
      const items = value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      if (items.some((item) => !type.pattern.test(item)))
        throw new ConfigError(source, `must be comma-separated ${type.hint}`);
      return items;
    }
    case 'string':
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
      if (/[\u0000-\u001f]/.test(value)) throw new ConfigError(source, 'must not contain control characters');
      if (type.pattern && value !== '' && !type.pattern.test(value)) {
        throw new ConfigError(source, `must be ${type.hint ?? 'a valid value'}`);
      }
      return value;
  }
}

/** A JSON object setting. The value is never echoed in errors: headers usually carry credentials. */
function parseJsonObject(
  shape: 'object' | 'headers',
  value: string,
  source: string,
): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigError(source, 'must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ConfigError(source, 'must be a JSON object');
  if (shape === 'headers') {
    for (const [name, header] of Object.entries(parsed)) {
      if (
        !/^[!#$%&'*+.^\w`|~-]+$/.test(name) ||
        typeof header !== 'string' ||
        /[\r\n]/.test(header) ||
        header.includes('\u0000')
      ) {
        throw new ConfigError(source, 'must map header names to string values');
      }
    }
  }
  return parsed as Record<string, unknown>;
}

/** Echoes a refused value only when it is short and harmless; it may be a secret otherwise. */
function safe(text: string): string {
  return text.length <= 32 && /^[\w.-]*$/.test(text) ? text : '…';
}
