import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { GATE_MODULE_PATH, GATE_SOURCE, SOCKET_CHECK_PATH } from './gate-source.js';
import { isGateModule, socketCheckTarget, withGate } from './worker-gate.js';

const gated = (source: string | Buffer): string =>
  withGate(typeof source === 'string' ? Buffer.from(source) : source).toString('utf8');

describe('worker gate: script rewriting', () => {
  it('puts the gate before the first statement of a classic script', () => {
    const out = gated('postMessage(1);');
    expect(out.startsWith(GATE_SOURCE)).toBe(true);
    expect(out.endsWith('postMessage(1);')).toBe(true);
  });

  it('keeps a "use strict" directive (and comments before it) first', () => {
    const out = gated("/* lib */\n'use strict';\nconst x = 1;");
    expect(out.startsWith("/* lib */\n'use strict';")).toBe(true);
    expect(out).toContain(`'use strict';${GATE_SOURCE}`);
    // Still strict: assigning to an undeclared name throws.
    expect(() => runInNewContext(gated('"use strict"; undeclared = 1;'), { self: {} })).toThrow();
  });

  it('stays on the first line, so the worker keeps its line numbers', () => {
    expect(GATE_SOURCE).not.toContain('\n');
    expect(gated('a;\nb;\nc;').split('\n')).toHaveLength(3);
  });

  it('imports the gate module first in a module with static imports', () => {
    const out = gated("import { x } from './dep.js';\npostMessage(x);");
    expect(out.startsWith(`import '${GATE_MODULE_PATH}';import { x }`)).toBe(true);
  });

  it('treats a re-export as a module, and syntax it cannot parse as a classic script', () => {
    const asModule = `import '${GATE_MODULE_PATH}';`;
    expect(gated("export * from './dep.js';").startsWith(asModule)).toBe(true);
    // Module-only syntax before a static import: a module, whatever the parse error.
    expect(gated("import.meta; import 'data:text/javascript,0';").startsWith(asModule)).toBe(true);
    expect(gated("await 0; import 'data:text/javascript,0';").startsWith(asModule)).toBe(true);
    // Text a classic parse skips as an HTML-like comment but a module runs.
    expect(gated("x\n-->0; import 'data:text/javascript,0';").startsWith(asModule)).toBe(true);
    expect(gated('const important = 1;').startsWith(GATE_SOURCE)).toBe(true);
    expect(gated("importScripts('/a.js');").startsWith(GATE_SOURCE)).toBe(true);
  });

  it('keeps a UTF-8 byte order mark first and refuses a UTF-16 script', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const out = withGate(Buffer.concat([bom, Buffer.from('postMessage(1);')]));
    expect(out.subarray(0, 3).equals(bom)).toBe(true);
    expect(out.subarray(3).toString('utf8').startsWith(GATE_SOURCE)).toBe(true);
    const utf16 = withGate(Buffer.from([0xff, 0xfe, 0x70, 0x00])).toString('utf8');
    expect(utf16).toMatch(/^throw new Error/);
  });

  it('is a no-op outside worker and window scopes', () => {
    expect(() => runInNewContext(GATE_SOURCE, { self: {} })).not.toThrow();
  });
});

describe('worker gate: paths it answers', () => {
  it('reads the socket URL of a check and nothing else', () => {
    const url = `http://127.0.0.1:8/${SOCKET_CHECK_PATH.slice(1)}?u=${encodeURIComponent('ws://127.0.0.2:9/x')}`;
    expect(socketCheckTarget(url)).toBe('ws://127.0.0.2:9/x');
    expect(socketCheckTarget('http://127.0.0.1:8/other?u=ws://127.0.0.2:9/')).toBeUndefined();
    expect(socketCheckTarget(`http://127.0.0.1:8${SOCKET_CHECK_PATH}`)).toBeUndefined();
    expect(socketCheckTarget('not a url')).toBeUndefined();
    expect(isGateModule(`https://example.com${GATE_MODULE_PATH}`)).toBe(true);
    expect(isGateModule('https://example.com/app.js')).toBe(false);
  });
});
