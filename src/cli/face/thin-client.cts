import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { thinClientEnv, thinDataDir } from '../../config/thin-client-env.cjs';
import { askedFor, untrustedDaemon, untrustedText } from './daemon-trust.cjs';
import type { ArgvAnswer, ArgvRequest } from './protocol.js' with { 'resolution-mode': 'import' };

/**
 * The warm path of a shell command (docs/cli.md, "The client is light"): the only module a command
 * loads besides main.js while a daemon runs. It finds the daemon's socket, sends the command line,
 * the working directory and the environment the settings read, and prints what the daemon answers;
 * parsing, `--help` and validation happen in the daemon, which loaded the command table once. Node
 * built-ins, its environment reader and the daemon check (daemon-trust.cts) only
 * (test/e2e/cli-client-imports.test.ts checks it). `undefined` hands the command to
 * the full client (src/cli/face/client.ts): no daemon answers, a config file names the data
 * directory, or the daemon said the command is the full client's — always before anything ran.
 */

/** The largest answer read, as protocol.ts's `MAX_LINE_BYTES` (unit-tested equal; not imported, to load nothing). */
export const MAX_ANSWER_CHARS = 96 * 1024 * 1024;

/** Whether argv may be a shell command this path can take (a word first, or a session/--json option). */
export function warmCandidate(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first === undefined) return false;
  if (!first.startsWith('-')) return !(first === 'daemon' && argv[1] === 'run');
  return first === '-s' || first === '--session' || first === '--json' || /^(-s|--session)=/.test(first);
}

export async function runWarm(argv: readonly string[]): Promise<number | undefined> {
  const dataDir = thinDataDir();
  if (dataDir === undefined) return undefined;
  // The daemon's socket (protocol.ts, `daemonPaths`, which this module does not load).
  const socketPath = join(dataDir, 'cli', 'daemon.sock');
  const untrusted = untrustedDaemon(dirname(socketPath), socketPath);
  if (untrusted !== undefined) return refuse(untrusted);
  const request: ArgvRequest = { argv: [...argv], cwd: process.cwd(), env: thinClientEnv() };
  let answer = await exchange(socketPath, request);
  if (answer !== undefined && 'stdin' in answer)
    answer = await exchange(socketPath, { ...request, stdin: readStdin() });
  if (answer === undefined || 'fallback' in answer || 'stdin' in answer) return undefined;
  if (answer.file) {
    if (!askedFor(answer.file.path, argv, request.cwd))
      return refuse(`the daemon named a file this command did not ask for: ${answer.file.path}`);
    mkdirSync(dirname(answer.file.path), { recursive: true });
    writeFileSync(answer.file.path, Buffer.from(answer.file.data, 'base64'));
  }
  if (answer.stderr !== '') process.stderr.write(answer.stderr);
  if (answer.stdout !== '') process.stdout.write(answer.stdout);
  return answer.exit;
}

function refuse(reason: string): number {
  process.stderr.write(untrustedText(reason));
  return 1;
}

/** Standard input for `run` (a heredoc); null from a terminal. */
function readStdin(): string | null {
  if (process.stdin.isTTY) return null;
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return null;
  }
}

/**
 * One request, one answer line. `undefined` when no daemon listens (nothing was sent); once the
 * request is sent, a broken connection is the daemon's failure, never a reason to send it again.
 */
function exchange(socketPath: string, request: ArgvRequest): Promise<ArgvAnswer | undefined> {
  return new Promise((done) => {
    const socket = createConnection(socketPath);
    let buffer = '';
    let connected = false;
    const failed = (message: string): ArgvAnswer => ({
      exit: 1,
      stdout: '',
      stderr: `DAEMON_FAILED: ${message}\nhint: browsermesh daemon restart\n`,
    });
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_ANSWER_CHARS) socket.destroy(new Error('answer too large'));
    });
    socket.once('end', () => {
      try {
        done(JSON.parse(buffer) as ArgvAnswer);
      } catch {
        done(failed('the daemon closed the connection without an answer'));
      }
    });
    socket.once('error', () => done(connected ? failed('the connection to the daemon broke') : undefined));
  });
}
