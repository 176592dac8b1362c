import { BrowserMeshError, ErrorCodes } from '../errors.js';
import type { BrowserMesh } from '../engine/runtime.js';

/** A person's input while holding a session: viewport CSS pixels, text typed at the caret, or one key. */
export type TakeoverInput =
  { type: 'click'; x: number; y: number } | { type: 'text'; text: string } | { type: 'key'; key: string };

interface Held {
  pageId: string;
  release: () => void;
  /** Resolves once the session's queue reached the take-over (everything before it finished). */
  holding: Promise<void>;
}

/** A take-over that is never handed back ends by itself, so an agent is not blocked forever. */
export const MAX_TAKEOVER_MS = 600_000;
const MAX_TEXT_CHARS = 1000;
const KEY_PATTERN = /^[A-Za-z0-9+]{1,40}$/;

/**
 * Take-over: a person drives a page while the agent waits. It is an operation on the session's own
 * serial queue, so it starts once the running operation finishes, and everything the agent sends
 * meanwhile queues behind it (keeping its own deadline) until the person hands back. Typed text is
 * sent to the page and never stored, logged or shown.
 */
export class TakeoverController {
  private readonly held = new Map<string, Held>();

  constructor(private readonly mesh: BrowserMesh) {}

  isTakenOver(sessionId: string): boolean {
    return this.held.has(sessionId);
  }

  /** Resolves once the person holds the session (the queue reached the take-over). */
  async start(sessionId: string, pageId: string): Promise<void> {
    const session = this.mesh.getSession(sessionId);
    session.getPage(pageId);
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
    const held: Held = { pageId, release, holding };
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
    if (!held) return false;
    this.held.delete(sessionId);
    held.release();
    return true;
  }

  releaseAll(): void {
    for (const sessionId of [...this.held.keys()]) this.release(sessionId);
  }

  /** Sends one input to the held page. Refused unless this session is taken over and reached. */
  async input(sessionId: string, input: TakeoverInput): Promise<void> {
    const held = this.held.get(sessionId);
    if (!held) {
      throw new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, 'sessionId: the session is not taken over', {
        details: { field: 'sessionId' },
        recoveryHint: 'Take the session over first.',
      });
    }
    await held.holding;
    const page = this.mesh.getSession(sessionId).getPage(held.pageId).page;
    if (input.type === 'click') return page.mouse.click(input.x, input.y);
    if (input.type === 'text') return page.keyboard.type(input.text);
    return page.keyboard.press(input.key);
  }
}

/** Validates a take-over input from the network; errors name the field, never its value. */
export function parseTakeoverInput(body: unknown): TakeoverInput {
  const value = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const bad = (field: string): BrowserMeshError =>
    new BrowserMeshError(ErrorCodes.INVALID_ARGUMENT, `${field}: invalid value`, { details: { field } });
  const coord = (field: 'x' | 'y'): number => {
    const n = value[field];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 100_000) throw bad(field);
    return n;
  };
  switch (value.type) {
    case 'click':
      return { type: 'click', x: coord('x'), y: coord('y') };
    case 'text':
      if (typeof value.text !== 'string' || value.text.length > MAX_TEXT_CHARS) throw bad('text');
      return { type: 'text', text: value.text };
    case 'key':
      if (typeof value.key !== 'string' || !KEY_PATTERN.test(value.key)) throw bad('key');
      return { type: 'key', key: value.key };
    default:
      throw bad('type');
  }
}
