import { constants, promises as fs } from 'node:fs';
import { extname, isAbsolute, sep } from 'node:path';
import { sanitizeFileName } from '../../engine/files/session-files.js';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';

/** A file to upload: a path on the server's disk, or its content (for clients that share no disk). */
export type UploadSource = { path: string } | { name: string; mimeType?: string | undefined; base64: string };

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.zip': 'application/zip',
};

const ROOTS_HINT =
  'Upload by content ({name, mimeType, base64}), or place the file under a folder the MCP client declares as a root or listed in BROWSERMESH_UPLOAD_ROOTS (--upload-roots; AgentBrowser: the uploadRoots option).';

/**
 * Loads the files of one upload call, all or nothing. A path is a security boundary: a page could talk
 * an agent into uploading `~/.ssh/id_ed25519`, so a path is accepted only when, after resolving every
 * symlink, it lies under one of `roots` (themselves resolved). Errors name the field, never the path.
 */
export async function loadUploadFiles(
  sources: readonly UploadSource[],
  roots: readonly string[],
  maxBytes: number,
): Promise<UploadFile[]> {
  const realRoots = await resolveRoots(roots);
  const files: UploadFile[] = [];
  let total = 0;
  for (const [i, source] of sources.entries()) {
    const field = `files.${i}`;
    const file =
      'path' in source
        ? await loadPath(source.path, realRoots, `${field}.path`, maxBytes - total)
        : fromContent(source, field, maxBytes - total);
    total += file.buffer.length;
    files.push(file);
  }
  return files;
}

async function resolveRoots(roots: readonly string[]): Promise<string[]> {
  const resolved = await Promise.all(roots.map((root) => fs.realpath(root).catch(() => undefined)));
  return resolved.filter((root): root is string => root !== undefined);
}

async function loadPath(path: string, roots: string[], field: string, budget: number): Promise<UploadFile> {
  if (!isAbsolute(path)) throw invalidArgument(field, 'must be an absolute path');
  const real = await fs.realpath(path).catch(() => undefined);
  if (real === undefined) throw invalidArgument(field, 'no such file');
  if (!roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))) {
    throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, `${field}: is outside the upload roots`, {
      details: { field, roots: roots.length },
      recoveryHint: ROOTS_HINT,
    });
  }
  // Only a regular file is opened: opening a FIFO (or a device) for reading blocks until a writer
  // comes, holding one of libuv's four pool threads, so four of them stalled all file and DNS work.
  const found = await fs.lstat(real).catch(() => undefined);
  if (!found) throw invalidArgument(field, 'no such file');
  if (!found.isFile()) throw invalidArgument(field, 'is not a regular file');
  // O_NOFOLLOW on the resolved path: a symlink swapped in after the check is refused, not followed;
  // O_NONBLOCK: a FIFO swapped in after the lstat opens at once (and is refused by the fstat below).
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await fs.open(real, flags).catch(() => undefined);
  if (!handle) throw invalidArgument(field, 'cannot be read');
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw invalidArgument(field, 'is not a regular file');
    if (stat.size > budget) throw tooLarge(field, budget);
    const buffer = await handle.readFile();
    if (buffer.length > budget) throw tooLarge(field, budget);
    const name = sanitizeFileName(real);
    return { name, mimeType: mimeOf(name), buffer };
  } finally {
    await handle.close();
  }
}

function fromContent(
  source: { name: string; mimeType?: string | undefined; base64: string },
  field: string,
  budget: number,
): UploadFile {
  const compact = source.base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
    throw invalidArgument(`${field}.base64`, 'is not valid base64');
  // Checked before decoding, so an oversize payload is never decoded.
  if (Math.floor((compact.length * 3) / 4) - 2 > budget) throw tooLarge(`${field}.base64`, budget);
  const buffer = Buffer.from(compact, 'base64');
  if (buffer.length > budget) throw tooLarge(`${field}.base64`, budget);
  const name = sanitizeFileName(source.name);
  return { name, mimeType: source.mimeType ?? mimeOf(name), buffer };
}

function mimeOf(name: string): string {
  return MIME_BY_EXTENSION[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

function tooLarge(field: string, budget: number): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, `${field}: the upload is over its size limit`, {
    details: { field, remainingBytes: Math.max(0, budget) },
    recoveryHint: 'Upload fewer or smaller files (BROWSERMESH_UPLOAD_MAX_BYTES bounds one call).',
  });
}
