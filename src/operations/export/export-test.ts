import { promises as fs } from 'node:fs';
import { invalidArgument } from '../../errors.js';
import type { OperationContext } from '../../engine/runtime.js';
import { actionLogOf } from '../journal/action-log.js';
import type { LocatorStyle } from './export-code.js';
import { sessionSecretCheck } from './export-secrets.js';
import { generateSpec } from './export-spec.js';

export interface ExportTestInput {
  language?: 'ts' | 'js' | undefined;
  fromStep?: number | undefined;
  toStep?: number | undefined;
  /** 'css' writes every element's CSS selector instead of its best locator (to compare). */
  locatorStyle?: LocatorStyle | undefined;
  /** Characters of the spec returned inline; the whole spec is always in the session file. */
  maxChars?: number | undefined;
  /** false: no assertions from what the agent read (waits keep theirs). Default true. */
  assertions?: boolean | undefined;
}

export interface ExportTestResult {
  fileId: string;
  name: string;
  /** Step numbers covered (0 and 0 when the range holds none). */
  fromStep: number;
  toStep: number;
  steps: number;
  /** The spec (up to maxChars). */
  code: string;
  truncated: boolean;
  /** Environment variables the spec reads in place of secrets. */
  env: string[];
  notUnique: number[];
  /** `expect` calls the spec holds, and the log steps (waits and reads) they came from. */
  assertions: number;
  assertionSteps: number[];
  /** Steps left out because their element could only be named with a secret. */
  withheld: number[];
}

export const DEFAULT_EXPORT_CHARS = 20_000;

/**
 * Writes the session's action log (or a range of it) as a `@playwright/test` spec into the session's
 * files (kind 'spec', readable and keepable with browser_files) and returns it, bounded. An empty log
 * (or the log turned off) gives a spec with no steps, saying so, rather than an error.
 */
export async function exportTest(
  ctx: OperationContext,
  input: ExportTestInput = {},
): Promise<ExportTestResult> {
  const fromStep = input.fromStep ?? 1;
  const toStep = input.toStep ?? Number.MAX_SAFE_INTEGER;
  if (toStep < fromStep) throw invalidArgument('toStep', 'must not be before fromStep');
  const log = actionLogOf(ctx.session, ctx.config.actionLogSteps);
  const steps = log.list(fromStep, toStep);
  const language = input.language ?? 'ts';
  const title = ctx.session.toInfo().name ?? `session ${ctx.session.id}`;
  const spec = generateSpec(steps, {
    language,
    title,
    stateId: log.stateId,
    locatorStyle: input.locatorStyle,
    assertions: input.assertions,
    secrets: sessionSecretCheck(ctx.session.secrets, ctx.session.id),
  });
  const { fileId, path } = await ctx.session.files.allocate('spec', `${ctx.session.id}.spec.${language}`);
  try {
    await fs.writeFile(path, spec.code, { mode: 0o600 });
  } catch (error) {
    await ctx.session.files.abort(fileId);
    throw error;
  }
  const info = await ctx.session.files.commit(fileId, {
    mimeType: language === 'ts' ? 'text/typescript' : 'text/javascript',
  });
  const maxChars = input.maxChars ?? DEFAULT_EXPORT_CHARS;
  return {
    fileId,
    name: info.name,
    fromStep: steps[0]?.step ?? 0,
    toStep: steps[steps.length - 1]?.step ?? 0,
    steps: spec.steps,
    code: spec.code.slice(0, maxChars),
    truncated: spec.code.length > maxChars,
    env: spec.env,
    notUnique: spec.notUnique,
    assertions: spec.assertions,
    assertionSteps: spec.assertionSteps,
    withheld: spec.withheld,
  };
}
