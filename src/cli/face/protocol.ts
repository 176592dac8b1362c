import { join } from 'node:path';

/**
 * What the shell client sends its daemon and gets back: one JSON line each way per command. Kept
 * free of the engine and the tools so the client stays a small, fast process.
 */

/** What one command asks the daemon to do; every `tool` step is one `invokeTool` call there. */
export type CliAction =
  | {
      kind: 'tool';
      tool: string;
      args: Record<string, unknown>;
      address: 'page' | 'session' | 'none';
      /** An argument that defaults to the current tab's URL when the command gave none (cookie-set). */
      pageUrl?: 'url';
    }
  /** Removes the session's routes with this pattern (all without one): a list, then removals by id. */
  | { kind: 'unroute'; url?: string }
  | { kind: 'open'; url?: string }
  | { kind: 'tabs'; action: 'list' | 'new' | 'select' | 'close'; tab?: string; url?: string }
  | { kind: 'sessions'; action: 'list' | 'close'; name?: string }
  | { kind: 'close' }
  | { kind: 'state-load'; stateId: string }
  /** A tool that makes a file (screenshot, pdf) or a session file to fetch: the client writes it. */
  | {
      kind: 'file';
      source: 'screenshot' | 'pdf' | 'session-file';
      args: Record<string, unknown>;
      path: string;
    }
  | { kind: 'daemon'; action: 'status' | 'stop' };

export interface CliRequest {
  /** The named session (`-s NAME`, BROWSERMESH_SESSION, or `default`). */
  session: string;
  action: CliAction;
  /** The setting flags this command was given (the daemon says when it runs with others). */
  configArgs?: string[];
}

export type CliResponse =
  | {
      ok: true;
      text: string;
      structured?: unknown;
      /** A file for the client to write at `path` (base64). */
      file?: { path: string; data: string };
      note?: string;
    }
  | { ok: false; code: string; message: string; hint?: string; structured?: unknown; note?: string };

/** What a shell command prints and its exit status (answer.ts renders it from a `CliResponse`). */
export interface ShellOutput {
  exit: number;
  stdout: string;
  stderr: string;
  /** A file for the client to write before printing (base64), as `CliResponse.file`. */
  file?: { path: string; data: string };
}

/**
 * The warm thin client's request (thin-client.ts): the command line as typed, for the daemon to parse
 * with the command table it loaded once. Told apart from a `CliRequest` by `argv`.
 */
export interface ArgvRequest {
  argv: string[];
  cwd: string;
  /** The client's environment for the settings a command reads (`THIN_CLIENT_ENV`). */
  env: Record<string, string>;
  /** Standard input, sent once the daemon asked for it; null from a terminal or when unreadable. */
  stdin?: string | null;
}

/**
 * The daemon's answer to an `ArgvRequest`: what to print and the exit status; `stdin` when the
 * command reads standard input (the client sends it and asks again); `fallback` when the command is
 * the full client's to run (setting flags, a daemon start, a skill install, anything the quick
 * settings read refuses) — always before anything was done.
 */
export type ArgvAnswer = ShellOutput | { stdin: true } | { fallback: true };

/** The daemon's private folder (0700) under the data directory, and what lives in it. */
export function daemonPaths(dataDir: string): { dir: string; socket: string; pid: string; log: string } {
  const dir = join(dataDir, 'cli');
  return {
    dir,
    socket: join(dir, 'daemon.sock'),
    pid: join(dir, 'daemon.pid'),
    log: join(dir, 'daemon.log'),
  };
}

/** Largest line either side accepts (a full-page screenshot or a PDF in base64 fits). */
export const MAX_LINE_BYTES = 96 * 1024 * 1024;
