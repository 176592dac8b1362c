import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';

export type SessionFileKind = 'download' | 'pdf' | 'trace' | 'recording' | 'spec';
export type SessionFileState = 'in_progress' | 'completed' | 'failed' | 'removed';

export interface SessionFileInfo {
  fileId: string;
  kind: SessionFileKind;
  /** The sanitized file name inside the session folder (never a path). */
  name: string;
  bytes: number;
  mimeType: string | null;
  state: SessionFileState;
  createdAt: string;
}

/**
 * Bytes used by all sessions of one runtime. Reservations are synchronous, so two sessions committing
 * at once can never both squeeze under the limit.
 */
export class FileQuotaPool {
  private used = 0;
  constructor(readonly totalBytes: number) {}

  get usedBytes(): number {
    return this.used;
  }

  /** Takes `bytes` from the pool; false (and nothing taken) when that would pass the total. */
  reserve(bytes: number): boolean {
    if (this.used + bytes > this.totalBytes) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

export interface SessionFilesOptions {
  /** The data directory; the session's folder is `<root>/sessions/<sessionId>/`. */
  root: string;
  sessionId: string;
  quotaBytes: number;
  total: FileQuotaPool;
}

interface Entry {
  info: SessionFileInfo;
  path: string;
  sourceUrl: string | null;
}

const MAX_NAME_BYTES = 120;
// C0/C1 controls, bidi overrides/isolates and zero-width marks: they disguise a name's real extension.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const HIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;
const RESERVED_CHARS = /[<>:"|?*]/g;

/** Basename only, no hidden characters, no leading dots, at most MAX_NAME_BYTES of UTF-8. */
export function sanitizeFileName(suggested: string): string {
  const base = suggested.normalize('NFC').split(/[/\\]/).pop() ?? '';
  let name = base.replace(HIDDEN_CHARS, '').replace(RESERVED_CHARS, '_').trim();
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (name === '') name = 'file';
  return truncateName(name, MAX_NAME_BYTES);
}

/** Cuts the stem, keeping a short extension, so the name fits in `maxBytes` of UTF-8. */
function truncateName(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name) <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let stem = Array.from(name.slice(0, name.length - ext.length));
  while (stem.length > 0 && Buffer.byteLength(stem.join('') + ext) > maxBytes) stem = stem.slice(0, -1);
  return (stem.join('') || 'file') + ext;
}

function withSuffix(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

export function fileNotFound(fileId: string): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.FILE_NOT_FOUND, 'No such file in this session', {
    details: { fileId },
    recoveryHint: 'List the session files (browser_files) to see what is there.',
  });
}

/**
 * One session's private folder for downloads, PDFs, traces and recordings, bounded by a per-session
 * quota and a runtime-wide pool. Files are addressed by `fileId`, never by a caller's path: every name
 * is sanitized and every path is checked to stay inside the folder. The folder is created lazily
 * (0700) and removed by `dispose` unless kept. Errors never carry paths or file content.
 */
export class SessionFiles {
  readonly folder: string;
  private readonly entries = new Map<string, Entry>();
  private readonly names = new Set<string>();
  private usedBytes = 0;
  private disposed = false;

  constructor(private readonly opts: SessionFilesOptions) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(opts.sessionId)) throw new Error('session id unsafe as a folder name');
    this.folder = resolve(opts.root, 'sessions', opts.sessionId);
  }

  /** Reserves a sanitized, unique path for a new file; nothing is written yet. */
  async allocate(kind: SessionFileKind, suggestedName: string): Promise<{ fileId: string; path: string }> {
    this.assertOpen();
    if (this.usedBytes >= this.opts.quotaBytes) throw this.quotaError('session', this.opts.quotaBytes);
    await this.ensureFolder();
    const name = await this.uniqueName(sanitizeFileName(suggestedName));
    const path = this.inside(name);
    const fileId = `f_${randomBytes(6).toString('base64url')}`;
    const info: SessionFileInfo = {
      fileId,
      kind,
      name,
      bytes: 0,
      mimeType: null,
      state: 'in_progress',
      createdAt: new Date().toISOString(),
    };
    this.names.add(name);
    this.entries.set(fileId, { info, path, sourceUrl: null });
    return { fileId, path };
  }

  /** Stats the written file and counts it; over either quota the file is deleted (LIMIT_EXCEEDED). */
  async commit(
    fileId: string,
    meta: { mimeType?: string; sourceUrl?: string } = {},
  ): Promise<SessionFileInfo> {
    const entry = this.entry(fileId);
    if (entry.info.state !== 'in_progress') return { ...entry.info };
    const stat = await fs.lstat(entry.path).catch(() => undefined);
    if (!stat?.isFile()) {
      await this.abort(fileId);
      throw new BrowserMeshError(ErrorCodes.BROWSER_ERROR, 'The file was not written', {
        details: { fileId },
      });
    }
    if (this.usedBytes + stat.size > this.opts.quotaBytes) {
      await this.abort(fileId);
      throw this.quotaError('session', this.opts.quotaBytes);
    }
    if (!this.opts.total.reserve(stat.size)) {
      await this.abort(fileId);
      throw this.quotaError('total', this.opts.total.totalBytes);
    }
    this.usedBytes += stat.size;
    entry.info.bytes = stat.size;
    entry.info.mimeType = meta.mimeType ?? null;
    entry.info.state = 'completed';
    entry.sourceUrl = meta.sourceUrl ?? null;
    return { ...entry.info };
  }

  /** Bytes one more file may take before either quota refuses it (a download still landing). */
  roomBytes(): number {
    const total = this.opts.total;
    return Math.max(0, Math.min(this.opts.quotaBytes - this.usedBytes, total.totalBytes - total.usedBytes));
  }

  /** The LIMIT_EXCEEDED a file that outgrew {@link roomBytes} gets, naming the quota that is tighter. */
  overQuotaError(): BrowserMeshError {
    const total = this.opts.total;
    const sessionRoom = this.opts.quotaBytes - this.usedBytes;
    return sessionRoom <= total.totalBytes - total.usedBytes
      ? this.quotaError('session', this.opts.quotaBytes)
      : this.quotaError('total', total.totalBytes);
  }

  /** Gives up on an allocated file: deletes what was written and marks it failed. */
  async abort(fileId: string): Promise<void> {
    const entry = this.entry(fileId);
    if (entry.info.state !== 'in_progress') return;
    entry.info.state = 'failed';
    await fs.rm(entry.path, { force: true });
  }

  /** Files not removed, oldest first. */
  list(kind?: SessionFileKind): SessionFileInfo[] {
    return [...this.entries.values()]
      .filter((e) => e.info.state !== 'removed' && (kind === undefined || e.info.kind === kind))
      .map((e) => ({ ...e.info }));
  }

  get(fileId: string): SessionFileInfo {
    return { ...this.entry(fileId).info };
  }

  /** Reads at most `maxBytes` from `offset` of a completed file. */
  async read(
    fileId: string,
    opts: { offset?: number; maxBytes: number },
  ): Promise<{ bytes: Buffer; truncated: boolean; totalBytes: number }> {
    const entry = this.entry(fileId);
    if (entry.info.state !== 'completed') throw fileNotFound(fileId);
    const offset = Math.max(0, opts.offset ?? 0);
    const handle = await fs.open(entry.path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const totalBytes = (await handle.stat()).size;
      const length = Math.max(0, Math.min(opts.maxBytes, totalBytes - offset));
      const bytes = Buffer.alloc(length);
      const { bytesRead } = length > 0 ? await handle.read(bytes, 0, length, offset) : { bytesRead: 0 };
      return { bytes: bytes.subarray(0, bytesRead), truncated: offset + bytesRead < totalBytes, totalBytes };
    } finally {
      await handle.close();
    }
  }

  async remove(fileId: string): Promise<void> {
    const entry = this.entry(fileId);
    if (entry.info.state === 'removed') return;
    if (entry.info.state === 'completed') this.releaseBytes(entry.info.bytes);
    entry.info.state = 'removed';
    this.names.delete(entry.info.name);
    await fs.rm(entry.path, { force: true });
  }

  /** Copies a completed file into `destDir` (created 0700) under a unique name; returns the new path. */
  async keep(fileId: string, destDir: string): Promise<string> {
    const entry = this.entry(fileId);
    if (entry.info.state !== 'completed') throw fileNotFound(fileId);
    await fs.mkdir(destDir, { recursive: true, mode: 0o700 });
    for (let n = 1; n < 1000; n++) {
      const target = join(destDir, n === 1 ? entry.info.name : withSuffix(entry.info.name, n));
      try {
        await fs.copyFile(entry.path, target, constants.COPYFILE_EXCL);
        return target;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, 'Too many files with that name', {
      details: { fileId },
    });
  }

  /** Frees the quota and deletes the folder unless `keepAll`. Repeat calls do nothing. */
  async dispose(opts: { keepAll?: boolean } = {}): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.releaseBytes(this.usedBytes);
    if (!opts.keepAll) await fs.rm(this.folder, { recursive: true, force: true });
  }

  private entry(fileId: string): Entry {
    const entry = this.entries.get(fileId);
    if (!entry) throw fileNotFound(fileId);
    return entry;
  }

  private releaseBytes(bytes: number): void {
    this.usedBytes -= bytes;
    this.opts.total.release(bytes);
  }

  private assertOpen(): void {
    if (this.disposed) {
      throw new BrowserMeshError(ErrorCodes.SESSION_CLOSED, 'The session files are closed', {
        details: { sessionId: this.opts.sessionId },
      });
    }
  }

  /** Creates the folder 0700 and refuses one that is a symlink (it could point anywhere). */
  private async ensureFolder(): Promise<void> {
    await fs.mkdir(this.folder, { recursive: true, mode: 0o700 });
    const stat = await fs.lstat(this.folder);
    if (!stat.isDirectory() || (await fs.realpath(this.folder)) !== this.folder) {
      throw new BrowserMeshError(ErrorCodes.INTERNAL_ERROR, 'The session folder is not a plain directory');
    }
  }

  private async uniqueName(name: string): Promise<string> {
    for (let n = 1; n < 10_000; n++) {
      const candidate = n === 1 ? name : truncateName(withSuffix(name, n), MAX_NAME_BYTES);
      if (this.names.has(candidate)) continue;
      const exists = await fs.lstat(join(this.folder, candidate)).then(
        () => true,
        () => false,
      );
      if (!exists) return candidate;
    }
    throw new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, 'Too many files with that name');
  }

  /** The path of `name` in the folder; throws if it would resolve anywhere else. */
  private inside(name: string): string {
    const path = resolve(this.folder, name);
    if (!path.startsWith(this.folder + sep))
      throw new BrowserMeshError(ErrorCodes.INTERNAL_ERROR, 'Unsafe file name');
    return path;
  }

  private quotaError(scope: 'session' | 'total', limit: number): BrowserMeshError {
    return new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, `The ${scope} file quota would be exceeded`, {
      details: { limit, field: scope === 'session' ? 'sessionFileQuotaBytes' : 'totalFileQuotaBytes' },
      recoveryHint: 'Remove files you no longer need (browser_files action=remove) or raise the quota.',
    });
  }
}
