import type { Page } from 'playwright-core';
import { invalidArgument } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { performAction, type ActionResult } from './action-scope.js';
import { toModifiers, type ModifierName } from './keyboard.js';
import type { MouseButton } from './pointer.js';

/** A pointer action in CSS pixels of the viewport: for canvases, maps, sliders and games. */
export type MouseInput =
  | { action: 'move'; x: number; y: number; steps?: number | undefined }
  | {
      action: 'click';
      x: number;
      y: number;
      button?: MouseButton | undefined;
      clickCount?: number | undefined;
      modifiers?: ModifierName[] | undefined;
    }
  | {
      action: 'down' | 'up';
      x?: number | undefined;
      y?: number | undefined;
      button?: MouseButton | undefined;
    }
  | { action: 'drag'; x: number; y: number; toX: number; toY: number; steps?: number | undefined }
  | {
      action: 'wheel';
      x?: number | undefined;
      y?: number | undefined;
      deltaX?: number | undefined;
      deltaY?: number | undefined;
    };

export interface MouseResult extends ActionResult {
  /** The element under the pointer where the action landed (tag#id.class), null over nothing. */
  hit: string | null;
}

/** Describes the topmost element at a viewport point (through open shadow roots). */
const HIT_AT = `([x, y]) => {
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  if (!el) return null;
  const tag = el.localName;
  if (el.id) return (tag + '#' + el.id).slice(0, 80);
  const classes = [...el.classList].slice(0, 2).map((c) => '.' + c).join('');
  const role = el.getAttribute('role');
  return (tag + classes + (role ? '[role=' + role + ']' : '')).slice(0, 80);
}`;

/**
 * Runs one mouse action through Playwright's mouse (so code mode's `page.mouse` shares its position and
 * buttons), inside the usual action envelope (navigation, settle, dialogs). Points outside the viewport
 * are refused: an event there would reach nothing the agent can see.
 */
export function mouseAction(ctx: PageOperationContext, input: MouseInput): Promise<MouseResult> {
  return performAction(ctx, async () => {
    const page = ctx.page.page;
    const size = await viewportOf(page);
    const at = pointOf(input);
    if (at) checkPoint(at, size, '');
    if (input.action === 'drag') checkPoint({ x: input.toX, y: input.toY }, size, 'to');
    const hitPoint = input.action === 'drag' ? { x: input.toX, y: input.toY } : at;
    await dispatch(page, input);
    const hit = hitPoint ? await page.evaluate(`(${HIT_AT})([${hitPoint.x}, ${hitPoint.y}])`) : null;
    return { hit: typeof hit === 'string' ? hit : null };
  });
}

async function dispatch(page: Page, input: MouseInput): Promise<void> {
  const mouse = page.mouse;
  switch (input.action) {
    case 'move':
      return mouse.move(input.x, input.y, { steps: input.steps ?? 1 });
    case 'click': {
      const keys = toModifiers(input.modifiers ?? []);
      for (const key of keys) await page.keyboard.down(key);
      try {
        await mouse.click(input.x, input.y, {
          button: input.button ?? 'left',
          clickCount: input.clickCount ?? 1,
        });
      } finally {
        for (const key of keys.reverse()) await page.keyboard.up(key);
      }
      return;
    }
    case 'down':
    case 'up':
      if (input.x !== undefined && input.y !== undefined) await mouse.move(input.x, input.y);
      return input.action === 'down'
        ? mouse.down({ button: input.button ?? 'left' })
        : mouse.up({ button: input.button ?? 'left' });
    case 'drag':
      await mouse.move(input.x, input.y);
      await mouse.down();
      await mouse.move(input.toX, input.toY, { steps: input.steps ?? 10 });
      return mouse.up();
    case 'wheel':
      if (input.x !== undefined && input.y !== undefined) await mouse.move(input.x, input.y);
      return mouse.wheel(input.deltaX ?? 0, input.deltaY ?? 0);
  }
}

function pointOf(input: MouseInput): { x: number; y: number } | undefined {
  if (input.x === undefined || input.y === undefined) {
    if ((input.x === undefined) !== (input.y === undefined))
      throw invalidArgument('x', 'give both x and y, or neither');
    return undefined;
  }
  return { x: input.x, y: input.y };
}

function checkPoint(
  point: { x: number; y: number },
  size: { width: number; height: number },
  prefix: string,
): void {
  const fx = prefix === '' ? 'x' : 'toX';
  const fy = prefix === '' ? 'y' : 'toY';
  if (point.x < 0 || point.x >= size.width)
    throw invalidArgument(fx, `must be within the viewport (0 to ${size.width - 1})`);
  if (point.y < 0 || point.y >= size.height)
    throw invalidArgument(fy, `must be within the viewport (0 to ${size.height - 1})`);
}

async function viewportOf(page: Page): Promise<{ width: number; height: number }> {
  return page.viewportSize() ?? (await page.evaluate(() => ({ width: innerWidth, height: innerHeight })));
}

/** Bounds of a viewport size set on an open page (CSS pixels). */
export const VIEWPORT_LIMITS = { min: 100, max: 8192 } as const;

/**
 * Resizes the page's viewport and makes the size the session's default for pages opened later
 * (popups included), without recreating the session or its context.
 */
export async function setViewport(
  ctx: PageOperationContext,
  size: { width: number; height: number },
): Promise<{ width: number; height: number }> {
  for (const [field, value] of Object.entries(size)) {
    if (!Number.isInteger(value) || value < VIEWPORT_LIMITS.min || value > VIEWPORT_LIMITS.max)
      throw invalidArgument(
        field,
        `must be an integer from ${VIEWPORT_LIMITS.min} to ${VIEWPORT_LIMITS.max}`,
      );
  }
  await ctx.page.page.setViewportSize(size);
  ctx.session.setViewport(size);
  return ctx.page.page.evaluate(() => ({ width: innerWidth, height: innerHeight }));
}
