/**
 * BrowserMesh public library entry. Explicit named exports only.
 *
 * @example
 * ```ts
 * import { createBrowserMesh, defaultConfig } from 'browsermesh';
 * // createBrowserMesh (not `new BrowserMesh`) wires observability and dialog handling, as the server does.
 * const mesh = createBrowserMesh({ config: defaultConfig({ device: 'Pixel 7' }) });
 * const { session, initialPage } = await mesh.createSession({ name: 'buyer' });
 * await mesh.shutdown();
 * ```
 */
export {
  BrowserMesh,
  type CallOptions,
  type CreateSessionInput,
  type RuntimeInfo,
  type OperationContext,
  type PageOperationContext,
} from './engine/runtime.js';
export type { SessionInfo, SessionState } from './engine/session.js';
export type { PageInfo } from './engine/page.js';
export type { ContextSettings } from './engine/context-settings.js';
export type { BrowserProvider, BrowserLease, Placement } from './engine/providers/provider.js';
export { LocalProvider } from './engine/providers/local.js';
export { CdpProvider } from './engine/providers/cdp.js';
export { SeleniumProvider, type SeleniumProviderOptions } from './engine/providers/selenium.js';
export { createLogger, type Logger } from './engine/logger.js';
export { defaultConfig, loadConfig, ConfigError, type Config } from './config/load.js';
export { BrowserMeshError, ErrorCodes, type ErrorCode, type SerializedError } from './errors.js';
export { createMcpServer } from './mcp/server.js';
export { createBrowserMesh, installPageHooks } from './create-mesh.js';
export {
  createMeshOperations,
  type MeshOperations,
  type MeshOperationsOptions,
  type OperationCallOptions,
  type OperationInput,
  type OperationOutput,
  type ExactlyOneTarget,
  type NavigateInput,
  type SnapshotInput,
  type ClickInput,
  type HoverInput,
  type FillInput,
  type TypeInput,
  type PressInput,
  type CheckInput,
  type SelectOptionInput,
  type WaitInput,
  type ActionAndWaitInput,
  type ScreenshotInput,
  type RunInput,
  type ObserveInput,
  type UploadInput,
  type FilesInput,
  type PdfInput,
  type TraceInput,
  type RecordingInput,
  type FindInput,
  type FocusInput,
  type CookiesInput,
  type StorageInput,
  type RouteInput,
  type EmulateInput,
} from './library/operations.js';
export { installObservability, type ObserveResult, type ObserveSource } from './observability/index.js';
export { StateStore, stateStoreFromConfig, type SaveResult, type StateList } from './persistence/store.js';
export { AgentBrowser, type ThreadBrowserState } from './agent/agent-browser.js';
export {
  BROWSER_TOOL_NAMES,
  type AgentBrowserOptions,
  type BrowserLifecycleHook,
  type BrowserRecordingOptions,
  type BrowserScope,
  type BrowserStatus,
  type BrowserToolName,
  type CdpUrlProvider,
  type ScreencastOptions,
} from './agent/options.js';
export type {
  AgentTool,
  AgentTools,
  ModelContent,
  ToolCallContext,
  ToolErrorResult,
} from './agent/tool-types.js';
export {
  ScreencastStream,
  type ScreencastEvents,
  type ScreencastStopReason,
} from './agent/recording/screencast-stream.js';
export type { ScreencastFrame } from './engine/media/page-screencast.js';
export type { RecordingFormat, RecordingResult, RecordingStatus } from './agent/recording/recorder.js';
