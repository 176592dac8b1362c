/** The four observability sources, read through one tool and one mixed per-page buffer. */
export const OBSERVE_SOURCES = ['console', 'pageError', 'network', 'requestFailed'] as const;
export type ObserveSource = (typeof OBSERVE_SOURCES)[number];

/** Sources whose events carry no text: `includeText` is refused for them. */
export const METADATA_ONLY_SOURCES: ReadonlySet<ObserveSource> = new Set(['network', 'requestFailed']);

/**
 * One captured event. Strings are already sanitized, redacted and bounded when stored, so nothing
 * raw (argument objects, stacks, headers, bodies) is ever kept in memory.
 */
export interface StoredEvent {
  id: number;
  source: ObserveSource;
  timeMs: number;
  /** console: log, info, warning, error, debug, … */
  level?: string;
  /** pageError: the error's name (Error, TypeError, …). */
  name?: string;
  /** console and pageError only; returned with includeText. */
  text?: string;
  textTruncated?: boolean;
  /** pageError: where it was thrown (with url, the script's sanitized URL). */
  line?: number;
  column?: number;
  /** pageError only, returned with includeText: at most 8 frames `at fn (url:line:col)`, URLs sanitized. */
  stack?: string;
  requestId?: string;
  method?: string;
  url?: string;
  resourceType?: string;
  status?: number;
  durationMs?: number;
  /** requestFailed: Chromium's net error name, e.g. ERR_CONNECTION_REFUSED. */
  failure?: string;
}

export type NewEvent = Omit<StoredEvent, 'id'>;

/** An event as returned to a caller: source echoed once at the top, time as ISO. */
export type OutputEvent = Omit<StoredEvent, 'source' | 'timeMs'> & { time: string };

export interface ObservabilityLimits {
  /** Events kept per page (all sources mixed). */
  maxEvents: number;
  /** Maximum code points of any stored string. */
  maxStringChars: number;
}
