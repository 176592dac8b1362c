import type { CDPSession } from 'playwright-core';

const SETTINGS_URL = 'chrome://settings/';
const PREF = 'net.network_prediction_options';
/** NetworkPredictionOptions: 2 = never (Settings → Performance → Preload pages off). */
const NEVER = 2;
const POLL_MS = 100;

/**
 * Chromium's network prediction may open a connection to a popup's origin as its navigation starts,
 * before the request interceptor is asked (a preconnect; behind an operator proxy, a CONNECT the proxy
 * carries out). The setting lives in the browser's profile (private contexts inherit it), and a running
 * Chromium changes it only through its own settings page: a background chrome://settings tab in the
 * default context sets it and is closed. Best effort within `timeoutMs`: a browser without that page
 * (a headless shell, a hosted service that forbids it) keeps its setting (docs/security.md).
 * Returns whether the setting was applied.
 */
export async function disableNetworkPrediction(cdp: CDPSession, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let targetId: string | undefined;
  const target = new TargetMessages(cdp);
  try {
    ({ targetId } = await cdp.send('Target.createTarget', { url: SETTINGS_URL, background: true }));
    await target.attach(targetId);
    while (Date.now() < deadline) {
      if (await target.evaluate('!!(globalThis.chrome && chrome.settingsPrivate)', deadline)) {
        return await target.evaluate(
          `new Promise((resolve) => chrome.settingsPrivate.setPref('${PREF}', ${NEVER}, '', resolve))`,
          deadline,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return false;
  } catch {
    return false;
  } finally {
    target.dispose();
    if (targetId) await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  }
}

/**
 * One target's protocol through the browser session (Target.sendMessageToTarget): Playwright's
 * CDPSession cannot address a flat child session.
 */
class TargetMessages {
  private sessionId: string | undefined;
  private lastId = 0;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private readonly onMessage = (event: { sessionId?: string; message: string }): void => {
    if (event.sessionId !== this.sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    const settle = message.id === undefined ? undefined : this.pending.get(message.id);
    if (message.id !== undefined) this.pending.delete(message.id);
    settle?.(message.result);
  };

  constructor(private readonly cdp: CDPSession) {
    cdp.on('Target.receivedMessageFromTarget', this.onMessage);
  }

  async attach(targetId: string): Promise<void> {
    ({ sessionId: this.sessionId } = await this.cdp.send('Target.attachToTarget', {
      targetId,
      flatten: false,
    }));
  }

  /** Whether the expression's (awaited) value is `true`; false when no answer comes by `deadline`. */
  async evaluate(expression: string, deadline: number): Promise<boolean> {
    const id = ++this.lastId;
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<unknown>((resolve) => {
      this.pending.set(id, resolve);
      timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
    }).finally(() => clearTimeout(timer));
    const message = JSON.stringify({
      id,
      method: 'Runtime.evaluate',
      params: { expression, awaitPromise: true, returnByValue: true },
    });
    await this.cdp.send('Target.sendMessageToTarget', { sessionId: this.sessionId ?? '', message });
    const result = (await answer) as { result?: { value?: unknown } } | undefined;
    return result?.result?.value === true;
  }

  dispose(): void {
    this.cdp.off('Target.receivedMessageFromTarget', this.onMessage);
    for (const settle of this.pending.values()) settle(undefined);
    this.pending.clear();
  }
}
