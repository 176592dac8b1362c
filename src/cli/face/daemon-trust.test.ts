import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askedFor, untrustedDaemon, untrustedText } from './daemon-trust.cjs';

// What the shell client accepts of a daemon: its folder and socket, and the files it names.

describe('the files a daemon may have written', () => {
  const cwd = '/home/me/work';
  it('are the paths of the command line, absolute or from the working directory', () => {
    expect(askedFor('/home/me/work/shot.png', ['screenshot', 'shot.png'], cwd)).toBe(true);
    expect(askedFor('/home/me/work/b.png', ['screenshot', 'a/../b.png'], cwd)).toBe(true);
    expect(askedFor('/tmp/x.pdf', ['pdf', '/tmp/x.pdf'], cwd)).toBe(true);
    expect(askedFor('/home/me/work/dl.bin', ['files', 'save', 'f_abc', 'dl.bin'], cwd)).toBe(true);
  });

  it('or the default name in the working directory', () => {
    expect(askedFor('/home/me/work/browsermesh-2026-12-07T03-40-29-617Z.png', ['screenshot'], cwd)).toBe(
      true,
    );
    expect(askedFor('/home/me/work/browsermesh-2026-12-07T03-40-29-617Z.pdf', ['pdf'], cwd)).toBe(true);
  });

  it('and nothing else', () => {
    expect(askedFor('/home/me/.bashrc', ['screenshot', 'shot.png'], cwd)).toBe(false);
    expect(askedFor('/home/me/work/other.png', ['screenshot', 'shot.png'], cwd)).toBe(false);
    expect(askedFor('/tmp/browsermesh-2026-12-07T03-40-29-617Z.png', ['screenshot'], cwd)).toBe(false);
    expect(askedFor('/home/me/work/browsermesh-x.sh', ['screenshot'], cwd)).toBe(false);
    expect(askedFor('/home/me/work', ['screenshot', ''], cwd)).toBe(false);
  });
});

describe.skipIf(process.getuid === undefined)("the daemon's folder and socket", () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  const folder = (mode: number): { dir: string; socket: string } => {
    const dir = join(mkdtempSync(join(tmpdir(), 'bm-trust-')), 'cli');
    mkdirSync(dir);
    chmodSync(dir, mode);
    return { dir, socket: join(dir, 'daemon.sock') };
  };

  it('are trusted when private to this user, a missing socket included', async () => {
    const { dir, socket } = folder(0o700);
    expect(untrustedDaemon(dir, socket)).toBeUndefined();
    expect(untrustedDaemon(join(dir, 'absent'), join(dir, 'absent', 'daemon.sock'))).toBeUndefined();
    server = createServer();
    await new Promise<void>((resolve) => server?.listen(socket, resolve));
    chmodSync(socket, 0o600);
    expect(untrustedDaemon(dir, socket)).toBeUndefined();
  });

  it('are refused when others may write them, or the socket is not a socket', async () => {
    const open = folder(0o777);
    expect(untrustedDaemon(open.dir, open.socket)).toBe(`${open.dir} is writable by other users (mode 777)`);
    const group = folder(0o770);
    expect(untrustedDaemon(group.dir, group.socket)).toBe(`${group.dir} is writable by its group (mode 770)`);

    const plain = folder(0o700);
    writeFileSync(plain.socket, '');
    expect(untrustedDaemon(plain.dir, plain.socket)).toBe(`${plain.socket} is not a socket`);

    const shared = folder(0o700);
    server = createServer();
    await new Promise<void>((resolve) => server?.listen(shared.socket, resolve));
    chmodSync(shared.socket, 0o666);
    expect(untrustedDaemon(shared.dir, shared.socket)).toBe(
      `${shared.socket} is writable by other users (mode 666)`,
    );

    const linked = folder(0o700);
    symlinkSync(shared.socket, linked.socket);
    expect(untrustedDaemon(linked.dir, linked.socket)).toBe(
      `${linked.socket} is a symbolic link, not the daemon's socket`,
    );
    expect(untrustedText('why')).toMatch(/^DAEMON_UNTRUSTED: why\nhint: .+\n$/);
  });
});
