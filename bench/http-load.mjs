// Loopback load test of the HTTP server's limits: the built CLI (`npm run build` first)
// with a token, on 127.0.0.1, attacked the way a hostile client would. Prints the server process's RSS
// before and after each phase, what each attempt got back, and the machine's load average.
//
//   node bench/http-load.mjs [--attempts 1000] [--concurrency 50] [--slow 200]
//
// Phases: `initialize` without a token, `initialize` with the token (max-clients, then the
// per-principal rate limit), and connections that send half a request header and then nothing.
// Only ever talks to 127.0.0.1. No browser is launched (warm-up off, no session is created).

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    attempts: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    slow: { type: 'string', default: '200' },
  },
});
const ATTEMPTS = Number(values.attempts);
const CONCURRENCY = Number(values.concurrency);
const SLOW = Number(values.slow);
const TOKEN = randomBytes(24).toString('hex');

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'load', version: '1' } },
});

function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

async function startServer() {
  const child = spawn(
    process.execPath,
    ['dist/cli/main.js', '--http', '--host', '127.0.0.1', '--port', '0', '--no-warm-up'],
    {
      env: { ...process.env, BROWSERMESH_HTTP_TOKEN: TOKEN, BROWSERMESH_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const url = await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error('the server did not start')), 30_000);
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const match = /Streamable HTTP at (http:\/\/\S+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', () => reject(new Error('the server exited')));
  });
  return { child, url };
}

function post(url, token) {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode));
        res.once('error', () => resolve('error'));
        // An accepted initialize may stream; its status is all this test needs.
        if (res.statusCode === 200) {
          res.destroy();
          resolve(200);
        }
      },
    );
    req.once('error', () => resolve('error'));
    req.end(INITIALIZE);
  });
}

async function burst(url, token) {
  const counts = {};
  let next = 0;
  const worker = async () => {
    while (next < ATTEMPTS) {
      next++;
      const status = await post(url, token);
      counts[status] = (counts[status] ?? 0) + 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { counts, ms: Date.now() - started };
}

/** Sockets that send half a header and then nothing: how long until the server closes each. */
async function slowHeaders(url) {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const closedAt = await Promise.all(
    Array.from(
      { length: SLOW },
      () =>
        new Promise((resolve) => {
          const socket = connect(Number(port), hostname, () =>
            socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '),
          );
          socket.on('data', () => undefined);
          socket.once('close', () => resolve(Date.now() - started));
          socket.once('error', () => undefined);
          // Safety net far beyond the server's limit: the harness never hangs.
          setTimeout(() => socket.destroy(), 120_000).unref();
        }),
    ),
  );
  return { maxClosedAfterMs: Math.max(...closedAt), minClosedAfterMs: Math.min(...closedAt) };
}

const { child, url } = await startServer();
const result = { attempts: ATTEMPTS, concurrency: CONCURRENCY, slowSockets: SLOW, phases: [] };
try {
  const phase = async (name, run) => {
    const before = rssMb(child.pid);
    const outcome = await run();
    result.phases.push({ name, rssBeforeMb: before, rssAfterMb: rssMb(child.pid), ...outcome });
  };
  await phase('initialize without a token', () => burst(url, undefined));
  await phase('initialize with the token', () => burst(url, TOKEN));
  await phase('half-sent headers', () => slowHeaders(url));
  result.loadAverage1m = Number(loadavg()[0].toFixed(2));
  result.cpus = (await import('node:os')).cpus().length;
} finally {
  child.kill('SIGTERM');
}
console.log(JSON.stringify(result, null, 2));
