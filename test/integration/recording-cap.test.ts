/**
 * AgentBrowser's recording cap counts from the video's first moment: a 1.5 s cap gives a video of
 * about 1.5 s (it gave 1.73 s while the cap counted from after the output file was opened). Only the
 * stop's own round trip may pass the cap.
 */
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordingResult } from '../../src/agent/recording/recorder.js';
import { testAgentBrowser, ToolDriver, until } from './support/agent.js';
import { describe, expect, test } from './support/fixtures.js';
import { servePlayer } from './support/video.js';

/** The video's length as Chromium's <video> reads it from the file's metadata (seconds). */
const DURATION_SCRIPT = `new Promise((resolve) => {
  const v = document.getElementById('v');
  if (v.readyState >= 1) resolve(v.duration);
  v.addEventListener('loadedmetadata', () => resolve(v.duration));
  v.addEventListener('error', () => resolve(-1));
})`;

describe('browser_record maxDurationMs', () => {
  test('ends the video at the cap, not the cap plus the start-up', async ({ site, onTestFinished }) => {
    const outputDir = mkdtempSync(join(tmpdir(), 'bm-rec-cap-'));
    const browser = testAgentBrowser({ recording: { outputDir, maxWidth: 320, maxHeight: 240 } });
    onTestFinished(() => browser.close());
    const t = new ToolDriver(browser, { threadId: 'cap' });
    await t.ok('browser_goto', { url: site.url('/') });
    await t.ok('browser_record', { action: 'start', maxDurationMs: 1500 });
    await until(
      async () => !(await t.ok<{ recording: boolean }>('browser_record', { action: 'status' })).recording,
      15_000,
      'the auto stop',
    );
    const { result } = await t.ok<{ result: RecordingResult }>('browser_record', { action: 'status' });
    expect(result.stoppedBy).toBe('maxDurationMs');
    expect(result.format).toBe('mp4');
    await t.ok('browser_goto', { url: servePlayer(site, 'cap', await readFile(result.path), 'video/mp4') });
    const seconds = (
      await t.ok<{ value: number }>('browser_evaluate', { script: DURATION_SCRIPT, returnValue: true })
    ).value;
    expect(seconds).toBeGreaterThan(1);
    // The stop's round trip to Chromium is the only time past the cap.
    expect(seconds).toBeLessThan(1.5 + 0.5);
    expect(Math.abs(seconds * 1000 - result.durationMs)).toBeLessThan(400);
  });
});
