import { extname } from 'node:path';
import type { Download, Request } from 'playwright-core';
import { isBrowserMeshError } from '../../errors.js';
import { capDownload } from './download-cap.js';
import { sanitizeFileName, type SessionFileInfo, type SessionFiles } from './session-files.js';

/** A download as a result reports it: the file's info plus, when refused, the error code. */
export interface DownloadNote extends SessionFileInfo {
  downloadId: string;
  /** Why it failed (e.g. LIMIT_EXCEEDED when over a quota), only when state is 'failed'. */
  errorCode?: string;
}

/** Content types Chromium saves rather than shows (with no attachment header). */
const DOWNLOAD_TYPES = /octet-stream|zip|x-tar|gzip|x-msdownload|x-7z/i;

/** How long an operation's result waits for a download it started to finish saving. */
const SETTLE_MS = 5000;

const MIME_BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.zip': 'application/zip',
};

/** Where a failed download is reported (the engine's logger; only `warn` is used). */
export interface DownloadLogger {
  warn(event: string, fields?: Record<string, unknown>): void;
}

/**
 * Saves every download of a session's pages into its SessionFiles and remembers which operation was
 * running when it began, so the result of the call that caused it can report it. Downloads begun
 * between operations are reported by nobody but still listed.
 */
export class DownloadTracker {
  private current: string | undefined;
  private readonly pending = new Map<string, Save[]>();
  private readonly settled = new Map<string, DownloadNote[]>();
  /** Per operation: its navigation requests, each resolving to whether it may have become a download. */
  private readonly navigations = new Map<string, Array<Promise<boolean>>>();
  private readonly onCapture = new Set<() => void>();

  constructor(
    private readonly files: SessionFiles,
    private readonly logger: DownloadLogger,
  ) {}

  /** Marks `operationId` as the operation now running on the session's queue. */
  begin(operationId: string): void {
    this.current = operationId;
  }

  /**
   * Waits (briefly, never past `remainingMs`) for the operation's downloads, and files them for `take`.
   * A link to an attachment starts its download only once the server answered, often after the action
   * itself settled: so the operation's navigation requests are awaited first (no wait when it made
   * none), then the downloads that answers announced.
   */
  async end(operationId: string, remainingMs: number): Promise<void> {
    try {
      await this.collect(operationId, remainingMs);
    } finally {
      // Cleared only now: a download announced while waiting still belongs to this operation.
      if (this.current === operationId) this.current = undefined;
    }
  }

  private async collect(operationId: string, remainingMs: number): Promise<void> {
    const until = Date.now() + Math.max(0, Math.min(SETTLE_MS, remainingMs));
    const navigations = this.navigations.get(operationId) ?? [];
    this.navigations.delete(operationId);
    if (navigations.length > 0) {
      const answers = await Promise.all(navigations.map((nav) => raceUntil(nav, until, false)));
      const expected = answers.filter(Boolean).length;
      await this.arrivals(() => (this.pending.get(operationId)?.length ?? 0) >= expected, until);
    }
    const saves = this.pending.get(operationId);
    if (!saves) return;
    this.pending.delete(operationId);
    // A download still saving is reported as in_progress; browser_files shows how it ended.
    const notes = await Promise.all(
      saves.map(async (save) => (await raceUntil(save.done, until, undefined)) ?? this.inProgress(save)),
    );
    this.file(
      operationId,
      notes.filter((n): n is DownloadNote => n !== undefined),
    );
  }

  /** Adds notes to what `take(operationId)` returns: an operation may end several times (code mode). */
  private file(operationId: string, notes: DownloadNote[]): void {
    if (notes.length > 0) this.settled.set(operationId, [...(this.settled.get(operationId) ?? []), ...notes]);
  }

  /** A file the running operation saved itself (a PDF), reported like a download it caused. */
  report(note: DownloadNote): void {
    if (this.current !== undefined) this.file(this.current, [note]);
  }

  /** Called for every page's `request` event: remembers the running operation's navigations. */
  watchRequest(request: Request): void {
    const operationId = this.current;
    if (operationId === undefined || !request.isNavigationRequest()) return;
    const mayDownload = request.response().then(
      (response) =>
        response !== null &&
        (/attachment/i.test(response.headers()['content-disposition'] ?? '') ||
          DOWNLOAD_TYPES.test(response.headers()['content-type'] ?? '')),
      () => false,
    );
    const list = this.navigations.get(operationId) ?? [];
    list.push(mayDownload);
    this.navigations.set(operationId, list);
  }

  private arrivals(done: () => boolean, until: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (!done() && Date.now() < until) return;
        this.onCapture.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.onCapture.delete(check);
        resolve();
      }, until - Date.now());
      this.onCapture.add(check);
    });
  }

  /** The downloads an operation caused (each reported once). */
  take(operationId: string): DownloadNote[] {
    const notes = this.settled.get(operationId) ?? [];
    this.settled.delete(operationId);
    return notes;
  }

  /** Called for every page's `download` event. */
  capture(download: Download): void {
    const key = this.current ?? '';
    const save: Save = { fileId: undefined, done: Promise.resolve(failedNote('BROWSER_ERROR', '')) };
    save.done = this.save(download, save);
    if (key === '') return;
    const list = this.pending.get(key) ?? [];
    list.push(save);
    this.pending.set(key, list);
    for (const check of [...this.onCapture]) check();
  }

  private inProgress(save: Save): DownloadNote | undefined {
    if (save.fileId === undefined) return undefined;
    const info = this.files.get(save.fileId);
    return { ...info, downloadId: info.fileId };
  }

  /** Never rejects: a failed save is a note with state 'failed' and the error's code. */
  private async save(download: Download, save: Save): Promise<DownloadNote> {
    let fileId: string | undefined;
    let over = false;
    const stopCap = capDownload(
      download,
      () => this.files.roomBytes(),
      () => (over = true),
    );
    try {
      const allocated = await this.files.allocate('download', download.suggestedFilename());
      fileId = save.fileId = allocated.fileId;
      await download.saveAs(allocated.path).catch((error: unknown) => {
        throw over ? this.files.overQuotaError() : error;
      });
      const name = this.files.get(fileId).name;
      const mimeType = MIME_BY_EXTENSION[extname(name).toLowerCase()] ?? 'application/octet-stream';
      const info = await this.files.commit(fileId, { mimeType, sourceUrl: download.url() });
      return { ...info, downloadId: info.fileId };
    } catch (error) {
      const code = isBrowserMeshError(error) ? error.code : 'BROWSER_ERROR';
      this.logger.warn('download_failed', { code });
      await download.delete().catch(() => undefined);
      if (fileId === undefined) return failedNote(code, sanitizeFileName(download.suggestedFilename()));
      await this.files.abort(fileId).catch(() => undefined);
      const info = this.files.get(fileId);
      return { ...info, downloadId: info.fileId, errorCode: code };
    } finally {
      stopCap();
    }
  }
}

/** `promise`'s value, or `fallback` once `until` (epoch ms) passes. */
async function raceUntil<T, F>(promise: Promise<T>, until: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), Math.max(0, until - Date.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Save {
  fileId: string | undefined;
  done: Promise<DownloadNote>;
}

function failedNote(code: string, name: string): DownloadNote {
  return {
    fileId: '',
    downloadId: '',
    kind: 'download',
    name,
    bytes: 0,
    mimeType: null,
    state: 'failed',
    createdAt: new Date().toISOString(),
    errorCode: code,
  };
}
