import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { resolveSecret } from '../../secrets.js';
import { maskIfSecret, taintIfSecret } from './secret-taint.js';
import { performAction, type ActionResult } from './action-scope.js';
import { clickElement } from './actions.js';
import { PREPARE_FILL, READ_CHECKED, SELECT_OPTIONS } from '../locate/page-functions.js';
import { DetachedError } from './pointer.js';
import { fillSlider, readSlider } from './fill-slider.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';
import type { TargetSpec } from '../locate/locator-spec.js';

type Refusal = { ok: false; reason: string; position?: number; count?: number; labels?: string[] };

function refuse(target: ElementTarget, refusal: Refusal, what: string): never {
  if (refusal.reason === 'detached') throw new DetachedError('element detached');
  throw new BrowserMeshError(
    ErrorCodes.ELEMENT_NOT_INTERACTABLE,
    `The element (${target.description}) ${what}: ${refusal.reason.replace(/_/g, ' ')}`,
    {
      details: { reason: refusal.reason },
    },
  );
}

/**
 * Replaces the control's content with `value` as typing would (one insertText: input events fire, the
 * page's handlers run), or clears it with Delete when `value` is empty. The value never appears in
 * errors or logs.
 */
export async function fillElement(
  ctx: PageOperationContext,
  target: ElementTarget,
  value: string,
): Promise<void> {
  const prepared = await callOn<{ ok: true; done: boolean } | Refusal>(target, PREPARE_FILL, [value]).catch(
    (): Refusal => ({ ok: false, reason: 'detached' }),
  );
  if (!prepared.ok) refuse(target, prepared, 'cannot be filled');
  if (prepared.done) return;
  const cdp = await ctx.page.cdp();
  if (value === '') {
    const key = { key: 'Delete', code: 'Delete', windowsVirtualKeyCode: 46, modifiers: 0 };
    await Promise.all([
      cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...key }),
      cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key }),
    ]);
    return;
  }
  await cdp.send('Input.insertText', { text: value });
}

/**
 * Fills an input, textarea or contenteditable; a slider or spinbutton that is not an input is moved
 * with keys instead (fill-slider.ts), and the result carries the value it reached.
 */
export function fill(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  value: string,
): Promise<ActionResult & { value?: string }> {
  return performAction(ctx, async (scope) => {
    const text = resolveSecret(ctx.session.secrets, value, 'value');
    let reached: string | undefined;
    await scope.withTarget(spec, field, async (target) => {
      const slider = await readSlider(target);
      if (slider) {
        reached = await fillSlider(ctx, target, text, slider);
        return;
      }
      await maskIfSecret(ctx, target, value);
      await fillElement(ctx, target, text);
      await taintIfSecret(ctx, target, value, text);
    });
    scope.logAs({ kind: 'fill', typed: value });
    return reached === undefined ? {} : { value: reached };
  });
}

export type OptionCriteria =
  { by: 'value'; values: string[] } | { by: 'label'; values: string[] } | { by: 'index'; values: number[] };

/** Selects options of a `<select>` by value, label or index (several for a multiple select). */
export function selectOption(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  criteria: OptionCriteria,
): Promise<ActionResult & { selected: string[] }> {
  return performAction(ctx, async (scope) => {
    const values = await scope.withTarget(spec, field, async (target) => {
      const result = await callOn<{ ok: true; values: string[] } | Refusal>(target, SELECT_OPTIONS, [
        criteria.by,
        criteria.values,
      ]).catch((): Refusal => ({ ok: false, reason: 'detached' }));
      if (result.ok) return result.values;
      if (result.reason === 'no_option') {
        const what = criteria.by === 'value' ? 'value or label' : criteria.by;
        const labels = result.labels ?? [];
        const more = (result.count ?? labels.length) - labels.length;
        const listed =
          labels.map((label) => JSON.stringify(label)).join(', ') + (more > 0 ? `, … ${more} more` : '');
        throw new BrowserMeshError(
          ErrorCodes.ELEMENT_NOT_FOUND,
          `No option matches ${what} #${(result.position ?? 0) + 1} in the select (${target.description}); its options: ${listed || 'none'}`,
          {
            details: { field: criteria.by, position: result.position ?? 0, options: labels },
            recoveryHint:
              criteria.by === 'index'
                ? 'Give an index below the number of options.'
                : "Give one of the options' labels (or its value).",
          },
        );
      }
      return refuse(target, result, 'cannot select that');
    });
    scope.logAs({ kind: 'select', values });
    return { selected: values };
  });
}

interface CheckState {
  kind: 'native' | 'aria' | 'none' | 'detached';
  checked?: boolean;
  radio?: boolean;
}

async function readChecked(target: ElementTarget): Promise<CheckState> {
  const state = await callOn<CheckState>(target, READ_CHECKED).catch((): CheckState => ({
    kind: 'detached',
  }));
  if (state.kind === 'detached') throw new DetachedError('element detached');
  if (state.kind === 'none') refuse(target, { ok: false, reason: 'not_checkable' }, 'cannot be checked');
  return state;
}

/** Frameworks that re-render after a frame or a tick get a moment (≤ 500 ms) to show the new state. */
async function readCheckedSoon(target: ElementTarget, wanted: boolean): Promise<CheckState> {
  let state = await readChecked(target);
  for (let i = 0; i < 10 && state.checked !== wanted; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    state = await readChecked(target);
  }
  return state;
}

/**
 * Ensures the checked state (idempotent): already there → nothing is clicked (`changed: false`);
 * otherwise one real click, then the state is read back and a click that did not take is an error.
 */
export function setChecked(
  ctx: PageOperationContext,
  spec: TargetSpec,
  field: string,
  checked: boolean,
): Promise<ActionResult & { checked: boolean; changed: boolean }> {
  return performAction(ctx, async (scope) =>
    scope.withTarget(spec, field, async (target) => {
      const before = await readChecked(target);
      if (before.checked === checked) return { checked, changed: false };
      if (before.radio && !checked)
        refuse(target, { ok: false, reason: 'radio_cannot_be_unchecked' }, 'cannot be unchecked');
      await clickElement(ctx, target);
      scope.logAs({ kind: checked ? 'check' : 'uncheck' });
      const after = await readCheckedSoon(target, checked);
      if (after.checked !== checked)
        refuse(
          target,
          { ok: false, reason: 'state_did_not_change' },
          `did not become ${checked ? 'checked' : 'unchecked'}`,
        );
      return { checked, changed: true };
    }),
  );
}

/** Checks one option criteria input: exactly one of value, label or index. */
export function toOptionCriteria(input: {
  value?: string | string[] | undefined;
  label?: string | string[] | undefined;
  index?: number | number[] | undefined;
}): OptionCriteria {
  const given = (['value', 'label', 'index'] as const).filter((key) => input[key] !== undefined);
  if (given.length !== 1)
    throw invalidArgument(
      'value',
      `give exactly one of value, label or index (got ${given.length === 0 ? 'none' : given.join(', ')})`,
    );
  const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
  if (input.index !== undefined) return { by: 'index', values: list(input.index) };
  if (input.label !== undefined) return { by: 'label', values: list(input.label) };
  return { by: 'value', values: list(input.value ?? []) };
}
