import { z } from 'zod';
import { click, hover, focus, scroll, scrollIntoView, MAX_SCROLL_DELTA } from '../operations/act/actions.js';
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
import { acted as actedCall, target } from '../code-mode/backend-define.js';
import { codeParts } from './code-parts.js';
import { ACTION, agentView, defineTool, IDEMPOTENT_ACTION } from './define.js';
import { acted } from './run-step-table.js';
import { LocatorWithFrameShape, pageAddress, targetFields } from './schemas.js';
import { SeedModifiers, SeedRef } from './seed-shapes.js';

/** Pointer interactions. Every one takes exactly one of `ref` or `locator` and runs on the session queue. */

const targetInput = z.object({ ...pageAddress, ...targetFields, ...includeSnapshotField }).strict();
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

export const hoverTool = defineTool({
  name: 'browser_hover',
  title: 'Hover',
  description: 'Move the mouse over an element (menus, tooltips).',
  profile: 'core',
  input: targetInput,
  output: ActionOutput,
  hints: IDEMPOTENT_ACTION,
  // AgentBrowser's view (seed 000): its own arguments, mapped onto the ones above.
  agent: agentView({
    name: 'browser_hover',
    description: 'Move the mouse over an element by ref (menus, tooltips, hover effects).',
    input: z.object({ ref: SeedRef }).strict(),
    toArgs: (args, at) => ({ ...at, ...args }),
  }),
  // Code mode's page.hover(selector) / locator.hover() (parsed by FACADE_OPS in facade-parse.ts)
  // and browser_run's `hover` step.
  code: codeParts({
    runners: {
      hover: async (ctx, call, { note }) => actedCall(note, hover(ctx, target(call.target), 'target')),
    },
    steps: {
      hover: {
        shape: 'hover',
        fields: [],
        targeting: 'required',
        prepare: (_input, spec) => acted((ctx, field) => hover(ctx, spec, field)),
      },
    },
  }),
  async handler(args, tool) {
    return runPageAction(tool, args, 'hover', (ctx) => hover(ctx, toTargetSpec(args), ''));
  },
});

export const focusTool = defineTool({
  name: 'browser_focus',
  title: 'Focus',
  description: 'Give an element keyboard focus; selectText selects that text in it.',
  profile: 'core',
  input: targetInput.extend({
    selectText: z.string().min(1).max(10_000).optional(),
    occurrence: z.number().int().min(1).max(1000).optional().describe('Which match (default 1).'),
  }),
  output: ActionOutput,
  hints: IDEMPOTENT_ACTION,
  // On AgentBrowser, only the selecting half of focus (focus alone is what a click gives).
  agent: agentView({
    name: 'browser_select_text',
    description:
      'Select text by its content inside an element (a word in a rich-text editor, a range of an input or textarea), e.g. before pressing Control+b. The element by ref, or by CSS selector (editors often have no ref). occurrence: which match (default 1).',
    input: z
      .object({
        ref: SeedRef.optional(),
        selector: z.string().min(1).max(1000).optional().describe('CSS selector, instead of ref.'),
        text: z.string().min(1).max(10_000),
        occurrence: z.number().int().min(1).max(1000).optional(),
      })
      .strict()
      .refine((a) => (a.ref === undefined) !== (a.selector === undefined), {
        message: 'give exactly one of ref or selector',
        path: ['ref'],
      }),
    toArgs: ({ ref, selector, text, occurrence }, at) => ({
      ...at,
      ...(ref === undefined ? { locator: { css: selector } } : { ref }),
      selectText: text,
      ...(occurrence === undefined ? {} : { occurrence }),
    }),
  }),
  async handler(args, tool) {
    const select =
      args.selectText === undefined ? undefined : { text: args.selectText, occurrence: args.occurrence };
    return runPageAction(tool, args, 'focus', (ctx) => focus(ctx, toTargetSpec(args), '', select));
  },
});

export const scrollIntoViewTool = defineTool({
  name: 'browser_scroll_into_view',
  title: 'Scroll into view',
  description: 'Scroll until an element is visible (through its iframes too).',
  profile: 'core',
  input: targetInput,
  output: ActionOutput,
  hints: IDEMPOTENT_ACTION,
  async handler(args, tool) {
    return runPageAction(tool, args, 'scroll_into_view', (ctx) =>
      scrollIntoView(ctx, toTargetSpec(args), ''),
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
