import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { LoadedConfig } from '../../config/load.js';
import { createBrowserMesh } from '../../create-mesh.js';
import { createLogger, type Logger } from '../../engine/logger.js';
import { ALL_TOOLS, toolsForConfig } from '../../tools/index.js';
import { createServices } from '../../tools/services.js';
import { renderResponse } from './answer.js';
import { readArgvRequest } from './daemon-argv.js';
import { claimSocket, privateFolder } from './daemon-claim.js';
import { UNTRUSTED } from './daemon-trust.cjs';
import { CliExecutor } from './executor.js';
import {
  daemonPaths,
  MAX_LINE_BYTES,
  type ArgvAnswer,
  type ArgvRequest,
  type CliRequest,
  type CliResponse,
} from './protocol.js';

/**
 * The per-user daemon behind the shell commands: the same runtime as the MCP server (one config
 * loader, limits, URL policy, upload roots), reached only through a Unix socket in a 0700 folder of
 * the data directory. One JSON line in, one JSON line out per connection: a `CliRequest` from the
 * full client, or the warm thin client's command line (`ArgvRequest`), parsed here with the command
 * table and answered with what to print.
 */
export async function runDaemon({ config }: LoadedConfig, startArgs: readonly string[]): Promise<void> {
  const paths = daemonPaths(config.dataDir);
  const logger = createLogger(config.logLevel);
  const unsafe = privateFolder(paths.dir, paths.socket);
  if (unsafe !== undefined) {
    process.stderr.write(`browsermesh: ${UNTRUSTED}: ${unsafe}\n`);
    process.exitCode = 1;
    return;
  }
  // The socket first, before any browser or dashboard: a daemon that loses the start race to
  // another one for this data directory exits here, having started nothing (daemon-claim.ts).
  // Connections made while the runtime starts wait, unread, for the handler.
  const early: Socket[] = [];
  let serve = (socket: Socket): void => void early.push(socket);
  const server: Server = createServer((socket) => serve(socket));
  if (!(await claimSocket(server, paths.socket))) {
    logger.info('shutdown', { reason: 'another daemon serves this data directory' });
    return;
  }
  try {
    await startServing(config, startArgs, server, logger, (handler) => {
      serve = handler;
      for (const socket of early.splice(0)) if (!socket.destroyed) handler(socket);
    });
  } catch (error) {
    // Never a daemon that holds the socket without serving it: the next command starts a new one.
    logger.error('startup_failed', { reason: error instanceof Error ? error.name : 'error' });
    server.close();
    rmSync(paths.socket, { force: true });
    process.exit(1);
  }
}

/** Everything behind the claimed socket: the runtime, the dashboard, the command handler. */
async function startServing(
  config: LoadedConfig['config'],
  startArgs: readonly string[],
  server: Server,
  logger: Logger,
  setHandler: (handler: (socket: Socket) => void) => void,
): Promise<void> {
  const paths = daemonPaths(config.dataDir);
  const mesh = createBrowserMesh({ config, logger });
  const tools = new Map(toolsForConfig({ ...config, tools: config.cliTools }).map((t) => [t.name, t]));
  const missing = (name: string): string => {
    const profile = ALL_TOOLS.find((tool) => tool.name === name)?.profile;
    return profile === undefined
      ? 'see browsermesh --help'
      : `restart the daemon with the ${profile} profile: browsermesh daemon restart --cli-tools ${[...config.cliTools, profile].join(',')}`;
  };
  const services = createServices(config);
  // `--dashboard`: the live dashboard on a loopback port, where `handoff` links a person
  // (docs/human-in-the-loop.md). The daemon works without it when its port is taken.
  const dashboard = config.dashboard
    ? await import('../../dashboard/server.js')
        .then(({ startDashboardServer, dashboardSettings }) =>
          startDashboardServer({ mesh, logger, ...dashboardSettings(config) }),
        )
        .catch(() => undefined)
    : undefined;
  if (dashboard) services.dashboardUrl = () => dashboard.openUrl;
  const executor = new CliExecutor(mesh, services, tools, logger, missing);
  if (config.warmUp) void mesh.warmUp().catch(() => undefined);
  // `held`: the daemon has had a named session since it started; once the last one closes, its
  // browser goes at once and the daemon follows after the short grace (`--daemon-grace-ms`), so a
  // finished flow leaves no process behind; a daemon that never held one waits out the idle time.
  const state = { inflight: 0, idle: undefined as NodeJS.Timeout | undefined, stopping: false, held: false };
  // A grace as long as the idle time turns the rule off: the browser stays until the idle exit.
  const lastClosed = (): boolean =>
    state.held && executor.named.size === 0 && config.daemonGraceMs < config.daemonIdleMs;

  const stop = async (reason: string): Promise<void> => {
    if (state.stopping) return;
    state.stopping = true;
    logger.info('shutdown', { reason });
    const force = setTimeout(() => process.exit(0), 10_000);
    force.unref();
    server.close();
    await dashboard?.close().catch(() => undefined);
    await mesh.shutdown().catch(() => undefined);
    rmSync(paths.socket, { force: true });
    rmSync(paths.pid, { force: true });
    process.exit(0);
  };
  const armIdle = (): void => {
    clearTimeout(state.idle);
    if (executor.named.size > 0) state.held = true;
    const grace = lastClosed();
    if (grace) void mesh.releaseIdleBrowser().catch(() => undefined);
    // Timers run before the poll phase that accepts connections: after a busy stretch a command
    // may be waiting in the backlog, so the check runs after the next poll (setImmediate).
    state.idle = setTimeout(
      () => {
        setImmediate(() => {
          if (state.inflight === 0) void stop(grace ? 'last session closed' : 'idle');
        });
      },
      grace ? config.daemonGraceMs : config.daemonIdleMs,
    );
  };

  const connection = (socket: Socket): void => {
    // Counted per connection until it closes ('close' fires once, whatever ended it), so a
    // command in progress, however long, is never cut by the idle exit.
    state.inflight++;
    clearTimeout(state.idle);
    socket.once('close', () => {
      state.inflight--;
      if (state.inflight === 0) armIdle();
    });
    readRequest(socket)
      .then(async (line) => {
        const argv = isArgvRequest(line) ? readArgvRequest(line) : undefined;
        if (argv && 'answer' in argv) return writeLine(socket, argv.answer);
        const request = argv ? argv.request : (line as CliRequest | undefined);
        const response = await handle(request);
        await writeLine(socket, argv ? renderResponse(response, argv.json) : response);
        if (request?.action.kind === 'daemon' && request.action.action === 'stop') void stop('stop');
      })
      .catch(() => socket.destroy());
  };
  const handle = async (request: CliRequest | undefined): Promise<CliResponse> => {
    if (!request) return { ok: false, code: 'INVALID_ARGUMENT', message: 'unreadable request' };
    if (request.action.kind === 'daemon')
      return status(request.action.action === 'stop' ? 'stopping' : 'running');
    const response = await executor.execute(request);
    return mismatch(request, startArgs, response);
  };
  /** What the daemon holds: its sessions and their tabs, its browser, and when it will exit. */
  const status = (word: string): CliResponse => {
    const infos = mesh.listSessions();
    const sessions = [...executor.named].map(([name, named]) => {
      const info = infos.find((s) => s.sessionId === named.sessionId);
      return { name, state: info?.state ?? 'closed', tabs: info?.pageCount ?? 0 };
    });
    const browser = mesh.runtimeInfo().browser;
    const exit = lastClosed()
      ? `exits ${seconds(config.daemonGraceMs)} after the last session closed`
      : `idle exit after ${seconds(config.daemonIdleMs)}`;
    const text = [
      `daemon ${word}: pid ${process.pid}, ${sessions.length} session(s)${sessions.length ? ` (${sessions.map((s) => `${s.name}: ${s.tabs} tab(s)`).join(', ')})` : ''}, ${exit}`,
      `browser: ${browser.state}${browser.browserVersion ? ` (${browser.browserVersion})` : ''}`,
      // Only this user reaches the socket: the dashboard's address, its own token included.
      ...(dashboard ? [`dashboard: ${dashboard.openUrl}`] : []),
    ].join('\n');
    return {
      ok: true,
      text,
      structured: {
        pid: process.pid,
        sessions,
        browser,
        idleMs: config.daemonIdleMs,
        graceMs: config.daemonGraceMs,
        startArgs,
        ...(dashboard ? { dashboard: dashboard.openUrl } : {}),
      },
    };
  };

  setHandler(connection);
  writeFileSync(paths.pid, `${process.pid}\n`, { mode: 0o600 });
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  armIdle();
  logger.info('ready', { reason: 'cli-daemon' });
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** Settings a later command gave that the running daemon did not start with: said, not silently ignored. */
function mismatch(request: CliRequest, startArgs: readonly string[], response: CliResponse): CliResponse {
  const asked = request.configArgs ?? [];
  if (asked.length === 0 || asked.join('\0') === startArgs.join('\0')) return response;
  return {
    ...response,
    note: 'the daemon keeps the settings it started with; apply new ones: browsermesh daemon restart <flags>',
  };
}

/** The thin client's request carries the command line as typed. */
function isArgvRequest(line: unknown): line is ArgvRequest {
  if (typeof line !== 'object' || line === null) return false;
  const { argv, cwd, env } = line as Partial<Record<keyof ArgvRequest, unknown>>;
  return (
    Array.isArray(argv) &&
    argv.every((arg) => typeof arg === 'string') &&
    typeof cwd === 'string' &&
    typeof env === 'object' &&
    env !== null
  );
}

function readRequest(socket: Socket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_LINE_BYTES) return reject(new Error('request too large'));
      const end = buffer.indexOf('\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      try {
        resolve(JSON.parse(buffer.slice(0, end)) as unknown);
      } catch {
        resolve(undefined);
      }
    });
    socket.once('error', reject);
    socket.once('end', () => resolve(undefined));
  });
}

function writeLine(socket: Socket, response: CliResponse | ArgvAnswer): Promise<void> {
  return new Promise((resolve) => {
    socket.once('close', () => resolve()); // a client that went away gets no answer, and no wait
    socket.end(`${JSON.stringify(response)}\n`, () => resolve());
  });
}
