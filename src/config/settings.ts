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
export const TOOL_PROFILES = ['core', 'observability', 'persistence', 'code', 'evaluate', 'watch'] as const;
export const PROVIDERS = ['local', 'cdp', 'selenium'] as const;

const int = (min: number, max: number): SettingType => ({ kind: 'integer', min, max });
const bool: SettingType = { kind: 'boolean' };

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
    description: 'Private data directory for saved browser state.',
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
    description: 'Tool profiles to publish, comma-separated.',
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
      'JSON object merged into the WebDriver capabilities (`goog:chromeOptions.args` are appended).',
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
    description: 'Maximum saved states.',
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
    description: 'Maximum bytes of all saved states.',
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
