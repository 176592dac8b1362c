/**
 * The element-action table (src/operations/journal/element-actions.ts): every row reaches every face
 * from its row alone — MCP, the library, the shell CLI's executor, `browser_run` steps and code mode
 * — and the exported test repeats it. `blur`, the row added last, also does what a user wants it for:
 * a field's validation on leaving it runs, and the call returns once it has.
 */
import type { Config } from '../../src/config/load.js';
import { actionOf, parseCommand } from '../../src/cli/face/commands.js';
import { CliExecutor } from '../../src/cli/face/executor.js';
import { silentLogger } from '../../src/engine/logger.js';
import { createMeshOperations, type MeshOperations } from '../../src/library/operations.js';
import {
  ELEMENT_ACTION_KINDS,
  ELEMENT_ACTIONS,
  kebabName,
  snakeName,
} from '../../src/operations/journal/element-actions.js';
import { ALL_TOOLS } from '../../src/tools/index.js';
import { createServices } from '../../src/tools/services.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { type McpHarness, textOf } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';

const PAGE = `<!doctype html><title>rows</title>
<label><input type="checkbox" id="agree"> Agree</label>
<p id="log"></p>
<script>
  const box = document.getElementById('agree');
  for (const type of ['mouseover', 'focus', 'blur', 'change'])
    box.addEventListener(type, () => { document.getElementById('log').textContent += type + ' '; });
</script>`;

const AGREE = { locator: { label: 'Agree' } };
const ERROR_TEXT = 'Enter an email address with an @';

let site: FixtureServer;
let mcp: McpHarness;
let ops: MeshOperations;
let cli: CliExecutor;

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'code', 'files'],
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  site.route('/rows', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  mcp = harness;
  ops = createMeshOperations(mcp.mesh);
  const tools = new Map(ALL_TOOLS.map((t) => [t.name, t]));
  cli = new CliExecutor(mcp.mesh, createServices(mcp.mesh.config), tools, silentLogger, () => 'not served');
});

/** One shell command as the daemon runs it: parsed as the client parses argv, then executed. */
async function shell(session: string, argv: string[]): Promise<{ ok: boolean; text: string }> {
  const action = actionOf(parseCommand(argv, process.cwd(), () => undefined));
  if (action.kind === 'skill-install' || action.kind === 'daemon-start' || action.kind === 'daemon-restart')
    throw new Error(`${argv[0]} runs in the client`);
  const answer = await cli.execute({ session, action });
  return { ok: answer.ok, text: JSON.stringify(answer.ok ? answer.structured : answer) };
}

/** The page's own record of what happened to the checkbox. */
async function logOf(at: { sessionId: string; pageId: string }): Promise<string> {
  const { text } = await ops.visibleText({ ...at, scope: { locator: { css: '#log' } } });
  return text;
}

describe('the element-action table', () => {
  test('every row runs on MCP, steps, code mode, the library and the CLI, and is exported', async () => {
    const at = await mcp.session();
    await mcp.ok('browser_navigate', { ...at, url: site.url('/rows') });
    for (const kind of ELEMENT_ACTION_KINDS) await mcp.ok(`browser_${snakeName(kind)}`, { ...at, ...AGREE });
    expect(await logOf(at)).toMatch(/mouseover .*focus .*change .*blur/);

    const steps = await mcp.ok<{ completed: number }>('browser_run', {
      ...at,
      actions: ELEMENT_ACTION_KINDS.map((action) => ({ action, ...AGREE })),
    });
    expect(steps.completed).toBe(ELEMENT_ACTION_KINDS.length);

    // Code mode: the row's Playwright name where it is the row's (generated), else Playwright's own.
    const calls = ELEMENT_ACTION_KINDS.map(
      (kind) => `await page.getByLabel('Agree').${ELEMENT_ACTIONS[kind].playwright}();`,
    );
    const viaPage = ELEMENT_ACTION_KINDS.filter((kind) => ELEMENT_ACTIONS[kind].playwright === kind).map(
      (kind) => `await page.${kind}('#agree');`,
    );
    const ran = await mcp.call('browser_run', {
      ...at,
      code: [...calls, ...viaPage, 'return 1;'].join('\n'),
    });
    expect(ran.isError, textOf(ran)).toBeFalsy();

    const { code } = await mcp.ok<{ code: string }>('browser_export_test', { sessionId: at.sessionId });
    for (const kind of ELEMENT_ACTION_KINDS)
      expect(code).toContain(
        `await page.getByRole('checkbox', { name: 'Agree' }).${ELEMENT_ACTIONS[kind].playwright}();`,
      );

    const created = await ops.createSession({});
    const lib = { sessionId: created.session.sessionId, pageId: created.initialPage.pageId };
    await ops.navigate({ ...lib, url: site.url('/rows') });
    for (const kind of ELEMENT_ACTION_KINDS) {
      const result = await ops[kind]({ ...lib, ...AGREE });
      expect(result.operationId).toMatch(/\S/);
    }
    expect(await logOf(lib)).toMatch(/mouseover .*focus .*change .*blur/);

    expect((await shell('rows', ['goto', site.url('/rows')])).ok).toBe(true);
    for (const kind of ELEMENT_ACTION_KINDS) {
      const answer = await shell('rows', [kebabName(kind), '--label', 'Agree']);
      expect(answer.ok, `${kebabName(kind)}: ${answer.text}`).toBe(true);
    }
  });

  test('blur runs the field’s validation on leaving it and returns once it has', async () => {
    const at = await mcp.session();
    await mcp.ok('browser_navigate', { ...at, url: site.url('/forms/leave') });
    await mcp.ok('browser_fill', { ...at, locator: { label: 'Email' }, value: 'not-an-email' });
    expect(textOf(await mcp.call('browser_visible_text', at))).not.toContain(ERROR_TEXT);

    await mcp.ok('browser_blur', { ...at, locator: { label: 'Email' } });
    // The message comes from a timer the blur handler set: the action awaited it.
    expect(textOf(await mcp.call('browser_visible_text', at))).toContain(ERROR_TEXT);

    // A step and a script do the same, and a fixed value clears the message.
    await mcp.ok('browser_run', {
      ...at,
      actions: [
        { action: 'fill', locator: { label: 'Email' }, value: 'me@example.test' },
        { action: 'blur', locator: { label: 'Email' } },
      ],
    });
    expect(textOf(await mcp.call('browser_visible_text', at))).not.toContain(ERROR_TEXT);
    const script = await mcp.ok<{ value: unknown }>('browser_run', {
      ...at,
      code: `const email = page.getByLabel('Email');
await email.fill('again-wrong');
await email.blur();
return await page.locator('#leave-error').textContent();`,
    });
    expect(script.value).toBe(ERROR_TEXT);
    expect(textOf(await mcp.call('browser_visible_text', at))).toContain('blurred 3 times');
  });

  test('blur refuses bad input with the codes every action gives, and the session goes on', async () => {
    const at = await mcp.session();
    await mcp.ok('browser_navigate', { ...at, url: site.url('/forms/leave') });
    const both = await mcp.call('browser_blur', { ...at, ref: '@e1', locator: { label: 'Email' } });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain('INVALID_ARGUMENT');
    const unknown = await mcp.call('browser_blur', { ...at, locator: { label: 'Email' }, delay: 5 });
    expect(textOf(unknown)).toMatch(/INVALID_ARGUMENT[\s\S]*delay/);
    const stale = await mcp.call('browser_blur', { ...at, ref: '@e999' });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/STALE_ELEMENT_REFERENCE|REF_NOT_FOUND/);
    const none = await mcp.call('browser_blur', {
      ...at,
      locator: { label: 'No such field' },
      timeoutMs: 1_000,
    });
    expect(none.isError).toBe(true);
    await mcp.ok('browser_blur', { ...at, locator: { label: 'Email' } });
  });
});
