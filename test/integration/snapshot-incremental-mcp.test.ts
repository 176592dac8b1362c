/**
 * An action's snapshot (`includeSnapshot`) says in its structured result when the capture was
 * incremental (docs/snapshots.md, "Incremental capture"); the text the model reads stays as it was.
 */
import { describe, expect, test } from './support/fixtures.js';
import { textOf } from '../helpers/harness.js';
import { refOf } from './support/refs.js';

describe('incremental capture in MCP action results', () => {
  test('an action after a snapshot reports snapshotCapture in structured content only', async ({
    site,
    harness,
    session,
  }) => {
    await harness.ok('browser_navigate', { ...session, url: site.url('/forms') });
    const { snapshot } = await harness.ok<{ snapshot: string }>('browser_snapshot', { ...session });
    const email = refOf(snapshot, /@(e\d+) Email\b/);
    const first = await harness.call('browser_type', {
      ...session,
      ref: email,
      text: 'ada@example.com',
      includeSnapshot: true,
    });
    expect(first.isError).toBeFalsy();
    const structured = first.structuredContent as {
      snapshot: string;
      snapshotCapture?: { mode: string; reusedNodes: number; nodes: number; sentNodes: number };
    };
    // The first action snapshot follows a plain snapshot; the second follows an action snapshot of
    // the same view, so it reuses what the typing did not change.
    const second = await harness.call('browser_type', {
      ...session,
      ref: email,
      text: '!',
      includeSnapshot: true,
    });
    const again = second.structuredContent as typeof structured;
    const capture = again.snapshotCapture ?? structured.snapshotCapture;
    expect(capture?.mode).toBe('incremental');
    expect(capture?.reusedNodes).toBeGreaterThan(0);
    expect(capture?.reusedNodes).toBeLessThanOrEqual(capture?.nodes ?? 0);
    // The text: the JSON line without it, then the snapshot lines.
    const [line, ...rest] = textOf(second).split('\n');
    expect(line).not.toContain('snapshotCapture');
    expect(rest.join('\n')).toBe(again.snapshot);
    expect(again.snapshot).toContain('ada@example.com!');
  });
});
