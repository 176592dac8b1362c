import { BROWSER_TOOL_NAMES, type BrowserToolName } from '../options.js';
import type { RecordingManager } from '../recording/manager.js';
import { ALL_TOOLS } from '../../tools/index.js';
import type { AnyTool } from '../../tools/define.js';
import { agentOnlyEntry, viewEntry, type AgentEntry, type ToolHost } from '../tool-runner.js';
import type { AnyToolSpec } from '../tool-types.js';
import { dialogTool } from './dialog.js';
import { typeTool } from './element.js';
import { closeTool, recordCaptionTool, recordTool, type AgentServices } from './lifecycle-tools.js';
import { gotoTool } from './navigation.js';
import { tabsTool } from './tabs.js';
import { waitTool } from './wait.js';

export type { AgentServices } from './lifecycle-tools.js';

/**
 * AgentBrowser's published tools in seed 000's order (BROWSER_TOOL_NAMES), minus the excluded ones: the
 * definitions of the tool table that carry an `agent` view (src/tools), then the AgentBrowser-only
 * definitions below. Recording tools exist only when recording is configured.
 */
export function buildToolEntries(
  services: AgentServices,
  host: ToolHost,
  choice: { published: ReadonlySet<BrowserToolName>; excluded: ReadonlySet<BrowserToolName> },
  tools: readonly AnyTool[] = ALL_TOOLS,
): AgentEntry[] {
  const recordings: RecordingManager | undefined = services.recordings;
  const agentOnly: AnyToolSpec[] = [
    gotoTool,
    typeTool,
    closeTool(services),
    dialogTool,
    waitTool,
    tabsTool,
    ...(recordings ? [recordTool(recordings), recordCaptionTool(recordings)] : []),
  ];
  const entries = [
    ...tools.flatMap((tool) => viewEntry(tool) ?? []),
    ...agentOnly.map((spec) => agentOnlyEntry(spec, host)),
  ];
  const order = (entry: AgentEntry): number => BROWSER_TOOL_NAMES.indexOf(entry.name);
  return entries
    .filter((entry) => choice.published.has(entry.name) && !choice.excluded.has(entry.name))
    .sort((a, b) => order(a) - order(b));
}
