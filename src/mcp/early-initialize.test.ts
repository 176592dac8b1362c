import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  earlyInitializeId,
  initializeResponse,
  serverIdentity,
} from './early-initialize.js';

const request = (params: unknown, id: unknown = 1): unknown => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params,
});
const good = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } };

describe('early initialize', () => {
  it('negotiates exactly the versions the bundled SDK does', () => {
    // Fails on an SDK upgrade that changes them: update the list in early-initialize.ts.
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
  });

  it('answers a well-formed initialize with its id', () => {
    expect(earlyInitializeId(request(good))).toBe(1);
    expect(earlyInitializeId(request(good, 'a'))).toBe('a');
  });

  it.each([
    ['a notification', { jsonrpc: '2.0', method: 'initialize', params: good }],
    ['another method', { jsonrpc: '2.0', id: 1, method: 'ping', params: good }],
    ['a fractional id', request(good, 1.5)],
    ['a null id', request(good, null)],
    ['no params', request(undefined)],
    ['a numeric protocolVersion', request({ ...good, protocolVersion: 3 })],
    ['capabilities as an array', request({ ...good, capabilities: [] })],
    ['clientInfo without version', request({ ...good, clientInfo: { name: 'c' } })],
    ['a wrong jsonrpc', { jsonrpc: '1.0', id: 1, method: 'initialize', params: good }],
    ['not an object', 'initialize'],
  ])('leaves %s to the SDK', (_what, message) => {
    expect(earlyInitializeId(message)).toBeUndefined();
  });

  it('keeps a supported version and answers an unknown one with the newest', () => {
    const identity = serverIdentity('1.2.3', false);
    const answer = (version: string): unknown =>
      (initializeResponse(1, version, identity) as unknown as { result: { protocolVersion: string } }).result
        .protocolVersion;
    expect(answer('2024-11-05')).toBe('2024-11-05');
    expect(answer('1999-01-01')).toBe(SDK_VERSIONS[0]);
    expect(initializeResponse(1, '2025-06-18', identity)).not.toHaveProperty('result.instructions');
    expect(initializeResponse(1, '2025-06-18', serverIdentity('1', true))).toHaveProperty(
      'result.instructions',
    );
  });

  it('points the agent at the dashboard URL only when the server serves one', () => {
    expect(serverIdentity('1', true).instructions).not.toContain('dashboard');
    expect(serverIdentity('1', true, true).instructions).toContain('browser_runtime_info gives its URL');
    expect(serverIdentity('1', false, true)).not.toHaveProperty('instructions');
  });
});
