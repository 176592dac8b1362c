import { z } from 'zod';
import { invalidArgument } from '../../errors.js';
import { MAX_RECORDING_MS } from '../options.js';
import type { RecordingManager } from '../recording/manager.js';
import { defineAgentTool } from '../tool-types.js';

/** What the close and recording tools need from the AgentBrowser beyond a thread's view. */
export interface AgentServices {
  /** Thread scope: closes that thread's session. Shared scope: closes the browser. Never launches. */
  closeFor(threadId: string): Promise<'thread' | 'browser' | 'nothing'>;
  recordings: RecordingManager | undefined;
}

export function closeTool(services: AgentServices) {
  return defineAgentTool({
    name: 'browser_close',
    description:
      "Close the browser and free its resources: with per-thread sessions, only this thread's pages and logins; with a shared browser, the browser. The next browser tool call starts fresh.",
    input: z.object({}).strict(),
    output: z.object({ closed: z.enum(['thread', 'browser', 'nothing']) }),
    async handler(_args, call) {
      return { closed: await services.closeFor(call.threadId) };
    },
  });
}

const Format = z.enum(['mp4', 'avi']);

const RecordingResultSchema = z.object({
  path: z.string(),
  format: Format,
  captionsPath: z.string().nullable(),
  frames: z.number().nullable(),
  durationMs: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  bytes: z.number(),
  fps: z.number().nullable(),
  captions: z.number(),
  stoppedBy: z.enum(['request', 'maxDurationMs', 'maxBytes', 'closed']),
});

const RecordingStatusSchema = z.object({
  path: z.string(),
  format: Format,
  elapsedMs: z.number(),
  frames: z.number().nullable(),
  maxDurationMs: z.number(),
  captions: z.number(),
});

export function recordTool(recordings: RecordingManager) {
  return defineAgentTool({
    name: 'browser_record',
    description:
      "Alpha: record a video (MP4; Motion-JPEG AVI where the browser has no screen recorder) of this thread's current tab. action start (optionally with limits and a file name), status, or stop (returns the file and its format). Stops by itself at maxDurationMs.",
    input: z
      .object({
        action: z.enum(['start', 'status', 'stop']),
        maxDurationMs: z
          .number()
          .int()
          .min(100)
          .max(MAX_RECORDING_MS)
          .optional()
          .describe('start: longest recording in ms.'),
        maxWidth: z.number().int().min(16).max(8192).optional().describe('start: largest frame width.'),
        maxHeight: z.number().int().min(16).max(8192).optional().describe('start: largest frame height.'),
        everyNthFrame: z
          .number()
          .int()
          .min(1)
          .max(60)
          .optional()
          .describe('start: keep every Nth screencast frame (AVI fallback only).'),
        outputPath: z
          .string()
          .min(1)
          .max(120)
          .optional()
          .describe(
            'start: file name inside the recording directory, e.g. "checkout.mp4" (the extension follows the format).',
          ),
      })
      .strict(),
    output: z.object({
      recording: z.boolean(),
      status: RecordingStatusSchema.optional(),
      result: RecordingResultSchema.nullable().optional(),
    }),
    async handler(args, call) {
      const { action, ...startOptions } = args;
      if (action !== 'start') {
        const extra = Object.keys(startOptions).find(
          (key) => startOptions[key as keyof typeof startOptions] !== undefined,
        );
        if (extra) throw invalidArgument(extra, `only applies to action "start"`);
      }
      if (action === 'start')
        return { recording: true, status: await recordings.start(await call.view(), startOptions) };
      const view = await call.view();
      if (action === 'stop') return { recording: false, result: await recordings.stop(view) };
      const state = await recordings.state(view);
      return state.recording
        ? { recording: true, status: state.status }
        : { recording: false, result: state.last };
    },
  });
}

export function recordCaptionTool(recordings: RecordingManager) {
  return defineAgentTool({
    name: 'browser_record_caption',
    description:
      'Alpha: add a caption to the running recording at this moment (saved as subtitles next to the video).',
    input: z
      .object({
        text: z.string().min(1).max(200).describe('Short caption text.'),
        durationMs: z
          .number()
          .int()
          .min(100)
          .max(60_000)
          .optional()
          .describe('How long it shows (default 3000).'),
      })
      .strict(),
    output: z.object({
      atMs: z.number().describe('When the caption starts, in ms since the recording started.'),
    }),
    async handler(args, call) {
      return recordings.caption(await call.view(), args.text, args.durationMs ?? 3000);
    },
  });
}
