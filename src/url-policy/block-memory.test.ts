import { describe, expect, it } from 'vitest';
import { BlockMemory } from './block-memory.js';

describe('BlockMemory: refused documents by target', () => {
  it('knows a refused target and tells listeners of new ones until they unsubscribe', () => {
    const memory = new BlockMemory();
    const heard: string[] = [];
    const stop = memory.onDocumentRefused((targetId) => heard.push(targetId));
    memory.rememberDocument('T1');
    expect(memory.documentRefused('T1')).toBe(true);
    expect(memory.documentRefused('T2')).toBe(false);
    stop();
    memory.rememberDocument('T2');
    expect(heard).toEqual(['T1']);
    expect(memory.documentRefused('T2')).toBe(true);
  });

  it('keeps only the latest 64 targets', () => {
    const memory = new BlockMemory();
    for (let i = 0; i < 70; i++) memory.rememberDocument(`T${i}`);
    expect(memory.documentRefused('T0')).toBe(false);
    expect(memory.documentRefused('T69')).toBe(true);
  });
});
