import { z } from 'zod';
import type { SessionFileInfo } from '../engine/files/session-files.js';
import { recordingsOf } from '../engine/media/session-recordings.js';
import { traceOf } from '../engine/tracing.js';
import { invalidArgument } from '../errors.js';
import { defineTool, IDEMPOTENT_ACTION } from './define.js';
import { PageId, sessionAddress } from './schemas.js';

const Action = z.enum(['start', 'stop']);
/** A stored file as results report it: addressed by fileId, never by a server path. */
const FileOut = z.object({
  fileId: z.string(),
  name: z.string(),
  bytes: z.number().int(),
  mimeType: z.string().nullable(),
});

const toFileOut = (file: SessionFileInfo): z.infer<typeof FileOut> => ({
  fileId: file.fileId,
  name: file.name,
  bytes: file.bytes,
  mimeType: file.mimeType,
});

export const traceTool = defineTool({
  name: 'browser_trace',
  title: 'Trace session',
  description:
    "Start or stop a session's Playwright trace (one group per tool call); stop stores a zip for show-trace in the session's files.",
  profile: 'watch',
  input: z
    .object({
      ...sessionAddress,
      action: Action,
      screenshots: z.boolean().optional(),
      snapshots: z.boolean().optional(),
    })
    .strict(),
  output: z.object({ tracing: z.boolean(), file: FileOut.optional() }),
  hints: IDEMPOTENT_ACTION,
  async handler(args, { mesh, call }) {
    return mesh.run(
      args.sessionId,
      `trace_${args.action}`,
      async ({ session }) => {
        const trace = traceOf(session);
        if (args.action === 'stop' && (args.screenshots !== undefined || args.snapshots !== undefined))
          throw invalidArgument('screenshots', 'screenshots and snapshots go with action "start"');
        if (args.action === 'start') {
          await trace.start({
            screenshots: args.screenshots,
            snapshots: args.snapshots,
            secrets: session.secrets,
          });
          return { tracing: true };
        }
        return { tracing: false, file: toFileOut(await trace.stop()) };
      },
      call,
    );
  },
});

const RecordingAction = z.enum(['start', 'stop', 'caption']);

export const recordingTool = defineTool({
  name: 'browser_recording',
  title: 'Record video',
  description:
    "Start or stop a screen recording (MP4; AVI where the browser has no recorder) of one page (pageId) or all the session's pages; caption adds subtitles (text) now; stop returns the files.",
  profile: 'watch',
  input: z
    .object({
      ...sessionAddress,
      pageId: PageId.optional(),
      action: RecordingAction,
      maxDurationMs: z.number().int().min(1000).max(3_600_000).optional().describe('start; default 600000.'),
      text: z.string().min(1).max(500).optional(),
      durationMs: z.number().int().min(100).max(60_000).optional(),
    })
    .strict(),
  output: z.object({
    recording: z.array(z.string()),
    files: z
      .array(
        z.object({
          pageId: z.string(),
          file: FileOut.nullable(),
          captions: FileOut.nullable(),
          format: z.enum(['mp4', 'avi']),
          errorCode: z.string().nullable(),
        }),
      )
      .optional(),
    captioned: z.array(z.string()).optional(),
  }),
  hints: IDEMPOTENT_ACTION,
  async handler(args, { mesh, call }) {
    return mesh.run(
      args.sessionId,
      `recording_${args.action}`,
      async ({ session }) => {
        const recordings = recordingsOf(session);
        const pages = args.pageId ? [session.getPage(args.pageId)] : session.listPages();
        if ((args.text !== undefined || args.durationMs !== undefined) !== (args.action === 'caption'))
          throw invalidArgument('text', 'text (and durationMs) go with action "caption", which needs text');
        if (args.maxDurationMs !== undefined && args.action !== 'start')
          throw invalidArgument('maxDurationMs', 'only with action "start"');
        if (args.action === 'caption') {
          const pageIds = args.pageId ? [args.pageId] : undefined;
          const captioned = recordings.caption(pageIds, args.text ?? '', args.durationMs ?? 3000);
          return { recording: recordings.activePageIds(), captioned };
        }
        if (args.action === 'start') {
          await recordings.start(pages, {
            maxWidth: 1280,
            maxHeight: 720,
            frameRate: 15,
            maxDurationMs: args.maxDurationMs ?? 600_000,
          });
          return { recording: recordings.activePageIds() };
        }
        const stopped = await recordings.stop(args.pageId ? [args.pageId] : undefined);
        return {
          recording: recordings.activePageIds(),
          files: stopped.map((s) => ({
            pageId: s.pageId,
            file: s.file ? toFileOut(s.file) : null,
            captions: s.captions ? toFileOut(s.captions) : null,
            format: s.format,
            errorCode: s.errorCode,
          })),
        };
      },
      call,
    );
  },
});
