import { readdirSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { CLI } from './cli-helpers.js';

// Every client recipe in docs/clients parses, names only real flags, and its stdio form
// starts the server that the official MCP client can list tools from.

const DIR = new URL('../../docs/clients/', import.meta.url);
const PLACEHOLDER = '/absolute/path/to/browsermesh/dist/cli/main.js';
const pages = readdirSync(DIR).filter((name) => name.endsWith('.md'));

interface ServerEntry {
  command?: string;
  args?: string[];
  url?: string;
  serverUrl?: string;
  httpUrl?: string;
  type?: string;
}

function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] ?? '');
}

/** The subset of TOML the Codex recipe uses: [tables], string values and arrays of strings. */
function parseToml(text: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  let table: Record<string, unknown> | undefined;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[([\w.-]+)\]$/.exec(line);
    if (header) {
      table = out[header[1]!] = {};
      continue;
    }
    const pair = /^(\w+)\s*=\s*(.+)$/.exec(line);
    if (!pair || !table) throw new Error(`not TOML this test understands: ${line}`);
    table[pair[1]!] = JSON.parse(pair[2]!) as unknown;
  }
  return out;
}

function entries(page: string): ServerEntry[] {
  const text = readFileSync(new URL(page, DIR), 'utf8');
  const found: ServerEntry[] = [];
  for (const json of blocks(text, 'json')) {
    const parsed = JSON.parse(json) as {
      mcpServers?: Record<string, ServerEntry>;
      servers?: Record<string, ServerEntry>;
    };
    const servers = parsed.mcpServers ?? parsed.servers;
    expect(servers?.browsermesh, `${page}: a browsermesh entry`).toBeDefined();
    found.push(servers!.browsermesh!);
  }
  for (const toml of blocks(text, 'toml')) {
    const entry = parseToml(toml)['mcp_servers.browsermesh'];
    expect(entry, `${page}: [mcp_servers.browsermesh]`).toBeDefined();
    found.push(entry as ServerEntry);
  }
  return found;
}

/** The BrowserMesh flags of an entry (after the CLI path or `-y browsermesh`). */
function flagsOf(entry: ServerEntry): string[] {
  const args = entry.args ?? [];
  if (entry.command === 'node') return args.slice(args.indexOf(PLACEHOLDER) + 1);
  if (entry.command === 'npx') {
    expect(args.slice(0, 2)).toEqual(['-y', 'browsermesh']);
    return args.slice(2);
  }
  throw new Error(`unexpected command ${entry.command ?? ''}`);
}

describe('docs/clients recipes', () => {
  it('say how to raise Codex startup timeout and use the Inspector 2.x form', () => {
    const codex = readFileSync(new URL('codex.md', DIR), 'utf8');
    const npxForm = blocks(codex, 'toml')
      .map(parseToml)
      .find((t) => t['mcp_servers.browsermesh']?.command === 'npx');
    expect(npxForm?.['mcp_servers.browsermesh']?.startup_timeout_sec).toBeGreaterThan(10);
    const inspector = readFileSync(new URL('mcp-inspector.md', DIR), 'utf8');
    expect(inspector).toContain('--server-url http://127.0.0.1:8940/mcp');
    expect(inspector).toMatch(/one-time session token/);
    // Inspector 2.x's web UI ignores --server: the page says so and gives --server to --cli only.
    expect(inspector).toMatch(/web UI .* does not take `--server`/s);
    for (const line of inspector.split('\n').filter((l) => l.includes('--server ')))
      expect(line).toContain('--cli');
  });

  it('has a page per client, each with a stdio form, the published form and (but the desktop app) HTTP', () => {
    for (const page of [
      'claude-code.md',
      'claude-desktop.md',
      'cursor.md',
      'vscode.md',
      'codex.md',
      'windsurf.md',
      'gemini-cli.md',
      'mcp-inspector.md',
      'http.md',
    ])
      expect(pages).toContain(page);
    for (const page of pages.filter((p) => p !== 'README.md')) {
      const text = readFileSync(new URL(page, DIR), 'utf8');
      expect(text, page).toContain(PLACEHOLDER);
      if (!['http.md', 'mcp-inspector.md'].includes(page)) expect(text, page).toContain('"browsermesh"');
    }
  });

  it('parses every config block; each names the CLI by path or npx, or an /mcp URL, and only real flags', () => {
    let checked = 0;
    for (const page of pages) {
      for (const entry of entries(page)) {
        checked++;
        const url = entry.url ?? entry.serverUrl ?? entry.httpUrl;
        if (url !== undefined) {
          expect(new URL(url).pathname, page).toBe('/mcp');
          continue;
        }
        if (entry.command === 'node') expect(entry.args, page).toContain(PLACEHOLDER);
        expect(() => loadConfig(flagsOf(entry), {}), page).not.toThrow();
      }
      const text = readFileSync(new URL(page, DIR), 'utf8');
      for (const sh of blocks(text, 'sh')) {
        // One command per line once continuations are joined; the Inspector CLI's own options
        // (`--method` and after) follow the server's command line and are not the server's flags.
        const commands = sh.replace(/\\\n\s*/g, ' ').split('\n');
        for (const line of commands.filter((l) => l.includes(PLACEHOLDER))) {
          const rest = line.slice(line.indexOf(PLACEHOLDER) + PLACEHOLDER.length);
          const flags = rest.split(/\s--method\s/)[0]!.trim();
          expect(
            () => loadConfig(flags === '' ? [] : flags.split(/\s+/), {}),
            `${page}: ${line}`,
          ).not.toThrow();
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('starts the server from each distinct stdio form and lists its tools', async () => {
    const forms = new Map<string, string[]>();
    for (const page of pages)
      for (const entry of entries(page))
        if (entry.command === 'node') forms.set(JSON.stringify(entry.args), entry.args ?? []);
    expect(forms.size).toBeGreaterThan(0);
    for (const args of forms.values()) {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: args.map((arg) => (arg === PLACEHOLDER ? CLI : arg)),
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'recipes-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('browser_session_create');
      } finally {
        await client.close();
      }
    }
  }, 60_000);
});
