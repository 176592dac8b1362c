import { z } from 'zod';
import { fill, selectOption, toOptionCriteria } from '../operations/act/forms.js';
import { MAX_TYPE_DELAY_MS, press, typeText } from '../operations/act/typing.js';
import { ActionOutput, KeyName, toTargetSpec } from './action-schemas.js';
import { runPageAction } from './action-runner.js';
import { ACTION, agentView, defineTool, IDEMPOTENT_ACTION } from './define.js';
import { targetInput } from './element-actions.js';
import { SeedModifiers, SeedRef } from './seed-shapes.js';

/** Keyboard and form interactions. Values typed or filled never appear in errors or logs. */

export const fillTool = defineTool({
  name: 'browser_fill',
  title: 'Fill',
  description:
    'Replace the content of an input, textarea or contenteditable with value; a slider or spinbutton widget is moved there with keys.',
  profile: 'core',
  input: targetInput.extend({ value: z.string().max(100_000).describe('The new content ("" clears it).') }),
  output: ActionOutput.extend({
    value: z.string().optional().describe('A slider or spinbutton: the value it reached.'),
  }),
  hints: IDEMPOTENT_ACTION,
  async handler(args, tool) {
    return runPageAction(tool, args, 'fill', (ctx) => fill(ctx, toTargetSpec(args), '', args.value));
  },
});

export const typeTool = defineTool({
  name: 'browser_type',
  title: 'Type',
  description: 'Type text key by key at the caret (autocomplete, masked inputs), in the target if given.',
  profile: 'core',
  input: targetInput.extend({
    text: z.string().min(1).max(10_000),
    delayMs: z
      .number()
      .int()
      .min(0)
      .max(MAX_TYPE_DELAY_MS)
      .optional()
      .describe('Pause between keys (default 0).'),
  }),
  output: ActionOutput,
  hints: ACTION,
  async handler(args, tool) {
    return runPageAction(tool, args, 'type', (ctx) =>
      typeText(ctx, toTargetSpec(args), '', args.text, args.delayMs ?? 0),
    );
  },
});

export const pressTool = defineTool({
  name: 'browser_press',
  title: 'Press key',
  description: 'Press a key or combination, in the target if given (else the focused element).',
  profile: 'core',
  input: targetInput.extend({ key: KeyName }),
  output: ActionOutput,
  hints: ACTION,
  agent: agentView({
    name: 'browser_press',
    description:
      'Press a key or combination in the focused element, e.g. "Enter", "Tab", "Escape", "Control+a".',
    input: z
      .object({
        key: z.string().min(1).max(64).describe('Key name or combination, e.g. "Enter" or "Control+a".'),
        modifiers: SeedModifiers.optional(),
      })
      .strict(),
    toArgs: ({ key, modifiers }, at) => ({ ...at, key: [...(modifiers ?? []), key].join('+') }),
  }),
  async handler(args, tool) {
    return runPageAction(tool, args, 'press', (ctx) => press(ctx, toTargetSpec(args), '', args.key));
  },
});

const OneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(100)]);

export const selectOptionTool = defineTool({
  name: 'browser_select_option',
  title: 'Select option',
  description:
    'Select options of a <select> by value, label or index (one of them; arrays for multi-selects). A value no option has is matched against the labels.',
  profile: 'core',
  input: targetInput.extend({
    value: OneOrMany(z.string().max(1000)).optional(),
    label: OneOrMany(z.string().max(1000)).optional(),
    index: OneOrMany(z.number().int().min(0).max(100_000)).optional(),
  }),
  output: ActionOutput.extend({
    selected: z.array(z.string()).describe('The values now selected.'),
  }),
  hints: IDEMPOTENT_ACTION,
  agent: agentView({
    name: 'browser_select',
    description:
      'Choose an option of a dropdown (select element) by ref: give exactly one of value, label (visible text) or index (0-based).',
    input: z
      .object({
        ref: SeedRef,
        value: z.string().max(1000).optional().describe("The option's value attribute."),
        label: z.string().max(1000).optional().describe("The option's visible text."),
        index: z.number().int().min(0).max(10_000).optional().describe("The option's position, from 0."),
      })
      .strict(),
    toArgs: (args, at) => ({ ...at, ...args }),
  }),
  async handler(args, tool) {
    const criteria = toOptionCriteria(args);
    return runPageAction(tool, args, 'select_option', (ctx) =>
      selectOption(ctx, toTargetSpec(args), '', criteria),
    );
  },
});
