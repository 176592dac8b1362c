#!/usr/bin/env node
// Keeps the import direction one way: cli → mcp|agent → tools → operations → snapshot|engine.
// The engine never imports tools, MCP, zod or the agent; only src/mcp imports the MCP SDK server.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = new URL('../src/', import.meta.url).pathname;
const LAYERS = [
  'engine',
  'snapshot',
  'operations',
  'code-mode',
  'tools',
  'library',
  'dashboard',
  'mcp',
  'agent',
  'cli',
];
// What each layer must never import (by top-level folder or package).
const FORBIDDEN = {
  engine: [
    'snapshot',
    'operations',
    'code-mode',
    'tools',
    'mcp',
    'agent',
    'cli',
    'zod',
    '@modelcontextprotocol/sdk',
  ],
  snapshot: ['operations', 'code-mode', 'tools', 'mcp', 'agent', 'cli', 'zod', '@modelcontextprotocol/sdk'],
  operations: ['tools', 'mcp', 'agent', 'cli', 'zod', '@modelcontextprotocol/sdk'],
  'code-mode': ['tools', 'mcp', 'agent', 'cli', '@modelcontextprotocol/sdk'],
  tools: ['mcp', 'agent', 'cli', '@modelcontextprotocol/sdk'],
  // The library face (typed operations without MCP) sits beside mcp and agent, over tools.
  library: ['mcp', 'agent', 'cli', '@modelcontextprotocol/sdk'],
  agent: ['mcp', 'cli', '@modelcontextprotocol/sdk'],
  mcp: ['agent', 'cli'],
  dashboard: ['tools', 'agent', 'cli', 'zod', '@modelcontextprotocol/sdk'],
};

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? files(path)
      : path.endsWith('.ts') && !path.endsWith('.test.ts')
        ? [path]
        : [];
  });
}

const problems = [];
for (const file of files(SRC)) {
  const layer = relative(SRC, file).split('/')[0];
  const forbidden = FORBIDDEN[layer];
  if (!forbidden || !LAYERS.includes(layer)) continue;
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)) {
    const spec = match[1];
    const target = spec.startsWith('.') ? relative(SRC, join(file, '..', spec)).split('/')[0] : spec;
    if (forbidden.some((f) => target === f || target.startsWith(`${f}/`))) {
      problems.push(`${relative(SRC, file)}: imports ${spec} (layer ${layer} must not import ${target})`);
    }
  }
}
if (problems.length > 0) {
  console.error(`Import direction violated:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('import direction ok');
