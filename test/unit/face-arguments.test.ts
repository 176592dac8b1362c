/**
 * Face parity without a browser: a call whose arguments are wrong is refused by the tool
 * definition before anything runs, so every face that maps onto the definition gives the same code
 * and details, and no Chromium is launched to say so. The real-browser contract (the same page
 * errors on every face) stays in test/integration/face-contract.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentBrowser } from '../../src/agent/agent-browser.js';
import { createMeshOperations, type MeshOperations } from '../../src/library/operations.js';
import { BrowserMeshError } from '../../src/errors.js';
import { McpHarness, textOf, type ErrorPayload } from '../helpers/harness.js';

/** A session and page that do not exist: argument checks come before any lookup. */
const AT = { sessionId: 's_none', pageId: 'p_none' };

interface Refusal {
  code: string;
  details?: Record<string, unknown> | undefined;
}

/**
 * The click cases every face must refuse alike, before the session is looked up. (Neither or both of
 * ref and locator is checked where the target is resolved, after the lookup: face-contract covers it.)
 */
const CASES: Array<{ name: string; args: Record<string, unknown> }> = [
  { name: 'an unknown field', args: { ...AT, ref: '@e1', bogus: true } },
  { name: 'a ref with spaces', args: { ...AT, ref: ' @e1 ' } },
  { name: 'a negative timeoutMs', args: { ...AT, ref: '@e1', timeoutMs: -5 } },
  { name: 'a ref of the wrong type', args: { ...AT, ref: 5 } },
];

let mcp: McpHarness;
let ops: MeshOperations;

beforeAll(async () => {
  mcp = await McpHarness.start();
  ops = createMeshOperations(mcp.mesh);
});
afterAll(async () => {
  await mcp.close();
});

const faces: Record<string, (args: Record<string, unknown>) => Promise<Refusal>> = {
  mcp: async (args) => pick(await mcp.err('browser_click', args)),
  library: async (args) => {
    try {
      await ops.click(args as Parameters<MeshOperations['click']>[0]);
    } catch (error) {
      if (error instanceof BrowserMeshError) {
        // The library puts the call's operationId into the details; the others beside them.
        const { operationId: _id, ...details } = error.details ?? {};
        return { code: error.code, details };
      }
      throw error;
    }
    throw new Error('the library accepted the call');
  },
  // A browser_run step carries the same arguments minus the address, which the run gives.
  step: async ({ sessionId, pageId, ...step }) => {
    const result = await mcp.call('browser_run', {
      sessionId,
      pageId,
      actions: [{ action: 'click', ...step }],
    });
    if (!result.isError) throw new Error(`browser_run accepted the step: ${textOf(result).slice(0, 200)}`);
    return pick((JSON.parse(textOf(result)) as { error: ErrorPayload }).error);
  },
};

function pick(error: ErrorPayload): Refusal {
  return { code: error.code, details: error.details };
}

describe('bad click arguments, on every face, with no browser', () => {
  it.each(CASES)(
    '$name: the same code and field on MCP, the library and browser_run steps',
    async ({ args }) => {
      const mcpRefusal = await faces.mcp!(args);
      expect(mcpRefusal.code).toBe('INVALID_ARGUMENT');
      const library = await faces.library!(args);
      expect(library).toEqual(mcpRefusal);
      const step = await faces.step!(args);
      expect(step.code).toBe(mcpRefusal.code);
      // A step's field is named inside its action (actions[0].ref) or as the tool's own.
      const field = String(mcpRefusal.details?.field ?? '');
      if (field !== '')
        expect(String(step.details?.field ?? '')).toMatch(
          new RegExp(`(^|\\.)${field.replace(/[.[\]]/g, '\\$&')}$`),
        );
    },
  );

  it('launched no Chromium to refuse any of them', () => {
    expect(mcp.mesh.runtimeInfo().browser.state).toBe('idle');
  });
});

/**
 * AgentBrowser's click is a view on the same definition with seed 000's shape (no session or page:
 * the thread gives them), so its refusals of the same bad refs and fields match MCP's.
 */
describe('bad click arguments through AgentBrowser, with no browser', () => {
  const agent = new AgentBrowser({ executablePath: '/nonexistent/chromium' });
  afterAll(() => agent.close());
  const AGENT_CASES: Array<{ name: string; args: Record<string, unknown>; field: string }> = [
    { name: 'an unknown field', args: { ref: '@e1', bogus: true }, field: 'bogus' },
    { name: 'a ref with spaces', args: { ref: ' @e1 ' }, field: 'ref' },
    { name: 'a ref that is no ref', args: { ref: 'submit' }, field: 'ref' },
    { name: 'a ref of the wrong type', args: { ref: 5 }, field: 'ref' },
  ];

  it.each(AGENT_CASES)('$name: INVALID_ARGUMENT naming $field, as MCP', async ({ args, field }) => {
    const result = (await agent.getTools().browser_click!.execute(args, { threadId: 'bad-args' })) as {
      error?: { code: string; details?: Record<string, unknown> };
    };
    expect(result.error?.code).toBe('INVALID_ARGUMENT');
    expect(result.error?.details?.field).toBe(field);
    const viaMcp = await mcp.err('browser_click', { ...AT, ...args });
    expect(viaMcp.code).toBe('INVALID_ARGUMENT');
    expect(viaMcp.details?.field).toBe(field);
  });
});
