/**
 * Ten error cases through six faces: MCP (official SDK client), AgentBrowser, the library
 * (`createMeshOperations`), the shell CLI's command executor (argv parsed as the shell parses it),
 * `browser_run` steps and code mode. Every face that offers a case gives the same code and the
 * same details; code mode and steps add where the run stood, never in place of the details.
 *
 * Where a face cannot meet a case by design, the table says why: AgentBrowser and the CLI address
 * sessions by thread or name and open one on demand (no "closed session"), AgentBrowser takes no
 * URL policy, and the CLI refuses an unknown flag as a usage error before any call (exit 2).
 */
import type { Config } from '../../src/config/load.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import { BrowserMeshError } from '../../src/errors.js';
import { createMeshOperations, type MeshOperations } from '../../src/library/operations.js';
import { actionOf, parseCommand } from '../../src/cli/face/commands.js';
import { CliExecutor } from '../../src/cli/face/executor.js';
import { silentLogger } from '../../src/engine/logger.js';
import { createServices } from '../../src/tools/services.js';
import { ALL_TOOLS } from '../../src/tools/index.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { refIn, testAgentBrowser } from './support/agent.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const SECRET = 'Hunter2-face-cases-91';

const PAGE = `<!doctype html><title>cases</title>
<div style="position:relative;width:220px;height:40px">
  <button style="position:absolute;inset:0">Covered</button>
  <div id="lid" style="position:absolute;inset:0;background:#fff" aria-hidden="true"></div>
</div>
<button onclick="alert('Hi')">Alert</button>
<button onclick="document.getElementById('n').textContent = 'clicked'">Plain</button>
<button>Twin</button><button>Twin</button>
<label>Name <input id="name"></label>
<p id="n"></p><p id="echo"></p>
<script>document.getElementById('name').addEventListener('input', (e) => {
  document.getElementById('echo').textContent = 'typed ' + e.target.value;
});</script>`;

/** One call, said once; each face words it its own way. */
type Op =
  | { op: 'click'; ref: string; extra?: Record<string, unknown> }
  | { op: 'clickTwin' }
  | { op: 'type'; ref: string; text: string }
  | { op: 'goto'; url: string }
  | { op: 'waitText'; text: string; timeoutMs: number }
  | { op: 'readEcho' };

type Outcome = { ok: true; text: string } | { ok: false; code: string; details: Record<string, unknown> };

interface Face {
  name: string;
  /** Loads the page in the face's session and returns its snapshot (the refs). */
  open(): Promise<string>;
  run(op: Op): Promise<Outcome>;
  /** Ends the face's session, where the face addresses sessions by id. */
  closeSession?(): Promise<void>;
}

let site: FixtureServer;
let mcp: McpHarness;
let agent: AgentBrowser;
let ops: MeshOperations;
let cli: CliExecutor;
const at = { mcp: { sessionId: '', pageId: '' }, lib: { sessionId: '', pageId: '' } };

/** Details as every face should carry them: without the call's own id. */
function detailsOf(value: unknown): Record<string, unknown> {
  const { operationId: _id, ...rest } = (value ?? {}) as Record<string, unknown>;
  return rest;
}

function fromMcp(result: Awaited<ReturnType<McpHarness['call']>>): Outcome {
  if (!result.isError) return { ok: true, text: textOf(result) };
  const { error } = JSON.parse(textOf(result)) as { error: { code: string; details?: unknown } };
  return { ok: false, code: error.code, details: detailsOf(error.details) };
}

async function caught(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, text: JSON.stringify(await call()) };
  } catch (error) {
    if (error instanceof BrowserMeshError)
      return { ok: false, code: error.code, details: detailsOf(error.details) };
    throw error;
  }
}

function mcpArgs(op: Op): [string, Record<string, unknown>] {
  switch (op.op) {
    case 'click':
      return ['browser_click', { ref: op.ref, ...op.extra }];
    case 'clickTwin':
      return ['browser_click', { locator: { role: 'button', name: 'Twin' } }];
    case 'type':
      return ['browser_type', { ref: op.ref, text: op.text }];
    case 'goto':
      return ['browser_navigate', { url: op.url }];
    case 'waitText':
      return ['browser_wait', { text: op.text, timeoutMs: op.timeoutMs }];
    case 'readEcho':
      return ['browser_snapshot', {}];
  }
}

const mcpFace: Face = {
  name: 'mcp',
  async open() {
    await mcp.ok('browser_navigate', { ...at.mcp, url: site.url('/face-cases') });
    return (await mcp.ok<{ snapshot: string }>('browser_snapshot', at.mcp)).snapshot;
  },
  run: async (op) => {
    const [tool, args] = mcpArgs(op);
    return fromMcp(await mcp.call(tool, { ...at.mcp, ...args }));
  },
  async closeSession() {
    await mcp.ok('browser_session_close', { sessionId: at.mcp.sessionId });
  },
};

const libraryFace: Face = {
  name: 'library',
  async open() {
    await ops.navigate({ ...at.lib, url: site.url('/face-cases') });
    return (await ops.snapshot({ ...at.lib })).snapshot;
  },
  run: (op) => {
    const [tool, args] = mcpArgs(op);
    const method = {
      browser_click: 'click',
      browser_type: 'type',
      browser_navigate: 'navigate',
      browser_wait: 'wait',
      browser_snapshot: 'snapshot',
    }[tool] as 'click';
    return caught(() => ops[method]({ ...at.lib, ...args } as Parameters<MeshOperations['click']>[0]));
  },
  async closeSession() {
    await ops.closeSession({ sessionId: at.lib.sessionId });
  },
};

const agentFace: Face = {
  name: 'agent',
  async open() {
    await agent.getTools().browser_goto?.execute({ url: site.url('/face-cases') });
    return ((await agent.getTools().browser_snapshot?.execute({})) as { snapshot: string }).snapshot;
  },
  async run(op) {
    const tools = agent.getTools();
    const call = async (name: keyof typeof tools, args: Record<string, unknown>): Promise<Outcome> => {
      const out = ((await tools[name]?.execute(args)) ?? {}) as Record<string, unknown>;
      if (!('error' in out)) return { ok: true, text: JSON.stringify(out) };
      const error = out.error as { code: string; details?: unknown };
      return { ok: false, code: error.code, details: detailsOf(error.details) };
    };
    switch (op.op) {
      case 'click':
        return call('browser_click', { ref: op.ref, ...op.extra });
      case 'type':
        return call('browser_type', { ref: op.ref, text: op.text });
      case 'goto':
        return call('browser_goto', { url: op.url });
      case 'waitText':
        return call('browser_wait', { text: op.text, timeout: op.timeoutMs });
      case 'readEcho':
        return call('browser_snapshot', {});
      case 'clickTwin':
        throw new Error('AgentBrowser clicks by ref only (seed 000)');
    }
  },
};

const cliFace: Face = {
  name: 'cli',
  async open() {
    await cliRun(['goto', site.url('/face-cases')]);
    const snap = await cliRun(['snapshot', '--json']);
    if (!snap.ok) throw new Error(JSON.stringify(snap));
    return (JSON.parse(snap.text) as { snapshot: string }).snapshot;
  },
  run(op) {
    switch (op.op) {
      case 'click':
        return cliRun(['click', op.ref, ...Object.keys(op.extra ?? {}).map((k) => `--${k}`)]);
      case 'clickTwin':
        return cliRun(['click', '--role', 'button', '--name', 'Twin']);
      case 'type':
        return cliRun(['type', op.ref, op.text]);
      case 'goto':
        return cliRun(['goto', op.url]);
      case 'waitText':
        return cliRun(['wait', '--text', op.text, '--timeout', String(op.timeoutMs)]);
      case 'readEcho':
        return cliRun(['snapshot']);
    }
  },
};

/** One shell command as the daemon runs it: parsed as the client parses argv, then executed. */
async function cliRun(argv: string[]): Promise<Outcome> {
  let action;
  try {
    action = actionOf(parseCommand(argv, process.cwd(), () => undefined));
  } catch (error) {
    return { ok: false, code: 'USAGE', details: { message: (error as Error).message } };
  }
  if (action.kind === 'skill-install' || action.kind === 'daemon-start' || action.kind === 'daemon-restart')
    throw new Error(`${argv[0]} runs in the client`);
  const answer = await cli.execute({ session: 'cases', action });
  if (answer.ok) return { ok: true, text: JSON.stringify(answer.structured ?? answer.text) };
  return {
    ok: false,
    code: answer.code,
    details: detailsOf((answer.structured as { details?: unknown })?.details),
  };
}

/** browser_run steps: a step's failure carries the step's own error. */
const stepFace: Face = {
  name: 'step',
  open: mcpFace.open,
  async run(op) {
    const [tool, args] = mcpArgs(op);
    const action = {
      browser_click: 'click',
      browser_type: 'type',
      browser_navigate: 'goto',
      browser_wait: 'wait',
      browser_snapshot: 'snapshot',
    }[tool];
    // A step has no deadline of its own: the batch's bounds it.
    const { timeoutMs, ...stepArgs } = args;
    const bound = timeoutMs === undefined ? {} : { timeoutMs };
    const result = await mcp.call('browser_run', { ...at.mcp, ...bound, actions: [{ action, ...stepArgs }] });
    if (result.isError) return fromMcp(result);
    const out = result.structuredContent as { failed?: { error: { code: string; details?: unknown } } };
    if (out.failed)
      return { ok: false, code: out.failed.error.code, details: detailsOf(out.failed.error.details) };
    return { ok: true, text: textOf(result) };
  },
  closeSession: () => mcpFace.closeSession?.() ?? Promise.resolve(),
};

/** Code mode: a script's failed call is its error, with the call's details and the script's position. */
const codeFace: Face = {
  name: 'code',
  open: mcpFace.open,
  async run(op) {
    const q = JSON.stringify;
    const code = {
      click: op.op === 'click' ? `await page.ref(${q(op.ref)}).click(${op.extra ? q(op.extra) : ''});` : '',
      clickTwin: `await page.getByRole('button', { name: 'Twin' }).click();`,
      type: op.op === 'type' ? `await page.ref(${q(op.ref)}).type(${q(op.text)});` : '',
      goto: op.op === 'goto' ? `await page.goto(${q(op.url)});` : '',
      waitText:
        op.op === 'waitText'
          ? `await page.getByText(${q(op.text)}).waitFor({ timeout: ${op.timeoutMs} });`
          : '',
      readEcho: `return await page.locator('#echo').textContent();`,
    }[op.op];
    const outcome = fromMcp(await mcp.call('browser_run', { ...at.mcp, code }));
    if (outcome.ok) return outcome;
    // The script's position rides beside the call's own details.
    const {
      kind: _k,
      operations: _o,
      line: _l,
      column: _c,
      stepIndex: _i,
      stepOp: _s,
      hostCode: _h,
      logs: _g,
      ...own
    } = outcome.details;
    return { ...outcome, details: own };
  },
  closeSession: () => mcpFace.closeSession?.() ?? Promise.resolve(),
};

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  secrets: { PW: SECRET },
  tools: ['core', 'code'],
  blockedAddresses: ['127.0.0.2/32'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  site.route('/face-cases', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  mcp = harness;
  at.mcp = await mcp.session();
  ops = createMeshOperations(mcp.mesh);
  const created = await ops.createSession({});
  at.lib = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
  const config = mcp.mesh.config;
  const tools = new Map(ALL_TOOLS.map((t) => [t.name, t]));
  cli = new CliExecutor(mcp.mesh, createServices(config), tools, silentLogger, () => 'not served');
  agent = testAgentBrowser({ secrets: { PW: SECRET } });
});
test.afterAll(async () => {
  await agent?.close();
});

const ALL = [mcpFace, agentFace, libraryFace, cliFace, stepFace, codeFace];

/** Opens the page on each face, runs the case's call, and returns the outcomes by face. */
async function onFaces(faces: readonly Face[], call: (snap: string, face: Face) => Promise<Outcome>) {
  const out: Record<string, Outcome> = {};
  for (const face of faces) out[face.name] = await call(await face.open(), face);
  return out;
}

/** Every face failed with the same code and the same details (refs and fields normalised). */
function expectSame(out: Record<string, Outcome>, code: string, omit: readonly string[] = []) {
  // `issues` counts a schema's problems; code mode checks one argument at a time.
  const normalise = (d: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(anyRef(unprefixed(d))).filter(([key]) => key !== 'issues' && !omit.includes(key)),
    );
  const seen = Object.entries(out).map(([face, o]) => {
    if (o.ok) throw new Error(`${face} succeeded: ${o.text.slice(0, 300)}`);
    return [face, o.code, normalise(o.details)] as const;
  });
  const [, , first] = seen[0] ?? [];
  for (const [face, got, details] of seen) {
    const said = `${face}: ${got} ${JSON.stringify(details)}; first face: ${JSON.stringify(first)}`;
    expect(got, said).toBe(code);
    expect(details, said).toEqual(first);
  }
  return first;
}

/** A failed step's field is prefixed with its place in the batch: `actions.0.ref` is `ref`. */
const unprefixed = (d: Record<string, unknown>) =>
  typeof d.field === 'string' ? { ...d, field: d.field.replace(/^actions\.\d+\./, '') } : d;
/** Each face's page counted its own refs. */
const anyRef = (d: Record<string, unknown>) =>
  JSON.parse(JSON.stringify(d).replace(/@e\d+/g, '@e?')) as Record<string, unknown>;

describe('ten cases, six faces', () => {
  test('a bad ref', async () => {
    const out = await onFaces(
      ALL.filter((f) => f !== cliFace),
      (_snap, face) => face.run({ op: 'click', ref: ' @e1 ' }),
    );
    expect(expectSame(out, 'INVALID_ARGUMENT')).toMatchObject({ field: 'ref' });
    // The shell reads a word that is no ref as a usage error, before any call.
    expect(await cliFace.run({ op: 'click', ref: ' @e1 ' })).toMatchObject({ ok: false, code: 'USAGE' });
  });

  test('a stale ref', async () => {
    const out = await onFaces(ALL, async (snap, face) => {
      const ref = refIn(snap, 'button', 'Plain');
      await face.open();
      return face.run({ op: 'click', ref });
    });
    expectSame(out, 'STALE_ELEMENT_REFERENCE');
  });

  test('a covered element', async () => {
    const out = await onFaces(ALL, (snap, face) =>
      face.run({ op: 'click', ref: refIn(snap, 'button', 'Covered') }),
    );
    expect(expectSame(out, 'ELEMENT_NOT_INTERACTABLE')).toMatchObject({ reason: 'covered' });
  });

  test('a dialog raised by the action', async () => {
    const out = await onFaces(ALL, (snap, face) =>
      face.run({ op: 'click', ref: refIn(snap, 'button', 'Alert') }),
    );
    for (const [face, o] of Object.entries(out)) {
      expect(o.ok, face).toBe(true);
      if (o.ok) expect(o.text, face).toMatch(/alert \\?"Hi\\?" \(dismissed\)/);
    }
  });

  test('a timeout', async () => {
    const out = await onFaces(ALL, (_snap, face) =>
      face.run({ op: 'waitText', text: 'Never shows', timeoutMs: 600 }),
    );
    // A step has no deadline of its own: it reports the batch's, less the time kept to report.
    expectSame(out, 'OPERATION_TIMEOUT', ['timeoutMs']);
    expect(out.mcp).toMatchObject({ details: { timeoutMs: 600 } });
  });

  test('an unknown field', async () => {
    const faces = ALL.filter((f) => f !== cliFace);
    const out = await onFaces(faces, (snap, face) =>
      face.run({ op: 'click', ref: refIn(snap, 'button', 'Plain'), extra: { bogus: true } }),
    );
    expect(expectSame(out, 'INVALID_ARGUMENT')).toMatchObject({ field: 'bogus' });
    // The shell refuses an unknown flag before any call, naming it (and exit 2, cli tests).
    const shell = await cliFace.run({ op: 'click', ref: '@e1', extra: { bogus: true } });
    expect(shell).toMatchObject({
      ok: false,
      code: 'USAGE',
      details: { message: expect.stringContaining('--bogus') as unknown },
    });
  });

  test('a secret argument: typed by name, never read back; an unknown name refused alike', async () => {
    for (const face of ALL) {
      const snap = await face.open();
      const typed = await face.run({
        op: 'type',
        ref: refIn(snap, 'textbox', 'Name'),
        text: '{{secret:PW}}',
      });
      expect(typed.ok, `${face.name}: ${JSON.stringify(typed)}`).toBe(true);
      const read = await face.run({ op: 'readEcho' });
      expect(JSON.stringify(read), face.name).not.toContain(SECRET);
    }
    const out = await onFaces(ALL, (snap, face) =>
      face.run({ op: 'type', ref: refIn(snap, 'textbox', 'Name'), text: '{{secret:NOPE}}' }),
    );
    expectSame(out, 'INVALID_ARGUMENT');
  });

  test('a blocked URL (127.0.0.2 configured as blocked)', async () => {
    const port = new URL(site.origin).port;
    const faces = ALL.filter((f) => f !== agentFace);
    const out = await onFaces(faces, (_snap, face) =>
      face.run({ op: 'goto', url: `http://127.0.0.2:${port}/` }),
    );
    expect(expectSame(out, 'NAVIGATION_BLOCKED')).toMatchObject({ reason: 'blocked_address' });
  });

  test('an ambiguous locator', async () => {
    const faces = ALL.filter((f) => f !== agentFace);
    const out = await onFaces(faces, (_snap, face) => face.run({ op: 'clickTwin' }));
    expectSame(out, 'LOCATOR_AMBIGUOUS');
  });

  // Last: it ends the sessions the other cases use.
  test('a closed session', async () => {
    const out: Record<string, Outcome> = {};
    await libraryFace.closeSession?.();
    out.library = await libraryFace.run({ op: 'click', ref: '@e1' });
    await mcpFace.closeSession?.();
    for (const face of [mcpFace, stepFace, codeFace])
      out[face.name] = await face.run({ op: 'click', ref: '@e1' });
    const codes = new Set(Object.values(out).map((o) => (o.ok ? 'ok' : o.code)));
    expect([...codes]).toHaveLength(1);
    expect([...codes][0]).toMatch(/^SESSION_/);
  });
});
