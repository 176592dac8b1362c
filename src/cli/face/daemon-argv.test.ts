import { describe, expect, it } from 'vitest';
import { readArgvRequest } from './daemon-argv.js';
import { MAX_LINE_BYTES } from './protocol.js';
import { MAX_ANSWER_CHARS, warmCandidate } from './thin-client.cjs';

const at = (argv: string[], extra: { env?: Record<string, string>; stdin?: string | null } = {}) =>
  readArgvRequest({
    argv,
    cwd: '/work',
    env: extra.env ?? {},
    ...('stdin' in extra ? { stdin: extra.stdin } : {}),
  });

describe('the daemon reading a thin client’s command line', () => {
  it('builds the request the full client would send', () => {
    expect(at(['-s', 'buyer', 'click', '@e5', '--json'])).toEqual({
      request: { session: 'buyer', action: expect.objectContaining({ kind: 'tool' }), configArgs: [] },
      json: true,
    });
    const outcome = at(['text'], { env: { BROWSERMESH_SESSION: 'seller' } });
    expect('request' in outcome && outcome.request.session).toBe('seller');
  });

  it('answers usage errors and help itself', () => {
    expect(at(['click'])).toEqual({
      answer: { exit: 2, stdout: '', stderr: expect.stringMatching(/^USAGE: click: /) },
    });
    expect(at(['nope'])).toEqual({ answer: expect.objectContaining({ exit: 2 }) });
    expect(at(['-s', 'no spaces', 'text'])).toEqual({ answer: expect.objectContaining({ exit: 2 }) });
    expect(at(['click', '--help'])).toEqual({
      answer: { exit: 0, stdout: expect.stringMatching(/^Usage: browsermesh click /), stderr: '' },
    });
  });

  it('asks for stdin only when the command reads it', () => {
    expect(at(['run'])).toEqual({ answer: { stdin: true } });
    expect(at(['run'], { stdin: 'return 1;' })).toHaveProperty('request');
    expect(at(['run'], { stdin: null })).toEqual({ answer: expect.objectContaining({ exit: 2 }) });
    expect(at(['run', 'return 1;'])).toHaveProperty('request');
  });

  it('hands back what only the full client does, before anything ran', () => {
    for (const argv of [
      ['snapshot', '--headed'],
      ['daemon', 'start'],
      ['daemon', 'restart'],
      ['skill', 'install'],
      ['--headless'],
    ])
      expect(at(argv)).toEqual({ answer: { fallback: true } });
    expect(at(['text'], { env: { BROWSERMESH_SESSION: 'no spaces' } })).toEqual({
      answer: { fallback: true },
    });
  });
});

describe('which command lines try the warm path', () => {
  it('takes a command word or a session option first, never flags alone or the daemon itself', () => {
    expect(warmCandidate(['click', '@e1'])).toBe(true);
    expect(warmCandidate(['-s', 'b', 'click', '@e1'])).toBe(true);
    expect(warmCandidate(['--session=b', 'text'])).toBe(true);
    expect(warmCandidate([])).toBe(false);
    expect(warmCandidate(['--headless'])).toBe(false);
    expect(warmCandidate(['daemon', 'run'])).toBe(false);
  });

  it('reads answers as large as the protocol allows', () => {
    expect(MAX_ANSWER_CHARS).toBe(MAX_LINE_BYTES);
  });
});
