import { toError, type CallTool } from './executor-shared.js';
import type { CliAction, CliResponse } from './protocol.js';

/** Commands that end in a file on the user's disk: the daemon fetches the bytes, the client writes them. */

const READ_CHUNK = 1_048_576;
/** A session file larger than this is left in `files` (keep it) rather than streamed through the socket. */
const MAX_FILE_BYTES = 64 * 1_048_576;

export async function fetchFile(
  call: CallTool,
  page: { sessionId: string; pageId: string },
  action: Extract<CliAction, { kind: 'file' }>,
): Promise<CliResponse> {
  if (action.source === 'screenshot') {
    const shot = await call('browser_screenshot', { ...page, ...action.args });
    if (!shot.ok) return toError(shot);
    const image = shot.images[0];
    if (!image) return { ok: false, code: 'INTERNAL_ERROR', message: 'the screenshot made no image' };
    const { width, height } = shot.structured as { width: number; height: number };
    return {
      ok: true,
      text: `${action.path} (${width}x${height})`,
      structured: { ...shot.structured, path: action.path },
      file: { path: action.path, data: image.data },
    };
  }
  let fileId = String(action.args.fileId ?? '');
  if (action.source === 'pdf') {
    const pdf = await call('browser_pdf', { ...page, ...action.args });
    if (!pdf.ok) return toError(pdf);
    fileId = (pdf.structured as { downloads: Array<{ downloadId: string }> }).downloads[0]?.downloadId ?? '';
  }
  return readWhole(call, page.sessionId, fileId, action.path);
}

/** Reads a session file in bounded chunks (the tool's own bound), as one blob for the client. */
async function readWhole(
  call: CallTool,
  sessionId: string,
  fileId: string,
  path: string,
): Promise<CliResponse> {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const read = await call('browser_files', {
      sessionId,
      action: 'read',
      fileId,
      offset,
      maxBytes: READ_CHUNK,
    });
    if (!read.ok) return toError(read);
    const structured = read.structured as { text?: string; nextOffset?: number; totalBytes?: number };
    const blob = read.resources[0]?.blob;
    chunks.push(
      blob !== undefined ? Buffer.from(blob, 'base64') : Buffer.from(structured.text ?? '', 'utf8'),
    );
    if ((structured.totalBytes ?? 0) > MAX_FILE_BYTES)
      return {
        ok: false,
        code: 'LIMIT_EXCEEDED',
        message: `file ${fileId} is larger than 64 MiB`,
        hint: `keep it instead: browsermesh files keep ${fileId}`,
      };
    if (structured.nextOffset === undefined) break;
    offset = structured.nextOffset;
  }
  const data = Buffer.concat(chunks);
  return {
    ok: true,
    text: `${path} (${data.length} bytes)`,
    structured: { fileId, path, bytes: data.length },
    file: { path, data: data.toString('base64') },
  };
}
