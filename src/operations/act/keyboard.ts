import type { CDPSession } from 'playwright-core';
import { invalidArgument } from '../../errors.js';
import { keyDefinition, MODIFIER_BITS, MODIFIERS, type KeyDefinition, type Modifier } from './key-layout.js';

export interface KeyCombo {
  modifiers: Modifier[];
  key: KeyDefinition;
}

const MAX_COMBO_CHARS = 64;

/**
 * Parses `Enter`, `a`, `Control+a`, `Shift+ArrowLeft`, `Control++`. Modifiers come first; the last
 * part is the key (which may itself be `+`). `ControlOrMeta` means Meta on macOS browsers and Control
 * elsewhere. Unknown names are refused naming the field, never sent as a guess.
 */
export function parseKeyCombo(combo: string, field: string, platform: string = process.platform): KeyCombo {
  if (combo.length === 0 || combo.length > MAX_COMBO_CHARS)
    throw invalidArgument(field, 'must be a key name like Enter or Control+a');
  const modifiers: Modifier[] = [];
  let rest = combo;
  for (;;) {
    const plus = rest.indexOf('+', 1);
    if (plus < 0) break;
    const name = toModifier(rest.slice(0, plus), platform);
    // The refused name is quoted: it is the point of the error (a --secrets value in it is redacted
    // by value at the boundary, src/secrets.ts).
    if (!name)
      throw invalidArgument(
        field,
        `unknown modifier ${quoteName(rest.slice(0, plus))}; use Shift, Control, Alt, Meta or ControlOrMeta`,
      );
    if (!modifiers.includes(name)) modifiers.push(name);
    rest = rest.slice(plus + 1);
  }
  const keyName = toModifier(rest, platform) ?? rest;
  const key = keyDefinition(keyName);
  if (!key)
    throw invalidArgument(
      field,
      `unknown key name ${quoteName(rest)}; use names like Enter, Tab, ArrowDown, a, F5`,
    );
  return { modifiers, key };
}

/** A caller's name as a safe quoted string: printable ASCII as is, anything else escaped. */
function quoteName(name: string): string {
  return JSON.stringify(name).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export type ModifierName = Modifier | 'ControlOrMeta';

/** Resolves `ControlOrMeta` (Meta on macOS, Control elsewhere) in a list of modifier names. */
export function toModifiers(
  names: readonly ModifierName[] = [],
  platform: string = process.platform,
): Modifier[] {
  return [...new Set(names.map((name) => toModifier(name, platform) ?? 'Control'))];
}

function toModifier(name: string, platform: string): Modifier | undefined {
  if (name === 'ControlOrMeta') return platform === 'darwin' ? 'Meta' : 'Control';
  return (MODIFIERS as readonly string[]).includes(name) ? (name as Modifier) : undefined;
}

/** The fields of CDP's Input.dispatchKeyEvent that BrowserMesh sends. */
export interface KeyEvent {
  type: 'keyDown' | 'keyUp' | 'rawKeyDown';
  modifiers: number;
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  location: number;
  text?: string;
  unmodifiedText?: string;
  autoRepeat?: boolean;
  isKeypad?: boolean;
}

function maskOf(modifiers: Iterable<Modifier>): number {
  let mask = 0;
  for (const m of modifiers) mask |= MODIFIER_BITS[m];
  return mask;
}

/** keyDown / keyUp params as Chromium expects them (the shape Playwright's Chromium backend sends). */
function keyEvents(key: KeyDefinition, held: readonly Modifier[]): [KeyEvent, KeyEvent] {
  const shifted = held.includes('Shift') && key.shifted ? key.shifted : { key: key.key, text: key.text };
  // With Control, Alt or Meta held a key is a shortcut, not typing: no text.
  const typing = held.every((m) => m === 'Shift');
  const text = typing ? shifted.text : '';
  const modifiers = maskOf(held);
  const base = {
    modifiers,
    key: shifted.key,
    code: key.code,
    windowsVirtualKeyCode: key.keyCode,
    location: key.location,
  };
  return [
    {
      ...base,
      type: text ? 'keyDown' : 'rawKeyDown',
      text,
      unmodifiedText: text,
      autoRepeat: false,
      isKeypad: key.location === 3,
    },
    { ...base, type: 'keyUp' },
  ];
}

/** The full event sequence of one combo: modifiers down in order, the key down and up, modifiers up in reverse. */
export function comboEvents(combo: KeyCombo): KeyEvent[] {
  const downs: KeyEvent[] = [];
  const ups: KeyEvent[] = [];
  const held: Modifier[] = [];
  for (const modifier of combo.modifiers) {
    const def = keyDefinition(modifier);
    if (!def) continue;
    held.push(modifier);
    const [down, up] = keyEvents(def, held);
    downs.push(down);
    ups.unshift({ ...up, modifiers: maskOf(held.slice(0, -1)) });
  }
  const [down, up] = keyEvents(combo.key, held);
  return [...downs, down, up, ...ups];
}

/**
 * Sends events without waiting for each answer before the next: CDP handles one session's messages
 * in order, so the page sees the same sequence, and the whole press costs one round trip.
 */
export async function dispatchKeyEvents(cdp: CDPSession, events: readonly KeyEvent[]): Promise<void> {
  await Promise.all(events.map((event) => cdp.send('Input.dispatchKeyEvent', event)));
}

/** Events that type one character: a key press when the layout has it, else a text insertion. */
export function charEvents(char: string): Array<KeyEvent | { insertText: string }> {
  const def = char === '\n' ? keyDefinition('Enter') : keyDefinition(char);
  if (!def || char.length !== 1) return [{ insertText: char }];
  return keyEvents(def, []);
}
