import { z } from 'zod';
import { readSessionFile } from '../../operations/state/files.js';
import { secretValuesOf } from '../../redaction/typed-secrets.js';
import { uploadFiles } from '../../operations/act/upload.js';
import { loadUploadFiles, type UploadSource } from '../../operations/act/upload-files.js';
import { invalidArgument } from '../../errors.js';
import { FileInfoSchema, MAX_FILES, MAX_READ_BYTES, UploadFileSchema } from '../../tools/files.js';
import { publishDialogs } from '../../tools/action-runner.js';
import { defineAgentTool } from '../tool-types.js';
import { ActionOutput } from './element.js';
import { Ref } from './schemas.js';

/**
 * Files in and out for AgentBrowser, over the MCP tools' own operations: `browser_upload` gives files
 * to the element a ref names; `browser_files` lists, reads and removes what the thread's session
 * downloaded (downloads are also reported on the result of the action that caused them).
 */

export const uploadTool = defineAgentTool({
  name: 'browser_upload',
  description:
    'Give files to a file input, or a button/drop zone that opens the file chooser, by ref. Send the content ({name, mimeType, base64}); a {path} must be under the uploadRoots option.',
  input: z
    .object({
      ref: Ref,
      files: z.array(UploadFileSchema).min(1).max(MAX_FILES).describe('Files to give.'),
    })
    .strict(),
  output: ActionOutput.omit({ downloads: true }).extend({
    files: z.number().describe('How many files the element got.'),
    via: z.enum(['input', 'chooser', 'drop']).describe('How: set on the input, the chooser, or dropped.'),
  }),
  async handler(args, call) {
    const { mesh } = await call.view();
    const sources = args.files as UploadSource[];
    // Files are read (and paths checked against the roots) before the call takes its turn on the queue.
    const files = await loadUploadFiles(sources, mesh.config.uploadRoots, mesh.config.uploadMaxBytes);
    return publishDialogs(
      await call.onPage('upload', (ctx) => uploadFiles(ctx, { ref: args.ref }, files)),
      'browser_dialog',
    );
  },
});

export const filesTool = defineAgentTool({
  name: 'browser_files',
  description:
    "This thread's downloads: list them, read one (text inline, binary as base64; bounded, read on with offset) or remove one. Actions report their downloads with a downloadId.",
  input: z
    .object({
      action: z.enum(['list', 'read', 'remove']).optional().describe('Default list.'),
      fileId: z.string().min(1).max(64).optional().describe('With read and remove: a downloadId.'),
      offset: z.number().int().min(0).optional().describe('Byte offset to read from.'),
      maxBytes: z.number().int().min(1).max(MAX_READ_BYTES).optional().describe('Default 65536.'),
    })
    .strict(),
  output: z.object({
    files: z.array(FileInfoSchema).optional(),
    file: FileInfoSchema.optional(),
    text: z.string().optional().describe('A text file, inline.'),
    base64: z.string().optional().describe('Any other file, base64.'),
    truncated: z.boolean().optional(),
    totalBytes: z.number().optional(),
    nextOffset: z.number().optional(),
    removed: z.boolean().optional(),
  }),
  async handler(args, call) {
    const view = await call.view();
    const session = view.mesh.getSession(view.sessionId);
    const files = session.files;
    const action = args.action ?? 'list';
    if (action === 'list') return { files: files.list() };
    if (args.fileId === undefined) throw invalidArgument('fileId', `is required with action ${action}`);
    if (action === 'remove') {
      files.get(args.fileId);
      await files.remove(args.fileId);
      return { removed: true };
    }
    const read = await readSessionFile(files, args.fileId, {
      offset: args.offset,
      maxBytes: args.maxBytes ?? 65_536,
      secretValues: secretValuesOf(session.secrets, view.sessionId),
    });
    const { file, text, bytes, truncated, totalBytes, nextOffset } = read;
    return {
      file,
      truncated,
      totalBytes,
      ...(nextOffset === undefined ? {} : { nextOffset }),
      ...(text === undefined ? { base64: (bytes ?? Buffer.alloc(0)).toString('base64') } : { text }),
    };
  },
});
