import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import type { Logger } from '../../engine/logger.js';
import type { ResolvedRecording } from '../options.js';
import type { ThreadView } from '../threads.js';
import { Recording, type RecordingResult, type RecordingStatus } from './recorder.js';

export interface StartRecordingInput {
  maxDurationMs?: number | undefined;
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
  everyNthFrame?: number | undefined;
  outputPath?: string | undefined;
}

export type RecordingState =
  { recording: true; status: RecordingStatus } | { recording: false; last: RecordingResult | null };

/**
 * The recordings of one AgentBrowser, one per session (so threads record independently, and two
 * threads of a shared session share theirs). State lives on the instance, never in a module slot.
 */
export class RecordingManager {
  private readonly active = new Map<string, Recording>();
  private readonly finished = new Map<string, Promise<RecordingResult>>();

  constructor(
    private readonly defaults: ResolvedRecording,
    private readonly logger: Logger,
  ) {}

  async start(view: ThreadView, input: StartRecordingInput): Promise<RecordingStatus> {
    const key = view.slot.sessionId;
    if (this.active.get(key)) {
      throw new BrowserMeshError(
        ErrorCodes.INVALID_ARGUMENT,
        'action: a recording is already running in this session',
        {
          details: { field: 'action' },
          recoveryHint: 'Stop it with browser_record { action: "stop" } first.',
        },
      );
    }
    // Declared first: the auto-stop callback refers to it, and must never meet it uninitialized.
    let recording: Recording | undefined = undefined;
    recording = await Recording.start(
      view,
      {
        outputDir: this.defaults.outputDir,
        outputPath: input.outputPath,
        maxDurationMs: input.maxDurationMs ?? this.defaults.maxDurationMs,
        maxWidth: input.maxWidth ?? this.defaults.maxWidth,
        maxHeight: input.maxHeight ?? this.defaults.maxHeight,
        everyNthFrame: input.everyNthFrame ?? 1,
      },
      (result) => {
        if (recording) this.settle(key, recording, result).catch(() => undefined);
      },
    );
    this.active.set(key, recording);
    this.finished.delete(key);
    this.logger.info('agent_recording_started', { sessionId: key });
    return recording.status();
  }

  async stop(view: ThreadView): Promise<RecordingResult> {
    const key = view.slot.sessionId;
    const recording = this.active.get(key);
    if (recording) return this.settle(key, recording, recording.stop('request'));
    const last = this.finished.get(key);
    if (last) return last;
    throw new BrowserMeshError(
      ErrorCodes.INVALID_ARGUMENT,
      'action: no recording is running in this session',
      {
        details: { field: 'action' },
        recoveryHint: 'Start one with browser_record { action: "start" }.',
      },
    );
  }

  async state(view: ThreadView | undefined): Promise<RecordingState> {
    const key = view?.slot.sessionId;
    const recording = key === undefined ? undefined : this.active.get(key);
    if (recording) return { recording: true, status: recording.status() };
    const last = key === undefined ? undefined : this.finished.get(key);
    return { recording: false, last: last ? await last.catch(() => null) : null };
  }

  caption(view: ThreadView, text: string, durationMs: number): { atMs: number } {
    const recording = this.active.get(view.slot.sessionId);
    if (!recording) {
      throw new BrowserMeshError(
        ErrorCodes.INVALID_ARGUMENT,
        'text: no recording is running in this session',
        {
          details: { field: 'text' },
          recoveryHint: 'Start one with browser_record { action: "start" }, then add captions.',
        },
      );
    }
    return { atMs: recording.caption(text, durationMs) };
  }

  /** Finishes the recording of a session that is closing (its file stays playable). */
  async stopSession(sessionId: string): Promise<void> {
    const recording = this.active.get(sessionId);
    if (recording) await this.settle(sessionId, recording, recording.stop('closed')).catch(() => undefined);
  }

  /** Finishes every recording (the browser is closing or went away). */
  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.active.keys()].map((key) => this.stopSession(key)));
  }

  /** Moves a recording from active to finished, once, whoever ends it first. */
  private settle(
    key: string,
    recording: Recording,
    result: Promise<RecordingResult>,
  ): Promise<RecordingResult> {
    if (this.active.get(key) === recording) {
      this.active.delete(key);
      this.finished.set(key, result);
      result.then(
        () => this.logger.info('agent_recording_finished', { sessionId: key }),
        () => this.logger.warn('agent_recording_failed', { sessionId: key }),
      );
    }
    return result;
  }
}
