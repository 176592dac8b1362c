import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { DownloadNote } from '../../engine/files/downloads.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { fileNotFound, type SessionFileInfo, type SessionFiles } from '../../engine/files/session-files.js';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { StateStore } from '../../persistence/store.js';
import { holdsSecret } from '../../redaction/binary-scan.js';

export interface FileRead {
  file: SessionFileInfo;
  /** UTF-8 text, for text files (by MIME type and valid UTF-8). */
  text?: string;
  /** Raw bytes, for everything else: published as an embedded resource, never inline JSON. */
  bytes?: Buffer;
  offset: number;
  truncated: boolean;
  totalBytes: number;
  /** Where to read on when truncated. */
  nextOffset?: number;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-ndjson|x-subrip)|image\/svg\+xml)/;

/** Reads a bounded slice of a session file: text inline when it is text, bytes otherwise. */
export async function readSessionFile(
  files: SessionFiles,
  fileId: string,
  options: {
    offset?: number | undefined;
    maxBytes: number;
    /** Values that must not come back (secrets, values typed into secret fields). */
    secretValues?: readonly string[] | undefined;
  },
): Promise<FileRead> {
  const file = files.get(fileId);
  const offset = options.offset ?? 0;
  const slice = await files.read(fileId, { offset, maxBytes: options.maxBytes });
  const base = {
    file,
    offset,
    truncated: slice.truncated,
    totalBytes: slice.totalBytes,
    ...(slice.truncated ? { nextOffset: offset + slice.bytes.length } : {}),
  };
  // A slice is redacted only at its ends, so slices read one after another could rebuild a secret
  // cut across them: any file whose whole content holds one is refused, text or bytes.
  if (await fileHoldsSecret(files, fileId, slice.totalBytes, options.secretValues ?? [])) {
    throw new BrowserMeshError(ErrorCodes.NOT_SUPPORTED, 'This file holds a secret and is not read back', {
      details: { field: 'fileId', reason: 'holds_secret' },
      recoveryHint: 'Keep the file (action "keep") and use it outside the conversation.',
    });
  }
  const text = TEXT_TYPES.test(file.mimeType ?? '') ? decodeUtf8(slice.bytes) : undefined;
  if (text !== undefined) return { ...base, text };
  return { ...base, bytes: slice.bytes };
}

/** One scan per file and set of values: a reader pages through a large file in many reads. */
const scans = new WeakMap<SessionFiles, Map<string, boolean>>();

async function fileHoldsSecret(
  files: SessionFiles,
  fileId: string,
  totalBytes: number,
  values: readonly string[],
): Promise<boolean> {
  if (!values.some((v) => v !== '')) return false;
  const key = `${fileId}\u0000${totalBytes}\u0000${values.length}\u0000${createHash('sha256').update(values.join('\u0000')).digest('hex')}`;
  let known = scans.get(files);
  if (!known) scans.set(files, (known = new Map()));
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const whole = await files.read(fileId, { maxBytes: totalBytes });
  const found = await holdsSecret(whole.bytes, values);
  known.set(key, found);
  return found;
}

/** Strict UTF-8; a character cut at the slice end is left for the next read (`stream`). */
function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return undefined;
  }
}

/**
 * Keeps a completed session file beside the saved states, where it outlives the session (its copy in
 * the session folder still goes when the session closes). Bounded by the saved-state quotas.
 */
export async function keepSessionFile(
  files: SessionFiles,
  store: StateStore,
  fileId: string,
): Promise<{ name: string; bytes: number; path: string }> {
  const file = files.get(fileId);
  if (file.state === 'in_progress') {
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'The file is still being written', {
      details: { field: 'fileId' },
      recoveryHint: 'List the files (browser_files) until it is completed, then keep it.',
    });
  }
  if (file.state !== 'completed') throw fileNotFound(fileId);
  return store.keepFile(file.bytes, (dir) => files.keep(fileId, dir));
}

export interface PdfOptions {
  landscape?: boolean | undefined;
  printBackground?: boolean | undefined;
  format?: 'A4' | 'Letter' | undefined;
}

/**
 * Prints the page to PDF (headless Chromium only) into the session's folder, reported like a
 * download. The bytes are counted against the session's file quotas like any download.
 */
export async function savePdf(ctx: PageOperationContext, options: PdfOptions): Promise<DownloadNote> {
  const page = ctx.page.page;
  const title = await page.title().catch(() => '');
  const { fileId, path } = await ctx.session.files.allocate('pdf', `${title.trim() || 'page'}.pdf`);
  try {
    const pdf = await page.pdf({
      format: options.format ?? 'A4',
      landscape: options.landscape ?? false,
      printBackground: options.printBackground ?? true,
    });
    await fs.writeFile(path, pdf, { mode: 0o600 });
  } catch (error) {
    await ctx.session.files.abort(fileId);
    throw new BrowserMeshError(ErrorCodes.NOT_SUPPORTED, 'This browser cannot print to PDF', {
      cause: error,
      recoveryHint: 'PDF needs headless Chromium: run without --headed, or take a browser_screenshot.',
    });
  }
  const info = await ctx.session.files.commit(fileId, { mimeType: 'application/pdf' });
  const note = { ...info, downloadId: info.fileId };
  // Reported on the result of the call, like a download it caused (browser_pdf, code mode's page.pdf).
  ctx.session.downloads.report(note);
  return note;
}
