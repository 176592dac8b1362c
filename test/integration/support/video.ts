import type { FixtureServer } from '../../fixtures/server.mjs';

/** What Chromium's <video> made of a file: "playable" means readyState >= 2 and a frame presented. */
export interface Played {
  readyState: number;
  error: number | null;
  width: number;
  frames: number;
  /** Why play() was refused, when it was. */
  playError?: string | null;
}

/**
 * Serves `bytes` at `/video/<name>` and a player page at `/video/<name>/player` on the loopback
 * fixture site; returns the player's URL.
 */
export function servePlayer(site: FixtureServer, name: string, bytes: Buffer, mimeType: string): string {
  site.route(`/video/${name}`, (_req, res) => {
    res.writeHead(200, { 'Content-Type': mimeType, 'Content-Length': bytes.length });
    res.end(bytes);
  });
  site.route(`/video/${name}/player`, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><title>Player</title><video id="v" muted src="/video/${name}"></video>`);
  });
  return site.url(`/video/${name}/player`);
}

/**
 * Page script (a promise of {@link Played}): plays #v until a frame is presented, and the element
 * says it holds the current frame, or until it fails. A play() that Chromium interrupts (an
 * AbortError: a busy machine can pause video-only media between the load and the play) is tried
 * again 50 ms later, for up to ~5 s (a timer, which runs where animation frames may not); a rejection
 * that is not an interruption, or the last one, reports frames -1 with its name in `playError`.
 */
export const PLAY_SCRIPT = `new Promise((resolve) => {
  const v = document.getElementById('v');
  let done = false;
  const report = (frames, playError) => {
    if (done) return;
    done = true;
    resolve({ readyState: v.readyState, error: v.error ? v.error.code : null, width: v.videoWidth,
      frames, playError: playError || null });
  };
  if (v.error) report(0);
  v.addEventListener('error', () => report(0));
  // The frame can be presented before the element's readyState catches up (that update is a task of
  // its own, late on a busy machine): the report waits for readyState >= 2, up to ~5 s, then tells.
  const whenCurrent = (frames, left) => {
    if (v.readyState >= 2 || left === 0) report(frames);
    else setTimeout(() => whenCurrent(frames, left - 1), 20);
  };
  v.requestVideoFrameCallback((_now, meta) => whenCurrent(meta.presentedFrames, 250));
  const attempt = (left) => v.play().catch((e) => {
    if (e && e.name === 'AbortError' && left > 0) setTimeout(() => attempt(left - 1), 50);
    else report(-1, e ? e.name + ': ' + e.message : 'rejected');
  });
  attempt(100);
})`;
