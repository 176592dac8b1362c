/**
 * BrowserMesh public library entry. Explicit named exports only.
 *
 * @example
 * ```ts
 * import { BrowserMesh, defaultConfig } from 'browsermesh';
 * const mesh = new BrowserMesh({ config: defaultConfig() });
 * const { session, initialPage } = await mesh.createSession({ name: 'buyer' });
 * await mesh.shutdown();
 * ```
 */
export { BrowserMesh, type CallOptions, type CreateSessionInput, type RuntimeInfo, type OperationContext, type PageOperationContext } from './engine/runtime.js';
export type { SessionInfo, SessionState } from './engine/session.js';
export type { PageInfo } from './engine/page.js';
export type { ContextSettings } from './engine/context-settings.js';
export type { BrowserProvider, BrowserLease, Placement } from './engine/providers/provider.js';
export { LocalProvider } from './engine/providers/local.js';
export { CdpProvider } from './engine/providers/cdp.js';
export { createLogger, type Logger } from './engine/logger.js';
export { defaultConfig, loadConfig, ConfigError, type Config } from './config/load.js';
export { BrowserMeshError, ErrorCodes, type ErrorCode, type SerializedError } from './errors.js';
export { createMcpServer } from './mcp/server.js';
