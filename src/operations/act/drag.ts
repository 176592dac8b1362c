import type { CDPSession } from 'playwright-core';
import type { PageOperationContext } from '../../engine/runtime.js';
import { performAction, type ActionResult } from './action-scope.js';
import type { TargetSpec } from '../locate/locator-spec.js';
import { checkDropPosition, dropPoint, type DropPosition } from './drop-point.js';
import { boxOf, nextFrame, onWrongSide, standStill } from './drag-pace.js';
import { dispatchMove, waitForActionPoint, type Point } from './pointer.js';
import { OBJECT_GROUP, type ElementTarget, type RemoteElement } from '../locate/remote-element.js';

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

const MOVE_STEPS = 10;
const DRAG_START_OFFSET = 8;
const INTERCEPT_WAIT_MS = 1000;
/** Tries to land on the asked side of the target before dropping where the pointer is. */
const SETTLE_ROUNDS = 4;

/** Chromium's intercepted drag: what the page put in dataTransfer, handed back on drop. */
interface DragData {
  items: Array<{ mimeType: string; data: string; title?: string; baseURL?: string }>;
  files?: string[];
  dragOperationsMask: number;
}

/**
 * Drags `source` onto `target`. Works for HTML5 drag and drop (Chromium hands the drag to CDP through
 * drag interception; the drag is then moved over the page with dispatchDragEvent) and for widgets that
 * follow mousedown / pointermove / mouseup (real mouse events). Either way the pointer travels in
 * steps, one per frame, enters the target and settles on `position` (default: the centre) once the
 * page stands still, recomputed at the end because sortable lists move the target as the dragged item
 * passes (drag-pace.ts). Whether an HTML5 drag began is
 * read from the page's own dragstart event, not guessed from timing.
 */
export function dragAndDrop(
  ctx: PageOperationContext,
  source: TargetSpec,
  target: TargetSpec,
  options: { position?: DropPosition | undefined } = {},
): Promise<ActionResult> {
  const position = checkDropPosition(options.position);
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
      await mouse(root, 'mousePressed', start);
      const lifted = { x: start.x + DRAG_START_OFFSET, y: start.y + DRAG_START_OFFSET };
      await dispatchMove(root, lifted, 1);
      const html5 = await readProbe(probe);
      const end = await dropPoint(to, position);
      const data = html5 ? (intercepted ?? (await waitForIntercept(root, () => intercepted))) : undefined;
      if (data) {
        const over = (p: Point, type: 'dragEnter' | 'dragOver' | 'drop'): Promise<unknown> =>
          root.send('Input.dispatchDragEvent', { type, x: p.x, y: p.y, data, modifiers: 0 });
        await over(lifted, 'dragEnter');
        const settled = await travel(from, to, position, lifted, end, (p) => over(p, 'dragOver'));
        await over(settled, 'drop');
        return {};
      }
      const settled = await travel(from, to, position, lifted, end, (p) => dispatchMove(root, p, 1));
      await mouse(root, 'mouseReleased', settled);
      return {};
    } finally {
      root.off('Input.dragIntercepted', onIntercept);
      await root.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
    }
  });
}

/**
 * Moves the pointer from `a` to `b` one step per frame and lets the page stand still. A page that
 * moved the dragged element on the way (a sortable list) is left where the pointer is, unless the
 * element sits on the other side of the target than `position` asks: then the pointer goes onto the
 * target's `position` side again (recomputed, the target moved). A page that did not is dropped on at
 * the drop point, recomputed. Returns where the drop happens.
 */
async function travel(
  from: ElementTarget,
  to: ElementTarget,
  position: DropPosition | undefined,
  a: Point,
  b: Point,
  move: (p: Point) => Promise<unknown>,
): Promise<Point> {
  const moveAndWait = async (p: Point): Promise<void> => {
    await move(p);
    // Input reaches the page before its next frame: only then is what it moved seen to stand still.
    await nextFrame(to);
    await standStill(from, to);
  };
  const start = await boxOf(from);
  for (const p of steps(a, b)) {
    await move(p);
    await nextFrame(to);
  }
  await standStill(from, to);
  const sorted = (await boxOf(from)) !== start;
  if (!sorted) {
    const at = await dropPoint(to, position);
    await moveAndWait(at);
    return at;
  }
  let at = b;
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    if (!(await onWrongSide(from, to, position))) break;
    at = await dropPoint(to, position);
    await moveAndWait(at);
  }
  // The drop comes with a dragover of its own at the pointer, and the list has moved under it since
  // the point was measured (on a slow renderer, it may still be moving): that dragover can swap the
  // item back. A sortable list ignores the pointer over the dragged item itself, so rest there.
  if (await onWrongSide(from, to, position)) return at;
  const rest = await dropPoint(from, undefined);
  await moveAndWait(rest);
  return (await onWrongSide(from, to, position)) ? at : rest;
}

/** Points from `a` to `b` (b included) in MOVE_STEPS equal steps: the page sees the pointer travel and enter. */
function steps(a: Point, b: Point): Point[] {
  const out: Point[] = [];
  for (let i = 1; i <= MOVE_STEPS; i++) {
    const t = i / MOVE_STEPS;
    out.push({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  }
  return out;
}

async function mouse(root: CDPSession, type: 'mousePressed' | 'mouseReleased', at: Point): Promise<void> {
  await root.send('Input.dispatchMouseEvent', {
    type,
    x: at.x,
    y: at.y,
    button: 'left',
    buttons: type === 'mousePressed' ? 1 : 0,
    clickCount: 1,
  });
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
