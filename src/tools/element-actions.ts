import { z } from 'zod';
import type { PageOperationContext } from '../engine/runtime.js';
import { acted as actedCall, target, type Runner } from '../code-mode/backend-define.js';
import type { ActionResult } from '../operations/act/action-scope.js';
import { blur, focus, hover, scrollIntoView } from '../operations/act/actions.js';
import { setChecked } from '../operations/act/forms.js';
import {
  ELEMENT_ACTION_KINDS,
  ELEMENT_ACTIONS,
  snakeName,
  type ElementActionKind,
} from '../operations/journal/element-actions.js';
import type { TargetSpec } from '../operations/locate/locator-spec.js';
import { ActionOutput, toTargetSpec } from './action-schemas.js';
import { includeSnapshotField, runPageAction } from './action-runner.js';
import { codeParts, type CodeView } from './code-parts.js';
import { agentView, defineTool, IDEMPOTENT_ACTION, type AgentView, type AnyTool } from './define.js';
import { acted } from './run-step-table.js';
import { pageAddress, targetFields } from './schemas.js';
import { SeedRef } from './seed-shapes.js';

/**
 * The element-action table's rows made tools (src/operations/journal/element-actions.ts): one
 * operation per row, and from it the MCP tool, the library method, code mode's runner and the
 * `browser_run` step. A row whose tool is no more than "this element, this operation" needs its
 * operation in ELEMENT_OPERATIONS and `elementTool(kind)` in ELEMENT_ACTION_TOOLS; check, uncheck and
 * focus report or take more, and say so in their own definitions.
 */

/** One element, exactly one of `ref` or `locator`, on the session's page. */
export const targetInput = z.object({ ...pageAddress, ...targetFields, ...includeSnapshotField }).strict();

type ElementOperation = (ctx: PageOperationContext, spec: TargetSpec, field: string) => Promise<ActionResult>;

/** Each row's operation: a row of ELEMENT_ACTIONS does not type-check until it has one here. */
const ELEMENT_OPERATIONS: { readonly [K in ElementActionKind]: ElementOperation } = {
  hover,
  focus: (ctx, spec, field) => focus(ctx, spec, field),
  check: (ctx, spec, field) => setChecked(ctx, spec, field, true),
  uncheck: (ctx, spec, field) => setChecked(ctx, spec, field, false),
  scrollIntoView,
  blur,
};

/** Code mode's `locator.<kind>()` runner and `browser_run`'s `<kind>` step (no fields, one element). */
function elementCode(kind: ElementActionKind): ReturnType<typeof codeParts> {
  const operation = ELEMENT_OPERATIONS[kind];
  const runner: Runner<ElementActionKind> = async (ctx, call, { note }) =>
    actedCall(note, operation(ctx, target(call.target), ''));
  const view: CodeView = {
    runners: { [kind]: runner },
    steps: {
      [kind]: {
        shape: kind,
        fields: [],
        targeting: 'required',
        prepare: (_input, spec) => acted((ctx, field) => operation(ctx, spec, field)),
      },
    },
  };
  return codeParts(view);
}

/** What every row's tool shares: its name, title and description from the row, and its code parts. */
function identity(kind: ElementActionKind) {
  const row = ELEMENT_ACTIONS[kind];
  return {
    name: `browser_${snakeName(kind)}`,
    title: row.title,
    description: row.description,
    profile: 'core' as const,
    hints: IDEMPOTENT_ACTION,
    code: elementCode(kind),
  };
}

/** The plain row's tool: the element in, what the action caused out. */
function elementTool<const N extends string = never>(
  kind: ElementActionKind,
  agent?: AgentView<z.ZodObject, N>,
) {
  return defineTool({
    ...identity(kind),
    input: targetInput,
    output: ActionOutput,
    ...(agent === undefined ? {} : { agent }),
    async handler(args, tool) {
      return runPageAction(tool, args, snakeName(kind), (ctx) =>
        ELEMENT_OPERATIONS[kind](ctx, toTargetSpec(args), ''),
      );
    },
  });
}

const CheckOutput = ActionOutput.extend({
  checked: z.boolean(),
  changed: z.boolean().describe('false if it already was (nothing clicked).'),
});

/** check and uncheck also say whether the box is checked now and whether anything was clicked. */
function checkTool(kind: 'check' | 'uncheck') {
  return defineTool({
    ...identity(kind),
    input: targetInput,
    output: CheckOutput,
    async handler(args, tool) {
      return runPageAction(tool, args, kind, (ctx) =>
        setChecked(ctx, toTargetSpec(args), '', kind === 'check'),
      );
    },
  });
}

/** focus also selects text in the element; AgentBrowser offers only that half (browser_select_text). */
const focusTool = defineTool({
  ...identity('focus'),
  input: targetInput.extend({
    selectText: z.string().min(1).max(10_000).optional(),
    occurrence: z.number().int().min(1).max(1000).optional().describe('Which match (default 1).'),
  }),
  output: ActionOutput,
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

/** Every row's tool, by the row's name (the library's method names). */
export const ELEMENT_ACTION_TOOLS = {
  // AgentBrowser's view (seed 000): its own arguments, mapped onto the tool's.
  hover: elementTool(
    'hover',
    agentView({
      name: 'browser_hover',
      description: 'Move the mouse over an element by ref (menus, tooltips, hover effects).',
      input: z.object({ ref: SeedRef }).strict(),
      toArgs: (args, at) => ({ ...at, ...args }),
    }),
  ),
  focus: focusTool,
  check: checkTool('check'),
  uncheck: checkTool('uncheck'),
  scrollIntoView: elementTool('scrollIntoView'),
  blur: elementTool('blur'),
} satisfies { readonly [K in ElementActionKind]: AnyTool };

/** The rows' tools in the table's order (the order they are listed in). */
export const ELEMENT_ACTION_TOOL_LIST = ELEMENT_ACTION_KINDS.map((kind) => ELEMENT_ACTION_TOOLS[kind]);
