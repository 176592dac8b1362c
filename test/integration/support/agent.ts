import { AgentBrowser } from '../../../src/agent/agent-browser.js';
import type { AgentBrowserOptions, BrowserToolName } from '../../../src/agent/options.js';
import type { AgentTool, ToolCallContext } from '../../../src/agent/tool-types.js';
import { CHROMIUM } from '../../helpers/harness.js';

/** An AgentBrowser for tests: the test Chromium, a generous timeout, every tool it has. */
export function testAgentBrowser(options: AgentBrowserOptions = {}): AgentBrowser {
  return new AgentBrowser({
    executablePath: options.cdpUrl === undefined ? CHROMIUM : undefined,
    timeout: 30_000,
    extraTools: 'all',
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
    // Every result carries its call's operationId (as over MCP); the rest is what the tests compare.
    const { operationId, ...rest } = result;
    if (typeof operationId !== 'string') throw new Error(`${name} returned no operationId`);
    return rest as T;
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

export {
  isRunning,
  startRemoteChromium,
  stopRemoteChromium,
  type RemoteChromium,
} from './remote-chromium.js';

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
