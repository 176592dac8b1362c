import Ajv2020Module from 'ajv/dist/2020.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolProfile } from '../../src/config/load.js';
import { TOOL_PROFILES } from '../../src/config/settings.js';
import { listingBytes, toListing, type ListingOptions } from '../../src/mcp/listing.js';
import { defineTool, READ_ONLY } from '../../src/tools/define.js';
import { ALL_TOOLS, selectTools, toolsForConfig } from '../../src/tools/index.js';
import { inputSchemaOf } from '../../src/tools/invoke.js';
import { Locator, pageAddress } from '../../src/tools/schemas.js';
import { McpHarness, testConfig } from '../helpers/harness.js';
import { describe, expect, test } from './support/fixtures.js';

// ajv is CommonJS: under NodeNext its class is the default export's `default`.
const Ajv2020 = Ajv2020Module.default;
const DEFAULT_PROFILES: ToolProfile[] = ['core', 'observability', 'persistence', 'code'];

async function listTools(overrides: Parameters<typeof McpHarness.start>[0]): Promise<Tool[]> {
  const harness = await McpHarness.start(overrides);
  try {
    return (await harness.client.listTools()).tools;
  } finally {
    await harness.close();
  }
}

function compileAll(tools: Tool[]): void {
  const ajv = new Ajv2020({ strict: false });
  for (const tool of tools) {
    expect(() => ajv.compile(tool.inputSchema), `${tool.name} input`).not.toThrow();
    if (tool.outputSchema)
      expect(() => ajv.compile(tool.outputSchema as object), `${tool.name} output`).not.toThrow();
  }
}

describe('tool profiles', () => {
  test('publishes only the selected profiles', async () => {
    const names = async (tools: ToolProfile[]) => (await listTools({ tools })).map((tool) => tool.name);
    expect(await names(['observability'])).toEqual(['browser_observe']);
    expect(await names(['persistence'])).toEqual([
      'browser_state_save',
      'browser_state_list',
      'browser_state_remove',
    ]);
    const core = await names(['core']);
    expect(core).toContain('browser_session_create');
    expect(core).not.toContain('browser_observe');
    expect(core.some((name) => name.startsWith('browser_state_'))).toBe(false);
    const all = await names(DEFAULT_PROFILES);
    expect(all).toEqual(
      expect.arrayContaining(['browser_observe', 'browser_state_save', 'browser_navigate']),
    );
    expect(all).not.toContain('browser_evaluate');
  });

  test('refuses a tool outside the published profiles', async () => {
    const harness = await McpHarness.start({ tools: ['core'] });
    try {
      await expect(
        harness.call('browser_observe', { sessionId: 's', pageId: 'p', source: 'console' }),
      ).rejects.toThrow(/Unknown tool/);
    } finally {
      await harness.close();
    }
  });

  test('publishes the configured observability page size as the limit bound', async () => {
    const [observe] = await listTools({ tools: ['observability'], observabilityPageSize: 25 });
    expect((observe?.inputSchema.properties as Record<string, { maximum?: number }>).limit?.maximum).toBe(25);
  });
});

describe('tools/list size', () => {
  test('stays lean per profile (bytes of the JSON result, output schemas included)', () => {
    const rows: string[] = [];
    const measure = (label: string, profiles: ToolProfile[], options: ListingOptions): number => {
      const tools = toListing(toolsForConfig(testConfig({ tools: profiles })), options);
      const bytes = listingBytes({ tools });
      const perTool = tools.length ? Math.round(bytes / tools.length) : 0;
      rows.push(
        `${label.padEnd(38)} ${String(tools.length).padStart(3)} tools ${String(bytes).padStart(7)} B ${String(perTool).padStart(5)} B/tool`,
      );
      return perTool;
    };
    const defaultPerTool = measure('default (core,obs,persistence,code)', DEFAULT_PROFILES, { refs: true });
    measure('default, --no-schema-refs', DEFAULT_PROFILES, { refs: false });
    const fullPerTool = measure('default, --full-schemas', DEFAULT_PROFILES, { refs: true, full: true });
    for (const profile of TOOL_PROFILES) measure(profile, [profile], { refs: true });
    measure('all profiles', [...TOOL_PROFILES], { refs: true });
    console.log(`tools/list bytes per profile:\n${rows.join('\n')}`);
    // The tool listing stays small: at most ~800 bytes per tool on average, output schemas included.
    expect(defaultPerTool).toBeLessThanOrEqual(800);
    expect(fullPerTool).toBeGreaterThan(defaultPerTool);
  });
});

/** Arguments the runtime accepts, one or more per tool whose lean schema leaves structure to prose. */
const VALID_ARGS: Array<[string, Record<string, unknown>]> = [
  [
    'browser_session_create',
    { name: 'buyer', metadata: { role: 'buyer' }, stateId: 'login-1', timeoutMs: 5000 },
  ],
  [
    'browser_session_create',
    {
      contextSettings: {
        viewport: { width: 390, height: 844 },
        locale: 'fr-FR',
        timezoneId: 'Europe/Paris',
        geolocation: { latitude: 48.8, longitude: 2.3 },
        permissions: [{ permission: 'geolocation', origin: 'https://app.example.test' }],
      },
    },
  ],
  ['browser_snapshot', { sessionId: 's', pageId: 'p', scope: { locator: { role: 'main' } }, maxChars: 500 }],
  ['browser_visible_text', { sessionId: 's', pageId: 'p', scope: { ref: '@e3' } }],
  [
    'browser_click',
    {
      sessionId: 's',
      pageId: 'p',
      locator: {
        role: 'button',
        name: 'Pay',
        exact: false,
        frame: { kind: 'iframe', chain: [{ css: '#pay' }] },
      },
      modifiers: ['Shift'],
      timeoutMs: 600000,
    },
  ],
  ['browser_fill', { sessionId: 's', pageId: 'p', ref: 'e12', value: '' }],
  [
    'browser_drag_and_drop',
    { sessionId: 's', pageId: 'p', source: { ref: '@e1' }, target: { locator: { testId: 'bin' } } },
  ],
  ['browser_select_option', { sessionId: 's', pageId: 'p', ref: '@e2', index: [0, 2] }],
  [
    'browser_action_and_wait',
    {
      sessionId: 's',
      pageId: 'p',
      target: { ref: '@e4' },
      waitFor: { kind: 'response', url: '**/api/*', status: 200 },
    },
  ],
  [
    'browser_action_and_wait',
    { sessionId: 's', pageId: 'p', target: { ref: '@e4' }, waitFor: { kind: 'dialog', accept: false } },
  ],
  ['browser_screenshot', { sessionId: 's', pageId: 'p', capture: { kind: 'element', css: '#chart' } }],
  [
    'browser_screenshot',
    {
      sessionId: 's',
      pageId: 'p',
      capture: { kind: 'element', locator: { role: 'img', name: 'Chart' } },
      format: { type: 'jpeg', quality: 70 },
    },
  ],
  ['browser_screenshot', { sessionId: 's', pageId: 'p', capture: { kind: 'element', ref: '@e5' } }],
  [
    'browser_run',
    {
      sessionId: 's',
      pageId: 'p',
      actions: [
        { action: 'goto', url: 'http://127.0.0.1/' },
        { action: 'click', locator: { role: 'link', name: 'Shop' } },
        { action: 'wait', text: 'Cart', present: true },
      ],
    },
  ],
  ['browser_observe', { sessionId: 's', pageId: 'p', source: 'network', sinceEventId: 3, limit: 100 }],
];

describe('lean schemas', () => {
  test('accept every argument the runtime accepts (structure the listing gives in prose included)', () => {
    const ajv = new Ajv2020({ strict: false });
    const tools = toolsForConfig(testConfig({ tools: DEFAULT_PROFILES }));
    for (const refs of [true, false]) {
      const listed = new Map(toListing(tools, { refs }).map((tool) => [tool.name, tool]));
      for (const [name, args] of VALID_ARGS) {
        const tool = tools.find((t) => t.name === name);
        expect(tool && inputSchemaOf(tool).safeParse(args).success, `${name} runtime`).toBe(true);
        const validate = ajv.compile(listed.get(name)?.inputSchema as object);
        expect(validate(args), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  test('describe every argument in its own tool: no bare object, and ids, ref and locator say what they are', () => {
    const tools = toListing(toolsForConfig(testConfig({ tools: DEFAULT_PROFILES })), { refs: true });
    // Objects (target, source, scope, …) are covered by the first check. pageId is bare, as timeoutMs:
    // it always stands beside sessionId, whose description says where ids come from.
    const mustDescribe = new Set(['sessionId', 'ref', 'locator']);
    for (const tool of tools) {
      const props = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
      for (const [field, schema] of Object.entries(props)) {
        const where = `${tool.name}.${field}`;
        // An object with neither properties nor a description tells a model nothing about its shape.
        if (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')))
          expect(schema.properties !== undefined || typeof schema.description === 'string', where).toBe(true);
        if (mustDescribe.has(field)) expect(typeof schema.description, where).toBe('string');
      }
      if (props.pageId) expect(props.sessionId?.description, tool.name).toBe('From browser_session_create.');
      if (props.locator) expect(props.locator.description, tool.name).toMatch(/role.*text.*css.*frame/);
    }
  });

  test('publish each output schema as its object root (results show their fields), whole with --full-schemas', () => {
    const config = testConfig({ tools: DEFAULT_PROFILES });
    for (const tool of toListing(toolsForConfig(config), { refs: true }))
      expect(tool.outputSchema, tool.name).toEqual({ type: 'object' });
    const full = toListing(toolsForConfig(config), { refs: true, full: true });
    const navigate = full.find((tool) => tool.name === 'browser_navigate');
    expect(Object.keys(navigate?.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(['url', 'title', 'status', 'snapshot', 'operationId']),
    );
  });

  test('publish nested structure whole with --full-schemas', async () => {
    const [click] = await listTools({ tools: ['core'], fullSchemas: true }).then((tools) =>
      tools.filter((tool) => tool.name === 'browser_click'),
    );
    const locator = (click?.inputSchema.properties as Record<string, Record<string, unknown>>).locator;
    expect(Object.keys(locator?.properties as object)).toEqual(
      expect.arrayContaining(['role', 'name', 'css', 'frame']),
    );
    expect(click?.inputSchema.additionalProperties).toBe(false);
    expect(click?.outputSchema?.required).toEqual(['completed', 'operationId']);
  });
});

describe('published schemas', () => {
  test('compile under a JSON Schema 2020-12 validator, lean and full, with refs and inlined', async () => {
    const all: ToolProfile[] = [...TOOL_PROFILES];
    for (const fullSchemas of [false, true]) {
      const withRefs = await listTools({ tools: all, fullSchemas });
      compileAll(withRefs);
      const inlined = await listTools({ tools: all, schemaRefs: false, fullSchemas });
      compileAll(inlined);
      expect(JSON.stringify(inlined)).not.toContain('$ref');
      expect(withRefs.length).toBe(selectTools(all).length);
    }
  });

  test('share a sub-schema used twice through $defs, and inline it with --no-schema-refs', async () => {
    const dragLike = defineTool({
      name: 'test_drag',
      title: 'Drag',
      description: 'Test tool with a locator used twice.',
      profile: 'core',
      input: z.object({ ...pageAddress, from: Locator, to: Locator }).strict(),
      output: z.object({ ok: z.boolean() }),
      hints: READ_ONLY,
      async handler() {
        return { ok: true };
      },
    });
    for (const refs of [true, false]) {
      for (const full of [true, false]) {
        const [listed] = toListing([dragLike], { refs, full });
        const schema = listed?.inputSchema as Record<string, unknown>;
        const validate = new Ajv2020({ strict: false }).compile(schema);
        const args = {
          sessionId: 's_1',
          pageId: 'p_1',
          from: { css: '#a' },
          to: { role: 'button', name: 'Go' },
        };
        expect(validate(args)).toBe(true);
        // The full schema refuses a malformed locator itself; the lean one leaves it to the runtime.
        expect(validate({ ...args, to: { css: 5 } })).toBe(!full);
        // Shared only where that is smaller: the full locator is, the lean one-line object is not.
        if (refs && full) expect(Object.keys(schema.$defs as object)).toContain('Locator');
        else expect(JSON.stringify(schema)).not.toContain('$ref');
      }
    }
  });

  // The site is the file's; the harness is this test's own, so the sessions it leaves are in no other listing.
  test('describe the results the tools really return, lean and full', async ({ site }) => {
    const harness = await McpHarness.start();
    try {
      const { tools: lean } = await harness.client.listTools();
      const full = toListing(toolsForConfig(testConfig()), { refs: true, full: true });
      const ajv = new Ajv2020({ strict: false });
      const check = async (name: string, args: Record<string, unknown>): Promise<void> => {
        const result = await harness.ok(name, args);
        for (const listing of [lean, full]) {
          const validate = ajv.compile(listing.find((t) => t.name === name)?.outputSchema as object);
          expect(validate(result), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }
      };
      await check('browser_runtime_info', {});
      const at = await harness.session({ name: 'schema', metadata: { role: 'check' } });
      await check('browser_navigate', { ...at, url: site.url('/network') });
      await check('browser_session_get', { sessionId: at.sessionId });
      await check('browser_observe', { ...at, source: 'network' });
      await check('browser_observe', { ...at, source: 'console', includeText: true });
      await check('browser_snapshot', { ...at, interactiveOnly: true });
      await check('browser_state_save', { sessionId: at.sessionId, stateId: 'schema' });
      await check('browser_state_list', {});
      await check('browser_state_remove', { stateId: 'schema' });
    } finally {
      await harness.close();
    }
  });
});

describe('prompts and resources', () => {
  let h: McpHarness;
  test.beforeAll(({ harness }) => {
    h = harness;
  });

  test('advertises prompts and resources', () => {
    expect(h.client.getServerCapabilities()).toMatchObject({ prompts: {}, resources: {} });
  });

  test('lists and renders parallel_roles and diagnose_page', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['parallel_roles', 'diagnose_page']);

    const roles = await h.client.getPrompt({
      name: 'parallel_roles',
      arguments: { task: 'Buy a lamp and confirm the order', roles: 'buyer,admin' },
    });
    const rolesText = roles.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    expect(rolesText).toContain('Buy a lamp and confirm the order');
    expect(rolesText).toContain('buyer,admin');
    expect(rolesText).toContain('browser_session_create');
    expect(rolesText).toContain('browser_state_save');

    const diagnose = await h.client.getPrompt({
      name: 'diagnose_page',
      arguments: { url: 'http://127.0.0.1:9/app' },
    });
    const diagnoseText = diagnose.messages
      .map((m) => (m.content.type === 'text' ? m.content.text : ''))
      .join('\n');
    expect(diagnoseText).toContain('http://127.0.0.1:9/app');
    expect(diagnoseText).toMatch(/browser_observe.*console.*pageError.*network.*requestFailed/s);
    expect(diagnoseText).toContain('gap');
  });

  test('refuses missing or bad prompt arguments and unknown prompts', async () => {
    await expect(h.client.getPrompt({ name: 'parallel_roles', arguments: {} })).rejects.toThrow(/task/);
    await expect(
      h.client.getPrompt({ name: 'diagnose_page', arguments: { url: 'file:///etc/passwd' } }),
    ).rejects.toThrow(/url/);
    await expect(h.client.getPrompt({ name: 'nope' })).rejects.toThrow(/Unknown prompt/);
  });

  test('offers diagnose_page only when browser_observe is published', async () => {
    const core = await McpHarness.start({ tools: ['core'] });
    try {
      expect((await core.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['parallel_roles']);
      const text = (await core.client.getPrompt({ name: 'parallel_roles', arguments: { task: 't' } }))
        .messages[0]?.content;
      expect(text?.type === 'text' ? text.text : '').not.toContain('browser_state_save');
    } finally {
      await core.close();
    }
  });

  test('reads browsermesh://sessions: ids, state and labels, nothing else', async () => {
    const { resources } = await h.client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({ uri: 'browsermesh://sessions', mimeType: 'application/json' }),
    ]);
    const at = await h.session({
      name: 'buyer',
      metadata: { role: 'buyer' },
      contextSettings: { userAgent: 'SecretAgent/1.0', locale: 'fr-FR' },
    });
    const read = await h.client.readResource({ uri: 'browsermesh://sessions' });
    const content = read.contents[0];
    const body = JSON.parse(content && 'text' in content ? content.text : '{}') as {
      sessions: Array<Record<string, unknown>>;
    };
    expect(body.sessions).toEqual([
      expect.objectContaining({
        sessionId: at.sessionId,
        name: 'buyer',
        metadata: { role: 'buyer' },
        state: 'ready',
        pageCount: 1,
      }),
    ]);
    expect(Object.keys(body.sessions[0] ?? {})).not.toEqual(expect.arrayContaining(['contextSettings']));
    expect(JSON.stringify(body)).not.toContain('SecretAgent');
    await h.ok('browser_session_close', { sessionId: at.sessionId });
    const after = JSON.parse(
      ((await h.client.readResource({ uri: 'browsermesh://sessions' })).contents[0] as { text: string }).text,
    ) as {
      sessions: Array<{ state: string }>;
    };
    expect(after.sessions[0]?.state).toBe('closed');
    await expect(h.client.readResource({ uri: 'browsermesh://other' })).rejects.toThrow(/not found/i);
  });
});

test('keeps every registered tool in exactly one home profile (alsoIn only adds known ones)', () => {
  const known = new Set<string>(TOOL_PROFILES);
  expect(ALL_TOOLS.every((tool) => known.has(tool.profile))).toBe(true);
  expect(
    ALL_TOOLS.every((tool) => (tool.alsoIn ?? []).every((p) => known.has(p) && p !== tool.profile)),
  ).toBe(true);
});

test('keeps the opt-in hands profiles out of the default listing', async () => {
  const names = (await listTools({})).map((tool) => tool.name);
  for (const name of [
    'browser_upload',
    'browser_files',
    'browser_pdf',
    'browser_export_test',
    'browser_mouse',
    'browser_set_viewport',
  ])
    expect(names).not.toContain(name);
  expect((await listTools({ tools: ['files'] })).map((tool) => tool.name)).toEqual([
    'browser_upload',
    'browser_files',
    'browser_pdf',
    'browser_export_test',
  ]);
  expect((await listTools({ tools: ['pointer'] })).map((tool) => tool.name)).toEqual([
    'browser_mouse',
    'browser_set_viewport',
  ]);
});
