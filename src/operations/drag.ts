import type { CDPSession } from 'playwright-core';
import type { PageOperationContext } from '../engine/runtime.js';
import { performAction, type ActionResult } from './action-scope.js';
import type { TargetSpec } from './locator-spec.js';
import {
  actionPoint,
  dispatchMove,
  notInteractable,
  waitForActionPoint,
  DetachedError,
  type Point,
} from './pointer.js';
import { OBJECT_GROUP, type ElementTarget, type RemoteElement } from './remote-element.js';

/** Listens for dragstart on the source's window; the returned object records whether a drag really began. */
const DRAG_PROBE = `function () {
  const win = this.ownerDocument.defaultView;
  const probe = { event: null };
  const listener = (e) => { probe.event = e; };
  win.addEventListener('dragstart', listener, { capture: true, once: true });
  probe.read = () => {
    win.removeEventListener('dragstart', listener, { capture: true });
    return probe.event !== null && !probe.event.defaultPrevented;
  };
  return probe;
}`;

const MOVE_STEPS = 5;
const DRAG_START_OFFSET = 8;
const INTERCEPT_WAIT_MS = 1000;

/** Chromium's intercepted drag: what the page put in dataTransfer, handed back on drop. */
interface DragData {
  items: Array<{ mimeType: string; data: string; title?: string; baseURL?: string }>;
  files?: string[];
  dragOperationsMask: number;
}

/**
 * Drags `source` onto `target`. Works for HTML5 drag and drop (Chromium hands the drag to CDP through
 * drag interception, which is then dropped on the target with dispatchDragEvent) and for widgets that
 * follow mousedown / mousemove / mouseup (real mouse events in a few steps). Whether an HTML5 drag
 * began is read from the page's own dragstart event, not guessed from timing.
 */
export function dragAndDrop(
  ctx: PageOperationContext,
  source: TargetSpec,
  target: TargetSpec,
): Promise<ActionResult> {
  return performAction(ctx, async (scope) => {
    const from = await scope.resolve(source, 'source');
    const to = await scope.resolve(target, 'target');
    scope.logAs({ kind: 'drag' });
    const root = await ctx.page.cdp();
    await waitForActionPoint(to, ctx.deadline, { checkEnabled: false, signal: ctx.signal });
    const start = await waitForActionPoint(from, ctx.deadline, { checkEnabled: false, signal: ctx.signal });
    let intercepted: DragData | undefined;
    const onIntercept = (event: { data: DragData }): void => {
      intercepted = event.data;
    };
    root.on('Input.dragIntercepted', onIntercept);
    await root.send('Input.setInterceptDrags', { enabled: true });
    try {
      const probe = await installProbe(from);
      await dispatchMove(root, start);
      await root.send('Input.dispatchMouseEvent', {
        type: 'mousePressed',
        x: start.x,
        y: start.y,
        button: 'left',
        buttons: 1,
        clickCount: 1,
      });
      await dispatchMove(root, { x: start.x + DRAG_START_OFFSET, y: start.y + DRAG_START_OFFSET }, 1);
      const html5 = await readProbe(probe);
      const end = await dropPoint(to);
      if (html5) {
        const data = intercepted ?? (await waitForIntercept(root, () => intercepted));
        if (data) {
          await dropHtml5(root, end, data);
          return {};
        }
      }
      for (let i = 1; i <= MOVE_STEPS; i++) {
        const t = i / MOVE_STEPS;
        await dispatchMove(
          root,
          { x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t },
          1,
        );
      }
      await root.send('Input.dispatchMouseEvent', {
        type: 'mouseReleased',
        x: end.x,
        y: end.y,
        button: 'left',
        buttons: 0,
        clickCount: 1,
      });
      return {};
    } finally {
      root.off('Input.dragIntercepted', onIntercept);
      await root.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
    }
  });
}

/** Where to drop: recomputed once the drag is under way, without a hit test (the drag image may sit on top). */
async function dropPoint(target: ElementTarget): Promise<Point> {
  const prepared = await actionPoint(target, false, false);
  if (prepared.ok) return prepared;
  if (prepared.reason === 'detached') throw new DetachedError('element detached');
  throw notInteractable(target, prepared);
}

async function dropHtml5(root: CDPSession, end: Point, data: DragData): Promise<void> {
  const at = { x: end.x, y: end.y, data, modifiers: 0 };
  await root.send('Input.dispatchDragEvent', { type: 'dragEnter', ...at });
  await root.send('Input.dispatchDragEvent', { type: 'dragOver', ...at });
  await root.send('Input.dispatchDragEvent', { type: 'drop', ...at });
}

async function installProbe(source: ElementTarget): Promise<RemoteElement | undefined> {
  const { result } = await source.cdp.send('Runtime.callFunctionOn', {
    objectId: source.objectId,
    functionDeclaration: DRAG_PROBE,
    objectGroup: OBJECT_GROUP,
  });
  return result.objectId ? { cdp: source.cdp, objectId: result.objectId } : undefined;
}

async function readProbe(probe: RemoteElement | undefined): Promise<boolean> {
  if (!probe) return false;
  const { result } = await probe.cdp
    .send('Runtime.callFunctionOn', {
      objectId: probe.objectId,
      functionDeclaration: 'function () { return this.read(); }',
      returnByValue: true,
    })
    .catch(() => ({ result: { value: false } }));
  return result.value === true;
}

/** The drag began in the page; Chromium's interception event may still be on its way. */
function waitForIntercept(
  root: CDPSession,
  current: () => DragData | undefined,
): Promise<DragData | undefined> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      root.off('Input.dragIntercepted', done);
      resolve(current());
    };
    const timer = setTimeout(done, INTERCEPT_WAIT_MS);
    root.on('Input.dragIntercepted', done);
  });
}
