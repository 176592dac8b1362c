import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { Page } from 'playwright-core';
import type { BrowserMesh } from '../engine/runtime.js';
import { handoffsOf, type Handoffs } from '../engine/handoff.js';
import { rememberDerivedSecret } from '../redaction/derived.js';
import { rememberTypedSecret } from '../redaction/typed-secrets.js';

/**
 * A person's input while holding a session, in the page's viewport CSS pixels: a click, the mouse
 * pressed, moved or released there (a drag), the wheel turned there, text typed at the caret, one key.
 */
export type TakeoverInput =
  | { type: 'click' | 'down' | 'move' | 'up'; x: number; y: number }
  | { type: 'wheel'; x: number; y: number; deltaX: number; deltaY: number }
  | { type: 'text'; text: string }
  | { type: 'key'; key: string };

interface Held {
  pageId: string;
  release: () => void;
  /** Resolves once the session's queue reached the take-over (everything before it finished). */
  holding: Promise<void>;
  /** A drag in progress: the button is let go before the agent gets the page back. */
  pressed: boolean;
}

/** A take-over that is never handed back ends by itself, so an agent is not blocked forever. */
export const MAX_TAKEOVER_MS = 600_000;
const MAX_TEXT_CHARS = 1000;
const MAX_COORD = 100_000;
const MAX_WHEEL_DELTA = 10_000;
/** Keys a person may press: named keys Playwright knows, or one letter or digit, after modifiers. */
const NAMED_KEYS = new Set([
  'Enter',
  'Tab',
  'Backspace',
  'Escape',
  'Delete',
  'Space',
  'Insert',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'PageUp',
  'PageDown',
  'Home',
  'End',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
]);
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'ControlOrMeta']);

/**
 * Take-over: a person drives a page while the agent waits. It is an operation on the session's own
 * serial queue, so it starts once the running operation finishes, and everything the agent sends
 * meanwhile queues behind it (keeping its own deadline) until the person hands back. Typed text is
 * sent to the page and never stored, logged or shown.
 */
export class TakeoverController {
  private readonly held = new Map<string, Held>();
  /** Sessions that asked for a person (browser_request_human): held already, until handed back. */
  private readonly handoffs: Handoffs;
  /** Sessions held for a person with the mouse button down (let go before the hand-back). */
  private readonly pressed = new Set<string>();

  constructor(private readonly mesh: BrowserMesh) {
    this.handoffs = handoffsOf(mesh);
  }

  isTakenOver(sessionId: string): boolean {
    return this.held.has(sessionId) || this.handoffs.get(sessionId) !== undefined;
  }

  /** Resolves once the person holds the session (the queue reached the take-over). */
  async start(sessionId: string, pageId: string): Promise<void> {
    const session = this.mesh.getSession(sessionId);
    session.getPage(pageId);
    // A session that asked for a person is held by that request already.
    if (this.handoffs.get(sessionId) && !this.held.has(sessionId)) return;
    if (this.held.has(sessionId)) {
      throw new BrowserMeshError(
        ErrorCodes.INVALID_ARGUMENT,
        'sessionId: the session is already taken over',
        {
          details: { field: 'sessionId' },
        },
      );
    }
    let release!: () => void;
    let reached!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = new Promise<void>((resolve) => (reached = resolve));
    const held: Held = { pageId, release, holding, pressed: false };
    this.held.set(sessionId, held);
    const run = this.mesh.run(
      sessionId,
      'dashboard_takeover',
      async ({ signal }) => {
        reached();
        await new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => resolve(), { once: true });
          void released.then(resolve);
        });
      },
      { timeoutMs: MAX_TAKEOVER_MS },
    );
    run
      .catch(() => undefined)
      .finally(() => {
        if (this.held.get(sessionId) === held) this.held.delete(sessionId);
        this.mesh.activity.touch();
      });
    await Promise.race([holding, run]);
    this.mesh.activity.touch();
  }

  /** Hands the session back to the agent; a session not taken over is left alone. */
  release(sessionId: string): boolean {
    const held = this.held.get(sessionId);
    if (!held) return this.handBack(sessionId);
    this.held.delete(sessionId);
    // A drag cut short by the hand-back must not leave the agent a page with the button held down.
    const page = held.pressed ? this.pageOf(sessionId, held.pageId) : undefined;
    if (page)
      void page.mouse
        .up()
        .catch(() => undefined)
        .finally(held.release);
    else held.release();
    return true;
  }

  /** "Hand back" on a session that asked for a person: its request ends as returned. */
  private handBack(sessionId: string): boolean {
    const handoff = this.handoffs.get(sessionId);
    if (!handoff) return false;
    const page = this.pressed.has(sessionId) ? this.pageOf(sessionId, handoff.pageId) : undefined;
    this.pressed.delete(sessionId);
    if (page)
      void page.mouse
        .up()
        .catch(() => undefined)
        .finally(() => this.handoffs.handBack(sessionId));
    else this.handoffs.handBack(sessionId);
    return true;
  }

  private pageOf(sessionId: string, pageId: string): Page | undefined {
    try {
      return this.mesh.getSession(sessionId).getPage(pageId).page;
    } catch {
      return undefined;
    }
  }

  releaseAll(): void {
    for (const sessionId of [...this.held.keys()]) this.release(sessionId);
  }

  /** Sends one input to the held page. Refused unless this session is taken over and reached. */
  async input(sessionId: string, input: TakeoverInput): Promise<void> {
    const handoff = this.handoffs.get(sessionId);
    const held: Pick<Held, 'pageId' | 'holding' | 'pressed'> | undefined =
      this.held.get(sessionId) ??
      (handoff && {
        pageId: handoff.pageId,
        holding: handoff.holding,
        pressed: this.pressed.has(sessionId),
      });
    if (!held) {
      throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'sessionId: the session is not taken over', {
        details: { field: 'sessionId' },
        recoveryHint: 'Take the session over first.',
      });
    }
    await held.holding;
    const page = this.mesh.getSession(sessionId).getPage(held.pageId).page;
    switch (input.type) {
      case 'text':
        // What a person types is theirs: it never comes back to the agent in a result, and a trace
        // of the session has it scrubbed (docs/human-in-the-loop.md, "What the person types").
        forgetFromOutputs(sessionId, input.text);
        return page.keyboard.type(input.text);
      case 'key':
        return page.keyboard.press(input.key);
      case 'click':
        return page.mouse.click(input.x, input.y);
      case 'wheel':
        await page.mouse.move(input.x, input.y);
        return page.mouse.wheel(input.deltaX, input.deltaY);
      default:
        await page.mouse.move(input.x, input.y);
        if (input.type === 'down') await page.mouse.down();
        if (input.type === 'up') await page.mouse.up();
        held.pressed = input.type === 'down' || (held.pressed && input.type === 'move');
        if (!this.held.has(sessionId)) {
          if (held.pressed) this.pressed.add(sessionId);
          else this.pressed.delete(sessionId);
        }
    }
  }
}

/**
 * Text shorter than this is not remembered: redacting every "a" or "12" from the agent's results
 * would ruin them, and so short a string gives little away.
 */
const MIN_REMEMBERED_CHARS = 4;

function forgetFromOutputs(sessionId: string, text: string): void {
  if (text.length < MIN_REMEMBERED_CHARS) return;
  rememberTypedSecret(sessionId, text);
  rememberDerivedSecret(sessionId, 'TYPED_BY_PERSON', text);
}

/** Validates a take-over input from the network; errors name the field, never its value. */
export function parseTakeoverInput(body: unknown): TakeoverInput {
  const value = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const number = (field: string, min: number, max: number): number => {
    const n = value[field];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) throw invalid(field);
    return n;
  };
  const at = (): { x: number; y: number } => ({ x: number('x', 0, MAX_COORD), y: number('y', 0, MAX_COORD) });
  switch (value.type) {
    case 'click':
    case 'down':
    case 'move':
    case 'up':
      return { type: value.type, ...at() };
    case 'wheel':
      return {
        type: 'wheel',
        ...at(),
        deltaX: number('deltaX', -MAX_WHEEL_DELTA, MAX_WHEEL_DELTA),
        deltaY: number('deltaY', -MAX_WHEEL_DELTA, MAX_WHEEL_DELTA),
      };
    case 'text':
      if (typeof value.text !== 'string' || value.text.length > MAX_TEXT_CHARS) throw invalid('text');
      return { type: 'text', text: value.text };
    case 'key':
      if (!isAllowedKey(value.key)) throw invalid('key');
      return { type: 'key', key: value.key };
    default:
      throw invalid('type');
  }
}

/** `Shift+Tab`, `Control+a`, `PageDown`: modifiers, then one named key or one letter or digit. */
function isAllowedKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length > 40) return false;
  const parts = key.split('+');
  const last = parts.pop() ?? '';
  if (!parts.every((part) => MODIFIERS.has(part)) || new Set(parts).size !== parts.length) return false;
  return NAMED_KEYS.has(last) || /^[A-Za-z0-9]$/.test(last);
}

function invalid(field: string): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, `${field}: invalid value`, { details: { field } });
}
