import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { ManagedPage } from '../page.js';
import { PageRecording, type RecordingFormat, type ScreenRecordingOptions } from './screen-recording.js';
import type { Session } from '../session.js';
import type { SessionFileInfo } from '../files/session-files.js';

export interface StartRecordingOptions extends ScreenRecordingOptions {
  /** The recording stops by itself after this long (its file is kept for the next stop to report). */
  maxDurationMs: number;
}

export interface StoppedRecording {
  pageId: string;
  file: SessionFileInfo | null;
  /** The captions as SubRip subtitles beside the video, when any were added. */
  captions: SessionFileInfo | null;
  /** `mp4` (Chromium's screen recorder) or `avi` (the frames encoder, where the browser has none). */
  format: RecordingFormat;
  /** The stable error code when the file could not be stored (e.g. LIMIT_EXCEEDED). */
  errorCode: string | null;
}

interface Running {
  recording: PageRecording;
  timer: NodeJS.Timeout;
}

/**
 * The screen recordings of one session, per page. State lives with the session (never in a module
 * slot), so any number of sessions record at once. Recordings that end by themselves (time limit)
 * are kept until the next stop reports them; a closing session stops and stores every recording
 * before its context goes away.
 */
export class SessionRecordings {
  private readonly running = new Map<string, Running>();
  private finished: Promise<StoppedRecording>[] = [];

  constructor(private readonly session: Session) {
    session.onBeforeClose(async () => {
      await this.stop();
    });
  }

  activePageIds(): string[] {
    return [...this.running.keys()];
  }

  async start(pages: ManagedPage[], options: StartRecordingOptions): Promise<string[]> {
    const busy = pages.find((page) => this.running.has(page.id));
    if (busy) {
      throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'pageId: this page is already being recorded', {
        details: { field: 'pageId', pageId: busy.id },
        recoveryHint: 'Stop its recording first.',
      });
    }
    const started: string[] = [];
    for (const page of pages) {
      const recording = await PageRecording.start(page, this.session.files, options);
      const timer = setTimeout(() => this.finish(page.id), options.maxDurationMs);
      timer.unref();
      this.running.set(page.id, { recording, timer });
      started.push(page.id);
    }
    return started;
  }

  /** Stops the given pages' recordings (all when omitted) and reports every file finished since the last stop. */
  async stop(pageIds?: readonly string[]): Promise<StoppedRecording[]> {
    for (const pageId of pageIds ?? [...this.running.keys()]) {
      if (this.running.has(pageId)) this.finish(pageId);
      else if (pageIds) {
        throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'pageId: this page is not being recorded', {
          details: { field: 'pageId', pageId },
        });
      }
    }
    const done = this.finished;
    this.finished = [];
    return Promise.all(done);
  }

  /** Adds a caption to the given pages' running recordings (all when omitted). */
  caption(pageIds: readonly string[] | undefined, text: string, durationMs: number): string[] {
    const targets = pageIds ?? [...this.running.keys()];
    const missing = targets.length === 0 ? undefined : targets.find((id) => !this.running.has(id));
    if (targets.length === 0 || missing !== undefined) {
      throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'action: no recording is running there', {
        details: { field: 'action' },
        recoveryHint: 'Start a recording first.',
      });
    }
    for (const id of targets) this.running.get(id)?.recording.caption(text, durationMs);
    return [...targets];
  }

  private finish(pageId: string): void {
    const running = this.running.get(pageId);
    if (!running) return;
    this.running.delete(pageId);
    clearTimeout(running.timer);
    this.finished.push(
      running.recording.stop().then(
        (saved) => ({
          pageId,
          file: saved.video,
          captions: saved.captions,
          format: saved.format,
          errorCode: null,
        }),
        (error: unknown) => ({
          pageId,
          file: null,
          captions: null,
          format: running.recording.format,
          errorCode: error instanceof BrowserMeshError ? error.code : ErrorCodes.BROWSER_ERROR,
        }),
      ),
    );
  }
}

const bySession = new WeakMap<Session, SessionRecordings>();

export function recordingsOf(session: Session): SessionRecordings {
  let recordings = bySession.get(session);
  if (!recordings) {
    recordings = new SessionRecordings(session);
    bySession.set(session, recordings);
  }
  return recordings;
}

/** The session's pages being recorded, without creating its recordings (for watchers). */
export function recordedPageIds(session: Session): string[] {
  return bySession.get(session)?.activePageIds() ?? [];
}
