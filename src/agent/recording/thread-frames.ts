import type { FrameSource } from '../../engine/media/frames-recording.js';
import type { ThreadView } from '../threads.js';
import { ScreencastStream } from './screencast-stream.js';

/**
 * A thread's screencast as JPEG frames for the frames encoder: it follows the thread's tab switches,
 * so the fallback AVI shows whatever tab the agent works in.
 */
export function threadFrameSource(
  view: ThreadView,
  limits: { maxWidth: number; maxHeight: number; everyNthFrame: number },
): FrameSource {
  const stream = new ScreencastStream(view, { format: 'jpeg', quality: 70, ...limits });
  return {
    async start(onFrame) {
      stream.on('frame', (frame) => onFrame(frame.data));
      stream.on('error', () => undefined);
      await stream.start();
    },
    stop: (reason) => stream.stop(reason),
  };
}
