import { describe, expect, it } from 'vitest';
import { isBrowserMeshError } from '../../errors.js';
import { comboEvents, parseKeyCombo } from './keyboard.js';

function fieldOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return isBrowserMeshError(error) ? error.details?.field : 'not a BrowserMeshError';
  }
  return 'no error';
}

describe('parseKeyCombo', () => {
  it('parses keys, characters, codes and combinations', () => {
    expect(parseKeyCombo('Enter', 'key').key.code).toBe('Enter');
    expect(parseKeyCombo('a', 'key').key.code).toBe('KeyA');
    expect(parseKeyCombo('KeyA', 'key').key.key).toBe('a');
    const combo = parseKeyCombo('Control+Shift+ArrowLeft', 'key');
    expect(combo.modifiers).toEqual(['Control', 'Shift']);
    expect(combo.key.key).toBe('ArrowLeft');
    expect(parseKeyCombo('Control++', 'key').key.key).toBe('+');
    expect(parseKeyCombo('ControlOrMeta+a', 'key', 'linux').modifiers).toEqual(['Control']);
    expect(parseKeyCombo('ControlOrMeta+a', 'key', 'darwin').modifiers).toEqual(['Meta']);
  });

  it('refuses unknown keys and modifiers naming the field', () => {
    expect(fieldOf(() => parseKeyCombo('Entr', 'key'))).toBe('key');
    expect(fieldOf(() => parseKeyCombo('Hyper+a', 'waitFor.key'))).toBe('waitFor.key');
    expect(fieldOf(() => parseKeyCombo('', 'key'))).toBe('key');
  });
});

describe('comboEvents', () => {
  it('holds modifiers around the key and sends no text for shortcuts', () => {
    const events = comboEvents(parseKeyCombo('Control+a', 'key'));
    expect(events.map((e) => [e.type, e.key, e.modifiers])).toEqual([
      ['rawKeyDown', 'Control', 2],
      ['rawKeyDown', 'a', 2],
      ['keyUp', 'a', 2],
      ['keyUp', 'Control', 0],
    ]);
  });

  it('types the shifted character with Shift held', () => {
    const events = comboEvents(parseKeyCombo('Shift+a', 'key'));
    expect(events[1]).toMatchObject({ type: 'keyDown', key: 'A', text: 'A', modifiers: 8 });
  });
});
