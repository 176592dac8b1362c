/**
 * The dashboard's still of a page someone watches live is that page's newest live frame. Taking a
 * still by capture while the page is screencast made Chromium send the live view a frame of the
 * still's size (320 px wide): a blurred flash every few seconds, and once the wrong viewport under a
 * person's drag. Real Chromium against the loopback fixture site.
 */
import { LiveFrames } from '../../src/dashboard/live-frames.js';
import { Thumbnails } from '../../src/dashboard/thumbnails.js';
import type { ScreencastFrame } from '../../src/engine/media/page-screencast.js';
import { expect, test } from './support/fixtures.js';
import { waitFor } from './support/wait.js';

/** Width × height of a JPEG, from its start-of-frame segment. */
function jpegSize(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  let at = 2;
  while (at + 9 < bytes.length) {
    const marker = bytes[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xc3)
      return `${bytes.readUInt16BE(at + 7)}x${bytes.readUInt16BE(at + 5)}`;
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('not a JPEG with a start-of-frame segment');
}

test('a watched page gives its live frame as its still, and its live view gets no frame of another size', async ({
  harness,
  session,
  site,
}) => {
  await harness.ok('browser_navigate', { ...session, url: site.url('/shop/') });
  const page = harness.mesh.getSession(session.sessionId).getPage(session.pageId);
  const frames = new LiveFrames({ minFrameIntervalMs: 0, maxWidth: 960, maxHeight: 720, quality: 60 });
  const stills = (): Thumbnails => new Thumbnails((p) => frames.latest(p)); // a new one: no cached still

  // Nobody watches: the still is a small capture of its own.
  expect(frames.latest(page)).toBeUndefined();
  expect(jpegSize((await stills().of(page)).data)).toBe('320x180');

  const seen: ScreencastFrame[] = [];
  const stop = frames.watch(page, (frame) => seen.push(frame));
  try {
    await waitFor(async () => seen.length > 0, 20_000, 'the first live frame');
    for (let i = 0; i < 3; i++) {
      const still = await stills().of(page);
      expect(still.data).toBe(frames.latest(page)?.data);
      // A repaint brings a new live frame; any frame sent because of a still came before it.
      const before = seen.length;
      await page.page.evaluate(() =>
        document.body.append(Object.assign(document.createElement('p'), { textContent: 'repaint' })),
      );
      await waitFor(async () => seen.length > before, 20_000, 'a live frame after the repaint');
    }
    expect(new Set(seen.map((frame) => jpegSize(frame.data)))).toEqual(new Set(['960x540']));
  } finally {
    stop();
  }
});
