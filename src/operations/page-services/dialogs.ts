import type { Dialog } from 'playwright-core';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { settleValue, settleWithin } from '../../engine/interrupt.js';
import type { ManagedPage } from '../../engine/page.js';
import type { BrowserMesh } from '../../engine/runtime.js';
import type { PageHook } from '../../engine/session.js';
import { boundText } from '../../text.js';

export type DialogType = 'alert' | 'confirm' | 'prompt' | 'beforeunload';

/** A dialog as reported to the agent: type, bounded message, and what BrowserMesh did with it. */
export interface DialogNote {
  type: DialogType;
  message: string;
  messageTruncated: boolean;
  action: 'accepted' | 'dismissed';
}

export interface DialogExpectation {
  /** Only this type is expected; undefined accepts any type. */
  type?: DialogType | undefined;
  accept: boolean;
  promptText?: string | undefined;
}

const MAX_MESSAGE_CHARS = 500;
const MAX_NOTES = 20;

/**
 * Every page's JavaScript dialogs go through one router, so a dialog never blocks a session: one that
 * an action_and_wait expects is handled exactly as asked; any other is dismissed at once (beforeunload
 * is accepted: the agent asked to leave the page, and staying would silently cancel its navigation)
 * and kept as a note that the next action or wait reports.
 */
export class DialogRouter {
  private pending:
    | { expectation: DialogExpectation; resolve(note: DialogNote): void; reject(error: Error): void }
    | undefined;
  private notes: DialogNote[] = [];
  private recent: number[] = [];
  private stormsStopped = 0;
  private lastDialogAt: number | undefined;

  /**
   * @param onStorm called when the page opens more than STORM_DIALOGS dialogs within
   *   STORM_WINDOW_MS: dismissing them one by one would never end, and a page that is always
   *   showing a dialog cannot even be navigated away from.
   */
  constructor(
    private readonly attachTo: (listener: (dialog: Dialog) => void) => void,
    private readonly onStorm: () => Promise<void> = async () => {},
  ) {
    this.attachTo((dialog) => void this.handle(dialog));
  }

  /** How many dialog storms this page started and BrowserMesh stopped. */
  get storms(): number {
    return this.stormsStopped;
  }

  /** Registers the expectation (before the action runs); the promise settles when the dialog is handled. */
  expect(expectation: DialogExpectation): { handled: Promise<DialogNote>; cancel(): void } {
    if (this.pending)
      this.pending.reject(
        new BrowserMeshError(ErrorCodes.INTERNAL_ERROR, 'A newer dialog expectation replaced this one'),
      );
    let entry: NonNullable<typeof this.pending> | undefined;
    const handled = new Promise<DialogNote>((resolve, reject) => {
      entry = { expectation, resolve, reject };
    });
    this.pending = entry;
    handled.catch(() => undefined);
    return {
      handled,
      cancel: () => {
        if (this.pending === entry) this.pending = undefined;
      },
    };
  }

  /** Dialogs handled without an expectation since the last call; clears them. */
  takeNotes(): DialogNote[] {
    const notes = this.notes;
    this.notes = [];
    return notes;
  }

  private async handle(dialog: Dialog): Promise<void> {
    this.watchForStorm();
    const type = dialog.type() as DialogType;
    const bounded = boundText(dialog.message(), MAX_MESSAGE_CHARS, Number.MAX_SAFE_INTEGER);
    const pending = this.pending;
    if (pending && (pending.expectation.type === undefined || pending.expectation.type === type)) {
      this.pending = undefined;
      const { accept, promptText } = pending.expectation;
      await (accept ? dialog.accept(type === 'prompt' ? promptText : undefined) : dialog.dismiss()).catch(
        () => undefined,
      );
      pending.resolve({
        type,
        message: bounded.text,
        messageTruncated: bounded.truncated,
        action: accept ? 'accepted' : 'dismissed',
      });
      return;
    }
    const accept = type === 'beforeunload';
    await (accept ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
    this.notes.push({
      type,
      message: bounded.text,
      messageTruncated: bounded.truncated,
      action: accept ? 'accepted' : 'dismissed',
    });
    if (this.notes.length > MAX_NOTES) this.notes.shift();
    if (pending) {
      this.pending = undefined;
      pending.reject(
        new BrowserMeshError(
          ErrorCodes.BROWSER_ERROR,
          `Expected a ${pending.expectation.type ?? 'dialog'} but a ${type} dialog opened; it was ${accept ? 'accepted' : 'dismissed'}`,
          {
            details: {
              reason: 'dialog_type_mismatch',
              expected: pending.expectation.type ?? null,
              observed: type,
            },
          },
        ),
      );
    }
  }

  /**
   * Before the page is navigated away from: a page that showed a dialog within STORM_WINDOW_MS may
   * show another just as the navigation starts, and a dialog of a document being left can no longer
   * be dismissed (it would hold the navigation for good). So its dialogs are blocked first; a page
   * without recent dialogs costs nothing.
   */
  async beforeLeaving(): Promise<void> {
    const now = Date.now();
    if (this.lastDialogAt !== undefined && now - this.lastDialogAt < STORM_WINDOW_MS)
      await this.onStorm().catch(() => undefined);
  }

  private watchForStorm(): void {
    const now = Date.now();
    this.lastDialogAt = now;
    this.recent = this.recent.filter((at) => now - at < STORM_WINDOW_MS);
    this.recent.push(now);
    if (this.recent.length <= STORM_DIALOGS) return;
    this.recent = [];
    this.stormsStopped++;
    void this.onStorm().catch(() => undefined);
  }
}

/**
 * More dialogs than this within STORM_WINDOW_MS is a storm: no page needs that many, and each one
 * costs a round trip to dismiss, so a page calling alert() every millisecond shows about ten a second.
 */
const STORM_DIALOGS = 10;
const STORM_WINDOW_MS = 2_000;
const BLOCK_STEP_MS = 1_000;

/**
 * Stops a dialog storm: in every frame of the current document, alert/confirm/prompt become
 * no-ops that answer as a dismissed dialog would. Between two dialogs the page's main thread is
 * free for an instant, which is when these evaluations run. The next document starts clean.
 */
async function blockDialogs(page: ManagedPage): Promise<void> {
  const cdp = await settleValue(page.cdp(), BLOCK_STEP_MS);
  await Promise.all([
    cdp ? settleWithin(cdp.send('Runtime.evaluate', { expression: BLOCK_SCRIPT }), BLOCK_STEP_MS) : undefined,
    ...page.page
      .frames()
      .filter((frame) => frame !== page.page.mainFrame())
      .map((frame) => settleWithin(frame.evaluate(BLOCK_SCRIPT), BLOCK_STEP_MS)),
  ]);
}

const BLOCK_SCRIPT =
  'window.alert = () => undefined; window.confirm = () => false; window.prompt = () => null; undefined';

const ROUTER = Symbol('browsermesh.dialogs');

/** The page's dialog router, attached on first use (the page hook attaches it before any script runs). */
export function dialogRouterOf(page: ManagedPage): DialogRouter {
  return page.state(
    ROUTER,
    () =>
      new DialogRouter(
        (listener) => page.page.on('dialog', listener),
        () => blockDialogs(page),
      ),
  );
}

/** Unexpected dialogs handled on this page since the last report; clears them. */
export function takeDialogNotes(page: ManagedPage): DialogNote[] {
  return dialogRouterOf(page).takeNotes();
}

/** The tool that answers a dialog on the face reporting it: MCP's, or AgentBrowser's. */
export type DialogAnswerTool = 'browser_action_and_wait' | 'browser_dialog';

/** How to answer a prompt or accept a confirm that was dismissed, per face. */
const HOW_TO_ANSWER: Record<DialogAnswerTool, Record<'prompt' | 'confirm', string>> = {
  browser_action_and_wait: {
    prompt:
      'to answer it, repeat the action with browser_action_and_wait, waitFor: {kind: "dialog", promptText}',
    confirm: 'to accept it, repeat the action with browser_action_and_wait, waitFor: {kind: "dialog"}',
  },
  browser_dialog: {
    prompt: 'to answer it, repeat the click with browser_dialog, action: "accept", text',
    confirm: 'to accept it, repeat the click with browser_dialog, action: "accept"',
  },
};

/**
 * One short line per note (`alert "Saved!" (dismissed)`), as results that ride on every action carry
 * them. A prompt or confirm nobody expected was dismissed, so the line says how to answer it instead.
 */
export function formatDialogNote(
  note: DialogNote,
  answer: DialogAnswerTool = 'browser_action_and_wait',
): string {
  const answerable = note.action === 'dismissed' && (note.type === 'prompt' || note.type === 'confirm');
  const how = answerable ? `; ${HOW_TO_ANSWER[answer][note.type as 'prompt' | 'confirm']}` : '';
  return `${note.type} ${JSON.stringify(note.message)}${note.messageTruncated ? '…' : ''} (${note.action}${how})`;
}

export const dialogPageHook: PageHook = (page) => {
  dialogRouterOf(page);
};

const installed = new WeakSet<BrowserMesh>();

/** Routes the dialogs of every page the runtime adopts from now on. Idempotent per runtime. */
export function installDialogHandling(mesh: BrowserMesh): void {
  if (installed.has(mesh)) return;
  installed.add(mesh);
  mesh.addPageHook(dialogPageHook);
}
