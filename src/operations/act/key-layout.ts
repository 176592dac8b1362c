/**
 * A US keyboard layout, enough to name every key an agent presses: what CDP's Input.dispatchKeyEvent
 * needs (key, code, Windows virtual key code, text, location) for each key name, printable character
 * and `KeyA`/`Digit1`-style code. Names follow the DOM's `KeyboardEvent.key` values, as Playwright's do.
 */

export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** What typing the key inserts ('' for none). */
  text: string;
  /** 0 standard, 1 left, 2 right, 3 numpad. */
  location: number;
  /** The key as typed with Shift held, for keys that have one. */
  shifted?: { key: string; text: string };
}

export const MODIFIERS = ['Alt', 'Control', 'Meta', 'Shift'] as const;
export type Modifier = (typeof MODIFIERS)[number];

/** CDP's modifier bit mask. */
export const MODIFIER_BITS: Record<Modifier, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

const NAMED: Array<[name: string, code: string, keyCode: number, text?: string, location?: number]> = [
  ['Escape', 'Escape', 27],
  ['Enter', 'Enter', 13, '\r'],
  ['Tab', 'Tab', 9],
  ['Backspace', 'Backspace', 8],
  ['Delete', 'Delete', 46],
  ['Insert', 'Insert', 45],
  ['Home', 'Home', 36],
  ['End', 'End', 35],
  ['PageUp', 'PageUp', 33],
  ['PageDown', 'PageDown', 34],
  ['ArrowLeft', 'ArrowLeft', 37],
  ['ArrowUp', 'ArrowUp', 38],
  ['ArrowRight', 'ArrowRight', 39],
  ['ArrowDown', 'ArrowDown', 40],
  ['CapsLock', 'CapsLock', 20],
  ['NumLock', 'NumLock', 144],
  ['ScrollLock', 'ScrollLock', 145],
  ['Pause', 'Pause', 19],
  ['PrintScreen', 'PrintScreen', 44],
  ['ContextMenu', 'ContextMenu', 93],
  ['Shift', 'ShiftLeft', 16, '', 1],
  ['Control', 'ControlLeft', 17, '', 1],
  ['Alt', 'AltLeft', 18, '', 1],
  ['Meta', 'MetaLeft', 91, '', 1],
];

/** [code, keyCode, key, shifted key] for the printable keys of the main block. */
const PRINTABLE: Array<[code: string, keyCode: number, key: string, shifted: string]> = [
  ['Backquote', 192, '`', '~'],
  ['Minus', 189, '-', '_'],
  ['Equal', 187, '=', '+'],
  ['BracketLeft', 219, '[', '{'],
  ['BracketRight', 221, ']', '}'],
  ['Backslash', 220, '\\', '|'],
  ['Semicolon', 186, ';', ':'],
  ['Quote', 222, "'", '"'],
  ['Comma', 188, ',', '<'],
  ['Period', 190, '.', '>'],
  ['Slash', 191, '/', '?'],
  ['Space', 32, ' ', ' '],
];

const DIGIT_SHIFTED = ')!@#$%^&*(';

function buildLayout(): Map<string, KeyDefinition> {
  const layout = new Map<string, KeyDefinition>();
  for (const [name, code, keyCode, text = '', location = 0] of NAMED) {
    layout.set(name, { key: name, code, keyCode, text, location });
  }
  for (let i = 1; i <= 12; i++)
    layout.set(`F${i}`, { key: `F${i}`, code: `F${i}`, keyCode: 111 + i, text: '', location: 0 });
  const printable = (code: string, keyCode: number, key: string, shifted: string): void => {
    const base: KeyDefinition = {
      key,
      code,
      keyCode,
      text: key,
      location: 0,
      shifted: { key: shifted, text: shifted },
    };
    layout.set(code, base);
    if (!layout.has(key)) layout.set(key, base);
    // Naming the shifted character types it directly (no Shift modifier), as typing text does.
    if (!layout.has(shifted))
      layout.set(shifted, { key: shifted, code, keyCode, text: shifted, location: 0 });
  };
  for (const [code, keyCode, key, shifted] of PRINTABLE) printable(code, keyCode, key, shifted);
  for (let d = 0; d <= 9; d++) printable(`Digit${d}`, 48 + d, String(d), DIGIT_SHIFTED[d] ?? '');
  for (let c = 0; c < 26; c++) {
    const lower = String.fromCharCode(97 + c);
    printable(`Key${lower.toUpperCase()}`, 65 + c, lower, lower.toUpperCase());
  }
  return layout;
}

const LAYOUT = buildLayout();

/** The definition of a key name, character or code; undefined when the name is unknown. */
export function keyDefinition(name: string): KeyDefinition | undefined {
  return LAYOUT.get(name);
}
