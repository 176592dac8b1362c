import { BrowserMeshError, ErrorCodes, isBrowserMeshError } from '../errors.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { TITLE_MAX_CHARS, toDisplayLine } from '../text.js';
import type { ActionResult } from '../operations/action-scope.js';
import { click, focus, hover, scroll, scrollIntoView, MAX_SCROLL_DELTA } from '../operations/actions.js';
import {
  countMatches,
  isElementVisible,
  readAll,
  readElement,
  readElementState,
} from '../operations/element-reads.js';
import { fill, selectOption, setChecked } from '../operations/forms.js';
import type { TargetSpec } from '../operations/locator-spec.js';
import {
  goBack,
  goForward,
  navigate,
  reload,
  type LoadState as NavLoadState,
} from '../operations/navigation.js';
import { dragAndDrop } from '../operations/drag.js';
import { savePdf } from '../operations/files.js';
import { mouseAction, setViewport, type MouseInput } from '../operations/mouse.js';
import { waitForQuiet } from '../operations/quiet.js';
import { uploadFiles } from '../operations/upload.js';
import { loadUploadFiles } from '../operations/upload-files.js';
import { emptyScopeText, snapshot } from '../operations/snapshot.js';
import { MAX_TYPE_DELAY_MS, press, typeText } from '../operations/typing.js';
import { waitForCondition } from '../operations/waits.js';
import type { ElementSelector, FacadeCall, LoadState } from './facade-calls.js';
import { toLocator, toTargetSpec } from './selector-target.js';
import { takeScreenshot, type KeepImage } from './backend-shots.js';
import { isStateCall, runStateCall } from './backend-state.js';

/**
 * Each facade op as the engine operation the typed tools use for the same thing. `ctx` is the run's
 * context narrowed to this call (its signal and, with a per-call timeout, a shorter deadline).
 * `note` receives every action result so the run can report dialogs it handled.
 */
export type Note = (result: ActionResult) => void;

export async function runFacadeCall(
  ctx: PageOperationContext,
  call: FacadeCall,
  note: Note,
  keep: KeepImage = refuseImages,
): Promise<unknown> {
  const acted = async (result: Promise<ActionResult>): Promise<null> => {
    note(await result);
    return null;
  };
  switch (call.op) {
    case 'goto':
      await navigate(ctx, call.url, toNavState(call.waitUntil));
      return afterLoad(ctx, call.waitUntil);
    case 'goBack':
    case 'goForward':
    case 'reload': {
      const move = { goBack, goForward, reload }[call.op];
      await move(ctx, toNavState(call.waitUntil));
      return afterLoad(ctx, call.waitUntil);
    }
    case 'click':
      return acted(
        click(ctx, target(call.target), 'target', {
          button: call.button,
          clickCount: call.clickCount,
          modifiers: call.modifiers,
        }),
      );
    case 'fill':
      return acted(fill(ctx, target(call.target), 'target', call.value));
    case 'type':
      return acted(typeText(ctx, target(call.target), 'target', call.text, delayOf(call.delayMs)));
    case 'press':
      return acted(press(ctx, target(call.target), 'target', call.key));
    case 'selectOption':
      return selectByValueOrLabel(ctx, target(call.target), call.values, note);
    case 'check':
    case 'uncheck':
      return acted(setChecked(ctx, target(call.target), 'target', call.op === 'check'));
    case 'hover':
      return acted(hover(ctx, target(call.target), 'target'));
    case 'focus':
      return acted(focus(ctx, target(call.target), 'target'));
    case 'scrollIntoView':
      return acted(scrollIntoView(ctx, target(call.target), 'target'));
    case 'mouse':
      return acted(mouseAction(ctx, toMouseInput(call)));
    case 'setViewportSize':
      await setViewport(ctx, { width: call.width, height: call.height });
      return null;
    case 'pdf': {
      const { downloadId, name, bytes, mimeType, state } = await savePdf(ctx, call);
      return { downloadId, name, bytes, mimeType, state };
    }
    case 'setInputFiles': {
      // Code mode has no MCP client roots: paths must be under the configured upload roots.
      const files = await loadUploadFiles(call.files, ctx.config.uploadRoots, ctx.config.uploadMaxBytes);
      return acted(uploadFiles(ctx, target(call.target), files));
    }
    case 'screenshot':
      return takeScreenshot(ctx, call, keep);
    case 'dragTo':
      return acted(dragAndDrop(ctx, target(call.target), target(call.to), { position: call.position }));
    default:
      return isStateCall(call) ? runStateCall(ctx, call, note) : runReadOrWait(ctx, call, note);
  }
}

async function runReadOrWait(ctx: PageOperationContext, call: FacadeCall, note: Note): Promise<unknown> {
  switch (call.op) {
    case 'textContent':
    case 'innerText':
    case 'inputValue': {
      const value = await readElement(ctx, target(call.target), 'target', call.op);
      return call.op === 'textContent' ? value : (value ?? '');
    }
    case 'getAttribute':
      return readElement(ctx, target(call.target), 'target', 'attribute', call.name);
    case 'isChecked':
      return readElementState(ctx, target(call.target), 'target', 'checked');
    case 'isEnabled':
      return readElementState(ctx, target(call.target), 'target', 'enabled');
    case 'isVisible':
      return isElementVisible(ctx, target(call.target), 'target');
    case 'count':
      return countOf(ctx, call.target);
    case 'allTextContents':
    case 'allInnerTexts':
      return allTexts(ctx, call.target, call.op === 'allTextContents' ? 'textContent' : 'innerText');
    case 'title':
      return toDisplayLine(await ctx.page.page.title(), TITLE_MAX_CHARS);
    case 'url':
      return ctx.page.page.url();
    case 'snapshot':
      return snapshotText(ctx, call);
    case 'waitForSelector':
      await waitForCondition(ctx, { kind: 'element', target: target(call.target), state: call.state });
      return null;
    case 'waitForURL':
      await waitForCondition(ctx, { kind: 'url', pattern: call.url });
      return afterLoad(ctx, call.waitUntil ?? 'load');
    case 'waitForLoadState':
      return afterLoad(ctx, call.state);
    case 'waitForTimeout':
      await waitForQuiet(ctx, { maxMs: call.ms });
      return null;
    case 'keyboardPress':
      note(await press(ctx, undefined, '', call.key));
      return null;
    case 'keyboardType':
      note(await typeText(ctx, undefined, '', call.text, delayOf(call.delayMs)));
      return null;
    case 'scroll': {
      const spec = call.target === undefined ? undefined : target(call.target);
      note(await scroll(ctx, spec, 'target', toDelta(call.deltaX), toDelta(call.deltaY)));
      return null;
    }
    default:
      throw new BrowserMeshError(ErrorCodes.NOT_SUPPORTED, `${call.op} is not supported by this backend`);
  }
}

const target = (selector: ElementSelector): TargetSpec => toTargetSpec(selector);

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
    const result = await selectOption(ctx, spec, 'target', { by: 'value', values });
    note(result);
    return result.selected;
  } catch (error) {
    if (
      !isBrowserMeshError(error) ||
      error.code !== ErrorCodes.ELEMENT_NOT_FOUND ||
      error.details?.field !== 'value'
    )
      throw error;
    const result = await selectOption(ctx, spec, 'target', { by: 'label', values });
    note(result);
    return result.selected;
  }
}

/** page.snapshot(), or locator.snapshot(): that element's subtree, and an explicit line when it shows nothing. */
async function snapshotText(
  ctx: PageOperationContext,
  call: Extract<FacadeCall, { op: 'snapshot' }>,
): Promise<string> {
  const options = { interactiveOnly: call.interactiveOnly, maxChars: call.maxChars };
  const spec = call.target === undefined ? undefined : target(call.target);
  const result =
    spec === undefined
      ? await snapshot(ctx, options)
      : spec.ref !== undefined
        ? await snapshot(ctx, { ...options, scope: { ref: spec.ref } })
        : await snapshot(ctx, options, spec.built);
  return emptyScopeText(result) ?? result.snapshot;
}

async function countOf(ctx: PageOperationContext, selector: ElementSelector): Promise<number> {
  const spec = target(selector);
  if (spec.built === undefined) return (await isAttachedRef(ctx, spec)) ? 1 : 0;
  return countMatches(ctx, toLocator(ctx.page.page.mainFrame(), selector));
}

async function allTexts(
  ctx: PageOperationContext,
  selector: ElementSelector,
  what: 'textContent' | 'innerText',
): Promise<string[]> {
  const spec = target(selector);
  if (spec.built === undefined) return [(await readElement(ctx, spec, 'target', what)) ?? ''];
  return readAll(ctx, toLocator(ctx.page.page.mainFrame(), selector), what);
}

async function isAttachedRef(ctx: PageOperationContext, spec: TargetSpec): Promise<boolean> {
  try {
    await readElement(ctx, spec, 'target', 'attribute', 'id');
    return true;
  } catch (error) {
    if (isBrowserMeshError(error) && error.code === ErrorCodes.STALE_ELEMENT_REFERENCE) return false;
    throw error;
  }
}

/** `networkidle` is the page load plus a network-only quiet window (never past the deadline). */
async function afterLoad(ctx: PageOperationContext, state: LoadState | undefined): Promise<null> {
  if (state === undefined) return null;
  if (state === 'networkidle') {
    await waitForCondition(ctx, { kind: 'loadState', state: 'load' });
    await waitForQuiet(ctx, { maxMs: ctx.deadline.remainingMs(), dom: false });
  } else {
    await waitForCondition(ctx, { kind: 'loadState', state });
  }
  return null;
}

/** No waitUntil: the operations' default (parsed, then a short grace for load), as every face has it. */
function toNavState(state: LoadState | undefined): NavLoadState | undefined {
  if (state === undefined) return undefined;
  return state === 'domcontentloaded' ? 'domcontentloaded' : 'load';
}

const delayOf = (delayMs: number | undefined): number =>
  Math.min(Math.max(0, Math.round(delayMs ?? 0)), MAX_TYPE_DELAY_MS);
const toDelta = (value: number): number =>
  Math.max(-MAX_SCROLL_DELTA, Math.min(MAX_SCROLL_DELTA, Math.round(value)));
