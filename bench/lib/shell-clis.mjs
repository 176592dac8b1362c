// The three shell CLIs of the cli scenario, each driven as an agent drives it: one spawned process
// per command, refs taken from that CLI's own snapshot, every file it makes the agent open read and
// counted. Every peer is kept off the network (docs: /work/shared/PEERS.md conventions): Chromium
// gets --no-sandbox and a proxy on a closed loopback port, update checks are off.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { CHROMIUM_PATH } from './chromium.mjs';
import { findRef, parseAriaCli, parseBrowserMesh } from './refs.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = (name) => join(ROOT, 'node_modules', '.bin', name);
const OFFLINE_ARGS = ['--no-sandbox', '--proxy-server=127.0.0.1:9'];
const version = (pkg) => {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'missing';
  }
};

/**
 * Runs one command; what the agent reads is stdout, stderr and any file the output points it to.
 * Asynchronous: the fixture site runs in the bench's own process and must keep answering.
 */
function runner(cwd, env, argv0) {
  return (args) =>
    new Promise((resolve) => {
      const started = performance.now();
      const child = spawn(argv0[0], [...argv0.slice(1), ...args], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk.toString()));
      child.stderr.on('data', (chunk) => (out += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      // A binary that cannot start is an exit status like any other, not a crash of the bench.
      child.on('error', (error) => {
        clearTimeout(timer);
        resolve({ status: -1, out: `${out}${error.message}`, ms: performance.now() - started });
      });
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve({ status, out, ms: performance.now() - started });
      });
    });
}

/** Snapshot files a CLI links to (`.yml`/`.md` paths in its output), read as the agent would. */
export function linkedFiles(cwd, out) {
  const paths = [...out.matchAll(/([\w./-]+\.(?:ya?ml|md))\b/g)].map((m) => m[1]);
  const texts = [];
  for (const path of new Set(paths)) {
    const full = isAbsolute(path) ? path : resolve(cwd, path);
    if (existsSync(full)) texts.push(readFileSync(full, 'utf8'));
  }
  return texts;
}

/** A ref finder over one snapshot format: throws, quoting what the snapshot had, when none matches. */
const refFinder =
  (parse, label, prefix = '') =>
  (text, role, name) =>
    `${prefix}${findRef(parse(text), role, name, `${label}'s snapshot`)}`;

/** The command line as the agent writes it (what the model's output costs). */
const commandLine = (bin) => (args) =>
  [bin, ...args.map((a) => (/^[\w@./:=-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))].join(' ');

/** Stops the CLI's browser or daemon with its own command, then removes its temporary folder. */
const closer = (run, args, dir) => () =>
  run(args).finally(() => rmSync(dir, { recursive: true, force: true, maxRetries: 3 }));

/** Why a peer cannot run here (its package or binary missing), or undefined when it can. */
function missing(pkg, bin) {
  if (version(pkg) === 'missing') return `${pkg} is not installed`;
  if (!existsSync(bin)) return `${bin} is missing`;
  return undefined;
}

export function browsermeshCli() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-bm-cli-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dataDir,
    BROWSERMESH_DATA_DIR: dataDir,
    BROWSERMESH_EXECUTABLE_PATH: CHROMIUM_PATH,
    BROWSERMESH_TIMEOUT_MS: '60000',
  };
  const main = join(ROOT, 'dist', 'cli', 'bin.cjs');
  const run = runner(dataDir, env, [process.execPath, main]);
  const line = commandLine('browsermesh');
  const withSession = (args, session) => (session ? ['-s', session, ...args] : args);
  return {
    label: 'browsermesh CLI',
    version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
    unavailable: () => (existsSync(main) ? undefined : `${main} is missing (npm run build)`),
    run: (args, session) => run(withSession(args, session)),
    written: (args, session) => line(withSession(args, session)),
    snapshot: ['snapshot', '-i'],
    fullSnapshot: ['snapshot'],
    open: (url) => ['open', url],
    goto: (url) => ['goto', url],
    ref: refFinder(parseBrowserMesh, 'browsermesh'),
    select: (ref, label) => ['select', ref, label, '--by-label'],
    files: () => [],
    close: closer(run, ['daemon', 'stop'], dataDir),
    skill: async () => readFileSync(join(ROOT, 'skills', 'browsermesh', 'SKILL.md'), 'utf8'),
  };
}

export function playwrightCli() {
  const cwd = mkdtempSync(join(tmpdir(), 'bench-pw-cli-'));
  mkdirSync(join(cwd, '.playwright'), { recursive: true });
  writeFileSync(
    join(cwd, '.playwright', 'cli.config.json'),
    JSON.stringify({
      browser: {
        browserName: 'chromium',
        launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: OFFLINE_ARGS },
      },
    }),
  );
  const env = { PATH: process.env.PATH ?? '', HOME: cwd, NO_UPDATE_NOTIFIER: '1' };
  const run = runner(cwd, env, [BIN('playwright-cli')]);
  return {
    label: 'playwright-cli',
    version: version('@playwright/cli'),
    unavailable: () => missing('@playwright/cli', BIN('playwright-cli')),
    run: (args) => run(args),
    written: commandLine('playwright-cli'),
    // It has no interactive-only mode: `snapshot` prints the whole page (its documented way).
    snapshot: ['snapshot'],
    fullSnapshot: ['snapshot'],
    open: (url) => ['open', url],
    goto: (url) => ['goto', url],
    ref: refFinder(parseAriaCli, 'playwright-cli'),
    select: (ref, label) => ['select', ref, label],
    files: (out) => linkedFiles(cwd, out),
    close: closer(run, ['close'], cwd),
    skill: () =>
      readFileSync(
        join(ROOT, 'node_modules', '@playwright', 'cli', 'skills', 'playwright-cli', 'SKILL.md'),
        'utf8',
      ),
  };
}

export function agentBrowserCli() {
  const socketDir = mkdtempSync(join(tmpdir(), 'bench-ab-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: socketDir,
    AGENT_BROWSER_EXECUTABLE_PATH: CHROMIUM_PATH,
    AGENT_BROWSER_ARGS: OFFLINE_ARGS.join(','),
    AGENT_BROWSER_SOCKET_DIR: socketDir,
    AGENT_BROWSER_NO_VERSION_CHECK: '1',
  };
  const run = runner(socketDir, env, [BIN('agent-browser')]);
  return {
    label: 'agent-browser',
    version: version('agent-browser'),
    unavailable: () => missing('agent-browser', BIN('agent-browser')),
    run: (args) => run(args),
    written: commandLine('agent-browser'),
    snapshot: ['snapshot', '-i'],
    fullSnapshot: ['snapshot'],
    open: (url) => ['open', url],
    goto: (url) => ['open', url],
    ref: refFinder(parseAriaCli, 'agent-browser', '@'),
    select: (ref, label) => ['select', ref, label],
    files: () => [],
    close: closer(run, ['close'], socketDir),
    skill: () => {
      const stub = readFileSync(
        join(ROOT, 'node_modules', 'agent-browser', 'skills', 'agent-browser', 'SKILL.md'),
        'utf8',
      );
      return run(['skills', 'get', 'core']).then((core) => `${stub}\n${core.out}`);
    },
  };
}
