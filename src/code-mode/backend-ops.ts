import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../errors.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { click } from '../operations/act/actions.js';
import { fill, selectOption } from '../operations/act/forms.js';
import type { TargetSpec } from '../operations/locate/locator-spec.js';
import { goBack, goForward, navigate, reload } from '../operations/navigate/navigation.js';
import { dragAndDrop } from '../operations/act/drag.js';
import { savePdf } from '../operations/state/files.js';
import { mouseAction, setViewport, type MouseInput } from '../operations/act/mouse.js';
import { uploadFiles } from '../operations/act/upload.js';
import { loadUploadFiles } from '../operations/act/upload-files.js';
import { press, typeText } from '../operations/act/typing.js';
import type { FacadeCall, FacadeOp } from './facade-parse.js';
import { takeScreenshot, type KeepImage } from './backend-shots.js';
import {
  acted,
  afterLoad,
  delayOf,
  target,
  toNavState,
  type FacadeRunners,
  type Note,
  type Runner,
  type RunnerTable,
} from './backend-define.js';
import { notSupported, READ_RUNNERS } from './backend-reads.js';
import { STATE_RUNNERS } from './backend-state.js';

export type { Note } from './backend-define.js';

const move =
  <Op extends 'goBack' | 'goForward' | 'reload'>(op: Op): Runner<Op> =>
  async (ctx, call) => {
    await { goBack, goForward, reload }[op](ctx, toNavState(call.waitUntil));
    return afterLoad(ctx, call.waitUntil);
  };

const ACTION_RUNNERS = {
  goto: async (ctx, call) => {
    await navigate(ctx, call.url, toNavState(call.waitUntil));
    return afterLoad(ctx, call.waitUntil);
  },
  goBack: move('goBack'),
  goForward: move('goForward'),
  reload: move('reload'),
  click: async (ctx, call, { note }) =>
    acted(
      note,
      click(ctx, target(call.target), '', {
        button: call.button,
        clickCount: call.clickCount,
        modifiers: call.modifiers,
      }),
    ),
  // A slider or spinbutton widget resolves with the value it reached; anything else with null.
  fill: async (ctx, call, { note }) => {
    const filled = await fill(ctx, target(call.target), '', call.value);
    note(filled);
    return filled.value ?? null;
  },
  type: async (ctx, call, { note }) =>
    acted(note, typeText(ctx, target(call.target), '', call.text, delayOf(call.delayMs))),
  press: async (ctx, call, { note }) => acted(note, press(ctx, target(call.target), '', call.key)),
  selectOption: async (ctx, call, { note }) =>
    selectByValueOrLabel(ctx, target(call.target), call.values, note),
  mouse: async (ctx, call, { note }) => acted(note, mouseAction(ctx, toMouseInput(call))),
  setViewportSize: async (ctx, call) => {
    await setViewport(ctx, { width: call.width, height: call.height });
    return null;
  },
  pdf: async (ctx, call) => {
    const { downloadId, name, bytes, mimeType, state } = await savePdf(ctx, call);
    return { downloadId, name, bytes, mimeType, state };
  },
  setInputFiles: async (ctx, call, { note }) => {
    // Code mode has no MCP client roots: paths must be under the configured upload roots.
    const files = await loadUploadFiles(call.files, ctx.config.uploadRoots, ctx.config.uploadMaxBytes);
    return acted(note, uploadFiles(ctx, target(call.target), files));
  },
  screenshot: async (ctx, call, { keep }) => takeScreenshot(ctx, call, keep),
  dragTo: async (ctx, call, { note }) =>
    acted(note, dragAndDrop(ctx, target(call.target), target(call.to), { position: call.position })),
} satisfies Partial<FacadeRunners>;

/**
 * The runners of this folder. The others come with their tool's definition (`code` parts, see
 * CONTRIBUTING.md "Add a tool"); src/tools/code-parts.ts joins both into the RunnerTable, and its
 * test fails when an op of FACADE_OPS has no runner, or two.
 */
export const FACADE_RUNNERS: Partial<FacadeRunners> = {
  ...ACTION_RUNNERS,
  ...READ_RUNNERS,
  ...STATE_RUNNERS,
};

/** A RunnerTable of these runners and `more` (later ones win; code-parts.ts refuses a clash). */
export function runnerTable(...more: Partial<FacadeRunners>[]): RunnerTable {
  const entries = [FACADE_RUNNERS, ...more].flatMap((runners) => Object.entries(runners));
  return new Map(entries as [string, Runner<FacadeOp>][]);
}

/**
 * Each facade op as the engine operation the typed tools use for the same thing. `ctx` is the run's
 * context narrowed to this call (its signal and, with a per-call timeout, a shorter deadline).
 * `note` receives every action result so the run can report dialogs it handled.
 */
export async function runFacadeCall(
  runners: RunnerTable,
  ctx: PageOperationContext,
  call: FacadeCall,
  note: Note,
  keep: KeepImage = refuseImages,
): Promise<unknown> {
  const run = runners.get(call.op);
  if (run === undefined) throw notSupported(call.op);
  return run(ctx, call, { note, keep });
}

const refuseImages: KeepImage = () => {
  throw new BrowserMeshError(ErrorCodes.NOT_SUPPORTED, 'This run cannot return images');
};

function toMouseInput(call: Extract<FacadeCall, { op: 'mouse' }>): MouseInput {
  if (call.action === 'move') return { action: 'move', x: call.x ?? 0, y: call.y ?? 0, steps: call.steps };
  if (call.action === 'click')
    return {
      action: 'click',
      x: call.x ?? 0,
      y: call.y ?? 0,
      button: call.button,
      clickCount: call.clickCount,
    };
  return { action: call.action, button: call.button };
}

/** Playwright's selectOption matches a value or a label; the operation takes one kind at a time. */
async function selectByValueOrLabel(
  ctx: PageOperationContext,
  spec: TargetSpec,
  values: string[],
  note: Note,
): Promise<string[]> {
  try {
    const result = await selectOption(ctx, spec, '', { by: 'value', values });
    note(result);
    return result.selected;
  } catch (error) {
    if (
      !isBrowserMeshError(error) ||
      error.code !== ErrorCodes.ELEMENT_NOT_FOUND ||
      error.details?.field !== 'value'
    )
      throw error;
    const result = await selectOption(ctx, spec, '', { by: 'label', values });
    note(result);
    return result.selected;
  }
}
