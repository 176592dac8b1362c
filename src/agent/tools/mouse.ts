import { z } from 'zod';
import { mouseAction } from '../../operations/mouse.js';
import { mouseTool as mcpMouseTool, toMouseInput } from '../../tools/pointer.js';
import { defineAgentTool } from '../tool-types.js';
import { ActionOutput } from './element.js';

/**
 * Pointer by coordinates for AgentBrowser (canvases, maps, sliders, games: no element to ref): the MCP
 * `browser_mouse` tool's input and operation, aimed at the thread's current tab. Coordinates are the
 * viewport's CSS pixels, as in a viewport `browser_screenshot`.
 */
export const mouseTool = defineAgentTool({
  name: 'browser_mouse',
  description:
    'Mouse at viewport CSS pixels (as in a viewport screenshot), for canvases, maps, sliders and games: move, click, down, up, drag (x,y to toX,toY) or wheel. Returns the element hit.',
  input: mcpMouseTool.input.omit({ sessionId: true, pageId: true }).strict(),
  output: ActionOutput.extend({
    hit: z.string().nullable().describe('The element at the point, e.g. canvas#board.'),
  }),
  async handler(args, call) {
    const input = toMouseInput(args);
    return call.onPage('mouse', (ctx) => mouseAction(ctx, input));
  },
});
