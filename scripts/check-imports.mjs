#!/usr/bin/env node
// Keeps the import direction one way: cli → mcp|agent → tools → operations → snapshot|engine.
// The engine never imports tools, MCP, zod or the agent; only src/mcp imports the MCP SDK server.
// And no file-level import cycle anywhere in src/ (type-only imports count: a cycle of types is
// still two files that cannot be understood, moved or tested one without the other), and no two
// folders that import each other (a room and its own subfolders are one room; the files directly in
// src/ — the package entry, errors, text — belong to no folder).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// The tree to check: src/, or the folder given (a test's own small tree).
const SRC = process.argv[2]
  ? `${process.argv[2].replace(/\/$/, '')}/`
  : new URL('../src/', import.meta.url).pathname;
const LAYERS = [
  'url-policy',
  'http',
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
  'config',
  'observability',
  'persistence',
];
// Leaf rooms every layer may use: they import no other room (only the files directly in src/).
const LEAVES = ['url-policy', 'http'];
const ABOVE_ALL = [
  ...LAYERS.filter((layer) => !LEAVES.includes(layer)),
  'redaction',
  'zod',
  '@modelcontextprotocol/sdk',
];
// What each layer must never import (by top-level folder or package).
const FORBIDDEN = {
  'url-policy': [...ABOVE_ALL, 'http'],
  http: [...ABOVE_ALL, 'url-policy'],
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
  config: ['snapshot', 'operations', 'code-mode', 'tools', 'mcp', 'agent', 'cli', 'dashboard'],
  observability: ['snapshot', 'operations', 'code-mode', 'tools', 'mcp', 'agent', 'cli', 'dashboard'],
  persistence: ['snapshot', 'operations', 'code-mode', 'tools', 'mcp', 'agent', 'cli', 'dashboard'],
};

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? files(path)
      : /\.c?ts$/.test(path) && !path.endsWith('.test.ts')
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

/** Every file's relative imports (type-only included), as absolute .ts paths. */
function importGraph(all) {
  const graph = new Map();
  for (const file of all) {
    const source = readFileSync(file, 'utf8');
    const deps = new Set();
    for (const match of source.matchAll(/^\s*(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
      const target = join(dirname(file), match[1])
        .replace(/\.js$/, '.ts')
        .replace(/\.cjs$/, '.cts');
      if (existsSync(target)) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan, iterative over the call stack). */
function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * Pairs of folders that import each other (static or dynamic imports, type-only included), with one
 * file of each direction. A folder and one inside it are not a pair.
 */
function twoWayFolders(all) {
  const edges = new Map();
  for (const file of all) {
    const from = relative(SRC, dirname(file));
    if (from === '') continue;
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:\bfrom\s+|\bimport\()\s*['"](\.[^'"]+)['"]/g)) {
      const target = join(dirname(file), match[1])
        .replace(/\.js$/, '.ts')
        .replace(/\.cjs$/, '.cts');
      const to = relative(SRC, dirname(target));
      if (to === '' || to === from || !existsSync(target)) continue;
      if (!edges.has(`${from} ${to}`)) edges.set(`${from} ${to}`, relative(SRC, file));
    }
  }
  const pairs = [];
  for (const [key, file] of edges) {
    const [from, to] = key.split(' ');
    const nested = to.startsWith(`${from}/`) || from.startsWith(`${to}/`);
    if (nested || from > to || !edges.has(`${to} ${from}`)) continue;
    pairs.push(`${from} ↔ ${to} (${file} → ${to}/, ${edges.get(`${to} ${from}`)} → ${from}/)`);
  }
  return pairs;
}

for (const pair of twoWayFolders(files(SRC))) problems.push(`folders import each other: ${pair}`);

for (const component of cycles(importGraph(files(SRC)))) {
  const names = component.map((file) => relative(SRC, file)).sort();
  problems.push(`import cycle (${names.length} files): ${names.join(' ↔ ')}`);
}

if (problems.length > 0) {
  console.error(`Import direction violated:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('import direction ok, no import cycles, no two folders importing each other');
