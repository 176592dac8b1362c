import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM } from '../../helpers/harness.js';

export interface RemoteChromium {
  process: ChildProcess;
  /** http://127.0.0.1:PORT, for connectOverCDP's HTTP discovery. */
  httpEndpoint: string;
  /** ws://127.0.0.1:PORT/devtools/browser/… as Chromium printed it. */
  wsEndpoint: string;
  userDataDir: string;
}

/** Whether this process may give a child its own mount namespace (root with CAP_SYS_ADMIN, as here). */
export function canIsolateDisk(): boolean {
  return (
    spawnSync('unshare', ['--mount', '--propagation', 'private', 'mount', '-t', 'tmpfs', 'tmpfs', '/mnt'])
      .status === 0
  );
}

/**
 * A Chromium this test starts itself with --remote-debugging-port=0 on 127.0.0.1 (port read from stderr).
 * `privateTmp`: the browser gets its own empty /tmp (a mount namespace), so like a browser on another
 * machine it cannot write where BrowserMesh reads, nor the other way round.
 */
export async function startRemoteChromium(
  options: { privateTmp?: boolean; noNetworkPrediction?: boolean } = {},
): Promise<RemoteChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'bm-remote-cdp-'));
  // The operator setup docs/security.md asks for: network prediction off in the profile, before launch.
  if (options.noNetworkPrediction) {
    await mkdir(join(userDataDir, 'Default'));
    await writeFile(
      join(userDataDir, 'Default', 'Preferences'),
      JSON.stringify({ net: { network_prediction_options: 2 } }),
    );
  }
  const [command, prefix] = options.privateTmp
    ? [
        'unshare',
        [
          '--mount',
          '--propagation',
          'private',
          'sh',
          '-c',
          'mount -t tmpfs tmpfs /tmp && exec "$@"',
          'sh',
          CHROMIUM,
        ],
      ]
    : [CHROMIUM, []];
  const child = spawn(
    command,
    [
      ...prefix,
      '--headless',
      '--no-sandbox',
      '--remote-debugging-port=0',
      '--remote-debugging-address=127.0.0.1',
      `--user-data-dir=${userDataDir}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-dev-shm-usage',
      '--no-first-run',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Should the test process end without afterAll, this Chromium must not outlive it.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const wsEndpoint = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error('Chromium did not print its DevTools endpoint')), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', () => reject(new Error('Chromium exited before listening')));
  });
  return { process: child, wsEndpoint, httpEndpoint: `http://${new URL(wsEndpoint).host}`, userDataDir };
}

export function isRunning(remote: RemoteChromium): boolean {
  return remote.process.exitCode === null && remote.process.signalCode === null;
}

/** This test started the process, so this test (and only this test) ends it, by its own handle. */
export async function stopRemoteChromium(remote: RemoteChromium): Promise<void> {
  const child = remote.process;
  if (isRunning(remote)) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  // Chromium's helper processes may still be writing the profile for a moment after the main one exits.
  await rm(remote.userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
