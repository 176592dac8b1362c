import { randomBytes } from 'node:crypto';
import { rememberDerivedSecret } from '../../redaction/derived.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { secretName } from '../../secrets.js';
import { callOn, OBJECT_GROUP, type RemoteElement } from '../locate/remote-element.js';

/**
 * Taint: an element a `{{secret:NAME}}` was entered into is marked, and every read of it through
 * BrowserMesh (code mode's inputValue, textContent, value attribute…) returns the `{{secret:NAME}}`
 * reference instead, whatever the script then does with the string (`split('')` defeats any matching of the output). The mark is a
 * non-enumerable property under a per-process name on the element: a hostile page can find and drop
 * it, and then only the encoding-aware redaction of every output remains (best effort).
 */
export const TAINT_KEY = `__bm_secret_${randomBytes(8).toString('hex')}`;

const MARK = `function (key, name) {
  try { Object.defineProperty(this, key, { value: name, configurable: true }); } catch {}
  return typeof this.value === 'string' ? this.value : String(this.textContent || '');
}`;

/**
 * In-page expression: the name of the secret entered into `el` (an element expression), or
 * undefined when none was (or the page dropped the mark).
 */
export function taintedName(el: string): string {
  return `(typeof ${el}[${JSON.stringify(TAINT_KEY)}] === 'string' ? ${el}[${JSON.stringify(TAINT_KEY)}] : undefined)`;
}

/** Draws the element's text as discs, as a password field does (a hostile page may undo it). */
const MASK = `function () {
  try { if (this.type !== 'password') this.style.setProperty('-webkit-text-security', 'disc', 'important'); } catch {}
}`;

/**
 * Before `argument` is entered into `target` (the focused element when none): when it is a secret
 * reference, the element draws its text as discs from the first character on, so no screenshot, trace
 * filmstrip, recording or live frame shows the secret (images are not scanned for it).
 */
export async function maskIfSecret(
  ctx: PageOperationContext,
  target: RemoteElement | undefined,
  argument: string,
): Promise<void> {
  if (secretName(argument) === undefined) return;
  const element = target ?? (await focusedElement(ctx));
  if (element) await callOn(element, MASK, []).catch(() => undefined);
}

/**
 * After `argument` (what the agent sent) was entered into `target` as `entered`: when it was a secret
 * reference, marks the element, and remembers what the field kept of the secret when that is not the
 * whole value (a `maxlength` field), so outputs redact it too.
 */
export async function taintIfSecret(
  ctx: PageOperationContext,
  target: RemoteElement | undefined,
  argument: string,
  entered: string,
): Promise<void> {
  const name = secretName(argument);
  if (name === undefined) return;
  const element = target ?? (await focusedElement(ctx));
  if (!element) return;
  const kept = await callOn<string>(element, MARK, [TAINT_KEY, name]).catch(() => '');
  if (kept !== entered && kept !== '' && entered.includes(kept))
    rememberDerivedSecret(ctx.session.id, name, kept);
}

/** The element that has focus (what typing without a target went into), if any. */
async function focusedElement(ctx: PageOperationContext): Promise<RemoteElement | undefined> {
  const cdp = await ctx.page.cdp();
  const found = await cdp
    .send('Runtime.evaluate', { expression: 'document.activeElement', objectGroup: OBJECT_GROUP })
    .catch(() => undefined);
  const objectId = found?.result.objectId;
  return objectId === undefined ? undefined : { cdp, objectId };
}
