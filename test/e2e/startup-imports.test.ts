import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, BUNDLE_CHUNKS, CLI } from './cli-helpers.js';

/**
 * `initialize` must be answered before anything heavy is loaded: playwright-core alone
 * costs more than the rest of the server, and the MCP SDK's schemas, zod and the tools' schemas
 * together cost more than Node's own start. A resolve hook in the spawned CLI appends every package
 * and every module of the CLI's own dist/ it resolves to a file, synchronously (so whatever was
 * resolved before an answer was written is there when the answer arrives), and can hold back the
 * heavy ones until the test releases them: an answer that arrives while they are held did not wait
 * for them. The CLI is bundled (scripts/bundle-cli.mjs): a file of dist/bundle/ counts as every module
 * and package its chunks.json entry says it holds, and is held back when it holds a held package.
 */
const HELD = [
  '@modelcontextprotocol/sdk',
  'zod',
  'ajv',
  'playwright-core',
  'quickjs-emscripten',
  'hono',
  '@hono/node-server',
];

function hookFiles(): { register: string; log: string; release: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bm-imports-'));
  const hook = join(dir, 'hook.mjs');
  const log = join(dir, 'loaded.txt');
  const release = join(dir, 'release');
  writeFileSync(log, '');
  writeFileSync(
    hook,
    `import { appendFileSync, existsSync, readFileSync } from 'node:fs';
const seen = new Set();
const held = new Set(${JSON.stringify(HELD)});
const chunks = JSON.parse(readFileSync(${JSON.stringify(BUNDLE_CHUNKS)}, 'utf8'));
const report = (name) => { if (!seen.has(name)) { seen.add(name); appendFileSync(${JSON.stringify(log)}, name + '\\n'); } };
const released = async () => { while (!existsSync(${JSON.stringify(release)})) await new Promise((r) => setTimeout(r, 20)); };
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const pkg = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(resolved.url);
  const chunk = /\\/dist\\/bundle\\/([^/]+\\.js)$/.exec(resolved.url);
  const holds = pkg ? { modules: [], packages: [pkg[1]] } : chunk ? chunks[chunk[1]] : undefined;
  if (holds?.packages.some((name) => held.has(name))) await released();
  if (holds) { holds.packages.forEach(report); holds.modules.forEach((own) => report('dist:' + own)); }
  else { const own = /\\/dist\\/((?:[^/]+\\/)?[^/]+)\\.js$/.exec(resolved.url); if (own) report('dist:' + own[1]); }
  return resolved;
}
`,
  );
  const register = join(dir, 'register.mjs');
  // The resolve hook sees ESM imports only; packages loaded with require() (playwright-core is) are
  // reported from the CommonJS loader (reported, not held: require cannot wait). A package.json
  // read for a version loads no code and is not reported.
  writeFileSync(
    register,
    `import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(pathToFileURL(hook).href)});
const load = Module._load;
Module._load = function (request, ...rest) {
  const pkg = /^((?:@[^/.][^/]*\\/)?[^/.][^/]*)/.exec(request);
  if (pkg && !request.startsWith('node:') && !request.endsWith('/package.json')) appendFileSync(${JSON.stringify(log)}, pkg[1] + '\\n');
  return load.call(this, request, ...rest);
};
`,
  );
  return { register, log, release };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** The CLI under the hook: send a request, get back its answer and what was loaded by then. */
class HookedCli {
  private stdout = '';
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly log: string;
  private readonly releaseFile: string;

  constructor(args: string[]) {
    const { register, log, release } = hookFiles();
    this.log = log;
    this.releaseFile = release;
    this.child = spawn(process.execPath, ['--import', register, CLI, ...args], {
      env: baseEnv({ BROWSERMESH_LOG_LEVEL: 'warn' }),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
  }

  /** What was loaded when the answer to `message` arrived, and the answer. */
  request(message: { id: number }): Promise<{ loaded: string[]; answer: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to request ${message.id}`)), 60_000);
      const onData = (chunk: Buffer): void => {
        // Read first: anything loaded after the answer arrived must not count.
        const loaded = readFileSync(this.log, 'utf8').split('\n').filter(Boolean);
        this.stdout += chunk.toString();
        const id = new RegExp(`"id":${message.id}[,}]`);
        const line = this.stdout.split('\n').find((text) => id.test(text));
        if (line === undefined) return;
        clearTimeout(timer);
        this.child.stdout.off('data', onData);
        resolve({ loaded, answer: JSON.parse(line) as Record<string, unknown> });
      };
      this.child.stdout.on('data', onData);
      this.child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  }

  /** Lets the held packages load. */
  release(): void {
    writeFileSync(this.releaseFile, '');
  }

  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  kill(): void {
    this.child.kill();
  }
}

/** browser_runtime_info through the hooked CLI: it answers with its structured result. */
async function callRuntimeInfo(cli: HookedCli, id: number): Promise<{ loaded: string[] }> {
  const info = await cli.request({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'browser_runtime_info', arguments: {} },
  } as { id: number });
  expect(info.answer).toHaveProperty('result.structuredContent');
  return info;
}

let cli: HookedCli | undefined;
afterEach(() => cli?.kill());

describe('startup', () => {
  it('answers initialize while the MCP SDK, zod, playwright-core, the HTTP stack and the sandbox are held back', async () => {
    cli = new HookedCli([]);
    // Answered while every heavy package is held back: the answer does not wait for any of them.
    const { loaded, answer } = await cli.request(INITIALIZE);
    expect(answer).toMatchObject({
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'browsermesh' } },
    });
    expect(loaded).toContain('dist:cli/main');
    for (const heavy of HELD) expect(loaded).not.toContain(heavy);
    // BrowserMesh's own server modules start loading beside the early answer (their imports of the
    // held packages then wait); whether they were resolved before the answer is a race, not a claim.
    // Released, the rest of the server loads and serves the same client.
    cli.notify('notifications/initialized');
    cli.release();
    const list = await cli.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' } as { id: number });
    expect((list.answer.result as { tools: unknown[] }).tools.length).toBeGreaterThan(10);
  });

  it("begins Chromium's launch before loading the server when the client lists the tools first", async () => {
    cli = new HookedCli([]);
    cli.release();
    await cli.request(INITIALIZE);
    cli.notify('notifications/initialized');
    await cli.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' } as { id: number });
    // By the first call's answer everything is loaded; in the order it was loaded, playwright-core
    // (and so the launch, which begins right after it) came before the MCP server's own modules.
    const { loaded } = await callRuntimeInfo(cli, 3);
    expect(loaded).toContain('dist:mcp/server');
    expect(loaded.indexOf('playwright-core')).toBeGreaterThan(-1);
    expect(loaded.indexOf('playwright-core')).toBeLessThan(loaded.indexOf('dist:mcp/server'));
  });

  it('without warm-up, answers tools/list from the build-time listing and loads the tools on the first call', async () => {
    cli = new HookedCli(['--no-warm-up']);
    cli.release();
    await cli.request(INITIALIZE);
    cli.notify('notifications/initialized');
    // A ping is answered by the SDK server itself: by then the server is up, its tools still unloaded.
    const ping = await cli.request({ jsonrpc: '2.0', id: 2, method: 'ping' } as { id: number });
    expect(ping.answer).toMatchObject({ result: {} });
    expect(ping.loaded).toContain('dist:mcp/server');
    expect(ping.loaded).not.toContain('dist:tools/index');
    expect(ping.loaded).not.toContain('playwright-core');
    const list = await cli.request({ jsonrpc: '2.0', id: 3, method: 'tools/list' } as { id: number });
    expect((list.answer.result as { tools: unknown[] }).tools.length).toBeGreaterThan(10);
    expect(list.loaded).not.toContain('dist:tools/index');
    expect(list.loaded).not.toContain('playwright-core');
    const info = await callRuntimeInfo(cli, 4);
    expect(info.loaded).toContain('dist:tools/index');
  });

  it('answers tools/list from the build-time listing while playwright-core, zod and the SDK are held back', async () => {
    cli = new HookedCli([]);
    await cli.request(INITIALIZE);
    cli.notify('notifications/initialized');
    const early = await cli.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' } as { id: number });
    for (const heavy of HELD) expect(early.loaded).not.toContain(heavy);
    expect(early.loaded).not.toContain('dist:tools/index');
    const earlyTools = (early.answer.result as { tools: Array<{ name: string }> }).tools;
    expect(earlyTools.map((tool) => tool.name)).toContain('browser_navigate');
    // Released, the server proper answers the same listing, and a call works (the answer the
    // server gives to the early-answered request is not sent twice).
    cli.release();
    const late = await cli.request({ jsonrpc: '2.0', id: 3, method: 'tools/list' } as { id: number });
    expect(late.answer.result).toEqual(early.answer.result);
    await callRuntimeInfo(cli, 4);
  });
});
