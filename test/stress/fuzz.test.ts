import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/engine/logger.js';
import { createBrowserMesh } from '../../src/create-mesh.js';
import type { BrowserMesh } from '../../src/engine/runtime.js';
import { ErrorCodes } from '../../src/errors.js';
import { toListing } from '../../src/mcp/listing.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { toolsForConfig } from '../../src/tools/index.js';
import { testConfig } from '../helpers/harness.js';
import { StdioWire, type WireReply } from '../helpers/stdio-wire.js';
import { CANARY, fromSchema, hostileValue, LONG, nonObjectArguments } from './support/schema-arbitrary.js';

/**
 * Fuzzes every tool from its own published input schema through the real stdio transport:
 * values drawn from the schema, each sometimes swapped for a hostile one (huge, NUL, RTL,
 * `__proto__`, wrong type, too deep), plus non-object `arguments` and non-string names. Every answer
 * must be a success, a coded tool error or a JSON-RPC -32602/-32600 — never -32603, never a hang,
 * never the transport closing — and no error may echo a hostile value (CANARY), nor may any reach
 * Object.prototype. Sessions are never known to the fuzzer, so no page is ever driven anywhere.
 *
 * Bounded (CI): 1,000 calls. `npm run test:stress`: 12,000. Fixed seed: a failure replays exactly.
 */

const RUNS = LONG ? 12_000 : 1_000;
const SEED = 15;
const REPLY_BOUND_MS = 30_000;
const KNOWN_CODES = new Set<string>(Object.values(ErrorCodes));
const ALL_PROFILES = ['core', 'observability', 'persistence', 'code', 'evaluate'] as const;

let mesh: BrowserMesh;
let wire: StdioWire;
const config = testConfig({ tools: [...ALL_PROFILES], maxSessions: 3, timeoutMs: 5_000 });
const tools = toListing(toolsForConfig(config), { refs: false, full: true });
const tally = new Map<string, number>();

beforeAll(async () => {
  mesh = createBrowserMesh({ config, logger: createLogger('silent') });
  // Big enough for the long form's 3 MB hostile strings: they must reach the schema, not the size guard.
  wire = new StdioWire(createMcpServer({ mesh, logger: createLogger('silent') }), 8 * 1024 * 1024);
  await wire.start();
});
afterAll(async () => {
  await wire?.close();
  await mesh?.shutdown();
  process.stderr.write(`fuzz: ${RUNS} calls, answers ${JSON.stringify(Object.fromEntries(tally))}\n`);
});

const toolCall = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .constantFrom(...tools)
      .chain((tool) => fromSchema(tool.inputSchema).map((args) => ({ name: tool.name as unknown, args }))),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      name: fc.constantFrom<unknown>(...tools.map((t) => t.name)),
      args: nonObjectArguments,
    }),
  },
  { weight: 1, arbitrary: fc.record({ name: hostileValue, args: fc.constant<unknown>({}) }) },
);

/** Classifies one answer; fails the property on anything outside the contract. */
function classify(reply: WireReply): string {
  if (reply.error) {
    expect([-32602, -32600, -32700]).toContain(reply.error.code);
    expect(reply.error.message).not.toContain(CANARY);
    expect(reply.error.message.length).toBeLessThan(200);
    return `rpc ${reply.error.code}`;
  }
  const result = reply.result as { isError?: boolean; content?: Array<{ text?: string }> } | undefined;
  expect(result).toBeDefined();
  if (result?.isError !== true) return 'ok';
  const text = result.content?.[0]?.text ?? '';
  expect(text).not.toContain(CANARY);
  const code = (JSON.parse(text) as { error: { code: string } }).error.code;
  expect(KNOWN_CODES.has(code), code).toBe(true);
  return code;
}

describe('fuzzing every tool from its published schema', () => {
  it(
    `answers ${RUNS} hostile calls within contract and stays up`,
    async () => {
      let id = 1_000;
      await fc.assert(
        fc.asyncProperty(toolCall, async ({ name, args }) => {
          const reply = await wire.request(++id, 'tools/call', { name, arguments: args }, REPLY_BOUND_MS);
          const kind = classify(reply);
          tally.set(kind, (tally.get(kind) ?? 0) + 1);
          expect(wire.closed).toBe(false);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(tally.get('rpc -32603')).toBeUndefined();
      const listed = await wire.request(++id, 'tools/list');
      expect((listed.result?.tools as unknown[]).length).toBe(tools.length);
    },
    LONG ? 3_600_000 : 120_000,
  );
});
