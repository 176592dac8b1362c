import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ProgressSink } from '../tools/define.js';

/** A call still running after this long gets a "still running" notification, and again at this pace. */
export const HEARTBEAT_MS = 1_000;

export interface CallProgress {
  sink: ProgressSink;
  /** Stops the heartbeat; later reports are dropped (the result is on its way). */
  stop(): void;
}

/**
 * MCP `notifications/progress` for one tools/call whose client sent a progressToken. Handlers report
 * steps (browser start, each browser_run step); a heartbeat covers the rest of a long call (a slow
 * navigation, a long wait). `progress` rises by one per notification; no total is claimed, since a
 * heartbeat cannot know one. A send that fails is ignored: progress is advisory.
 */
export function startCallProgress(
  token: ProgressToken,
  tool: string,
  send: (notification: ServerNotification) => Promise<void>,
): CallProgress {
  const started = Date.now();
  let progress = 0;
  let stopped = false;
  let lastSent = started;
  const notify = (message: string): void => {
    if (stopped) return;
    lastSent = Date.now();
    const params = { progressToken: token, progress: ++progress, message };
    send({ method: 'notifications/progress', params }).catch(() => undefined);
  };
  const heartbeat = setInterval(() => {
    if (Date.now() - lastSent < HEARTBEAT_MS) return;
    notify(`${tool}: still running (${Math.round((Date.now() - started) / 1000)} s)`);
  }, HEARTBEAT_MS / 4);
  heartbeat.unref();
  return {
    sink: notify,
    stop: () => {
      stopped = true;
      clearInterval(heartbeat);
    },
  };
}
