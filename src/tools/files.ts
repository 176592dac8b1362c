import { z } from 'zod';
import { invalidArgument } from '../errors.js';
import { keepSessionFile, readSessionFile, savePdf } from '../operations/state/files.js';
import { uploadFiles } from '../operations/act/upload.js';
import { loadUploadFiles, type UploadSource } from '../operations/act/upload-files.js';
import { dialogAnswerOf, dialogsField, downloadsField, publishDialogs } from './action-runner.js';
import { SettledOutput } from './action-schemas.js';
import { ACTION, agentView, defineTool, DESTRUCTIVE, type ToolOutput } from './define.js';
import { pageAddress, sessionAddress, targetFields } from './schemas.js';
import { SeedRef } from './seed-shapes.js';
import { stateStoreOf } from './state.js';
import { secretValuesOf } from '../redaction/typed-secrets.js';

/** Files in (upload) and out (downloads, PDFs): the opt-in `files` profile. */

export const MAX_FILES = 20;
const FILE_SHAPE = '{path} (absolute, under an upload root) | {name, mimeType?, base64}';

export const UploadFileSchema = z
  .union([
    z.object({ path: z.string().min(1).max(4096) }).strict(),
    z
      .object({
        name: z.string().min(1).max(255),
        mimeType: z.string().min(1).max(127).optional(),
        base64: z.string().max(400_000_000),
      })
      .strict(),
  ])
  .meta({ shape: FILE_SHAPE });

export const uploadTool = defineTool({
  name: 'browser_upload',
  title: 'Upload files',
  description:
    'Give files to a file input, or to a button/drop zone that opens the file chooser (ref or locator). Paths must be under the upload roots; otherwise send the content.',
  profile: 'files',
  input: z
    .object({
      ...pageAddress,
      ...targetFields,
      files: z.array(UploadFileSchema).min(1).max(MAX_FILES).describe('Files:'),
    })
    .strict(),
  output: z.object({
    completed: z.literal(true),
    files: z.number(),
    via: z.enum(['input', 'chooser', 'drop']),
    url: z.string().optional(),
    dialogs: z.array(z.string()).optional(),
  }),
  hints: ACTION,
  agent: agentView({
    name: 'browser_upload',
    description:
      'Give files to a file input, or a button/drop zone that opens the file chooser, by ref. Send the content ({name, mimeType, base64}); a {path} must be under the uploadRoots option.',
    input: z
      .object({
        ref: SeedRef,
        files: z.array(UploadFileSchema).min(1).max(MAX_FILES).describe('Files to give.'),
      })
      .strict(),
    toArgs: (args, at) => ({ ...at, ...args }),
    output: z.object({
      completed: z.literal(true),
      url: z.string().optional().describe('The new URL, when the action navigated.'),
      ...dialogsField,
      settled: SettledOutput.describe(
        'What the action caused and was awaited (only what happened): navigation, requests, mutations, waitedMs; absent when it caused nothing.',
      ),
      files: z.number().describe('How many files the element got.'),
      via: z.enum(['input', 'chooser', 'drop']).describe('How: set on the input, the chooser, or dropped.'),
    }),
  }),
  async handler(args, tool) {
    const { mesh, call, clientRoots } = tool;
    const config = mesh.config;
    const sources = args.files as UploadSource[];
    const needsRoots = sources.some((source) => 'path' in source);
    const roots = needsRoots ? [...config.uploadRoots, ...((await clientRoots?.()) ?? [])] : [];
    const files = await loadUploadFiles(sources, roots, config.uploadMaxBytes);
    const result = await mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'upload',
      (ctx) => uploadFiles(ctx, { ref: args.ref, locator: args.locator }, files),
      call,
    );
    return publishDialogs(result, dialogAnswerOf(tool));
  },
});

export const FileInfoSchema = z.object({
  fileId: z.string(),
  kind: z.enum(['download', 'pdf', 'trace', 'recording', 'spec']),
  name: z.string(),
  bytes: z.number(),
  mimeType: z.string().nullable(),
  state: z.enum(['in_progress', 'completed', 'failed', 'removed']),
  createdAt: z.string(),
});

export const MAX_READ_BYTES = 1_048_576;

export const filesTool = defineTool({
  name: 'browser_files',
  title: 'Session files',
  description:
    "A session's files (downloads, PDFs, traces, recordings): list them, read one (text inline, binary as an embedded resource; bounded, read on with offset), remove one, or keep one beside the saved states (it outlives the session).",
  profile: 'files',
  // Traces and recordings (watch) are fetched the same way as downloads.
  alsoIn: ['watch'],
  input: z
    .object({
      ...sessionAddress,
      action: z.enum(['list', 'read', 'remove', 'keep']).optional().describe('Default list.'),
      fileId: z.string().min(1).max(64).optional().describe('With read, remove, keep (a downloadId).'),
      offset: z.number().int().min(0).optional().describe('Byte offset to read from.'),
      maxBytes: z.number().int().min(1).max(MAX_READ_BYTES).optional().describe('Default 65536.'),
    })
    .strict(),
  output: z.object({
    files: z.array(FileInfoSchema).optional(),
    file: FileInfoSchema.optional(),
    text: z.string().optional(),
    truncated: z.boolean().optional(),
    totalBytes: z.number().optional(),
    nextOffset: z.number().optional(),
    removed: z.boolean().optional(),
    kept: z
      .object({ name: z.string(), bytes: z.number(), path: z.string().describe('Under the data directory.') })
      .optional(),
  }),
  hints: DESTRUCTIVE,
  // AgentBrowser's view: the thread's session; a binary file comes back as `base64`.
  agent: agentView({
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
    toArgs: (args, at) => ({ ...args, sessionId: at.sessionId }),
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
    toResult: ({ structured, resources }) =>
      resources[0] === undefined ? structured : { ...structured, base64: resources[0].blob },
  }),
  async handler(args, { mesh, call, services }) {
    const session = mesh.getSession(args.sessionId, call);
    const action = args.action ?? 'list';
    if (action === 'list') return { files: session.files.list() };
    if (args.fileId === undefined) throw invalidArgument('fileId', `is required with action ${action}`);
    if (action === 'keep')
      return { kept: await keepSessionFile(session.files, stateStoreOf(services), args.fileId) };
    if (action === 'remove') {
      session.files.get(args.fileId);
      await session.files.remove(args.fileId);
      return { removed: true };
    }
    const read = await readSessionFile(session.files, args.fileId, {
      offset: args.offset,
      maxBytes: args.maxBytes ?? 65_536,
      secretValues: secretValuesOf(session.secrets, session.id),
    });
    const { file, text, bytes, truncated, totalBytes, nextOffset } = read;
    const structured = { file, truncated, totalBytes, ...(nextOffset !== undefined ? { nextOffset } : {}) };
    if (text !== undefined) return { ...structured, text };
    const out: ToolOutput<typeof structured> = {
      structured,
      resources: [
        {
          uri: `browsermesh://sessions/${args.sessionId}/files/${file.fileId}`,
          mimeType: file.mimeType ?? 'application/octet-stream',
          blob: (bytes ?? Buffer.alloc(0)).toString('base64'),
        },
      ],
    };
    return out;
  },
});

export const pdfTool = defineTool({
  name: 'browser_pdf',
  title: 'Save as PDF',
  description:
    "Print the page to PDF (headless Chromium) into the session's files; read it with browser_files.",
  profile: 'files',
  input: z
    .object({
      ...pageAddress,
      landscape: z.boolean().optional(),
      format: z.enum(['A4', 'Letter']).optional().describe('Default A4.'),
    })
    .strict(),
  output: z.object({ ...downloadsField }),
  hints: ACTION,
  async handler(args, { mesh, call }) {
    const note = await mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'pdf',
      (ctx) => savePdf(ctx, { landscape: args.landscape, format: args.format }),
      call,
    );
    const { downloadId, name, bytes, mimeType, state } = note;
    return { downloads: [{ downloadId, name, bytes, mimeType, state }] };
  },
});
