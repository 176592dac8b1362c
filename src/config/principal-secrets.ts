/**
 * Secrets per principal over HTTP: a `--tokens-file` line may name a secrets file (same format as
 * `--secrets`), and that principal's sessions use and are redacted by the server-wide secrets plus
 * its own (its own value wins on a name clash). Stdio, the main token and the tokenless loopback
 * principal have the server-wide secrets only.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseSecretsFile, type DerivedSecrets, type Secrets } from '../secrets.js';
import { ConfigError } from './config-error.js';
import type { Config } from './config-types.js';
import { parseTokensFile } from './tokens-file.js';

type SecretsConfig = Pick<Config, 'secrets' | 'principalSecrets'>;

/** The tokens file's entries and each named principal's own secrets; refusals never hold content. */
export function readTokensFile(
  path: string,
  source = 'BROWSERMESH_HTTP_TOKENS_FILE',
): Pick<Config, 'httpTokens' | 'principalSecrets'> {
  if (path === '') return { httpTokens: [], principalSecrets: {} };
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(source, 'the tokens file cannot be read');
  }
  let entries: ReturnType<typeof parseTokensFile>;
  try {
    entries = parseTokensFile(text);
  } catch (error) {
    throw new ConfigError(source, (error as Error).message);
  }
  const principalSecrets: Config['principalSecrets'] = {};
  for (const { principal, secretsFile, line } of entries) {
    if (secretsFile === undefined || Object.hasOwn(principalSecrets, principal)) continue;
    principalSecrets[principal] = readOwnSecrets(
      resolve(dirname(file), secretsFile),
      source,
      line,
      principal,
    );
  }
  return { httpTokens: entries.map(({ principal, token }) => ({ principal, token })), principalSecrets };
}

function readOwnSecrets(
  path: string,
  source: string,
  line: number,
  principal: string,
): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(source, `line ${line}: the secrets file of principal ${principal} cannot be read`);
  }
  try {
    return parseSecretsFile(text);
  } catch (error) {
    // parseSecretsFile names a line number only, never content.
    throw new ConfigError(
      source,
      `line ${line}: the secrets file of principal ${principal}: ${(error as Error).message}`,
    );
  }
}

const merged = new WeakMap<Secrets, { base: Secrets; all: Secrets }>();

/**
 * The secrets a principal's sessions may use and are redacted by. One object per principal (while
 * the server-wide secrets stay the same): the redaction caches its tables by identity.
 */
export function secretsFor(config: SecretsConfig, principal: string | undefined): Secrets {
  const own =
    principal !== undefined && Object.hasOwn(config.principalSecrets, principal)
      ? config.principalSecrets[principal]
      : undefined;
  if (own === undefined) return config.secrets;
  const known = merged.get(own);
  if (known && known.base === config.secrets) return known.all;
  const all = { ...config.secrets, ...own };
  merged.set(own, { base: config.secrets, all });
  return all;
}

const everyOf = new WeakMap<Config['principalSecrets'], { base: Secrets; all: DerivedSecrets }>();

/** Every principal's secret values with their names: what the operator's view is redacted by. */
export function everySecret(config: SecretsConfig): DerivedSecrets {
  const known = everyOf.get(config.principalSecrets);
  if (known && known.base === config.secrets) return known.all;
  const all: DerivedSecrets = [config.secrets, ...Object.values(config.principalSecrets)].flatMap((secrets) =>
    Object.entries(secrets).map(([name, value]) => [value, name] as const),
  );
  everyOf.set(config.principalSecrets, { base: config.secrets, all });
  return all;
}
