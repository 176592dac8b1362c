/**
 * A screencast frame's viewport is the page's own, in CSS pixels, whatever the frame's pixels are.
 * Seen in CI (dashboard take-over): a still taken with a small scale while the page is screencast
 * (the dashboard's first frame and its thumbnails) makes Chromium send a frame whose metadata gives
 * the scaled size (960×540 for a 1280×720 page); the live view mapped a person's press with it and
 * the press landed at three quarters of the place pointed at.
 */
import { startPageScreencast, type ScreencastFrame } from '../../src/engine/media/page-screencast.js';
import { Thumbnails } from '../../src/dashboard/thumbnails.js';
import { expect, test } from './support/fixtures.js';
import { waitFor } from './support/wait.js';

test('every frame, those sent while a scaled still is taken too, carries the page viewport', async ({
  harness,
  session,
  site,
}) => {
  await harness.ok('browser_navigate', { ...session, url: site.url('/shop/') });
  const page = harness.mesh.getSession(session.sessionId).getPage(session.pageId);
  const viewport = page.page.viewportSize()!;
  // Something on the page that keeps changing, so frames keep coming whether or not Chromium sends
  // one for a still (it does not always: seen when the browser is busy with other pages).
  await page.page.evaluate(() => {
    const ticker = document.body.appendChild(document.createElement('p'));
    setInterval(() => (ticker.textContent = String(Date.now())), 50);
  });
  const frames: ScreencastFrame[] = [];
  const cast = await startPageScreencast(
    page,
    {
      format: 'jpeg',
      quality: 50,
      maxWidth: viewport.width * 0.75,
      maxHeight: viewport.height,
      everyNthFrame: 1,
    },
    (frame) => frames.push(frame),
  );
  try {
    // Scaled stills while the screencast runs, and frames on each side of them.
    for (let i = 0; i < 3; i++) {
      const before = frames.length;
      await new Thumbnails().of(page); // a new one each time: a Thumbnails keeps its still 3 s
      await waitFor(async () => frames.length > before, 10_000, 'a frame after a scaled still');
    }
    expect(frames.length).toBeGreaterThan(1);
    for (const frame of frames) expect(frame.viewport).toMatchObject(viewport);
  } finally {
    await cast.stop();
  }
});
