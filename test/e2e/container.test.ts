import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { SETTINGS } from '../../src/config/settings.js';
import { waitFor } from './cli-helpers.js';

// No container runtime here, so the Dockerfile and compose.yaml are checked for what can be
// checked: they parse, every command and flag is one the CLI accepts, the files they copy exist, and
// the image's health check command works against the real built CLI.

// js-yaml comes with the dev tools (eslint) and has no types of its own; the test needs only load().
const { load } = createRequire(import.meta.url)('js-yaml') as { load: (text: string) => unknown };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'container-token-0123456789abcdef';
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

/** Instructions of the final stage, continuation lines joined. */
function instructions(text: string): Array<{ op: string; args: string }> {
  const joined = text.replace(/\\\n\s*/g, ' ');
  const lines = joined.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  return lines.map((line) => {
    const [op = '', ...rest] = line.trim().split(/\s+/);
    return { op: op.toUpperCase(), args: rest.join(' ') };
  });
}

const all = instructions(dockerfile);
const lastFrom = all.map((i) => i.op).lastIndexOf('FROM');
const final = all.slice(lastFrom);
const one = (op: string): string => final.find((i) => i.op === op)?.args ?? '';

function envOf(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of final.filter((i) => i.op === 'ENV'))
    for (const match of args.matchAll(/(\w+)=(\S+)/g)) env[match[1]!] = match[2]!;
  return env;
}

/**
 * The final stage's files as the image lays them out under WORKDIR: each COPY's sources, from the
 * build stage's /app (this checkout, built) or the build context. Files are copied, so the server
 * finds what sits next to dist/ in the image, not in the checkout; node_modules is linked (only
 * packages are read from it).
 */
function imageLayout(): string {
  const app = mkdtempSync(join(tmpdir(), 'bm-image-'));
  for (const { args } of final.filter((i) => i.op === 'COPY')) {
    const parts = args.split(/\s+/).filter((part) => !part.startsWith('--'));
    const target = parts.pop() ?? '.';
    for (const source of parts) {
      const from = join(ROOT, source.replace(/^\/app\//, ''));
      const to = target.endsWith('/') ? join(app, target, basename(from)) : join(app, target);
      if (basename(from) === 'node_modules') symlinkSync(from, to);
      else cpSync(from, to, { recursive: true });
    }
  }
  return app;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('Dockerfile', () => {
  it('runs the built CLI with flags and variables the CLI accepts, and needs the token from the environment', () => {
    expect(JSON.parse(one('ENTRYPOINT'))).toEqual(['node', 'dist/cli/main.js']);
    const flags = JSON.parse(one('CMD')) as string[];
    const env = envOf();
    const known = new Set(SETTINGS.map((spec) => spec.env));
    for (const name of Object.keys(env).filter((n) => n.startsWith('BROWSERMESH_')))
      expect(known).toContain(name);
    expect(loadConfig(flags, { ...env, BROWSERMESH_HTTP_TOKEN: TOKEN }).config).toMatchObject({
      http: true,
      httpHost: '0.0.0.0',
      executablePath: '/usr/bin/chromium',
    });
    expect(() => loadConfig(flags, env)).toThrow(ConfigError);
    expect(one('USER')).toBe('browsermesh');
    expect(final.some((i) => i.args.includes('no-sandbox'))).toBe(false);
  });

  it('copies only files that exist', () => {
    for (const { args } of all.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
      const sources = args.split(/\s+/).slice(0, -1);
      for (const source of sources) expect(existsSync(join(ROOT, source)), source).toBe(true);
    }
  });

  it('has a health check that passes against the server in the image layout (dashboard too), not with a wrong token', async () => {
    const check = JSON.parse(one('HEALTHCHECK').replace(/^.*?CMD\s+/, '')) as string[];
    expect(check[0]).toBe('node');
    expect(check[2]).toContain('/dashboard/');
    const app = imageLayout();
    const port = await freePort();
    // The image binds 0.0.0.0 inside its own network namespace; on this host the test stays on loopback.
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      BROWSERMESH_HTTP_TOKEN: TOKEN,
      BROWSERMESH_HTTP_PORT: String(port),
      BROWSERMESH_DASHBOARD: envOf().BROWSERMESH_DASHBOARD ?? '',
    };
    const server = spawn(process.execPath, [join(app, 'dist/cli/main.js'), '--http', '--host', '127.0.0.1'], {
      cwd: app,
      env,
      stdio: 'pipe',
    });
    let stderr = '';
    server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      expect(await waitFor(() => stderr.includes('MCP over Streamable HTTP at'))).toBe(true);
      const run = (extra: Record<string, string>): number | null =>
        spawnSync(process.execPath, check.slice(1), { env: { ...env, ...extra }, timeout: 10_000 }).status;
      expect(run({}), stderr).toBe(0);
      expect(run({ BROWSERMESH_HTTP_TOKEN: 'wrong-token-0123456789abcdef' })).toBe(1);
      const shell = await fetch(`http://127.0.0.1:${port}/dashboard/`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(shell.status).toBe(200);
      expect(await shell.text()).toContain('<html');
    } finally {
      server.kill('SIGTERM');
      rmSync(app, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('compose.yaml', () => {
  const compose = load(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as {
    services: Record<
      string,
      {
        image?: string;
        build?: string;
        command?: string[];
        ports?: string[];
        environment?: Record<string, string>;
      }
    >;
  };

  it('runs a Selenium Grid 4 hub, Chromium nodes and BrowserMesh pointed at the hub', () => {
    const { services } = compose;
    expect(services['selenium-hub']?.image).toMatch(/^selenium\/hub:4\./);
    expect(services.chromium?.image).toMatch(/^selenium\/node-chromium:4\./);
    const mesh = services.browsermesh!;
    expect(mesh.build).toBe('.');
    const { config } = loadConfig(mesh.command ?? [], { BROWSERMESH_HTTP_TOKEN: TOKEN });
    expect(config).toMatchObject({
      provider: 'selenium',
      http: true,
      seleniumUrl: 'http://selenium-hub:4444',
    });
    expect(Object.keys(mesh.environment ?? {})).toEqual(['BROWSERMESH_HTTP_TOKEN']);
    // Published ports stay on the host's loopback.
    for (const service of Object.values(services))
      for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
  });
});

// The lines added for a container that runs (init, fonts, sandbox trade-off, restarts, the
// cluster example's resources, security context and readiness probe), each checked for what it claims.
describe('the lines for a container that runs', () => {
  const comments = dockerfile
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .join('\n');

  it('documents an init process, the fonts and the sandbox trade-off, with settings the CLI accepts', () => {
    const runLine = /docker run (--init [^\n]*)/.exec(comments)?.[1] ?? '';
    expect(runLine).toContain('--shm-size');
    const env = envOf();
    expect(env.BROWSERMESH_CHROMIUM_SANDBOX).toBe('off');
    const flags = JSON.parse(one('CMD')) as string[];
    expect(loadConfig(flags, { ...env, BROWSERMESH_HTTP_TOKEN: TOKEN }).config.chromiumSandbox).toBe('off');
    // The documented way back to Chromium's sandbox names a real setting and value.
    const onLine = /-e (BROWSERMESH_CHROMIUM_SANDBOX)=(\w+)/.exec(comments);
    expect(onLine?.slice(1)).toEqual(['BROWSERMESH_CHROMIUM_SANDBOX', 'on']);
    expect(loadConfig([], { BROWSERMESH_CHROMIUM_SANDBOX: 'on' }).config.chromiumSandbox).toBe('on');
    expect(comments).toContain('--security-opt seccomp=');
    // `docker run … browsermesh --doctor`: a command the CLI has.
    expect(comments).toMatch(/docker run --rm --init browsermesh --doctor/);
    expect(loadConfig(['--doctor'], {}).command).toBe('doctor');
    const install = final.find((i) => i.op === 'RUN' && i.args.includes('apt-get install'))?.args ?? '';
    for (const pkg of ['chromium', 'fonts-noto-cjk', 'fonts-noto-color-emoji'])
      expect(install).toContain(pkg);
    // Unpinned on purpose (no offline digest source): the note says how to pin it.
    expect(comments).toMatch(/@sha256:<digest>/);
  });

  it('compose: init, a restart policy, and the node told where the Grid is', () => {
    const compose = load(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as {
      services: Record<string, { init?: boolean; restart?: string; environment?: Record<string, string> }>;
    };
    const { services } = compose;
    expect(services.browsermesh?.init).toBe(true);
    for (const service of Object.values(services)) expect(service.restart).toBe('unless-stopped');
    expect(services.chromium?.environment?.SE_NODE_GRID_URL).toBe('http://selenium-hub:4444');
  });

  it('the Kubernetes example: resources, a locked-down security context, a readiness probe that works', () => {
    const scale = readFileSync(join(ROOT, 'docs/scale.md'), 'utf8');
    const block = /```yaml\n(apiVersion: apps\/v1[\s\S]*?)```/.exec(scale)?.[1] ?? '';
    const deployment = load(block) as {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    const container = deployment.spec.template.spec.containers[0] as {
      args: string[];
      resources: { requests: Record<string, string>; limits: Record<string, string> };
      securityContext: Record<string, unknown>;
      readinessProbe: { exec: { command: string[] } };
    };
    expect(loadConfig(container.args, { BROWSERMESH_HTTP_TOKEN: TOKEN }).config).toMatchObject({
      provider: 'selenium',
      http: true,
    });
    expect(Object.keys(container.resources.requests).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(container.resources.limits).sort()).toEqual(['cpu', 'memory']);
    expect(container.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 10001,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    // The image's user is that uid.
    expect(dockerfile).toContain('useradd --create-home --uid 10001 browsermesh');
    // The readiness probe is the image's health check, pinned to the default port.
    const check = JSON.parse(one('HEALTHCHECK').replace(/^.*?CMD\s+/, '')) as string[];
    expect(container.readinessProbe.exec.command[0]).toBe('node');
    expect(container.readinessProbe.exec.command[2]).toContain('/healthz');
    expect(check[2]).toContain('/healthz');
  });
});
