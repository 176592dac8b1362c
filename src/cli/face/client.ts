import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientSettings, type ClientSettings } from '../../config/client-settings.js';
import { ConfigError } from '../../config/config-error.js';
import { renderResponse } from './answer.js';
import { SESSION_NAME } from './argv.js';
import { actionOf, commandHelp, parseCommand, UsageError, type ParsedCommand } from './commands.js';
import {
  daemonPaths,
  MAX_LINE_BYTES,
  type CliAction,
  type CliRequest,
  type CliResponse,
} from './protocol.js';
import type { LocalAction } from './command-spec.js';
import { untrustedDaemon, untrustedText } from './daemon-trust.cjs';
import { answers } from './daemon-claim.js';

/**
 * The shell face's full client: parse the command from the table, hand it to the per-user daemon
 * (started on first use), print the answer. A warm command without setting flags never gets here:
 * thin-client.cts sends it to the daemon as typed; this file runs what that path hands back. It never loads the engine or the tools, and while a daemon runs
 * not even the configuration's validators (a running daemon keeps the settings it started with): a
 * warm command costs a Node start, the command table and one socket round trip. Whatever it may load
 * is checked by test/e2e/cli-client-imports.test.ts.
 */

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
const START_WAIT_MS = 30_000;

export async function runCommand(argv: readonly string[]): Promise<number> {
  let parsed: ParsedCommand;
  let settings: ClientSettings;
  let checked = false;
  try {
    parsed = parseCommand(argv, process.cwd(), readStdin);
    if (parsed.help) {
      process.stdout.write(commandHelp(parsed.spec));
      return 0;
    }
    // Setting flags are for a daemon to start with: the whole loader checks them.
    const quick = parsed.configArgs.length === 0 ? clientSettings() : undefined;
    settings = quick ?? (await checkedSettings(parsed.configArgs));
    checked = quick === undefined;
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    if (error instanceof ConfigError) return usage(`invalid configuration: ${error.message}`);
    throw error;
  }
  const session = parsed.session ?? settings.cliSession;
  if (!SESSION_NAME.test(session)) return usage('-s: a session name is 1-64 letters, digits, _ . -');
  let action: CliAction | LocalAction;
  try {
    action = actionOf(parsed);
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  }
  if (action.kind === 'skill-install') return (await import('./skill-install.js')).installSkill(action);
  const paths = daemonPaths(settings.dataDir);
  const untrusted = untrustedDaemon(paths.dir, paths.socket);
  if (untrusted !== undefined) return refuse(untrusted);
  const start = (): Promise<boolean | number> => startDaemon(settings.dataDir, parsed.configArgs, checked);
  if (action.kind === 'daemon-start' || action.kind === 'daemon-restart') {
    if (action.kind === 'daemon-restart')
      await send(paths.socket, { session, action: { kind: 'daemon', action: 'stop' } }).catch(
        () => undefined,
      );
    await waitGone(paths.socket, action.kind === 'daemon-restart');
    const started = await start();
    if (typeof started === 'number') return started;
    return started
      ? print({ ok: true, text: 'daemon running' }, parsed.json, undefined)
      : daemonFailed(settings.dataDir);
  }
  const request: CliRequest = { session, action, configArgs: parsed.configArgs };
  const response = await send(paths.socket, request).catch(async () => {
    if (action.kind === 'daemon') return { ok: true, text: 'daemon not running' } as CliResponse;
    const started = await start();
    if (started !== true) return started === false ? undefined : started;
    return send(paths.socket, request);
  });
  if (typeof response === 'number') return response;
  if (!response) return daemonFailed(settings.dataDir);
  return print(response, parsed.json, action.kind === 'file' ? action.path : undefined);
}

/**
 * Starts a daemon once every setting it will use is checked (unless the caller already did), so a
 * bad one is a usage error here: the exit status then, else whether the daemon answers.
 */
async function startDaemon(
  dataDir: string,
  configArgs: readonly string[],
  checked: boolean,
): Promise<boolean | number> {
  if (!checked) {
    try {
      await checkedSettings(configArgs);
    } catch (error) {
      if (error instanceof ConfigError) return usage(`invalid configuration: ${error.message}`);
      throw error;
    }
  }
  return ensureDaemon(dataDir, configArgs);
}

/** The whole configuration loader, for settings given as flags and before a daemon starts. */
async function checkedSettings(configArgs: readonly string[]): Promise<ClientSettings> {
  const { config } = (await import('../../config/load.js')).loadConfig(configArgs);
  return { dataDir: config.dataDir, cliSession: config.cliSession };
}

/** Prints the answer; writes its file only at `asked`, the path this command line gave (or defaulted). */
function print(response: CliResponse, json: boolean, asked: string | undefined): number {
  const output = renderResponse(response, json);
  if (output.file && output.file.path !== asked)
    return refuse(`the daemon named a file this command did not ask for: ${output.file.path}`);
  if (output.file) {
    mkdirSync(dirname(output.file.path), { recursive: true });
    writeFileSync(output.file.path, Buffer.from(output.file.data, 'base64'));
  }
  if (output.stderr !== '') process.stderr.write(output.stderr);
  if (output.stdout !== '') process.stdout.write(output.stdout);
  return output.exit;
}

function usage(message: string): number {
  process.stderr.write(`USAGE: ${message}\n`);
  return 2;
}

function refuse(reason: string): number {
  process.stderr.write(untrustedText(reason));
  return 1;
}

function daemonFailed(dataDir: string): number {
  process.stderr.write(`DAEMON_FAILED: the daemon did not start\nhint: see ${daemonPaths(dataDir).log}\n`);
  return 1;
}

/** Standard input for `run` (a heredoc); undefined from a terminal. */
function readStdin(): string | undefined {
  if (process.stdin.isTTY) return undefined;
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return undefined;
  }
}

/** One request, one answer line. Rejects when no daemon listens. */
function send(socketPath: string, request: CliRequest): Promise<CliResponse> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let buffer = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_LINE_BYTES) socket.destroy(new Error('answer too large'));
    });
    socket.once('end', () => {
      try {
        resolve(JSON.parse(buffer) as CliResponse);
      } catch {
        resolve({
          ok: false,
          code: 'DAEMON_FAILED',
          message: 'the daemon closed the connection without an answer',
        });
      }
    });
    socket.once('error', (error) => {
      if (!connected) reject(error);
      else resolve({ ok: false, code: 'DAEMON_FAILED', message: 'the connection to the daemon broke' });
    });
  });
}

/**
 * Starts the daemon in the background (detached, its log in the daemon folder) and waits until it
 * answers. Two clients starting at once are fine: the second daemon sees the first answering and exits.
 */
async function ensureDaemon(dataDir: string, configArgs: readonly string[]): Promise<boolean | number> {
  const paths = daemonPaths(dataDir);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const unsafe = (): number | undefined => {
    const reason = untrustedDaemon(paths.dir, paths.socket);
    return reason === undefined ? undefined : refuse(reason);
  };
  const before = unsafe();
  if (before !== undefined) return before;
  const log = openSync(paths.log, 'a', 0o600);
  let exited = false;
  try {
    // Loaded here, not at the top: a warm command never starts a process.
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [MAIN, 'daemon', 'run', ...configArgs], {
      detached: true,
      stdio: ['ignore', 'ignore', log],
    });
    child.once('exit', () => (exited = true));
    child.unref();
  } finally {
    closeSync(log);
  }
  const end = Date.now() + START_WAIT_MS;
  while (Date.now() < end) {
    // A socket that appears meanwhile is checked before it counts as the daemon's.
    const after = unsafe();
    if (after !== undefined) return after;
    if (await answers(paths.socket)) return true;
    if (exited && !(await answers(paths.socket))) return false;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  return false;
}

/** After `daemon stop`: until the old daemon no longer answers (bounded). */
async function waitGone(socketPath: string, wait: boolean): Promise<void> {
  const end = Date.now() + (wait ? 15_000 : 0);
  while (Date.now() < end && (await answers(socketPath)))
    await new Promise((resolve) => setTimeout(resolve, 50));
}
