import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentBrowser } from '../../../src/agent/agent-browser.js';
import type { AgentBrowserOptions, BrowserToolName } from '../../../src/agent/options.js';
import type { AgentTool, ToolCallContext } from '../../../src/agent/tool-types.js';
import { CHROMIUM } from '../../helpers/harness.js';

/** An AgentBrowser for tests: the test Chromium, a generous timeout. */
export function testAgentBrowser(options: AgentBrowserOptions = {}): AgentBrowser {
  return new AgentBrowser({
    executablePath: options.cdpUrl === undefined ? CHROMIUM : undefined,
    timeout: 30_000,
    ...options,
  });
}

/** Calls tools by name for one thread; `ok` fails the test on an error result. */
export class ToolDriver {
  constructor(
    private readonly browser: AgentBrowser,
    private readonly context: ToolCallContext = {},
  ) {}

  tool(name: BrowserToolName): AgentTool {
    const found = this.browser.getTools()[name];
    if (!found) throw new Error(`tool ${name} is not published`);
    return found;
  }

  /** Calls a tool; every result, success or error, must match the tool's published output schema. */
  async call(name: BrowserToolName, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const tool = this.tool(name);
    const result = await tool.execute(input, this.context);
    const checked = tool.outputSchema.safeParse(result);
    if (!checked.success)
      throw new Error(`${name} returned a result outside its output schema: ${checked.error.message}`);
    return result;
  }

  /** textContent of the element with this id, read with browser_evaluate. */
  async text(id: string): Promise<string> {
    const { value } = await this.ok<{ value: string }>('browser_evaluate', {
      script: `document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`,
      returnValue: true,
    });
    return value;
  }

  async ok<T = Record<string, unknown>>(
    name: BrowserToolName,
    input: Record<string, unknown> = {},
  ): Promise<T> {
    const result = await this.call(name, input);
    if ('error' in result) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
    return result as T;
  }

  /** Calls a tool that must fail; returns its error code. */
  async fails(
    name: BrowserToolName,
    input: Record<string, unknown> = {},
  ): Promise<{ code: string; message: string; canRetry: boolean; recoveryHint?: string }> {
    const result = await this.call(name, input);
    if (!('error' in result))
      throw new Error(`${name} should have failed but returned ${JSON.stringify(result).slice(0, 300)}`);
    return result.error as { code: string; message: string; canRetry: boolean };
  }

  /** Takes a snapshot and returns the ref of the element with this role and accessible name. */
  async ref(role: string, name: string): Promise<string> {
    const { snapshot } = await this.ok<{ snapshot: string }>('browser_snapshot', {});
    return refIn(snapshot, role, name);
  }
}

/**
 * Finds a ref in snapshot text, in each form the renderer uses: `[role @e5 flags] Name`,
 * `[role @e5 "Name"] text`, and grouped siblings `[role] @e2 Home · @e3 Cart`.
 */
export function refIn(snapshot: string, role: string, name: string): string {
  for (const line of snapshot.split('\n')) {
    for (const match of line.matchAll(/\[([\w-]+)( @e\d+)?([^\]]*)\]([^[]*)/g)) {
      const [, foundRole, ref, inner = '', after = ''] = match;
      if (foundRole !== role) continue;
      if (ref) {
        const quoted = /(?:^|\s)"([^"]*)"\s*$/.exec(inner)?.[1];
        if ((quoted ?? after.trim()) === name) return ref.trim();
        continue;
      }
      const parts = after.split(/(@e\d+)/);
      for (let i = 1; i < parts.length; i += 2) {
        if ((parts[i + 1] ?? '').replace(/\s*·\s*$/, '').trim() === name) return parts[i] ?? '';
      }
    }
  }
  throw new Error(`no [${role}] "${name}" in snapshot:\n${snapshot}`);
}

export interface RemoteChromium {
  process: ChildProcess;
  /** ws://127.0.0.1:PORT/devtools/browser/… as Chromium printed it. */
  wsEndpoint: string;
  userDataDir: string;
}

/** A Chromium this test starts itself with --remote-debugging-port=0 on 127.0.0.1 (port read from stderr). */
export async function startRemoteChromium(): Promise<RemoteChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'bm-agent-cdp-'));
  const child = spawn(
    CHROMIUM,
    [
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
  return { process: child, wsEndpoint, userDataDir };
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
  await rm(remote.userDataDir, { recursive: true, force: true });
}

/** Polls `check` until it holds (no fixed sleeps): every 50 ms, up to `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
