/**
 * The face contract: one page, the same calls and the same error cases on every face that offers
 * the operation — MCP (official SDK client), AgentBrowser (its class) and code mode's `browser_run`
 * steps — give the same code, details, dialog notes and secret redaction, and one operationId per
 * call that the result or error, the log line and the dashboard activity share.
 */
import type { Config } from '../../src/config/load.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import { createLogger } from '../../src/engine/logger.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { refIn, testAgentBrowser } from './support/agent.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const SECRET = 'Hunter2-face-contract-77';

/** Every case's element, each on a fresh load: nothing one case does reaches the next. */
const PAGE = `<!doctype html><title>faces</title>
<button id="off" disabled>Disabled</button>
<div style="position:relative;width:220px;height:40px">
  <button style="position:absolute;inset:0">Covered</button>
  <div style="position:absolute;inset:0;background:#fff" aria-hidden="true"></div>
</div>
<button onclick="alert('Hi')">Alert</button>
<button onclick="document.getElementById('n').textContent = 'clicked'">Plain</button>
<label>Name <input id="name"></label>
<p id="n"></p><p id="echo"></p>
<script>document.getElementById('name').addEventListener('input', (e) => {
  document.getElementById('echo').textContent = 'typed ' + e.target.value;
});</script>`;

type Outcome =
  | { ok: true; operationId: string; fields: Record<string, unknown> }
  | {
      ok: false;
      operationId: string | undefined;
      code: string;
      details?: Record<string, unknown> | undefined;
    };

interface Face {
  name: string;
  /** Loads the page and returns its snapshot text (the refs). */
  open(): Promise<string>;
  click(ref: string): Promise<Outcome>;
  type(ref: string, text: string): Promise<Outcome>;
  /** A read after typing: everything the face returns for it, as text. */
  readBack(): Promise<string>;
}

let site: FixtureServer;
let mcp: McpHarness;
let agent: AgentBrowser;
let address: { sessionId: string; pageId: string };
const agentLog: string[] = [];

function fromMcp(result: Awaited<ReturnType<McpHarness['call']>>): Outcome {
  if (result.isError) {
    const { error } = JSON.parse(textOf(result)) as {
      error: { code: string; details?: Record<string, unknown>; operationId?: string };
    };
    return { ok: false, operationId: error.operationId, code: error.code, details: error.details };
  }
  const { operationId, ...fields } = result.structuredContent as Record<string, unknown>;
  return { ok: true, operationId: String(operationId), fields };
}

function fromAgent(result: Record<string, unknown>): Outcome {
  if ('error' in result) {
    const error = result.error as { code: string; details?: Record<string, unknown>; operationId?: string };
    return { ok: false, operationId: error.operationId, code: error.code, details: error.details };
  }
  const { operationId, ...fields } = result;
  return { ok: true, operationId: String(operationId), fields };
}

const mcpFace: Face = {
  name: 'mcp',
  async open() {
    await mcp.ok('browser_navigate', { ...address, url: site.url('/faces') });
    return (await mcp.ok<{ snapshot: string }>('browser_snapshot', address)).snapshot;
  },
  click: async (ref) => fromMcp(await mcp.call('browser_click', { ...address, ref })),
  type: async (ref, text) => fromMcp(await mcp.call('browser_type', { ...address, ref, text })),
  readBack: async () => JSON.stringify(await mcp.call('browser_snapshot', address)),
};

const agentFace: Face = {
  name: 'agent',
  async open() {
    const tools = agent.getTools();
    await tools.browser_goto?.execute({ url: site.url('/faces') });
    const shot = (await tools.browser_snapshot?.execute({})) as { snapshot: string };
    return shot.snapshot;
  },
  click: async (ref) => fromAgent((await agent.getTools().browser_click?.execute({ ref })) ?? {}),
  type: async (ref, text) => fromAgent((await agent.getTools().browser_type?.execute({ ref, text })) ?? {}),
  readBack: async () => JSON.stringify(await agent.getTools().browser_snapshot?.execute({})),
};

/** browser_run's typed steps: a failed step reports its code; the run's id is the call's. */
const runFace: Face = {
  name: 'browser_run',
  open: mcpFace.open,
  async click(ref) {
    const result = await mcp.call('browser_run', { ...address, actions: [{ action: 'click', ref }] });
    if (result.isError) return fromMcp(result);
    const out = result.structuredContent as {
      operationId: string;
      failed?: { error: { code: string } };
      dialogs?: string[];
    };
    if (out.failed) return { ok: false, operationId: out.operationId, code: out.failed.error.code };
    return { ok: true, operationId: out.operationId, fields: out.dialogs ? { dialogs: out.dialogs } : {} };
  },
  async type(ref, text) {
    const result = await mcp.call('browser_run', { ...address, actions: [{ action: 'type', ref, text }] });
    return fromMcp(result);
  },
  readBack: async () =>
    JSON.stringify(
      await mcp.call('browser_run', {
        ...address,
        code: "return await page.locator('#echo').textContent();",
      }),
    ),
};

const FACES = [mcpFace, agentFace, runFace];

// The file's settings, on its own copy of the fixtures: files share one module graph per worker.
const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  secrets: { PW: SECRET },
  tools: ['core', 'code'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  site.route('/faces', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  mcp = harness;
  address = await mcp.session();
  agent = testAgentBrowser({
    secrets: { PW: SECRET },
    logger: createLogger('debug', (line) => agentLog.push(line)),
  });
});
test.afterAll(async () => {
  await agent?.close();
});

/** Runs `call` on every face and returns the outcomes by face name. */
async function onEveryFace(
  faces: readonly Face[],
  call: (face: Face, snapshot: string) => Promise<Outcome>,
): Promise<Record<string, Outcome>> {
  const outcomes: Record<string, Outcome> = {};
  for (const face of faces) outcomes[face.name] = await call(face, await face.open());
  return outcomes;
}

function expectError(outcome: Outcome | undefined): Extract<Outcome, { ok: false }> {
  if (!outcome || outcome.ok) throw new Error(`expected an error, got ${JSON.stringify(outcome)}`);
  expect(outcome.operationId).toMatch(/^op_/);
  return outcome;
}

describe('face contract', () => {
  test('a disabled button: the same code and details, and an operationId, on every face', async () => {
    const out = await onEveryFace(FACES, (face, snap) => face.click(refIn(snap, 'button', 'Disabled')));
    const [mcpError, agentError, runError] = FACES.map((face) => expectError(out[face.name]));
    expect(mcpError?.code).toBe('ELEMENT_NOT_INTERACTABLE');
    expect(mcpError?.details).toMatchObject({ reason: 'disabled' });
    expect(agentError).toMatchObject({ code: mcpError?.code, details: mcpError?.details });
    expect(runError?.code).toBe(mcpError?.code);
  });

  test('a covered button: the same code and details on every face', async () => {
    const out = await onEveryFace(FACES, (face, snap) => face.click(refIn(snap, 'button', 'Covered')));
    const [mcpError, agentError, runError] = FACES.map((face) => expectError(out[face.name]));
    expect(mcpError?.code).toBe('ELEMENT_NOT_INTERACTABLE');
    expect(agentError).toMatchObject({ code: mcpError?.code, details: mcpError?.details });
    expect(runError?.code).toBe(mcpError?.code);
  });

  test('a stale ref (the page loaded again): the same code on every face', async () => {
    const out = await onEveryFace(FACES, async (face, snap) => {
      const ref = refIn(snap, 'button', 'Plain');
      await face.open();
      return face.click(ref);
    });
    const [mcpError, agentError, runError] = FACES.map((face) => expectError(out[face.name]));
    expect(mcpError?.code).toBe('STALE_ELEMENT_REFERENCE');
    // Each face's page counted its own refs: the details agree but for the ref's number.
    expect(agentError).toMatchObject({
      code: mcpError?.code,
      details: { ...mcpError?.details, ref: expect.stringMatching(/^@e\d+$/) },
    });
    expect(runError?.code).toBe(mcpError?.code);
  });

  test('ref " @e1 " is an INVALID_ARGUMENT naming the field on every face', async () => {
    const out = await onEveryFace(FACES, (face) => face.click(' @e1 '));
    const [mcpError, agentError, runError] = FACES.map((face) => expectError(out[face.name]));
    expect(mcpError).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(agentError).toMatchObject({ code: 'INVALID_ARGUMENT', details: mcpError?.details });
    expect(runError?.code).toBe('INVALID_ARGUMENT');
  });

  test("alert('Hi') is reported the same way on every face", async () => {
    const out = await onEveryFace(FACES, (face, snap) => face.click(refIn(snap, 'button', 'Alert')));
    for (const face of FACES) {
      const outcome = out[face.name];
      if (!outcome?.ok) throw new Error(`${face.name}: ${JSON.stringify(outcome)}`);
      expect(outcome.operationId).toMatch(/^op_/);
      expect(outcome.fields.dialogs, face.name).toEqual(['alert "Hi" (dismissed)']);
    }
  });

  test('a --secrets value typed by name never comes back, on any face', async () => {
    for (const face of FACES) {
      const snap = await face.open();
      const typed = await face.type(refIn(snap, 'textbox', 'Name'), '{{secret:PW}}');
      expect(typed.ok, `${face.name}: ${JSON.stringify(typed)}`).toBe(true);
      const read = await face.readBack();
      expect(read, face.name).not.toContain(SECRET);
      expect(read, face.name).toContain('{{secret:PW}}');
    }
  });

  test("one operationId: AgentBrowser's result, error and log line share it; MCP's activity has it", async () => {
    const snap = await agentFace.open();
    const failed = expectError(await agentFace.click(refIn(snap, 'button', 'Disabled')));
    const done = await agentFace.click(refIn(snap, 'button', 'Plain'));
    if (!done.ok) throw new Error(JSON.stringify(done));
    for (const id of [failed.operationId, done.operationId]) {
      const lines = agentLog.filter((line) => line.includes(`"operationId":"${id}"`));
      expect(lines.map((line) => (JSON.parse(line) as { event: string }).event)).toContain(
        id === done.operationId ? 'tool_call' : 'tool_error',
      );
    }
    const mcpSnap = await mcpFace.open();
    const mcpFailed = expectError(await mcpFace.click(refIn(mcpSnap, 'button', 'Disabled')));
    const activity = mcp.mesh.activity.recent(address.sessionId);
    expect(activity.find((op) => op.operationId === mcpFailed.operationId)).toMatchObject({
      tool: 'browser_click',
      errorCode: 'ELEMENT_NOT_INTERACTABLE',
    });
  });
});
