/**
 * Structured logs, one JSON object per line, to stderr (stdout belongs to the MCP protocol).
 * Only safe correlation fields are accepted: ids, names, durations, codes and counts. Page content,
 * form values, cookies, tokens and saved state must never be passed in.
 */

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface LogFields {
  operationId?: string;
  sessionId?: string;
  pageId?: string;
  tool?: string;
  op?: string;
  durationMs?: number;
  code?: string;
  provider?: string;
  count?: number;
  reason?: string;
}

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

const RANK: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(
  level: LogLevelName,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = RANK[level];
  const emit = (lvl: Exclude<LogLevelName, 'silent'>, event: string, fields?: LogFields): void => {
    if (RANK[lvl] < threshold) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, event, ...fields })}\n`);
  };
  return {
    debug: (event, fields) => emit('debug', event, fields),
    info: (event, fields) => emit('info', event, fields),
    warn: (event, fields) => emit('warn', event, fields),
    error: (event, fields) => emit('error', event, fields),
  };
}

export const silentLogger: Logger = createLogger('silent');
