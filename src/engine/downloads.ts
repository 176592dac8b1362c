import { extname } from 'node:path';
import type { Download } from 'playwright-core';
import { isBrowserMeshError } from '../errors.js';
import type { Logger } from './logger.js';
import { sanitizeFileName, type SessionFileInfo, type SessionFiles } from './session-files.js';

/** A download as a result reports it: the file's info plus, when refused, the error code. */
export interface DownloadNote extends SessionFileInfo {
  downloadId: string;
  /** Why it failed (e.g. LIMIT_EXCEEDED when over a quota), only when state is 'failed'. */
  errorCode?: string;
}

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

/**
 * Saves every download of a session's pages into its SessionFiles and remembers which operation was
 * running when it began, so the result of the call that caused it can report it. Downloads begun
 * between operations are reported by nobody but still listed.
 */
export class DownloadTracker {
  private current: string | undefined;
  private readonly pending = new Map<string, Save[]>();
  private readonly settled = new Map<string, DownloadNote[]>();

  constructor(
    private readonly files: SessionFiles,
    private readonly logger: Logger,
  ) {}

  /** Marks `operationId` as the operation now running on the session's queue. */
  begin(operationId: string): void {
    this.current = operationId;
  }

  /** Waits (briefly, never past `remainingMs`) for the operation's downloads, and files them for `take`. */
  async end(operationId: string, remainingMs: number): Promise<void> {
    if (this.current === operationId) this.current = undefined;
    const saves = this.pending.get(operationId);
    if (!saves) return;
    this.pending.delete(operationId);
    const waitMs = Math.max(0, Math.min(SETTLE_MS, remainingMs));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), waitMs);
    });
    // A download still saving is reported as in_progress; browser_files shows how it ended.
    const notes = await Promise.all(
      saves.map(async (save) => (await Promise.race([save.done, timeout])) ?? this.inProgress(save)),
    );
    clearTimeout(timer);
    this.settled.set(
      operationId,
      notes.filter((n): n is DownloadNote => n !== undefined),
    );
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
  }

  private inProgress(save: Save): DownloadNote | undefined {
    if (save.fileId === undefined) return undefined;
    const info = this.files.get(save.fileId);
    return { ...info, downloadId: info.fileId };
  }

  /** Never rejects: a failed save is a note with state 'failed' and the error's code. */
  private async save(download: Download, save: Save): Promise<DownloadNote> {
    let fileId: string | undefined;
    try {
      const allocated = await this.files.allocate('download', download.suggestedFilename());
      fileId = save.fileId = allocated.fileId;
      await download.saveAs(allocated.path);
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
    }
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
