import { afterAll, describe, expect, it } from 'vitest';
import type { CodeModeBackend } from './backend.js';
import { runScript, type ScriptResult } from './sandbox.js';

/** Escape attempts: none may reach Node, the host's globals or the host's prototypes. */

const backend: CodeModeBackend = {
  invoke: (call) => Promise.resolve(call.op === 'textContent' ? 'text' : null),
};

function run(code: string): Promise<ScriptResult> {
  // The file's first script pays a worker's cold start inside its deadline (seconds under load).
  return runScript(code, backend, { signal: new AbortController().signal, deadline: Date.now() + 30_000 });
}

async function value(code: string): Promise<unknown> {
  const result = await run(code);
  if (!result.ok) throw new Error(`script failed: ${JSON.stringify(result.error)}`);
  return result.value;
}

async function failure(code: string): Promise<string> {
  const result = await run(code);
  if (result.ok) throw new Error(`script escaped with ${JSON.stringify(result.value)}`);
  return result.error.message;
}

/** The ECMAScript built-ins QuickJS provides, plus the two globals code mode adds. */
const ALLOWED_GLOBALS = new Set([
  ...[
    'Object',
    'Function',
    'Array',
    'Number',
    'Boolean',
    'String',
    'Symbol',
    'BigInt',
    'Date',
    'RegExp',
    'JSON',
  ],
  ...[
    'Math',
    'Reflect',
    'Proxy',
    'Promise',
    'Map',
    'Set',
    'WeakMap',
    'WeakSet',
    'WeakRef',
    'FinalizationRegistry',
  ],
  ...[
    'Error',
    'EvalError',
    'RangeError',
    'ReferenceError',
    'SyntaxError',
    'TypeError',
    'URIError',
    'InternalError',
  ],
  ...['AggregateError', 'Iterator', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Uint8ClampedArray'],
  ...['Int8Array', 'Uint8Array', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array'],
  ...['BigUint64Array', 'Float16Array', 'Float32Array', 'Float64Array', 'parseInt', 'parseFloat', 'isNaN'],
  ...['isFinite', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape'],
  ...['Infinity', 'NaN', 'undefined', 'eval', 'globalThis', 'page', 'context', 'human', 'console'],
]);

describe('the sandbox exposes nothing of the host', () => {
  it('globalThis holds only ECMAScript built-ins, page, context, human and console', async () => {
    const names = await value(`
      const names = new Set();
      for (let o = globalThis; o; o = Object.getPrototypeOf(o)) {
        for (const key of Reflect.ownKeys(o)) names.add(String(key));
      }
      for (const key in globalThis) names.add(key);
      return [...names];`);
    const global = (names as string[]).filter(
      (name) => !(name in Object.prototype) && name !== 'Symbol(Symbol.toStringTag)',
    );
    expect(global.filter((name) => !ALLOWED_GLOBALS.has(name))).toEqual([]);
  });

  it.each([
    'process',
    'require',
    'module',
    'global',
    'Buffer',
    'fetch',
    'setTimeout',
    'setInterval',
    'queueMicrotask',
    'WebAssembly',
    'Atomics',
    'hostCall',
    'hostSelector',
    'hostLog',
    'installFacade',
  ])('%s is not defined', async (name) => {
    expect(await value(`return typeof ${name}`)).toBe('undefined');
    expect(await value(`return typeof globalThis[${JSON.stringify(name)}]`)).toBe('undefined');
  });

  it('constructor walks reach only the sandbox', async () => {
    expect(await failure(`return this.constructor.constructor('return process')()`)).toContain(
      "'process' is not defined",
    );
    expect(await failure(`return ({}).constructor.constructor('return require')()`)).toContain(
      "'require' is not defined",
    );
    expect(
      await value(
        `return Function('return typeof process + typeof require + typeof global + typeof Buffer')()`,
      ),
    ).toBe('undefinedundefinedundefinedundefined');
    expect(await value(`return page.locator.constructor('return this')() === globalThis`)).toBe(true);
    expect(await value(`return page.goto.constructor('return typeof process')().then((t) => t)`)).toBe(
      'undefined',
    );
    expect(await value(`return (async () => {}).constructor('return typeof process')().then((t) => t)`)).toBe(
      'undefined',
    );
    expect(await value(`return eval('typeof process')`)).toBe('undefined');
    expect(await value(`return Object.getPrototypeOf(page.locator('a')) === Object.prototype`)).toBe(true);
  });

  it('module loading is off', async () => {
    expect(await failure(`await import('fs')`)).toContain("could not load module 'fs'");
    expect(await failure(`await import('node:child_process')`)).toContain('could not load module');
    expect(await failure(`import fs from 'fs'`)).toContain('SyntaxError');
    expect(await failure(`require('fs')`)).toContain("'require' is not defined");
  });

  it('stack traces show only the script and the prelude', async () => {
    const stack = await value(
      `try { await page.locator('#x').evaluate(() => 1) } catch (e) { return e.stack + new Error('x').stack }`,
    );
    expect(stack).toMatch(/script\.js/);
    expect(stack).not.toMatch(/file:|node:|\/work\/|node_modules|\.ts/);
  });
});

describe('the sandbox cannot change the host', () => {
  afterAll(() => {
    // Belt and braces: nothing a script did may be visible in this process.
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('prototype pollution stays inside the sandbox', async () => {
    await value(`
      Object.prototype.polluted = 1;
      Array.prototype.evil = 2;
      Object.defineProperty(Object.prototype, 'then', { value: () => 1, configurable: true });
      JSON.parse = () => ({ hacked: true });
      return 1;`).catch(() => undefined);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>)['evil']).toBeUndefined();
    expect(JSON.parse('{"a":1}')).toEqual({ a: 1 });
    // And the next script starts clean.
    expect(await value(`return [({}).polluted, [].evil, JSON.parse('{"a":1}')]`)).toEqual([
      null,
      null,
      { a: 1 },
    ]);
  });

  it('returned JSON cannot pollute host prototypes', async () => {
    const result = await value(
      `return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}')`,
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it('overwriting built-ins the facade uses breaks nothing on the host side', async () => {
    const got = await value(`
      JSON.stringify = () => { throw new Error('no') };
      JSON.parse = () => ({ ok: true, value: 'forged' });
      Array.prototype.concat = null;
      Object.keys = () => [];
      Reflect.apply = () => 'forged';
      return await page.locator('#a').first().textContent();`);
    expect(got).toBe('text');
  });

  it('facade objects cannot be redefined or used to reach the host functions', async () => {
    expect(await value(`page = 1; return typeof page`)).toBe('object');
    expect(await failure(`'use strict'; page.goto = null`)).toContain('page.goto cannot be assigned');
    expect(await value(`return Object.getOwnPropertyNames(page).includes('hostCall')`)).toBe(false);
    expect(await value(`return String(page.goto).includes('hostCall')`)).toBe(false);
  });
});
