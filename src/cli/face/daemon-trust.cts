import { lstatSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';

/**
 * What a shell client checks before it trusts a daemon (docs/security.md, "The shell daemon and
 * other local users"): the client sends the daemon its command line, working directory and `run`
 * script, and writes the files the daemon hands back, so a socket another user could have put there
 * is never spoken to, and a file is written only where the command line asked. Node built-ins only:
 * the warm thin client loads it (test/e2e/cli-client-imports.test.ts lists it).
 */

/** The code a refused daemon folder, socket or file is reported with (exit status 1). */
export const UNTRUSTED = 'DAEMON_UNTRUSTED';

/**
 * Why the daemon's folder or socket must not be trusted, or undefined when both are safe or absent
 * (no socket: no daemon yet). Safe = a real folder and a real socket (never a symbolic link), owned
 * by this user, writable by nobody else. Without user ids (Windows) there is nothing to compare.
 */
export function untrustedDaemon(dir: string, socket: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  return untrustedEntry(dir, 'folder', uid) ?? untrustedEntry(socket, 'socket', uid);
}

function untrustedEntry(path: string, kind: 'folder' | 'socket', uid: number): string | undefined {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : `${path}: the daemon's ${kind} cannot be checked (${code})`;
  }
  if (stat.isSymbolicLink()) return `${path} is a symbolic link, not the daemon's ${kind}`;
  if (kind === 'folder' ? !stat.isDirectory() : !stat.isSocket()) return `${path} is not a ${kind}`;
  if (stat.uid !== uid) return `${path} belongs to uid ${stat.uid}, not to you (uid ${uid})`;
  const mode = stat.mode & 0o777;
  if ((mode & 0o022) !== 0)
    return `${path} is writable by ${mode & 0o002 ? 'other users' : 'its group'} (mode ${mode.toString(8)})`;
  return undefined;
}

/** What the client prints for a refused daemon (one line, a hint), as its other daemon errors. */
export function untrustedText(reason: string): string {
  return `${UNTRUSTED}: ${reason}\nhint: the daemon's folder must be yours alone (mode 700): remove it, or set BROWSERMESH_DATA_DIR to a folder of your own\n`;
}

/** A default output name (`defaultFile` in command-helpers.ts): browsermesh-<ISO time>.png|pdf. */
const DEFAULT_NAME = /^browsermesh-\d{4}-\d\d-\d\dT[\d-]+Z\.(png|pdf)$/;

/**
 * Whether the warm client's command line asked for a file at `path`: one of its words as a path
 * (absolute, or resolved against the working directory, as the command table reads it), or a
 * default output name in the working directory. The daemon parses the command; this keeps it from
 * naming any other place.
 */
export function askedFor(path: string, argv: readonly string[], cwd: string): boolean {
  if (argv.some((word) => word !== '' && (isAbsolute(word) ? word : resolve(cwd, word)) === path))
    return true;
  return isAbsolute(path) && dirname(path) === resolve(cwd) && DEFAULT_NAME.test(basename(path));
}
