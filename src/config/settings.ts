/**
 * Every configuration setting, declared once: its environment variable, its CLI flag (if any), its
 * type and bounds, its default and a one-line description. The loader, `--help` and the README's
 * configuration table are all generated from this list.
 */

export type SettingType =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'string'; pattern?: RegExp; hint?: string }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'list'; values: readonly string[] }
  /** A JSON object; `headers` requires string values (HTTP headers). Never echoed: it may hold secrets. */
  | { kind: 'json'; shape: 'object' | 'headers' }
  /** Comma-separated free-form items (e.g. host names), each matching `pattern`. */
  | { kind: 'strings'; pattern: RegExp; hint: string };

export interface SettingSpec {
  key: string;
  env: string;
  /** `--name VALUE`, or for booleans `--name` (true) and `--no-name` (false). */
  flag?: string;
  /** Extra boolean flag that sets the opposite value, e.g. `--headed` for headless=false. */
  negativeFlag?: string;
  type: SettingType;
  default: string;
  description: string;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export const TOOL_PROFILES = [
  'core',
  'observability',
  'persistence',
  'code',
  'evaluate',
  'files',
  'pointer',
  'watch',
] as const;
export const PROVIDERS = ['local', 'cdp', 'selenium'] as const;

const int = (min: number, max: number): SettingType => ({ kind: 'integer', min, max });
const bool: SettingType = { kind: 'boolean' };
/** Characters an origin pattern may use; the full syntax is checked by the URL policy. */
const ORIGIN_PATTERN = /^[\w.*:/[\]-]+$/;

export const SETTINGS = [
  {
    key: 'timeoutMs',
    env: 'BROWSERMESH_TIMEOUT_MS',
    flag: 'timeout',
    type: int(100, 600_000),
    default: '10000',
    description: 'Default operation deadline (ms), queue wait included; also bounds browser launch.',
  },
  {
    key: 'dataDir',
    env: 'BROWSERMESH_DATA_DIR',
    flag: 'data-dir',
    type: { kind: 'string' },
    default: '~/.browsermesh',
    description:
      'Private data directory: saved browser state, per-session files (downloads, PDFs) and, on Node 22.1+, the module compile cache.',
  },
  {
    key: 'logLevel',
    env: 'BROWSERMESH_LOG_LEVEL',
    flag: 'log-level',
    type: { kind: 'enum', values: LOG_LEVELS },
    default: 'info',
    description: 'Log level for structured stderr logs.',
  },
  {
    key: 'maxSessions',
    env: 'BROWSERMESH_MAX_SESSIONS',
    flag: 'max-sessions',
    type: int(1, 1000),
    default: '50',
    description: 'Maximum live sessions.',
  },
  {
    key: 'maxPages',
    env: 'BROWSERMESH_MAX_PAGES',
    flag: 'max-pages',
    type: int(1, 200),
    default: '20',
    description: 'Maximum managed pages per session (popups included).',
  },
  {
    key: 'maxQueuedOps',
    env: 'BROWSERMESH_MAX_QUEUED_OPS',
    flag: 'max-queued-ops',
    type: int(1, 10000),
    default: '64',
    description: 'Maximum operations queued or running per session (more: LIMIT_EXCEEDED).',
  },
  {
    key: 'persistence',
    env: 'BROWSERMESH_PERSISTENCE',
    flag: 'persistence',
    type: bool,
    default: 'true',
    description: 'Allow saving browser state (`--no-persistence` turns it off).',
  },
  {
    key: 'headless',
    env: 'BROWSERMESH_HEADLESS',
    flag: 'headless',
    negativeFlag: 'headed',
    type: bool,
    default: 'true',
    description: 'Run Chromium without a window (`--headed` to watch).',
  },
  {
    key: 'schemaRefs',
    env: 'BROWSERMESH_SCHEMA_REFS',
    flag: 'schema-refs',
    type: bool,
    default: 'true',
    description: 'Share repeated sub-schemas through $defs/$ref (`--no-schema-refs` inlines them).',
  },
  {
    key: 'fullSchemas',
    env: 'BROWSERMESH_FULL_SCHEMAS',
    flag: 'full-schemas',
    type: bool,
    default: 'false',
    description:
      'Publish every nested input shape and output record as JSON Schema (default: the lean listing, where nested input objects are given as one-line shapes and outputs list their top-level fields).',
  },
  {
    key: 'warmUp',
    env: 'BROWSERMESH_WARM_UP',
    flag: 'warm-up',
    type: bool,
    default: 'true',
    description:
      'Once a client has initialized, launch the local Chromium and a code-mode sandbox worker in the background, so the first session and script do not wait for them (`--no-warm-up`: on first use).',
  },
  {
    key: 'autoInstall',
    env: 'BROWSERMESH_AUTO_INSTALL',
    flag: 'auto-install',
    type: bool,
    default: 'false',
    description: 'Try to install a Chromium when none is found (`--install-browser` does it explicitly).',
  },
  {
    key: 'tools',
    env: 'BROWSERMESH_TOOLS',
    flag: 'tools',
    type: { kind: 'list', values: TOOL_PROFILES },
    default: 'core,observability,persistence,code',
    description:
      'Tool profiles to publish, comma-separated: core, observability, persistence, code (stands alone), evaluate, files (uploads, downloads, PDF), pointer (mouse by coordinates, viewport).',
  },
  {
    key: 'agentGuidelines',
    env: 'BROWSERMESH_AGENT_GUIDELINES',
    flag: 'agent-guidelines',
    type: bool,
    default: 'true',
    description: 'Send the short connect-time instructions (addressing and error reporting).',
  },
  {
    key: 'supportRequest',
    env: 'BROWSERMESH_SUPPORT_REQUEST',
    flag: 'support-request',
    type: bool,
    default: 'false',
    description: 'Accepted for compatibility; BrowserMesh never asks agents to act for the project.',
  },
  {
    key: 'provider',
    env: 'BROWSERMESH_BROWSER_PROVIDER',
    flag: 'provider',
    type: { kind: 'enum', values: PROVIDERS },
    default: 'local',
    description:
      'Where session browsers come from: `local` launches Chromium, `cdp` connects to an endpoint, `selenium` gets one Selenium Grid 4 session per BrowserMesh session.',
  },
  {
    key: 'cdpEndpoint',
    env: 'BROWSERMESH_CDP_ENDPOINT',
    flag: 'cdp-endpoint',
    type: { kind: 'string', pattern: /^(https?|wss?):\/\/[^\s]+$/, hint: 'an http(s):// or ws(s):// URL' },
    default: '',
    description:
      'CDP endpoint for the `cdp` provider (implies `--provider cdp`); a `{session}` placeholder mints one endpoint and connection per session.',
  },
  {
    key: 'seleniumUrl',
    env: 'BROWSERMESH_SELENIUM_URL',
    flag: 'selenium-url',
    type: { kind: 'string', pattern: /^https?:\/\/[^\s]+$/, hint: 'an http(s):// URL' },
    default: '',
    description:
      'Selenium Grid 4 URL for the `selenium` provider (implies `--provider selenium`); user:password@ in it becomes Basic auth.',
  },
  {
    key: 'remoteHeaders',
    env: 'BROWSERMESH_CDP_HEADERS',
    type: { kind: 'json', shape: 'headers' },
    default: '{}',
    description:
      'JSON object of HTTP headers for remote browsers (CDP connections; WebDriver requests for selenium). Never logged.',
  },
  {
    key: 'seleniumCapabilities',
    env: 'BROWSERMESH_SELENIUM_CAPABILITIES',
    type: { kind: 'json', shape: 'object' },
    default: '{}',
    description:
      "JSON object merged into the WebDriver capabilities (`goog:chromeOptions.args` are appended; `prefs` are merged over BrowserMesh's `net.network_prediction_options: 2`).",
  },
  {
    key: 'seleniumProbeMs',
    env: 'BROWSERMESH_SELENIUM_PROBE_MS',
    type: int(200, 300_000),
    default: '15000',
    description:
      "How often each Grid session is checked: finds dead browsers and keeps the Grid's idle timeout away.",
  },
  {
    key: 'http',
    env: 'BROWSERMESH_HTTP',
    flag: 'http',
    type: bool,
    default: 'false',
    description: 'Serve MCP over Streamable HTTP (at /mcp) instead of stdio.',
  },
  {
    key: 'httpHost',
    env: 'BROWSERMESH_HTTP_HOST',
    flag: 'host',
    type: { kind: 'string', pattern: /^[\w.:[\]-]+$/, hint: 'a host name or IP address' },
    default: '127.0.0.1',
    description: 'Address the HTTP server binds; anything but loopback needs BROWSERMESH_HTTP_TOKEN.',
  },
  {
    key: 'httpPort',
    env: 'BROWSERMESH_HTTP_PORT',
    flag: 'port',
    type: int(0, 65_535),
    default: '8940',
    description: 'Port of the HTTP server (0 picks a free one).',
  },
  {
    key: 'httpToken',
    env: 'BROWSERMESH_HTTP_TOKEN',
    type: {
      kind: 'string',
      pattern: /^[\x21-\x7e]{16,}$/,
      hint: 'at least 16 printable characters without spaces',
    },
    default: '',
    description: 'Bearer token HTTP clients must send; required for a non-loopback host. Never logged.',
  },
  {
    key: 'httpAllowedHosts',
    env: 'BROWSERMESH_HTTP_ALLOWED_HOSTS',
    flag: 'allowed-hosts',
    type: { kind: 'strings', pattern: /^[\w.:[\]-]+$/, hint: 'host names' },
    default: '',
    description:
      'Host names accepted in Host/Origin headers besides loopback and the bound address (DNS-rebinding guard).',
  },
  {
    key: 'sharedSessions',
    env: 'BROWSERMESH_HTTP_SHARED_SESSIONS',
    flag: 'shared-sessions',
    type: bool,
    default: 'false',
    description:
      'Let every HTTP client see and drive every session (otherwise a session belongs to the client that created it).',
  },
  {
    key: 'disconnectGraceMs',
    env: 'BROWSERMESH_HTTP_DISCONNECT_GRACE_MS',
    type: int(0, 86_400_000),
    default: '300000',
    description:
      "How long a disconnected HTTP client's sessions are kept for it to come back before they are closed.",
  },
  {
    key: 'httpMaxBodyBytes',
    env: 'BROWSERMESH_HTTP_MAX_BODY_BYTES',
    type: int(1024, 67_108_864),
    default: '4194304',
    description: 'Largest HTTP request body accepted (413 beyond).',
  },
  // Browser defaults for every session (issue 19). A session's own contextSettings override the
  // first six; the rest name files or carry credentials, so only the operator sets them.
  {
    key: 'device',
    env: 'BROWSERMESH_DEVICE',
    flag: 'device',
    type: { kind: 'string' },
    default: '',
    description:
      "Device preset from playwright-core's list (e.g. `Pixel 7`, `iPhone 15`): viewport, DPR, touch, mobile, user agent.",
  },
  {
    key: 'viewport',
    env: 'BROWSERMESH_VIEWPORT',
    flag: 'viewport-size',
    type: { kind: 'string', pattern: /^\d{1,5}x\d{1,5}$/, hint: 'WIDTHxHEIGHT, e.g. 1280x720' },
    default: '',
    description: "Viewport as WIDTHxHEIGHT (100-7680 x 100-4320); otherwise the device's, else 1280x720.",
  },
  {
    key: 'userAgent',
    env: 'BROWSERMESH_USER_AGENT',
    flag: 'user-agent',
    type: { kind: 'string', pattern: /^.{1,512}$/, hint: 'at most 512 characters' },
    default: '',
    description: "User agent string (otherwise the device's, else Chromium's).",
  },
  {
    key: 'locale',
    env: 'BROWSERMESH_LOCALE',
    flag: 'locale',
    type: { kind: 'string', pattern: /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, hint: 'a BCP 47 tag like fr-FR' },
    default: '',
    description: 'Locale (navigator.language, Accept-Language, number and date formats).',
  },
  {
    key: 'timezone',
    env: 'BROWSERMESH_TIMEZONE',
    flag: 'timezone',
    type: {
      kind: 'string',
      pattern: /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/,
      hint: 'an IANA zone like Europe/Paris',
    },
    default: '',
    description: 'Time zone of the pages (IANA id).',
  },
  {
    key: 'ignoreHttpsErrors',
    env: 'BROWSERMESH_IGNORE_HTTPS_ERRORS',
    flag: 'ignore-https-errors',
    type: bool,
    default: 'false',
    description: 'Accept invalid and self-signed TLS certificates.',
  },
  {
    key: 'proxyServer',
    env: 'BROWSERMESH_PROXY_SERVER',
    flag: 'proxy-server',
    type: {
      kind: 'string',
      pattern: /^(https?|socks5?):\/\/[^\s/]+\/?$/,
      hint: 'a proxy URL like http://host:3128 or socks5://host:1080',
    },
    default: '',
    description:
      'Proxy for every session; user:password@ in it becomes proxy credentials. Never logged or reported.',
  },
  {
    key: 'proxyBypass',
    env: 'BROWSERMESH_PROXY_BYPASS',
    flag: 'proxy-bypass',
    type: { kind: 'strings', pattern: /^[\w.*:[\]<>-]+$/, hint: 'host patterns like .example.test' },
    default: '',
    description: 'Comma-separated hosts that skip the proxy (e.g. `.internal.test,localhost`).',
  },
  {
    key: 'extraHttpHeaders',
    env: 'BROWSERMESH_EXTRA_HTTP_HEADERS',
    type: { kind: 'json', shape: 'headers' },
    default: '{}',
    description: 'JSON object of HTTP headers sent with every request of every session. Never logged.',
  },
  {
    key: 'initScripts',
    env: 'BROWSERMESH_INIT_SCRIPTS',
    flag: 'init-script',
    type: { kind: 'strings', pattern: /^[^,]+$/, hint: 'file paths' },
    default: '',
    description: 'Comma-separated JavaScript files run in every page before its own scripts.',
  },
  {
    key: 'storageState',
    env: 'BROWSERMESH_STORAGE_STATE',
    flag: 'storage-state',
    type: { kind: 'string' },
    default: '',
    description:
      'Playwright storageState JSON file (cookies, localStorage) every session starts from unless it names a stateId.',
  },
  {
    key: 'userDataDir',
    env: 'BROWSERMESH_USER_DATA_DIR',
    flag: 'user-data-dir',
    type: { kind: 'string' },
    default: '',
    description:
      'Persistent Chromium profile folder (local provider only): kept across runs and shared by every session (cookies, storage, cache), so sessions are not isolated from each other; see docs/configuration.md.',
  },
  {
    key: 'exportState',
    env: 'BROWSERMESH_EXPORT_STATE',
    flag: 'export-state',
    type: { kind: 'string', pattern: /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, hint: 'a saved state id' },
    default: '',
    description:
      'Command: print saved state ID as a Playwright storageState JSON file on stdout, then exit (for --storage-state or Playwright).',
  },
  {
    key: 'configFile',
    env: 'BROWSERMESH_CONFIG',
    flag: 'config',
    type: { kind: 'string' },
    default: '',
    description:
      'JSON file of settings by key (see docs/configuration.md), checked like flags; env and flags override it.',
  },
  {
    key: 'maxMessageBytes',
    env: 'BROWSERMESH_MAX_MESSAGE_BYTES',
    type: int(1024, 67_108_864),
    default: '4194304',
    description: 'Largest stdio message (one JSON-RPC line) read; a longer one is skipped and refused.',
  },
  {
    key: 'scriptCpuMs',
    env: 'BROWSERMESH_SCRIPT_CPU_MS',
    flag: 'script-cpu-ms',
    type: int(50, 600_000),
    default: '10000',
    description:
      'CPU budget of one browser_run script (busy sandbox time, page calls excluded); SCRIPT_ERROR beyond.',
  },
  {
    key: 'sandboxWorkersPerClient',
    env: 'BROWSERMESH_SANDBOX_WORKERS_PER_CLIENT',
    type: int(0, 1000),
    default: '0',
    description: 'Sandbox workers one HTTP client may hold at once (0 = half the pool, at least 1).',
  },
  // --- URL policy and shared-server security (issue 16): keep this block together ---
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
      'File of `principal token` lines: each token is one principal with its own saved states, session quota and counts. Never logged.',
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
  {
    key: 'dashboard',
    env: 'BROWSERMESH_DASHBOARD',
    flag: 'dashboard',
    type: bool,
    default: 'false',
    description:
      'Serve the live dashboard: at /dashboard on the HTTP server, or for stdio on a loopback port (URL on stderr).',
  },
  {
    key: 'dashboardPort',
    env: 'BROWSERMESH_DASHBOARD_PORT',
    flag: 'dashboard-port',
    type: int(0, 65_535),
    default: '0',
    description: 'Loopback port of the stdio dashboard (0 picks a free one).',
  },
  {
    key: 'dashboardTakeover',
    env: 'BROWSERMESH_DASHBOARD_TAKEOVER',
    flag: 'dashboard-takeover',
    type: bool,
    default: 'false',
    description: "Let a dashboard user take a session over (click, type) while its agent's queue waits.",
  },
  {
    key: 'executablePath',
    env: 'BROWSERMESH_EXECUTABLE_PATH',
    flag: 'executable-path',
    type: { kind: 'string' },
    default: '',
    description: "Chromium executable to launch (otherwise Playwright's browsers, then the system Chromium).",
  },
  {
    key: 'refTtlMs',
    env: 'BROWSERMESH_REF_TTL_MS',
    type: int(0, 86_400_000),
    default: '0',
    description:
      'Expire snapshot refs after this many ms (0 = never; refs still go stale on navigation or detach).',
  },
  {
    key: 'observabilityEvents',
    env: 'BROWSERMESH_OBSERVABILITY_EVENTS',
    type: int(1, 10_000),
    default: '200',
    description: 'Observability events kept per page.',
  },
  {
    key: 'observabilityStringChars',
    env: 'BROWSERMESH_OBSERVABILITY_STRING_CHARS',
    type: int(16, 65_536),
    default: '2048',
    description: 'Maximum length of an event string returned.',
  },
  {
    key: 'observabilityPageSize',
    env: 'BROWSERMESH_OBSERVABILITY_PAGE_SIZE',
    type: int(1, 1000),
    default: '100',
    description: 'Maximum events in one read.',
  },
  {
    key: 'observabilityResponseBytes',
    env: 'BROWSERMESH_OBSERVABILITY_RESPONSE_BYTES',
    type: int(1024, 4_194_304),
    default: '65536',
    description: 'Maximum serialized size of one observability response.',
  },
  {
    key: 'screenshotMaxDimension',
    env: 'BROWSERMESH_SCREENSHOT_MAX_DIMENSION',
    type: int(16, 32_767),
    default: '10000',
    description: 'Maximum PNG width or height (CSS pixels).',
  },
  {
    key: 'screenshotMaxPixels',
    env: 'BROWSERMESH_SCREENSHOT_MAX_PIXELS',
    type: int(256, 200_000_000),
    default: '40000000',
    description: 'Maximum PNG pixel count.',
  },
  {
    key: 'screenshotMaxBytes',
    env: 'BROWSERMESH_SCREENSHOT_MAX_BYTES',
    type: int(1024, 104_857_600),
    default: '16777216',
    description: 'Maximum encoded PNG bytes.',
  },
  {
    key: 'visibleTextMaxChars',
    env: 'BROWSERMESH_VISIBLE_TEXT_MAX_CHARS',
    type: int(1, 1_000_000),
    default: '20000',
    description: 'Maximum code points of visible text returned.',
  },
  {
    key: 'visibleTextMaxBytes',
    env: 'BROWSERMESH_VISIBLE_TEXT_MAX_BYTES',
    type: int(4, 4_194_304),
    default: '65536',
    description: 'Maximum UTF-8 bytes of visible text returned.',
  },
  {
    key: 'maxSavedStates',
    env: 'BROWSERMESH_MAX_SAVED_STATES',
    type: int(1, 10_000),
    default: '100',
    description: 'Maximum saved states (and, counted apart, kept session files).',
  },
  {
    key: 'maxStateBytes',
    env: 'BROWSERMESH_MAX_STATE_BYTES',
    type: int(1024, 104_857_600),
    default: '1048576',
    description: 'Maximum bytes of one saved state.',
  },
  {
    key: 'maxStateTotalBytes',
    env: 'BROWSERMESH_MAX_STATE_TOTAL_BYTES',
    type: int(1024, 1_073_741_824),
    default: '16777216',
    description: 'Maximum bytes of all saved states and kept session files together.',
  },
  // Session files (issue 14): uploads in, downloads/PDFs out. Kept together as one block.
  {
    key: 'uploadRoots',
    env: 'BROWSERMESH_UPLOAD_ROOTS',
    flag: 'upload-roots',
    type: { kind: 'strings', pattern: /^[^\0,]+$/, hint: 'absolute folder paths' },
    default: '',
    description:
      "Folders whose files may be uploaded by path, comma-separated (besides the MCP client's roots); empty = none.",
  },
  {
    key: 'uploadMaxBytes',
    env: 'BROWSERMESH_UPLOAD_MAX_BYTES',
    type: int(1, 268_435_456),
    default: '52428800',
    description: 'Largest total size of the files of one upload call.',
  },
  {
    key: 'sessionFileQuotaBytes',
    env: 'BROWSERMESH_SESSION_FILE_QUOTA_BYTES',
    type: int(1024, 17_179_869_184),
    default: '268435456',
    description: "Bytes of one session's files (downloads, PDFs, traces, recordings).",
  },
  {
    key: 'totalFileQuotaBytes',
    env: 'BROWSERMESH_TOTAL_FILE_QUOTA_BYTES',
    type: int(1024, 1_099_511_627_776),
    default: '2147483648',
    description: "Bytes of all sessions' files together.",
  },
] as const satisfies readonly SettingSpec[];
