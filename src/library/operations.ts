import type { z } from 'zod';
import { silentLogger, type Logger } from '../engine/logger.js';
import type { BrowserMesh } from '../engine/runtime.js';
import { BrowserMeshError } from '../errors.js';
import type { AnyTool } from '../tools/define.js';
import { fillTool, pressTool, selectOptionTool, typeTool } from '../tools/interactions-input.js';
import { clickTool, scrollTool } from '../tools/interactions.js';
import { ELEMENT_ACTION_TOOLS } from '../tools/element-actions.js';
import type { ElementActionKind } from '../operations/journal/element-actions.js';
import { findTool } from '../tools/find.js';
import { emulateTool, routeTool } from '../tools/network.js';
import { cookiesTool, storageTool } from '../tools/page-state.js';
import { invokeTool } from '../tools/invoke.js';
import { backTool, forwardTool, navigateTool, reloadTool } from '../tools/navigation.js';
import { observeTool } from '../tools/observe.js';
import { pageClose, pageCreate, pageList } from '../tools/pages.js';
import { getTitleTool, getUrlTool, visibleTextTool } from '../tools/reading.js';
import { replayTool, runTool } from '../tools/index.js';
import { filesTool, pdfTool, uploadTool } from '../tools/files.js';
import { recordingTool, traceTool } from '../tools/watch.js';
import { screenshotTool } from '../tools/screenshot.js';
import { createServices, type Services } from '../tools/services.js';
import { sessionClose, sessionCreate, sessionGet, sessionList } from '../tools/sessions.js';
import { snapshotTool } from '../tools/snapshot.js';
import { stateList, stateRemove, stateSave } from '../tools/state.js';
import { actionAndWaitTool, waitTool } from '../tools/waits.js';
import { exportTestTool } from '../tools/export-test.js';

/** The operations offered to TypeScript users, each the same definition an MCP tool runs. */
const OPERATIONS = {
  createSession: sessionCreate,
  listSessions: sessionList,
  getSession: sessionGet,
  closeSession: sessionClose,
  createPage: pageCreate,
  listPages: pageList,
  closePage: pageClose,
  navigate: navigateTool,
  back: backTool,
  forward: forwardTool,
  reload: reloadTool,
  getUrl: getUrlTool,
  getTitle: getTitleTool,
  snapshot: snapshotTool,
  visibleText: visibleTextTool,
  observe: observeTool,
  click: clickTool,
  // hover, focus, check, uncheck, scrollIntoView, …: one method per row of the element-action table.
  ...ELEMENT_ACTION_TOOLS,
  scroll: scrollTool,
  fill: fillTool,
  type: typeTool,
  press: pressTool,
  selectOption: selectOptionTool,
  wait: waitTool,
  actionAndWait: actionAndWaitTool,
  screenshot: screenshotTool,
  run: runTool,
  replay: replayTool,
  saveState: stateSave,
  listStates: stateList,
  removeState: stateRemove,
  exportTest: exportTestTool,
  // The `files` and `watch` profiles' operations: the MCP server had them, the library too.
  upload: uploadTool,
  files: filesTool,
  pdf: pdfTool,
  trace: traceTool,
  recording: recordingTool,
  // Find, one cookie or storage key, routes, emulation.
  find: findTool,
  cookies: cookiesTool,
  storage: storageTool,
  route: routeTool,
  emulate: emulateTool,
} as const;

type Operations = typeof OPERATIONS;

/** Per-call options: cancellation. Deadlines go in the arguments (`timeoutMs`), as for the tools. */
export interface OperationCallOptions {
  signal?: AbortSignal;
}

/** The operations whose element is given by exactly one of `ref` or `locator`. */
type TargetedOperation = 'click' | ElementActionKind | 'fill' | 'type' | 'selectOption';

/**
 * `ref` xor `locator`, as the engine checks at run time (`resolveTargetInput`), made a compile-time
 * error: both or neither do not type-check.
 */
export type ExactlyOneTarget<T> = T extends { ref?: infer R; locator?: infer L }
  ? Omit<T, 'ref' | 'locator'> &
      ({ ref: NonNullable<R>; locator?: never } | { locator: NonNullable<L>; ref?: never })
  : T;

/** The arguments of one operation, by name: `OperationInput<'navigate'>`. */
export type OperationInput<K extends keyof Operations> = (K extends TargetedOperation
  ? ExactlyOneTarget<z.input<Operations[K]['input']>>
  : z.input<Operations[K]['input']>) & { timeoutMs?: number };

/**
 * Operations whose content is the tool's text block, not a structured field (a find's match blocks):
 * the library adds that text as `text`, since a library caller has no text block to read.
 */
type TextResultOperation = 'find';
const TEXT_RESULTS: ReadonlySet<string> = new Set<TextResultOperation>(['find']);

/** The result of one operation, by name: `OperationOutput<'navigate'>`. */
export type OperationOutput<K extends keyof Operations> = z.output<Operations[K]['output']> & {
  operationId: string;
} & (K extends TextResultOperation ? { text: string } : unknown);

/** One typed method per operation: the tool's input in, its structured output (plus operationId) out. */
export type MeshOperations = {
  [K in keyof Operations]: (
    args: OperationInput<K>,
    options?: OperationCallOptions,
  ) => Promise<OperationOutput<K>>;
};

// Input types by name, so editor hovers and compiler messages say `ClickInput`, not a 400-character shape.
export type NavigateInput = OperationInput<'navigate'>;
export type SnapshotInput = OperationInput<'snapshot'>;
export type ClickInput = OperationInput<'click'>;
export type HoverInput = OperationInput<'hover'>;
export type FillInput = OperationInput<'fill'>;
export type TypeInput = OperationInput<'type'>;
export type PressInput = OperationInput<'press'>;
export type CheckInput = OperationInput<'check'>;
export type SelectOptionInput = OperationInput<'selectOption'>;
export type WaitInput = OperationInput<'wait'>;
export type ActionAndWaitInput = OperationInput<'actionAndWait'>;
export type ScreenshotInput = OperationInput<'screenshot'>;
export type RunInput = OperationInput<'run'>;
export type ObserveInput = OperationInput<'observe'>;
export type UploadInput = OperationInput<'upload'>;
export type FilesInput = OperationInput<'files'>;
export type PdfInput = OperationInput<'pdf'>;
export type TraceInput = OperationInput<'trace'>;
export type RecordingInput = OperationInput<'recording'>;
export type FindInput = OperationInput<'find'>;
export type FocusInput = OperationInput<'focus'>;
export type CookiesInput = OperationInput<'cookies'>;
export type StorageInput = OperationInput<'storage'>;
export type RouteInput = OperationInput<'route'>;
export type EmulateInput = OperationInput<'emulate'>;

export interface MeshOperationsOptions {
  logger?: Logger;
  /** Shared services (saved-state store); built from the mesh's config when absent. */
  services?: Services;
}

/**
 * The engine's typed operations without MCP: navigate, snapshot, click, fill, wait, run (code mode),
 * observe, saved states and the rest — the very definitions the MCP tools run, with the same
 * validation, queues, deadlines and bounded results. A failure is thrown as a `BrowserMeshError`
 * with the code an MCP client would see.
 *
 * @example
 * ```ts
 * import { createBrowserMesh, createMeshOperations, defaultConfig } from 'browsermesh';
 *
 * const mesh = createBrowserMesh({ config: defaultConfig() });
 * const ops = createMeshOperations(mesh);
 * const { session, initialPage } = await ops.createSession({ name: 'buyer' });
 * const page = { sessionId: session.sessionId, pageId: initialPage.pageId };
 * await ops.navigate({ ...page, url: 'https://example.test/' });
 * const { snapshot } = await ops.snapshot({ ...page, interactiveOnly: true });
 * await ops.click({ ...page, ref: '@e3' });
 * await mesh.shutdown();
 * ```
 */
export function createMeshOperations(mesh: BrowserMesh, options: MeshOperationsOptions = {}): MeshOperations {
  const services = options.services ?? createServices(mesh.config);
  const logger = options.logger ?? silentLogger;
  const call =
    (name: string, tool: AnyTool) =>
    async (args: unknown, callOptions: OperationCallOptions = {}): Promise<Record<string, unknown>> => {
      const result = await invokeTool(tool, args, { mesh, services, logger, signal: callOptions.signal });
      if (result.ok)
        return TEXT_RESULTS.has(name) ? { ...result.structured, text: result.text } : result.structured;
      const { code, message, details, recoveryHint } = result.error;
      throw new BrowserMeshError(code, message, {
        details: { ...details, operationId: result.operationId },
        ...(recoveryHint === undefined ? {} : { recoveryHint }),
      });
    };
  return Object.fromEntries(
    Object.entries(OPERATIONS).map(([name, tool]) => [name, call(name, tool as AnyTool)]),
  ) as unknown as MeshOperations;
}
