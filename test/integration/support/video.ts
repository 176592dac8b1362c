import type { FixtureServer } from '../../fixtures/server.mjs';

/** What Chromium's <video> made of a file: "playable" means readyState >= 2 and a frame presented. */
export interface Played {
  readyState: number;
  error: number | null;
  width: number;
  frames: number;
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

/** Page script (a promise of {@link Played}): plays #v until a frame is presented or it fails. */
export const PLAY_SCRIPT = `new Promise((resolve) => {
  const v = document.getElementById('v');
  const report = (frames) => resolve({ readyState: v.readyState, error: v.error ? v.error.code : null,
    width: v.videoWidth, frames });
  if (v.error) report(0);
  v.addEventListener('error', () => report(0));
  v.requestVideoFrameCallback((_now, meta) => report(meta.presentedFrames));
  v.play().catch(() => report(-1));
})`;
