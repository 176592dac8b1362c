import type { LOG_LEVELS, PROVIDERS, TOOL_PROFILES } from './settings.js';

/** The validated configuration every module receives (read and checked in load.ts only). */

export type LogLevel = (typeof LOG_LEVELS)[number];
export type ToolProfile = (typeof TOOL_PROFILES)[number];
export type ProviderKind = (typeof PROVIDERS)[number];

export interface Config {
  timeoutMs: number;
  dataDir: string;
  logLevel: LogLevel;
  maxSessions: number;
  maxPages: number;
  maxQueuedOps: number;
  persistence: boolean;
  headless: boolean;
  schemaRefs: boolean;
  fullSchemas: boolean;
  warmUp: boolean;
  autoInstall: boolean;
  tools: ToolProfile[];
  agentGuidelines: boolean;
  supportRequest: boolean;
  provider: ProviderKind;
  cdpEndpoint: string;
  /** auto: a loopback cdp endpoint's sessions go through the guard proxy; off: interception only. */
  cdpGuard: 'auto' | 'off';
  seleniumUrl: string;
  /** Secret-bearing: never log or echo. */
  remoteHeaders: Record<string, string>;
  /** A Playwright browser server's ws(s) endpoint (may hold a token: log only its host). */
  playwrightEndpoint: string;
  /** Secret-bearing: never log or echo. */
  playwrightHeaders: Record<string, string>;
  /** required: the remote browser's connections are dialed here through the guard; off: opted out. */
  playwrightTunnel: 'required' | 'off';
  seleniumCapabilities: Record<string, unknown>;
  seleniumProbeMs: number;
  /** This machine's IP address as Grid nodes see it: each Selenium session's guard listens there. */
  guardHost: string;
  http: boolean;
  httpHost: string;
  httpPort: number;
  /** Secret: never log or echo. Empty = no token. */
  httpToken: string;
  httpAllowedHosts: string[];
  sharedSessions: boolean;
  disconnectGraceMs: number;
  httpMaxBodyBytes: number;
  maxMessageBytes: number;
  scriptCpuMs: number;
  sandboxWorkersPerClient: number;
  allowedOrigins: string[];
  blockedOrigins: string[];
  blockLinkLocal: boolean;
  blockPrivateNetwork: 'auto' | 'on' | 'off';
  blockedAddresses: string[];
  /** Path of the tokens file ('' = none); its entries are read into httpTokens. */
  httpTokensFile: string;
  /** Secret: principal → token pairs from the tokens file. Never log or echo. */
  httpTokens: Array<{ principal: string; token: string }>;
  maxSessionsPerPrincipal: number;
  httpMaxClients: number;
  httpHeadersTimeoutMs: number;
  httpClientIdleMs: number;
  httpBodyTimeoutMs: number;
  httpRateLimit: number;
  readSecretInputs: boolean;
  chromiumSandbox: 'auto' | 'on' | 'off';
  secretsFile: string;
  /** Secret: name → value from the secrets file. Never log or echo. */
  secrets: Record<string, string>;
  /**
   * Secret: principal → its own secrets, from the secrets file its tokens-file line names (see
   * src/config/principal-secrets.ts). Never log or echo.
   */
  principalSecrets: Record<string, Record<string, string>>;
  dashboard: boolean;
  dashboardPort: number;
  dashboardTakeover: boolean;
  dashboardMaxStreams: number;
  executablePath: string;
  refTtlMs: number;
  /** Steps kept in each session's action log (0 = the log is off). */
  actionLogSteps: number;
  /** Which snapshot capture to use (see src/snapshot/capture-mode.ts). */
  snapshotCapture: 'auto' | 'page' | 'cdp';
  observabilityEvents: number;
  observabilityStringChars: number;
  observabilityPageSize: number;
  observabilityResponseBytes: number;
  screenshotMaxDimension: number;
  screenshotMaxPixels: number;
  screenshotMaxBytes: number;
  visibleTextMaxChars: number;
  visibleTextMaxBytes: number;
  maxSavedStates: number;
  maxStateBytes: number;
  maxStateTotalBytes: number;
  /** Browser defaults for every session; '' / false / [] / {} = not set. */
  device: string;
  /** WIDTHxHEIGHT. */
  viewport: string;
  userAgent: string;
  locale: string;
  timezone: string;
  ignoreHttpsErrors: boolean;
  /** Secret-bearing (may hold user:password@): never log or echo. */
  proxyServer: string;
  proxyBypass: string[];
  /** Secret-bearing: never log or echo. */
  extraHttpHeaders: Record<string, string>;
  /** Absolute paths, checked to exist at load. */
  initScripts: string[];
  /** Absolute path of a Playwright storageState file, checked at load. */
  storageState: string;
  /**
   * Absolute path of a persistent Chromium profile ('' = none): every session shares its one
   * context (local provider only; checked at load).
   */
  userDataDir: string;
  /** A saved state id to print as a Playwright storageState file (the `export-state` command). */
  exportState: string;
  /** The `--config` file the other values may have come from. */
  configFile: string;
  // Session files: uploads in, downloads and PDFs out.
  /** Absolute, symlink-resolved folders uploads may read from (besides MCP roots). */
  uploadRoots: string[];
  uploadMaxBytes: number;
  sessionFileQuotaBytes: number;
  totalFileQuotaBytes: number;
  // The shell face (the CLI daemon and its client).
  /** The named session of a shell command without -s (BROWSERMESH_SESSION). */
  cliSession: string;
  daemonIdleMs: number;
  /** After the last named session closes, the daemon (and its browser) exits this much later. */
  daemonGraceMs: number;
  cliTools: ToolProfile[];
}
