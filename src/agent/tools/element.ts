import { z } from 'zod';
import { click, hover, MAX_SCROLL_DELTA, scroll } from '../../operations/actions.js';
import type { ActionResult } from '../../operations/action-scope.js';
import { mergeSettled } from '../../operations/action-settle.js';
import { dragAndDrop } from '../../operations/drag.js';
import { fill, selectOption, toOptionCriteria } from '../../operations/forms.js';
import type { Modifier } from '../../operations/key-layout.js';
import { MAX_TYPE_DELAY_MS, press, typeText } from '../../operations/typing.js';
import { downloadsField } from '../../tools/action-runner.js';
import { DropPositionInput, SettledOutput } from '../../tools/action-schemas.js';
import { defineAgentTool } from '../tool-types.js';
import { Modifiers, Ref } from './schemas.js';

/** What an action returns: `url` only when it navigated, and any dialog that was dismissed on the way. */
export const ActionOutput = z.object({
  completed: z.literal(true),
  url: z.string().optional().describe('The new URL, when the action navigated.'),
  dialogs: z
    .array(
      z.object({ type: z.string(), message: z.string(), messageTruncated: z.boolean(), action: z.string() }),
    )
    .optional()
    .describe('Dialogs that opened unexpectedly and were handled.'),
  settled: SettledOutput.describe(
    'What the action caused and was awaited (only what happened): navigation, requests, mutations, waitedMs; absent when it caused nothing.',
  ),
  ...downloadsField,
});

/** `ControlOrMeta` is Meta on macOS and Control elsewhere, as in Playwright. */
export function toModifiers(names: readonly string[] | undefined): Modifier[] | undefined {
  return names?.map((name) =>
    name === 'ControlOrMeta' ? (process.platform === 'darwin' ? 'Meta' : 'Control') : (name as Modifier),
  );
}

export const clickTool = defineAgentTool({
  name: 'browser_click',
  description:
    'Click an element by its ref from browser_snapshot. Returns once what it set in motion settled (a navigation, requests, short timers), with the new url if it navigated.',
  input: z
    .object({
      ref: Ref,
      button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left).'),
      clickCount: z.number().int().min(1).max(3).optional().describe('2 for a double click (default 1).'),
      modifiers: Modifiers.optional(),
    })
    .strict(),
  output: ActionOutput,
  async handler(args, call) {
    const options = {
      button: args.button,
      clickCount: args.clickCount,
      modifiers: toModifiers(args.modifiers),
    };
    return call.onPage('click', (ctx) => click(ctx, { ref: args.ref }, '', options));
  },
});

export const typeTool = defineAgentTool({
  name: 'browser_type',
  description:
    'Type text into an input by ref, key by key (pages that react to each key see them). clear: true replaces the current content.',
  input: z
    .object({
      ref: Ref,
      text: z.string().max(10_000).describe('Text to type.'),
      clear: z.boolean().optional().describe('Clear the existing content first (default false).'),
      delay: z
        .number()
        .int()
        .min(0)
        .max(MAX_TYPE_DELAY_MS)
        .optional()
        .describe('Pause between keys in ms (default 0).'),
    })
    .strict(),
  output: ActionOutput,
  async handler(args, call) {
    return call.onPage('type', async (ctx) => {
      const cleared = args.clear ? await fill(ctx, { ref: args.ref }, '', '') : undefined;
      const typed = await typeText(ctx, { ref: args.ref }, '', args.text, args.delay ?? 0);
      return mergeResults(cleared, typed);
    });
  },
});

export const pressTool = defineAgentTool({
  name: 'browser_press',
  description:
    'Press a key or combination in the focused element, e.g. "Enter", "Tab", "Escape", "Control+a".',
  input: z
    .object({
      key: z.string().min(1).max(64).describe('Key name or combination, e.g. "Enter" or "Control+a".'),
      modifiers: Modifiers.optional(),
    })
    .strict(),
  output: ActionOutput,
  async handler(args, call) {
    const combo = [...(args.modifiers ?? []), args.key].join('+');
    return call.onPage('press', (ctx) => press(ctx, undefined, '', combo, 'key'));
  },
});

export const selectTool = defineAgentTool({
  name: 'browser_select',
  description:
    'Choose an option of a dropdown (select element) by ref: give exactly one of value, label (visible text) or index (0-based).',
  input: z
    .object({
      ref: Ref,
      value: z.string().max(1000).optional().describe("The option's value attribute."),
      label: z.string().max(1000).optional().describe("The option's visible text."),
      index: z.number().int().min(0).max(10_000).optional().describe("The option's position, from 0."),
    })
    .strict(),
  output: ActionOutput.extend({ selected: z.array(z.string()).describe('Values now selected.') }),
  async handler(args, call) {
    const criteria = toOptionCriteria(args);
    return call.onPage('select', (ctx) => selectOption(ctx, { ref: args.ref }, '', criteria));
  },
});

export const scrollTool = defineAgentTool({
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
      ref: Ref.optional().describe('Element to scroll; omit to scroll the page.'),
    })
    .strict(),
  output: ActionOutput.extend({
    scrollX: z.number(),
    scrollY: z.number(),
    container: z.enum(['page', 'element']),
    scroller: z.string().optional().describe('The element that scrolled.'),
  }),
  async handler(args, call) {
    const amount = args.amount ?? 300;
    const [dx, dy] = { up: [0, -amount], down: [0, amount], left: [-amount, 0], right: [amount, 0] }[
      args.direction
    ] as [number, number];
    return call.onPage('scroll', (ctx) =>
      scroll(ctx, args.ref === undefined ? undefined : { ref: args.ref }, '', dx, dy),
    );
  },
});

export const hoverTool = defineAgentTool({
  name: 'browser_hover',
  description: 'Move the mouse over an element by ref (menus, tooltips, hover effects).',
  input: z.object({ ref: Ref }).strict(),
  output: ActionOutput,
  async handler(args, call) {
    return call.onPage('hover', (ctx) => hover(ctx, { ref: args.ref }, ''));
  },
});

export const dragTool = defineAgentTool({
  name: 'browser_drag',
  description: 'Drag one element onto another, both by ref (HTML5 drag and drop, and mouse-driven widgets).',
  input: z
    .object({
      sourceRef: Ref.describe('Element to drag.'),
      targetRef: Ref.describe('Element to drop it on.'),
      position: DropPositionInput.optional(),
    })
    .strict(),
  output: ActionOutput,
  async handler(args, call) {
    return call.onPage('drag', (ctx) =>
      dragAndDrop(ctx, { ref: args.sourceRef }, { ref: args.targetRef }, { position: args.position }),
    );
  },
});

/** Two actions run as one: the later URL, and the dialogs of both. */
function mergeResults(first: ActionResult | undefined, second: ActionResult): ActionResult {
  if (!first) return second;
  const dialogs = [...(first.dialogs ?? []), ...(second.dialogs ?? [])];
  const url = second.url ?? first.url;
  const settled = mergeSettled(first.settled, second.settled);
  return {
    completed: true,
    ...(url === undefined ? {} : { url }),
    ...(dialogs.length > 0 ? { dialogs } : {}),
    ...(settled ? { settled } : {}),
  };
}
