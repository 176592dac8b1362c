const PRINCIPAL = /^[\w.@-]{1,64}$/;
const TOKEN = /^[\x21-\x7e]{16,}$/;
/**
 * `default` is the main token's principal (the dashboard's operator view) and `local` the tokenless
 * loopback one: a file entry may not pose as either.
 */
const RESERVED_PRINCIPALS = new Set(['default', 'local']);

export interface TokensFileEntry {
  principal: string;
  token: string;
  /** The principal's own secrets file as written on the line (relative to the tokens file's folder). */
  secretsFile?: string;
  /** The line it came from, to name in a refusal about the secrets file. */
  line: number;
}

/**
 * Parses `principal token [secrets-file]` lines (blank lines and # comments skipped). A bad line is
 * named by its number only: the file holds secrets, so no content is ever echoed. One principal may
 * hold several tokens, but all its lines that name a secrets file must name the same one.
 */
export function parseTokensFile(text: string): TokensFileEntry[] {
  const entries: TokensFileEntry[] = [];
  const seen = new Set<string>();
  const filesOf = new Map<string, string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    const line = index + 1;
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const [principal = '', token = '', secretsFile, ...rest] = trimmed.split(/\s+/);
    if (!PRINCIPAL.test(principal) || !TOKEN.test(token) || rest.length > 0 || seen.has(token))
      throw new Error(
        `line ${line} must be "principal token [secrets-file]" (token: 16+ printable characters, unique)`,
      );
    if (RESERVED_PRINCIPALS.has(principal))
      throw new Error(`line ${line} names a reserved principal (default, local)`);
    if (secretsFile !== undefined) {
      const earlier = filesOf.get(principal);
      if (earlier !== undefined && earlier !== secretsFile)
        throw new Error(`line ${line} names a second secrets file for principal ${principal}`);
      filesOf.set(principal, secretsFile);
    }
    seen.add(token);
    entries.push({ principal, token, ...(secretsFile === undefined ? {} : { secretsFile }), line });
  });
  if (entries.length === 0) throw new Error('the tokens file lists no tokens');
  return entries;
}
