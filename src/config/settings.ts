/**
 * Every configuration setting, declared once: its environment variable, its CLI flag (if any), its
 * type and bounds, its default and a one-line description. The loader, `--help` and the README's
 * configuration table are all generated from this list.
 */
import { BROWSER_SETTINGS } from './settings-browser.js';
import { DATA_SETTINGS } from './settings-data.js';
import { SECURITY_SETTINGS } from './settings-security.js';
import { CLI_SETTINGS } from './settings-cli.js';
import { bool, int, LOG_LEVELS, PROVIDERS, TOOL_PROFILES, type SettingSpec } from './setting-spec.js';

export { LOG_LEVELS, PROVIDERS, TOOL_PROFILES, type SettingSpec, type SettingType } from './setting-spec.js';

/** The server's own settings (transport, limits, logging, sandbox, providers). */
const CORE_SETTINGS = [
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
      'Tool profiles to publish, comma-separated: core, observability, persistence, code (stands alone), evaluate, files (uploads, downloads, PDF), pointer (mouse by coordinates, viewport), watch (traces, recordings), state (cookies, web storage), network (routes, emulation).',
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
    hidden: true,
  },
  {
    key: 'provider',
    env: 'BROWSERMESH_BROWSER_PROVIDER',
    flag: 'provider',
    type: { kind: 'enum', values: PROVIDERS },
    default: 'local',
    description:
      'Where session browsers come from: `local` launches Chromium, `cdp` connects to an endpoint, `selenium` gets one Selenium Grid 4 session per BrowserMesh session, `playwright` one browser of a Playwright browser server per session.',
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
    key: 'cdpGuard',
    env: 'BROWSERMESH_CDP_GUARD',
    flag: 'cdp-guard',
    type: { kind: 'enum', values: ['auto', 'off'] },
    default: 'auto',
    description:
      "`auto`: a `--cdp-endpoint` on this machine's loopback (localhost, 127.0.0.0/8, ::1) is a browser on this machine, so each session's context goes through its guard proxy (a boundary); `off`: request interception only (best effort), for a loopback endpoint that tunnels to another machine's browser.",
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
    key: 'playwrightEndpoint',
    env: 'BROWSERMESH_PLAYWRIGHT_ENDPOINT',
    flag: 'playwright-endpoint',
    type: { kind: 'string', pattern: /^wss?:\/\/[^\s]+$/, hint: 'a ws(s):// URL' },
    default: '',
    description:
      'Playwright browser server (`playwright run-server`, Browserless, Moon, Azure Playwright) for the `playwright` provider (implies `--provider playwright`); one connection and browser per session, a `{session}` placeholder mints one endpoint per session.',
  },
  {
    key: 'playwrightHeaders',
    env: 'BROWSERMESH_PLAYWRIGHT_HEADERS',
    type: { kind: 'json', shape: 'headers' },
    default: '{}',
    description:
      'JSON object of HTTP headers sent on the connection to the Playwright browser server (a token). Never logged.',
  },
  {
    key: 'playwrightTunnel',
    env: 'BROWSERMESH_PLAYWRIGHT_TUNNEL',
    flag: 'playwright-tunnel',
    type: { kind: 'enum', values: ['required', 'off'] },
    default: 'required',
    description:
      "`required`: every connection of the remote browser is dialed by BrowserMesh through the session's guard (the URL policy stays a boundary) and an endpoint that does not tunnel is refused; `off`: opt out, the remote browser dials on its own and the policy is request interception only.",
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
    key: 'guardHost',
    env: 'BROWSERMESH_GUARD_HOST',
    flag: 'guard-host',
    type: { kind: 'string', pattern: /^[\da-fA-F.:]+$/, hint: 'an IP address of this machine' },
    default: '',
    description:
      "This machine's IP address as remote browsers reach it (a Grid's nodes, or the browser behind `--cdp-endpoint`): each session gets a guard proxy listening there that admits only its browser's host, making the URL policy a boundary.",
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
] as const satisfies readonly SettingSpec[];

export const SETTINGS = [
  ...CORE_SETTINGS,
  ...BROWSER_SETTINGS,
  ...SECURITY_SETTINGS,
  ...DATA_SETTINGS,
  ...CLI_SETTINGS,
] as const satisfies readonly SettingSpec[];
