import type { Config, ToolProfile } from '../config/load.js';
import type { AgentViewName, AnyTool } from './define.js';
import { backTool, forwardTool, navigateTool, reloadTool } from './navigation.js';
import { pageClose, pageCreate, pageList } from './pages.js';
import { observeTool } from './observe.js';
import { getTitleTool, getUrlTool, visibleTextTool } from './reading.js';
import { runtimeInfo } from './runtime-info.js';
import { screenshotTool } from './screenshot.js';
import { snapshotTool } from './snapshot.js';
import { sessionClose, sessionCreate, sessionGet, sessionList } from './sessions.js';
import { stateList, stateRemove, stateSave } from './state.js';
import { clickTool, doubleClickTool, dragAndDropTool, scrollTool } from './interactions.js';
import { fillTool, pressTool, selectOptionTool, typeTool } from './interactions-input.js';
import { ELEMENT_ACTION_TOOL_LIST } from './element-actions.js';
import { actionAndWaitTool, waitTool } from './waits.js';
import { runToolFor } from './run.js';
import { replayToolFor } from './replay.js';
import { codeTableOf } from './code-parts.js';
import { evaluateTool } from './evaluate.js';
import { filesTool, pdfTool, uploadTool } from './files.js';
import { exportTestTool } from './export-test.js';
import { mouseTool, viewportTool } from './pointer.js';
import { recordingTool, traceTool } from './watch.js';
import { findTool } from './find.js';
import { cookiesTool, storageTool } from './page-state.js';
import { emulateTool, routeTool } from './network.js';
import { requestHumanTool } from './human.js';

// The tools before and after browser_run in the published order: browser_run's steps and code-mode
// runners are the other definitions' `code` parts, so it is built from them (runToolFor).
const BEFORE_RUN = [
  runtimeInfo,
  sessionCreate,
  sessionList,
  sessionGet,
  sessionClose,
  pageCreate,
  pageList,
  pageClose,
  navigateTool,
  backTool,
  forwardTool,
  reloadTool,
  getUrlTool,
  getTitleTool,
  snapshotTool,
  visibleTextTool,
  observeTool,
  clickTool,
  doubleClickTool,
  // hover, focus, check, uncheck, scrollIntoView, …: the element-action table's rows.
  ...ELEMENT_ACTION_TOOL_LIST,
  scrollTool,
  dragAndDropTool,
  fillTool,
  typeTool,
  pressTool,
  selectOptionTool,
  waitTool,
  actionAndWaitTool,
  screenshotTool,
  stateSave,
  stateList,
  stateRemove,
] as const;
const AFTER_RUN = [
  evaluateTool,
  uploadTool,
  filesTool,
  pdfTool,
  exportTestTool,
  mouseTool,
  viewportTool,
  traceTool,
  recordingTool,
  findTool,
  cookiesTool,
  storageTool,
  routeTool,
  emulateTool,
  requestHumanTool,
] as const;

/** browser_run's steps and every code-mode runner: src/code-mode's, run-step-table.ts's and the definitions'. */
export const CODE_TABLE = codeTableOf([...BEFORE_RUN, ...AFTER_RUN]);

export const runTool = runToolFor(CODE_TABLE);
export const replayTool = replayToolFor(CODE_TABLE);

/** Every tool, in the order they are published. */
const TABLE = [...BEFORE_RUN, runTool, ...AFTER_RUN, replayTool] as const;
export const ALL_TOOLS: readonly AnyTool[] = TABLE;

/** The names of the AgentBrowser views of the table's definitions, as a type (see src/agent/options.ts). */
export type AgentViewToolName = AgentViewName<(typeof TABLE)[number]>;

/** The tools of the selected profiles, in publication order. */
export function selectTools(
  profiles: readonly ToolProfile[],
  tools: readonly AnyTool[] = ALL_TOOLS,
): AnyTool[] {
  const wanted = new Set(profiles);
  return tools.filter(
    (tool) => tool.publish !== false && (wanted.has(tool.profile) || tool.alsoIn?.some((p) => wanted.has(p))),
  );
}

/** The configured profiles' tools, each rebuilt for the configuration where its schema carries limits. */
export function toolsForConfig(config: Config, tools: readonly AnyTool[] = ALL_TOOLS): AnyTool[] {
  return selectTools(config.tools, tools).map((tool) => tool.configure?.(config) ?? tool);
}
