import { z } from 'zod';
import { invalidArgument } from '../errors.js';
import { mouseAction, setViewport, VIEWPORT_LIMITS, type MouseInput } from '../operations/act/mouse.js';
import { downloadsField, dialogAnswerOf, publishDialogs } from './action-runner.js';
import { Modifiers, MouseButton } from './action-schemas.js';
import { ACTION, agentView, defineTool, IDEMPOTENT_ACTION } from './define.js';
import { pageAddress } from './schemas.js';

/** Pointer by coordinates and the viewport of an open page: the opt-in `pointer` profile. */

export const Coordinate = z.number().min(0).max(100_000);
export const Delta = z.number().min(-100_000).max(100_000);

const mouseFields = {
  action: z.enum(['move', 'click', 'down', 'up', 'drag', 'wheel']),
  x: Coordinate.optional(),
  y: Coordinate.optional(),
  toX: Coordinate.optional().describe('drag end.'),
  toY: Coordinate.optional(),
  button: MouseButton.optional(),
  clickCount: z.number().int().min(1).max(3).optional(),
  modifiers: Modifiers.optional(),
  steps: z.number().int().min(1).max(100).optional().describe('Intermediate moves (move, drag).'),
  deltaX: Delta.optional(),
  deltaY: Delta.optional(),
};

export const mouseTool = defineTool({
  name: 'browser_mouse',
  title: 'Mouse at coordinates',
  description:
    'Mouse by viewport CSS pixels, for canvases, maps, sliders and games: move, click, down, up, drag (x,y to toX,toY) or wheel. Returns the element hit.',
  profile: 'pointer',
  input: z.object({ ...pageAddress, ...mouseFields }).strict(),
  output: z.object({
    completed: z.literal(true),
    hit: z.string().nullable().describe('The element at the point, e.g. canvas#board.'),
    url: z.string().optional(),
    dialogs: z.array(z.string()).optional(),
    ...downloadsField,
  }),
  hints: ACTION,
  agent: agentView({
    name: 'browser_mouse',
    description:
      'Mouse at viewport CSS pixels (as in a viewport screenshot), for canvases, maps, sliders and games: move, click, down, up, drag (x,y to toX,toY) or wheel. Returns the element hit.',
    input: z.object(mouseFields).strict(),
    toArgs: (args, at) => ({ ...at, ...args }),
  }),
  async handler(args, tool) {
    const { mesh, call } = tool;
    const input = toMouseInput(args);
    const result = await mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'mouse',
      (ctx) => mouseAction(ctx, input),
      call,
    );
    return publishDialogs(result, dialogAnswerOf(tool));
  },
});

/** The tool's flat arguments as the operation's input; a coordinate the action needs is required. */
export function toMouseInput(args: {
  action: MouseInput['action'];
  x?: number | undefined;
  y?: number | undefined;
  toX?: number | undefined;
  toY?: number | undefined;
  button?: 'left' | 'right' | 'middle' | undefined;
  clickCount?: number | undefined;
  modifiers?: Array<'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift'> | undefined;
  steps?: number | undefined;
  deltaX?: number | undefined;
  deltaY?: number | undefined;
}): MouseInput {
  const need = (field: 'x' | 'y' | 'toX' | 'toY'): number => {
    const value = args[field];
    if (value === undefined) throw invalidArgument(field, `is required with action ${args.action}`);
    return value;
  };
  switch (args.action) {
    case 'move':
      return { action: 'move', x: need('x'), y: need('y'), steps: args.steps };
    case 'click':
      return {
        action: 'click',
        x: need('x'),
        y: need('y'),
        button: args.button,
        clickCount: args.clickCount,
        modifiers: args.modifiers,
      };
    case 'down':
    case 'up':
      return { action: args.action, x: args.x, y: args.y, button: args.button };
    case 'drag':
      return {
        action: 'drag',
        x: need('x'),
        y: need('y'),
        toX: need('toX'),
        toY: need('toY'),
        steps: args.steps,
      };
    case 'wheel':
      if (args.deltaX === undefined && args.deltaY === undefined)
        throw invalidArgument('deltaY', 'give deltaX and/or deltaY');
      return { action: 'wheel', x: args.x, y: args.y, deltaX: args.deltaX, deltaY: args.deltaY };
  }
}

const Side = z.number().int().min(VIEWPORT_LIMITS.min).max(VIEWPORT_LIMITS.max);

export const viewportTool = defineTool({
  name: 'browser_set_viewport',
  title: 'Resize viewport',
  description: "Resize an open page's viewport (CSS pixels); the session's later pages get the same size.",
  profile: 'pointer',
  input: z.object({ ...pageAddress, width: Side, height: Side }).strict(),
  output: z.object({ width: z.number(), height: z.number() }),
  hints: IDEMPOTENT_ACTION,
  async handler(args, { mesh, call }) {
    return mesh.runOnPage(
      args.sessionId,
      args.pageId,
      'set_viewport',
      (ctx) => setViewport(ctx, { width: args.width, height: args.height }),
      call,
    );
  },
});
