import { int, bool, ORIGIN_PATTERN, type SettingSpec } from './setting-spec.js';

/** URL policy and shared-server security, in the order of the configuration table. */
export const SECURITY_SETTINGS = [
  // --- URL policy and shared-server security: keep this block together ---
  {
    key: 'allowedOrigins',
    env: 'BROWSERMESH_ALLOWED_ORIGINS',
    flag: 'allowed-origins',
    type: {
      kind: 'strings',
      pattern: ORIGIN_PATTERN,
      hint: 'host patterns (example.com, *.example.com:8443)',
    },
    default: '',
    description:
      'Only these hosts may be reached by any browser request (empty = any host the network blocks allow); listed hosts may be private.',
  },
  {
    key: 'blockedOrigins',
    env: 'BROWSERMESH_BLOCKED_ORIGINS',
    flag: 'blocked-origins',
    type: {
      kind: 'strings',
      pattern: ORIGIN_PATTERN,
      hint: 'host patterns (example.com, *.example.com:8443)',
    },
    default: '',
    description: 'Hosts no browser request may reach (wins over --allowed-origins).',
  },
  {
    key: 'blockLinkLocal',
    env: 'BROWSERMESH_BLOCK_LINK_LOCAL',
    flag: 'block-link-local',
    type: bool,
    default: 'true',
    description:
      'Refuse link-local, cloud metadata, 0.0.0.0 and reserved addresses, after DNS resolution (`--no-block-link-local` allows them).',
  },
  {
    key: 'blockPrivateNetwork',
    env: 'BROWSERMESH_BLOCK_PRIVATE_NETWORK',
    flag: 'block-private-network',
    type: { kind: 'enum', values: ['auto', 'on', 'off'] },
    default: 'auto',
    description:
      'Refuse loopback and private addresses (RFC 1918, CGNAT, fc00::/7); `auto` = on in HTTP mode, off over stdio.',
  },
  {
    key: 'blockedAddresses',
    env: 'BROWSERMESH_BLOCKED_ADDRESSES',
    type: { kind: 'strings', pattern: /^[0-9a-fA-F.:]+(\/\d{1,3})?$/, hint: 'CIDR ranges' },
    default: '',
    description: 'Extra address ranges (CIDR) no browser request may reach, e.g. `10.20.0.0/16`.',
  },
  {
    key: 'httpTokensFile',
    env: 'BROWSERMESH_HTTP_TOKENS_FILE',
    flag: 'tokens-file',
    type: { kind: 'string' },
    default: '',
    description:
      'File of `principal token [secrets-file]` lines: each token is one principal with its own saved states, session quota and counts, and the named secrets file (relative to this file) adds to `--secrets` for it alone. Never logged.',
  },
  {
    key: 'maxSessionsPerPrincipal',
    env: 'BROWSERMESH_HTTP_MAX_SESSIONS_PER_PRINCIPAL',
    flag: 'max-sessions-per-client',
    type: int(1, 1000),
    default: '10',
    description: 'HTTP mode: live sessions one principal (token) may hold at once.',
  },
  {
    key: 'httpMaxClients',
    env: 'BROWSERMESH_HTTP_MAX_CLIENTS',
    flag: 'max-clients',
    type: int(1, 10_000),
    default: '64',
    description: 'HTTP mode: MCP clients (Mcp-Session-Ids) served at once; a new one beyond gets 503.',
  },
  {
    key: 'httpHeadersTimeoutMs',
    env: 'BROWSERMESH_HTTP_HEADERS_TIMEOUT_MS',
    type: int(500, 120_000),
    default: '10000',
    description: 'HTTP mode: time a client has to send its request headers before the connection is closed.',
  },
  {
    key: 'httpBodyTimeoutMs',
    env: 'BROWSERMESH_HTTP_BODY_TIMEOUT_MS',
    type: int(500, 600_000),
    default: '30000',
    description: 'HTTP mode: time a client has to send a whole request (headers and body).',
  },
  {
    key: 'httpRateLimit',
    env: 'BROWSERMESH_HTTP_RATE_LIMIT',
    type: int(0, 1_000_000),
    default: '600',
    description:
      'HTTP mode: requests per minute per principal (bursts up to the same number); 429 beyond, 0 = no limit.',
  },
  {
    key: 'httpClientIdleMs',
    env: 'BROWSERMESH_HTTP_CLIENT_IDLE_MS',
    type: int(0, 86_400_000),
    default: '300000',
    description:
      'HTTP mode: an MCP client that sends no request for this long (an open event stream does not count) is ended and its slot freed, its sessions closed; 0 = never.',
  },
  {
    key: 'readSecretInputs',
    env: 'BROWSERMESH_READ_SECRET_INPUTS',
    type: bool,
    default: 'false',
    description:
      "Let code mode's inputValue() read password and one-time-code inputs (masked as •••• otherwise, as in snapshots).",
  },
  {
    key: 'chromiumSandbox',
    env: 'BROWSERMESH_CHROMIUM_SANDBOX',
    flag: 'chromium-sandbox',
    type: { kind: 'enum', values: ['auto', 'on', 'off'] },
    default: 'auto',
    description:
      "Chromium's own sandbox for launched browsers: `auto` = on unless running as root (Chromium cannot sandbox as root).",
  },
  {
    key: 'secretsFile',
    env: 'BROWSERMESH_SECRETS_FILE',
    flag: 'secrets',
    type: { kind: 'string' },
    default: '',
    description:
      'File of NAME=value lines: agents fill or type `{{secret:NAME}}`; values never appear in results or errors.',
  },
  // --- end of the URL policy block ---
] as const satisfies readonly SettingSpec[];
