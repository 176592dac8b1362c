import type { FileChooser } from 'playwright-core';
import { invalidArgument } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { performAction, type ActionResult } from './action-scope.js';
import { clickElement } from './actions.js';
import type { TargetSpec } from '../locate/locator-spec.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';
import type { UploadFile } from './upload-files.js';
import { toLoggedFile } from '../journal/action-log.js';

export type UploadVia = 'input' | 'chooser' | 'drop';

/** How long a click on a button or drop zone gets to open the file chooser before a drop is tried. */
const CHOOSER_WINDOW_MS = 1500;

const INSPECT = `function () {
  const input = this.localName === 'input' && this.type === 'file';
  return { input, multiple: input ? this.multiple : true, disabled: !!this.disabled };
}`;

const FILES_FROM = `
  const dt = new DataTransfer();
  for (const f of files) {
    const bin = atob(f.base64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    dt.items.add(new File([bytes], f.name, { type: f.mimeType }));
  }`;

/** Sets the files of an <input type=file> the way a user's choice does: input and change events. */
const SET_INPUT_FILES = `function (files) {${FILES_FROM}
  this.files = dt.files;
  this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return this.files.length;
}`;

/** A drop zone without a chooser: the drag events a real drop fires, carrying the files. */
const DROP_FILES = `function (files) {${FILES_FROM}
  for (const type of ['dragenter', 'dragover', 'drop']) {
    this.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: dt }));
  }
  return dt.files.length;
}`;

/**
 * Uploads `files` through the target: an <input type=file> gets them directly; anything else (a
 * button, a drop zone) is clicked and the file chooser it opens gets them; if no chooser opens, they
 * are dropped on it. Works in iframes (the element's own frame does the page-side work).
 */
export function uploadFiles(
  ctx: PageOperationContext,
  spec: TargetSpec,
  files: readonly UploadFile[],
): Promise<ActionResult & { files: number; via: UploadVia }> {
  return performAction(ctx, async (scope) => {
    const via = await scope.withTarget(spec, '', (target) => uploadThrough(ctx, target, files));
    scope.logAs({ kind: 'upload', files: files.map(toLoggedFile), state: via });
    return { files: files.length, via };
  });
}

async function uploadThrough(
  ctx: PageOperationContext,
  target: ElementTarget,
  files: readonly UploadFile[],
): Promise<UploadVia> {
  const kind = await callOn<{ input: boolean; multiple: boolean; disabled: boolean }>(target, INSPECT);
  const payloads = files.map((f) => ({
    name: f.name,
    mimeType: f.mimeType,
    base64: f.buffer.toString('base64'),
  }));
  if (kind.input) {
    if (kind.disabled) throw invalidArgument('ref', 'the file input is disabled');
    checkCount(files.length, kind.multiple);
    await callOn(target, SET_INPUT_FILES, [payloads]);
    return 'input';
  }
  const chooser = await clickForChooser(ctx, target);
  if (chooser) {
    checkCount(files.length, chooser.isMultiple());
    await chooser.setFiles(
      files.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: f.buffer })),
      { timeout: ctx.deadline.stepTimeoutMs() },
    );
    return 'chooser';
  }
  await callOn(target, DROP_FILES, [payloads]);
  return 'drop';
}

async function clickForChooser(
  ctx: PageOperationContext,
  target: ElementTarget,
): Promise<FileChooser | undefined> {
  const page = ctx.page.page;
  // Listening before the click turns on Playwright's chooser interception, so no native dialog opens.
  const chooser = page
    .waitForEvent('filechooser', { timeout: Math.min(CHOOSER_WINDOW_MS, ctx.deadline.stepTimeoutMs()) })
    .catch(() => undefined);
  await clickElement(ctx, target);
  return chooser;
}

function checkCount(count: number, multiple: boolean): void {
  if (count > 1 && !multiple) throw invalidArgument('files', 'this input takes one file');
}
