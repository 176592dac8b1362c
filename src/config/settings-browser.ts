import { int, bool, type SettingSpec } from './setting-spec.js';

/** Browser defaults for every session, in the order of the configuration table. */
export const BROWSER_SETTINGS = [
  // Browser defaults for every session. A session's own contextSettings override the
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
] as const satisfies readonly SettingSpec[];
