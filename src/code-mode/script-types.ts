/** Public result types of `runScript` (re-exported by sandbox.ts). */
import type { ErrorDetails } from '../errors.js';

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

export type ScriptErrorKind = 'syntax' | 'runtime' | 'timeout' | 'cancelled' | 'memory' | 'limit' | 'host';

export interface ScriptError {
  kind: ScriptErrorKind;
  /** Safe to show to the agent: built from the script's own error or from a host error's safe message. */
  message: string;
  /** 1-based line in the script as written. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** The facade call that failed: its 0-based index among the script's calls, and its op. */
  step?: { index: number; op: string };
  /** The host error's code (e.g. ELEMENT_NOT_FOUND) when `kind` is 'host'. */
  hostCode?: string;
  /** The host error's details (reason, coveredBy, candidates…), as every other face reports them. */
  hostDetails?: ErrorDetails;
}

export interface ScriptRunInfo {
  /** console output, one entry per call, bounded in count and length. */
  logs: string[];
  logsTruncated: boolean;
  /** Facade calls the script made (including refused ones). */
  operations: number;
  durationMs: number;
}

export type ScriptResult =
  | ({ ok: true; value: JSONValue; valueTruncated?: boolean } & ScriptRunInfo)
  | ({ ok: false; error: ScriptError } & ScriptRunInfo);

export type ScriptOutcome =
  { ok: true; value: JSONValue; valueTruncated?: boolean } | { ok: false; error: ScriptError };
