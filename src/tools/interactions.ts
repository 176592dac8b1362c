import { z } from 'zod';
import { click, scroll, MAX_SCROLL_DELTA } from '../operations/act/actions.js';
import { dragAndDrop } from '../operations/act/drag.js';
import {
  ActionOutput,
  DropPositionInput,
  DropTarget,
  Modifiers,
  MouseButton,
  Target,
  toTargetSpec,
} from './action-schemas.js';
import { downloadsField, includeSnapshotField, runPageAction } from './action-runner.js';
import { ACTION, agentView, defineTool } from './define.js';
import { targetInput } from './element-actions.js';
import { LocatorWithFrameShape, pageAddress } from './schemas.js';
import { SeedModifiers, SeedRef } from './seed-shapes.js';

/** Pointer interactions. Every one takes exactly one of `ref` or `locator` and runs on the session queue. */

export const clickTool = defineTool({
  name: 'browser_click',
  title: 'Click',
  description:
    'Click an element (ref or locator), scrolled into view; it must be visible, enabled and not covered.',
  profile: 'core',
  input: targetInput.extend({
    locator: LocatorWithFrameShape.optional(),
    button: MouseButton.optional(),
    clickCount: z
      .number()
      .int()
      .min(1)
      .max(3)
      .optional()
      .describe('1 (default), 2 or 3.')
      .meta({ leanOmit: ['minimum', 'maximum'] }),
    modifiers: Modifiers.optional(),
  }),
  output: ActionOutput.extend(downloadsField),
  hints: ACTION,
  agent: agentView({
    name: 'browser_click',
    description:
      'Click an element by its ref from browser_snapshot. Returns once what it set in motion settled (a navigation, requests, short timers), with the new url if it navigated.',
    input: z
      .object({
        ref: SeedRef,
        button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left).'),
        clickCount: z.number().int().min(1).max(3).optional().describe('2 for a double click (default 1).'),
        modifiers: SeedModifiers.optional(),
      })
      .strict(),
    toArgs: (args, at) => ({ ...at, ...args }),
  }),
  async handler(args, tool) {
    return runPageAction(tool, args, 'click', (ctx) =>
      click(ctx, toTargetSpec(args), '', {
        button: args.button,
        clickCount: args.clickCount,
        modifiers: args.modifiers,
      }),
    );
  },
});

export const doubleClickTool = defineTool({
  name: 'browser_double_click',
  title: 'Double-click',
  description: 'Double-click an element (same checks as browser_click).',
  profile: 'core',
  input: targetInput.extend({ modifiers: Modifiers.optional() }),
  output: ActionOutput,
  hints: ACTION,
  async handler(args, tool) {
    return runPageAction(tool, args, 'double_click', (ctx) =>
      click(ctx, toTargetSpec(args), '', { clickCount: 2, modifiers: args.modifiers }),
    );
  },
});

const Delta = z.number().int().min(-MAX_SCROLL_DELTA).max(MAX_SCROLL_DELTA);

export const scrollTool = defineTool({
  name: 'browser_scroll',
  title: 'Scroll',
  description:
    'Scroll the page, or the container of an element (ref or locator), by pixels; returns the position.',
  profile: 'core',
  input: targetInput.extend({
    deltaX: Delta.optional().describe('Pixels right (negative: left).'),
    deltaY: Delta.optional().describe('Pixels down (negative: up).'),
  }),
  output: ActionOutput.extend({
    scrollX: z.number(),
    scrollY: z.number(),
    container: z.enum(['page', 'element']),
    scroller: z.string().optional().describe('The element that scrolled.'),
  }),
  hints: ACTION,
  agent: agentView({
    name: 'browser_scroll',
    description:
      'Scroll the page, or the element given by ref, in a direction by some pixels (default 300). Returns the new scroll position.',
    input: z
      .object({
        direction: z.enum(['up', 'down', 'left', 'right']),
        amount: z
          .number()
          .int()
          .min(1)
          .max(MAX_SCROLL_DELTA)
          .optional()
          .describe('Pixels to scroll (default 300).'),
        ref: SeedRef.optional().describe('Element to scroll; omit to scroll the page.'),
      })
      .strict(),
    toArgs: ({ direction, amount = 300, ref }, at) => ({
      ...at,
      ...(ref === undefined ? {} : { ref }),
      deltaX: direction === 'left' ? -amount : direction === 'right' ? amount : 0,
      deltaY: direction === 'up' ? -amount : direction === 'down' ? amount : 0,
    }),
  }),
  async handler(args, tool) {
    return runPageAction(tool, args, 'scroll', (ctx) =>
      scroll(ctx, toTargetSpec(args), '', args.deltaX ?? 0, args.deltaY ?? 0),
    );
  },
});

export const dragAndDropTool = defineTool({
  name: 'browser_drag_and_drop',
  title: 'Drag and drop',
  description: 'Drag one element onto another (HTML5 drag and drop or mouse-driven widgets).',
  profile: 'core',
  input: z
    .object({
      ...pageAddress,
      source: Target,
      target: DropTarget,
      position: DropPositionInput.optional(),
      ...includeSnapshotField,
    })
    .strict(),
  output: ActionOutput,
  hints: ACTION,
  agent: agentView({
    name: 'browser_drag',
    description:
      'Drag one element onto another, both by ref (HTML5 drag and drop, and mouse-driven widgets).',
    input: z
      .object({
        sourceRef: SeedRef.describe('Element to drag.'),
        targetRef: SeedRef.describe('Element to drop it on.'),
        position: DropPositionInput.optional(),
      })
      .strict(),
    toArgs: ({ sourceRef, targetRef, position }, at) => ({
      ...at,
      source: { ref: sourceRef },
      target: { ref: targetRef },
      ...(position === undefined ? {} : { position }),
    }),
  }),
  async handler(args, tool) {
    return runPageAction(tool, args, 'drag_and_drop', (ctx) =>
      dragAndDrop(ctx, args.source, args.target, { position: args.position }),
    );
  },
});
