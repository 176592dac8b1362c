import { FACADE_OPS, type FacadeOp } from '../code-mode/facade-parse.js';
import type { FacadeRunners, RunnerTable } from '../code-mode/backend-define.js';
import { FACADE_RUNNERS, runnerTable } from '../code-mode/backend-ops.js';
import type { AnyTool, CodeParts } from './define.js';
import { PUBLISHED_STEPS, STEP_TABLE, type StepEntry } from './run-step-table.js';
import { actionStepsOf, type ActionSteps } from './run-steps.js';

/**
 * A definition's part in code mode (CONTRIBUTING.md, "Add a tool"): the host-side runners of the
 * facade ops it stands for, and its `browser_run` steps. Read from ALL_TOOLS by browser_run, so a
 * tool's operation reaches `page.*`/`locator.*` and the `actions` steps from its own file.
 */
export interface CodeView {
  /** By facade op (its parser is FACADE_OPS in src/code-mode/facade-parse.ts). */
  runners?: Partial<FacadeRunners>;
  /** By step name; a new step comes after the published ones (PUBLISHED_STEPS). */
  steps?: Readonly<Record<string, StepEntry>>;
}

export function codeParts(view: CodeView): CodeParts {
  return view as unknown as CodeParts;
}

function viewOf(tool: AnyTool): CodeView {
  return (tool.code as CodeView | undefined) ?? {};
}

/** What browser_run runs: its steps (schema and checks) and every facade op's runner. */
export interface CodeTable {
  steps: ActionSteps;
  runners: RunnerTable;
}

/**
 * Joins the parts written in src/code-mode and run-step-table.ts with those of the definitions.
 * Two runners of one op, or two steps of one name, are a programming error: refused at load.
 */
export function codeTableOf(tools: readonly AnyTool[]): CodeTable {
  return { steps: actionStepsOf(stepTableOf(tools)), runners: runnersOf(tools) };
}

export function runnersOf(tools: readonly AnyTool[]): RunnerTable {
  const seen = new Set<string>(Object.keys(FACADE_RUNNERS));
  const more = tools.map((tool) => viewOf(tool).runners ?? {});
  for (const runners of more)
    for (const op of Object.keys(runners)) {
      if (seen.has(op)) throw new Error(`code mode: two runners of ${op}`);
      seen.add(op);
    }
  return runnerTable(...more);
}

export function stepTableOf(tools: readonly AnyTool[]): ReadonlyMap<string, StepEntry> {
  const steps = new Map<string, StepEntry>(Object.entries(STEP_TABLE));
  for (const tool of tools)
    for (const [name, entry] of Object.entries(viewOf(tool).steps ?? {})) {
      if (steps.has(name)) throw new Error(`browser_run: two steps named ${name}`);
      steps.set(name, entry);
    }
  const published: readonly string[] = PUBLISHED_STEPS;
  const order = [
    ...published.filter((name) => steps.has(name)),
    ...[...steps.keys()].filter((n) => !published.includes(n)),
  ];
  return new Map(order.map((name) => [name, steps.get(name) as StepEntry]));
}

/** The facade ops of FACADE_OPS that have no runner in `table` (a test keeps this empty). */
export function opsWithoutRunner(table: RunnerTable): FacadeOp[] {
  return (Object.keys(FACADE_OPS) as FacadeOp[]).filter((op) => !table.has(op));
}
