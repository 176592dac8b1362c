import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { callOn, type ElementTarget } from '../locate/remote-element.js';
import { DetachedError } from './pointer.js';

/**
 * Filling an ARIA slider or spinbutton that is not an input (a div a widget library drives): there
 * is no text to replace, so the value is set the way a keyboard user sets it, with Home/End,
 * PageUp/PageDown and the arrow keys, reading `aria-valuenow` after each key until it is the value.
 * A value the widget cannot take (outside its range, or between two of its steps) is an error that
 * names the nearest value it can take, and the widget is left there.
 */

export interface SliderState {
  role: 'slider' | 'spinbutton';
  now: number | null;
  min: number | null;
  max: number | null;
  disabled: boolean;
}

type Read = SliderState | { role: 'none' } | { role: 'detached' };

/** Reads a non-input slider/spinbutton's ARIA value; `none` for every other element. */
const READ_SLIDER = `function () {
  const el = this;
  if (!el.isConnected) return { role: 'detached' };
  const role = (el.getAttribute('role') || '').trim().split(/\\s+/)[0];
  if (el.localName === 'input' || el.localName === 'textarea' || (role !== 'slider' && role !== 'spinbutton')) return { role: 'none' };
  const num = (name) => {
    const text = el.getAttribute(name);
    const n = text === null || text.trim() === '' ? NaN : Number(text);
    return Number.isFinite(n) ? n : null;
  };
  const disabled = el.hasAttribute('disabled') || !!el.closest('[aria-disabled="true"],[disabled]');
  return { role, now: num('aria-valuenow'), min: num('aria-valuemin'), max: num('aria-valuemax'), disabled };
}`;

const FOCUS = `function () { this.focus(); }`;

/** At most this many keys per fill: a 0-1000 slider by ones, with PageUp/PageDown doing the bulk. */
const MAX_KEYS = 400;
/** A framework may render the new value a tick after the key: read again for up to this long. */
const SETTLE_READS = 10;
const SETTLE_READ_MS = 20;

/** The element's slider state, or undefined when it is not a non-input slider or spinbutton. */
export async function readSlider(target: ElementTarget): Promise<SliderState | undefined> {
  const read = await callOn<Read>(target, READ_SLIDER).catch((): Read => ({ role: 'detached' }));
  if (read.role === 'detached') throw new DetachedError('element detached');
  return read.role === 'none' ? undefined : read;
}

/** Moves the slider to `value` with keys; resolves with the value reached (its aria-valuenow). */
export async function fillSlider(
  ctx: PageOperationContext,
  target: ElementTarget,
  value: string,
  state: SliderState,
): Promise<string> {
  const wanted = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(wanted))
    throw invalidArgument('value', `a ${state.role} takes a number`);
  if (state.disabled) throw notInteractable(target, state, 'disabled');
  if (state.now === null) throw notInteractable(target, state, 'has no aria-valuenow');
  if (state.min !== null && wanted < state.min) throw unreachable(target, state.min);
  if (state.max !== null && wanted > state.max) throw unreachable(target, state.max);
  await callOn(target, FOCUS);
  const keys = new SliderKeys(ctx, target, state);
  if (wanted === state.min) await keys.press('Home');
  else if (wanted === state.max) await keys.press('End');
  return keys.approach(wanted);
}

class SliderKeys {
  private now: number;
  private up: string;
  private down: string;
  private usePage = true;
  private swapped = false;
  private arrowStep = 0;
  private pressed = 0;

  constructor(
    private readonly ctx: PageOperationContext,
    private readonly target: ElementTarget,
    state: SliderState,
  ) {
    this.now = state.now ?? 0;
    [this.up, this.down] =
      state.role === 'spinbutton' ? ['ArrowUp', 'ArrowDown'] : ['ArrowRight', 'ArrowLeft'];
  }

  /** Presses `key` and reads the value once it changed (or after a short while when it did not). */
  async press(key: string): Promise<number> {
    if (++this.pressed > MAX_KEYS || this.ctx.deadline.remainingMs() <= 0 || this.ctx.signal.aborted)
      throw unreachable(this.target, this.now);
    const before = this.now;
    await this.ctx.page.page.keyboard.press(key);
    for (let i = 0; i < SETTLE_READS; i++) {
      const read = await readSlider(this.target);
      if (read?.now !== null && read?.now !== undefined && read.now !== before) return (this.now = read.now);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_READ_MS));
    }
    return before;
  }

  async approach(wanted: number): Promise<string> {
    while (this.now !== wanted) {
      const before = this.now;
      const rising = wanted > before;
      const far = this.arrowStep > 0 && Math.abs(wanted - before) > 3 * this.arrowStep;
      if (this.usePage && far) {
        const after = await this.press(rising ? 'PageUp' : 'PageDown');
        // A page key that overshoots or does nothing is not used again; the arrows finish.
        if (after === before || wanted > after !== rising) this.usePage = false;
        continue;
      }
      const after = await this.press(rising ? this.up : this.down);
      if (after === before) throw unreachable(this.target, before);
      if (after > before !== rising) {
        // The arrows run the other way (a right-to-left slider): swap them, once.
        if (this.swapped) throw unreachable(this.target, this.now);
        [this.up, this.down] = [this.down, this.up];
        this.swapped = true;
        continue;
      }
      this.arrowStep = Math.abs(after - before);
      if (after !== wanted && wanted > after !== rising) {
        // Between two of its steps: stay on the nearer one.
        if (Math.abs(wanted - before) < Math.abs(after - wanted))
          await this.press(rising ? this.down : this.up);
        throw unreachable(this.target, this.now);
      }
    }
    return String(this.now);
  }
}

function unreachable(target: ElementTarget, nearest: number): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.INVALID_ARGUMENT,
    `value: the ${target.description} cannot take that value; the nearest it can is ${nearest}`,
    {
      details: { field: 'value', reason: 'value_unreachable', nearest },
      recoveryHint: `Fill it with ${nearest}, or a value on its steps.`,
    },
  );
}

function notInteractable(target: ElementTarget, state: SliderState, why: string): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.ELEMENT_NOT_INTERACTABLE,
    `The ${state.role} (${target.description}) cannot be filled: ${why}`,
    { details: { reason: why === 'disabled' ? 'disabled' : 'no_value' } },
  );
}
