import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { withDeadline, type PageOperationContext } from '../../engine/runtime.js';
import type { RunnerTable } from '../../code-mode/backend-define.js';
import { runCode, type CodeRunner } from '../../code-mode/run-code.js';
import { expectPrelude } from './expect-prelude.js';
import { heal, toPlaywright } from './heal.js';
import { findLocator, locatorCall, type FoundLocator } from './spec-locator.js';
import { parseSpec, type SpecStatement } from './spec-script.js';

/**
 * Runs an exported spec again on a session, with no model: each statement of its test in the
 * code-mode sandbox, its `expect` calls polled through the facade. A statement whose locator finds no
 * element or several is healed when it can be (heal.ts): the new locator is used from there on and
 * written into the returned spec. The first statement that still fails stops the replay.
 */

export interface ReplayInput {
  spec: string;
  /** Re-locate a locator that finds no element or several (default true). */
  heal?: boolean | undefined;
}

export interface ReplayHeal {
  step: number;
  from: string;
  to: string;
}

export interface ReplayFailure {
  step: number;
  /** The spec line the statement starts on. */
  line: number;
  statement: string;
  error: { code: string; message: string };
  /** The statement's locator, and what the page offered in its place, when healing found none. */
  locator?: string;
  candidates?: string[];
}

export interface ReplayResult {
  passed: boolean;
  /** Statements that ran through, and how many the spec holds. */
  steps: number;
  total: number;
  heals: ReplayHeal[];
  failedAt?: ReplayFailure;
  /** The spec with every heal written in (the input itself when nothing healed). */
  spec: string;
}

/** An assertion polls for at most this long (and never past the call's deadline). */
const EXPECT_TIMEOUT_MS = 5_000;
/** Left of the deadline for the replay to report, after an assertion's polling. */
const REPORT_MARGIN_MS = 1_000;
const HEALABLE = new Set<string>([ErrorCodes.ELEMENT_NOT_FOUND, ErrorCodes.LOCATOR_AMBIGUOUS]);

export async function replaySpec(
  ctx: PageOperationContext,
  runners: RunnerTable,
  input: ReplayInput,
  runner: CodeRunner = {},
): Promise<ReplayResult> {
  const script = parseSpec(input.spec);
  const missing = script.secrets.filter((name) => ctx.session.secrets[name] === undefined);
  if (missing.length > 0)
    throw new BrowserMeshError(
      ErrorCodes.INVALID_ARGUMENT,
      `spec: the secret ${missing.join(', ')} is not configured for this session (--secrets)`,
      { details: { field: 'spec', secrets: missing } },
    );
  const heals: ReplayHeal[] = [];
  const swaps = new Map<string, string>();
  let steps = 0;
  for (const statement of script.statements) {
    const code = swapAll(statement.code, swaps);
    const first = await run(ctx, runners, script.secrets, code, runner);
    if (first === undefined) {
      steps++;
      continue;
    }
    const found = findLocator(code);
    const mended =
      input.heal !== false && found !== undefined && (await needsHeal(ctx, found, first.code))
        ? await heal(ctx, found.locator)
        : undefined;
    if (mended?.healed && found) {
      const to = locatorCall(mended.healed);
      const again = await run(ctx, runners, script.secrets, code.replace(found.code, to), runner);
      if (again === undefined) {
        swaps.set(found.code, to);
        heals.push({ step: statement.step, from: found.code, to });
        steps++;
        continue;
      }
    }
    return {
      passed: false,
      steps,
      total: script.statements.length,
      heals,
      failedAt: failure(statement, code, first, found, mended?.healed ? undefined : mended?.candidates),
      spec: healedSpec(input.spec, script.statements, heals),
    };
  }
  return { passed: true, steps, total: steps, heals, spec: healedSpec(input.spec, script.statements, heals) };
}

/** Runs one statement; undefined when it passed, else its error. */
async function run(
  ctx: PageOperationContext,
  runners: RunnerTable,
  secrets: readonly string[],
  code: string,
  runner: CodeRunner,
): Promise<{ code: string; message: string } | undefined> {
  const left = ctx.deadline.expiresAt - Date.now() - REPORT_MARGIN_MS;
  const timeoutMs = Math.max(0, Math.min(EXPECT_TIMEOUT_MS, left));
  const result = await runCode(ctx, runners, `${expectPrelude(timeoutMs, secrets)}\n${code}`, {}, runner);
  if (result.ok) return undefined;
  return { code: result.error.hostCode ?? ErrorCodes.SCRIPT_ERROR, message: result.error.message };
}

/** A failed statement heals when its locator finds no element or several (an action's or an expect's). */
async function needsHeal(ctx: PageOperationContext, found: FoundLocator, code: string): Promise<boolean> {
  if (HEALABLE.has(code)) return true;
  const count = toPlaywright(ctx.page.page, found.locator).count();
  return withDeadline(count, ctx.deadline, ctx.signal).then(
    (n) => n !== 1,
    () => false,
  );
}

function failure(
  statement: SpecStatement,
  code: string,
  error: { code: string; message: string },
  found: FoundLocator | undefined,
  candidates: string[] | undefined,
): ReplayFailure {
  return {
    step: statement.step,
    line: statement.line,
    statement: code,
    error,
    ...(found ? { locator: found.code } : {}),
    ...(candidates ? { candidates } : {}),
  };
}

function swapAll(code: string, swaps: ReadonlyMap<string, string>): string {
  let out = code;
  for (const [from, to] of swaps) out = out.split(from).join(to);
  return out;
}

/** The spec with each heal written into the lines from its statement on. */
function healedSpec(
  spec: string,
  statements: readonly SpecStatement[],
  heals: readonly ReplayHeal[],
): string {
  if (heals.length === 0) return spec;
  const lines = spec.split('\n');
  for (const { step, from, to } of heals) {
    const start = (statements[step - 1]?.line ?? 1) - 1;
    for (let i = start; i < lines.length; i++) lines[i] = (lines[i] ?? '').split(from).join(to);
  }
  return lines.join('\n');
}
