import type { BrowserToolName } from '../options.js';
import type { RecordingManager } from '../recording/manager.js';
import type { AnyToolSpec } from '../tool-types.js';
import { dialogTool } from './dialog.js';
import { clickTool, dragTool, hoverTool, pressTool, scrollTool, selectTool, typeTool } from './element.js';
import { closeTool, recordCaptionTool, recordTool, type AgentServices } from './lifecycle-tools.js';
import { backTool, gotoTool } from './navigation.js';
import { filesTool, uploadTool } from './files.js';
import { mouseTool } from './mouse.js';
import { evaluateTool, screenshotTool } from './page.js';
import { runTool } from './run.js';
import { snapshotTool } from './snapshot.js';
import { tabsTool } from './tabs.js';
import { waitTool } from './wait.js';

export type { AgentServices } from './lifecycle-tools.js';

/**
 * Every tool spec in seed 000's order (core tools, extended tools, code mode, the files and pointer
 * tools of issue 14, then recording),
 * minus the excluded ones. Recording tools exist only when recording is configured.
 */
export function buildToolSpecs(
  services: AgentServices,
  excluded: ReadonlySet<BrowserToolName>,
): AnyToolSpec[] {
  const recordings: RecordingManager | undefined = services.recordings;
  const all: AnyToolSpec[] = [
    gotoTool,
    snapshotTool,
    clickTool,
    typeTool,
    pressTool,
    selectTool,
    scrollTool,
    screenshotTool,
    closeTool(services),
    hoverTool,
    backTool,
    dialogTool,
    waitTool,
    tabsTool,
    dragTool,
    evaluateTool,
    runTool,
    uploadTool,
    filesTool,
    mouseTool,
    ...(recordings ? [recordTool(recordings), recordCaptionTool(recordings)] : []),
  ];
  return all.filter((spec) => !excluded.has(spec.name));
}
