/**
 * AgentBrowser keeps secrets as the MCP server does (`--secrets`): the agent types `{{secret:NAME}}`,
 * the value reaches the page, and no tool result, error or thread state carries the value back,
 * even when the page echoes it. Password inputs stay masked in code-mode reads unless opted in.
 */
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { AgentBrowser } from '../../src/agent/agent-browser.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import { testAgentBrowser, ToolDriver } from './support/agent.js';

const VALUE = 'Tr0ub4dor-agent-secret-93';
let site: FixtureServer;
let browser: AgentBrowser;

/** A login form whose page echoes the password into its text and its title on every key. */
const ECHO_PAGE = `<!doctype html><title>login</title>
<label>Password <input id="pw" type="password"></label>
<p id="echo"></p>
<script>document.getElementById('pw').addEventListener('input', (e) => {
  document.getElementById('echo').textContent = 'you typed ' + e.target.value;
  document.title = 'login ' + e.target.value;
});</script>`;

// The file's site and AgentBrowser (with the secret) come from the shared fixtures.
const test = fixtureTest.extend('agentOptions', { scope: 'file' }, () => ({
  secrets: { SHOP_PASSWORD: VALUE },
}));

test.beforeAll(({ site: fileSite, agentBrowser }) => {
  site = fileSite;
  site.route('/agent-secrets/login', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(ECHO_PAGE);
  });
  browser = agentBrowser;
});

async function typedLogin(threadId: string): Promise<ToolDriver> {
  const t = new ToolDriver(browser, { threadId });
  await t.ok('browser_goto', { url: site.url('/agent-secrets/login') });
  await t.ok('browser_type', { ref: await t.ref('textbox', 'Password'), text: '{{secret:SHOP_PASSWORD}}' });
  return t;
}

describe('AgentBrowser secrets', () => {
  test('types a secret by name; results, model content and thread state carry only the reference', async () => {
    const t = await typedLogin('secrets-results');
    // The page really received the value (checked in the page, not through a result).
    const inPage = await t.ok<{ value: boolean }>('browser_evaluate', {
      script: `document.getElementById('pw').value === ${JSON.stringify(VALUE)}`,
      returnValue: true,
    });
    expect(inPage.value).toBe(true);
    const outputs = [
      await t.ok('browser_snapshot', {}),
      await t.ok('browser_evaluate', {
        script: "document.getElementById('echo').textContent",
        returnValue: true,
      }),
      await t.ok('browser_evaluate', { script: "document.getElementById('pw').value", returnValue: true }),
      await t.ok('browser_tabs', { action: 'list' }),
    ];
    for (const output of outputs) {
      const text = JSON.stringify(output);
      expect(text).not.toContain(VALUE);
    }
    expect(JSON.stringify(outputs[1])).toContain('{{secret:SHOP_PASSWORD}}');
    const modelText = t.tool('browser_snapshot').toModelContent(outputs[0] as Record<string, unknown>);
    expect(JSON.stringify(modelText)).not.toContain(VALUE);
    const state = await browser.getThreadState('secrets-results');
    expect(JSON.stringify(state)).not.toContain(VALUE);
    expect(JSON.stringify(state)).toContain('{{secret:SHOP_PASSWORD}}');
  });

  test('keeps the value out of errors, and refuses an unknown secret name without echoing it', async () => {
    const t = await typedLogin('secrets-errors');
    const thrown = await t.call('browser_evaluate', {
      script: "throw new Error('leak ' + document.getElementById('pw').value)",
      returnValue: true,
    });
    expect(JSON.stringify(thrown)).not.toContain(VALUE);
    const ref = await t.ref('textbox', 'Password');
    const unknown = await t.fails('browser_type', { ref, text: '{{secret:NOT_CONFIGURED_NAME}}' });
    expect(unknown.code).toBe('INVALID_ARGUMENT');
    expect(JSON.stringify(unknown)).not.toContain('NOT_CONFIGURED_NAME');
  });

  test('masks a password input in code-mode reads unless readSecretInputs is set', async () => {
    const t = await typedLogin('secrets-code-mode');
    const read = await t.ok<{ value: unknown }>('browser_run', {
      code: "return await page.locator('#pw').inputValue();",
    });
    expect(read.value).not.toBe(VALUE);
    expect(JSON.stringify(read)).not.toContain(VALUE);
    const reveal = testAgentBrowser({ readSecretInputs: true });
    try {
      const r = new ToolDriver(reveal, { threadId: 'reveal' });
      await r.ok('browser_goto', { url: site.url('/agent-secrets/login') });
      await r.ok('browser_evaluate', { script: "document.getElementById('pw').value = 'plain-typed'" });
      const revealed = await r.ok<{ value: unknown }>('browser_run', {
        code: "return await page.locator('#pw').inputValue();",
      });
      expect(revealed.value).toBe('plain-typed');
    } finally {
      await reveal.close();
    }
  });

  test('refuses malformed secrets options without echoing them', () => {
    const bad: Array<Record<string, string>> = [{ 'bad name': VALUE }, { GOOD: 42 as unknown as string }];
    for (const secrets of bad) {
      let caught: unknown;
      try {
        testAgentBrowser({ secrets });
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(String((caught as Error).message)).not.toContain(VALUE);
      expect(String((caught as Error).message)).not.toContain('bad name');
    }
  });
});
