import { describe, expect, it } from 'vitest';
import { BrowserMeshError } from '../errors.js';
import type { PageOperationContext } from '../engine/runtime.js';
import { runFacadeCall } from './backend-ops.js';
import { CODE_TABLE } from '../tools/index.js';
import type { FacadeCall } from './facade-parse.js';
import {
  FACADE_OPS,
  parseFacadeCall,
  type CallSpec,
  type FacadeOp,
  type FacadeResults,
} from './facade-parse.js';
import type { ShotResult } from './facade-calls.js';
import { PRELUDE_SOURCE } from './prelude.js';
import { CallArgumentError } from './validate-helpers.js';

const selector = { base: { kind: 'css', selector: '#x' }, steps: [] };

// FacadeCall and FacadeResults are read from the parsers' types: each op stays its own literal, and
// an op resolves with null unless its entry says otherwise.
type Is<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const opsAreLiterals: Is<string extends FacadeOp ? true : false, false> = true;
const shotResolves: Is<FacadeResults['screenshot'], ShotResult> = true;
const hoverResolves: Is<FacadeResults['hover'], null> = true;

describe('the code-mode operation table', () => {
  it('derives the call and result types from the parsers', () => {
    expect([opsAreLiterals, shotResolves, hoverResolves]).toEqual([true, true, true]);
  });

  // The runners are this folder's and the tool definitions' (`code` parts): the joined table that
  // browser_run hands to the backend (src/tools/code-parts.ts).
  it('gives every op both halves: a parser (sandbox side) and a runner (host side)', () => {
    const parsed = Object.keys(FACADE_OPS).sort();
    expect(parsed.length).toBeGreaterThan(0);
    expect([...CODE_TABLE.runners.keys()].sort()).toEqual(parsed);
    for (const [op, entry] of Object.entries(FACADE_OPS) as [string, CallSpec][]) {
      expect(typeof entry.parse, op).toBe('function');
      expect(typeof CODE_TABLE.runners.get(op), op).toBe('function');
    }
  });

  it('parses each element method to its own op', () => {
    for (const [op, entry] of Object.entries(FACADE_OPS) as [string, CallSpec][]) {
      if (entry.element === undefined) continue;
      const args: Record<string, unknown> = { target: selector };
      for (const name of entry.element) args[name] = name === 'files' ? 'a.txt' : 'x';
      expect(parseFacadeCall({ member: `locator.${op}`, op, args }).call.op, op).toBe(op);
    }
  });

  it('generates the sandbox element methods from the table, dblclick beside click', () => {
    const methods = /const ELEMENT_METHODS = (\{.*?\});\n/.exec(PRELUDE_SOURCE)?.[1];
    const forwarded = Object.entries(FACADE_OPS).filter(([, entry]) => entry.element !== undefined);
    const expected = forwarded.flatMap(([op, entry]) => {
      const spec = [op, ...(entry.element ?? [])];
      return op === 'click'
        ? [
            [op, spec],
            ['dblclick', spec],
          ]
        : [[op, spec]];
    });
    expect(JSON.parse(methods ?? '{}')).toEqual(Object.fromEntries(expected));
    expect(Object.keys(JSON.parse(methods ?? '{}')).slice(0, 3)).toEqual(['click', 'dblclick', 'fill']);
  });

  it('refuses an op outside the table on both sides, inherited names included', async () => {
    for (const op of ['nope', 'constructor', 'toString'])
      expect(() => parseFacadeCall({ member: 'page.x', op, args: {} })).toThrow(CallArgumentError);
    const call = { op: 'constructor' } as unknown as FacadeCall;
    const ctx = {} as PageOperationContext;
    await expect(runFacadeCall(CODE_TABLE.runners, ctx, call, () => undefined)).rejects.toThrow(
      BrowserMeshError,
    );
    await expect(runFacadeCall(CODE_TABLE.runners, ctx, call, () => undefined)).rejects.toMatchObject({
      code: 'NOT_SUPPORTED',
      message: 'constructor is not supported by this backend',
    });
  });
});
