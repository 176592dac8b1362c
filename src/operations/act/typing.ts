import type { CDPSession } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { resolveSecret } from '../../secrets.js';
import { maskIfSecret, taintIfSecret } from './secret-taint.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { performAction, type ActionResult } from './action-scope.js';
import { focusElement } from './actions.js';
import { charEvents, comboEvents, dispatchKeyEvents, parseKeyCombo, type KeyEvent } from './keyboard.js';
import { hasTarget, type TargetSpec } from '../locate/locator-spec.js';
import { isLogging } from '../journal/action-log.js';
import { focusedIsSecret } from '../locate/best-locator.js';

export const MAX_TYPE_DELAY_MS = 1000;
/** Characters sent per batch when there is no delay: ordered on the wire, one round trip per batch. */
const TYPE_BATCH = 32;

/**
 * Presses a key or combination (`Enter`, `Control+a`) in the focused element, or in `target` after
 * focusing it. The name is checked before anything touches the page; the whole press is sent back to
 * back (one round trip).
 */
export function press(
  ctx: PageOperationContext,
  spec: TargetSpec | undefined,
  field: string,
  key: string,
  keyField = 'key',
): Promise<ActionResult> {
  const combo = parseKeyCombo(key, keyField);
  return performAction(ctx, async (scope) => {
    if (hasTarget(spec)) await scope.withTarget(spec, field, (target) => focusElement(target));
    await dispatchKeyEvents(await ctx.page.cdp(), comboEvents(combo));
    scope.logAs({ kind: 'press', key });
    return {};
  });
}

/**
 * Types text key by key (keydown, input, keyup for each character; characters outside the keyboard
 * layout are inserted as text), for inputs that react to every key. With `delayMs` the keys are spaced
 * out; the wait between keys is cancellable and bounded by the deadline.
 */
export function typeText(
  ctx: PageOperationContext,
  spec: TargetSpec | undefined,
  field: string,
  text: string,
  delayMs = 0,
): Promise<ActionResult> {
  return performAction(ctx, async (scope) => {
    if (hasTarget(spec)) await scope.withTarget(spec, field, (target) => focusElement(target));
    const typedSecret = !hasTarget(spec) && isLogging(ctx) && (await focusedIsSecret(ctx.page));
    const cdp = await ctx.page.cdp();
    const chars = Array.from(resolveSecret(ctx.session.secrets, text, 'text'));
    await maskIfSecret(ctx, undefined, text);
    const step = delayMs > 0 ? 1 : TYPE_BATCH;
    for (let i = 0; i < chars.length; i += step) {
      if (i > 0 && delayMs > 0) await pause(delayMs, ctx.signal);
      ctx.deadline.check();
      await sendChars(cdp, chars.slice(i, i + step));
    }
    await taintIfSecret(ctx, undefined, text, chars.join(''));
    scope.logAs({ kind: 'type', typed: text, typedSecret });
    return {};
  });
}

async function sendChars(cdp: CDPSession, chars: string[]): Promise<void> {
  const sends: Array<Promise<unknown>> = [];
  for (const char of chars) {
    for (const event of charEvents(char)) {
      sends.push(
        'insertText' in event
          ? cdp.send('Input.insertText', { text: event.insertText })
          : dispatchOne(cdp, event),
      );
    }
  }
  await Promise.all(sends);
}

function dispatchOne(cdp: CDPSession, event: KeyEvent): Promise<void> {
  return dispatchKeyEvents(cdp, [event]);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new BrowserMeshError(ErrorCodes.OPERATION_CANCELLED, 'Operation was cancelled by the caller'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
