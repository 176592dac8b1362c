const PRINCIPAL = /^[\w.@-]{1,64}$/;
const TOKEN = /^[\x21-\x7e]{16,}$/;
/**
 * `default` is the main token's principal (the dashboard's operator view) and `local` the tokenless
 * loopback one: a file entry may not pose as either.
 */
const RESERVED_PRINCIPALS = new Set(['default', 'local']);

/**
 * Parses `principal token` lines (blank lines and # comments skipped). A bad line is named by its
 * number only: the file holds secrets, so no content is ever echoed.
 */
export function parseTokensFile(text: string): Array<{ principal: string; token: string }> {
  const entries: Array<{ principal: string; token: string }> = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const [principal = '', token = '', ...rest] = trimmed.split(/\s+/);
    if (!PRINCIPAL.test(principal) || !TOKEN.test(token) || rest.length > 0 || seen.has(token))
      throw new Error(
        `line ${index + 1} must be "principal token" (token: 16+ printable characters, unique)`,
      );
    if (RESERVED_PRINCIPALS.has(principal))
      throw new Error(`line ${index + 1} names a reserved principal (default, local)`);
    seen.add(token);
    entries.push({ principal, token });
  });
  if (entries.length === 0) throw new Error('the tokens file lists no tokens');
  return entries;
}
