import { describe, expect, it } from 'vitest';
import { ActivityLog, type OperationRecord } from './activity.js';

const op = (n: number, sessionId: string | null = 's_a'): OperationRecord => ({
  operationId: `op_${n}`,
  tool: 'browser_click',
  sessionId,
  pageId: null,
  startedAt: new Date(0).toISOString(),
  durationMs: n,
  errorCode: null,
});

describe('ActivityLog', () => {
  it('keeps the newest records per session, oldest first, and tells listeners', () => {
    const log = new ActivityLog(3);
    let changes = 0;
    log.on('change', () => changes++);
    for (let n = 1; n <= 5; n++) log.record(op(n));
    log.record(op(9, 's_b'));
    expect(log.recent('s_a').map((r) => r.operationId)).toEqual(['op_3', 'op_4', 'op_5']);
    expect(log.recent('s_b')).toHaveLength(1);
    expect(log.recent('s_none')).toEqual([]);
    log.touch();
    expect(changes).toBe(7);
  });

  it('forgets the oldest sessions past its bound, so a long-running server never grows it', () => {
    const log = new ActivityLog(1);
    for (let n = 0; n < 600; n++) log.record(op(n, `s_${n}`));
    expect(log.recent('s_0')).toEqual([]);
    expect(log.recent('s_599')).toHaveLength(1);
  });

  it('hands out copies: a reader cannot change what others see', () => {
    const log = new ActivityLog();
    log.record(op(1));
    log.recent('s_a').pop();
    expect(log.recent('s_a')).toHaveLength(1);
  });
});
