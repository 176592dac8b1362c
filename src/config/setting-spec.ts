/** What a configuration setting is: its type and how it is declared (see settings.ts). */

export type SettingType =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'string'; pattern?: RegExp; hint?: string }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'list'; values: readonly string[] }
  /** A JSON object; `headers` requires string values (HTTP headers). Never echoed: it may hold secrets. */
  | { kind: 'json'; shape: 'object' | 'headers' }
  /** Comma-separated free-form items (e.g. host names), each matching `pattern`. */
  | { kind: 'strings'; pattern: RegExp; hint: string };

export interface SettingSpec {
  key: string;
  env: string;
  /** `--name VALUE`, or for booleans `--name` (true) and `--no-name` (false). */
  flag?: string;
  /** Extra boolean flag that sets the opposite value, e.g. `--headed` for headless=false. */
  negativeFlag?: string;
  type: SettingType;
  default: string;
  description: string;
  /** Still accepted, but left out of `--help` (compatibility only; the docs table keeps it). */
  hidden?: boolean;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export const TOOL_PROFILES = [
  'core',
  'observability',
  'persistence',
  'code',
  'evaluate',
  'files',
  'pointer',
  'watch',
  'state',
  'network',
] as const;
export const PROVIDERS = ['local', 'cdp', 'selenium', 'playwright'] as const;

export const int = (min: number, max: number): SettingType => ({ kind: 'integer', min, max });
export const bool: SettingType = { kind: 'boolean' };
/** Characters an origin pattern may use; the full syntax is checked by the URL policy. */
export const ORIGIN_PATTERN = /^[\w.*:/[\]-]+$/;
