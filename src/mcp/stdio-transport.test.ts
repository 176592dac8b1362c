import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serverIdentity } from './early-initialize.js';
import { BoundedStdioServerTransport } from './stdio-transport.js';

// Before the server is up, the CLI hears which request a client sends first after `initialize`: a
// tools/list (the launch begins before the server loads) or anything else (the server loads at once).

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const CALL = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'browser_runtime_info' } };

/**
 * A transport reading early from a pipe, with a listing to answer tools/list from: what it heard, in
 * order, a wait for the n-th event, and a wait for the early answer to request `id`.
 */
function watched(): {
  send(...messages: object[]): void;
  heard: string[];
  until(n: number): Promise<void>;
  answered(id: number): Promise<void>;
} {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const transport = new BoundedStdioServerTransport(1024 * 1024, input, output);
  const heard: string[] = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const note = (event: string) => (): void => {
    heard.push(event);
    for (const wait of waiting) if (heard.length >= wait.n) wait.resolve();
  };
  transport.answerEarly(serverIdentity('0.0.0', false), note('initialize'), () => '{"tools":[]}', {
    onList: note('list'),
    onOther: note('other'),
  });
  return {
    send: (...messages) => input.write(messages.map((message) => `${JSON.stringify(message)}\n`).join('')),
    heard,
    until: (n) =>
      heard.length >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve })),
    answered: (id) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (!written.includes(`"id":${id},`)) return;
          output.off('data', check);
          resolve();
        };
        output.on('data', check);
        check();
      }),
  };
}

describe('the requests read before the server is up', () => {
  it('a listing client: the first tools/list is heard, once, and nothing else', async () => {
    const client = watched();
    client.send(INITIALIZE, INITIALIZED, LIST, CALL, { ...LIST, id: 5 });
    // Every line before the last listing's answer was read: the call after the first listing is no
    // "other first", and the second listing is not heard again.
    await client.answered(5);
    expect(client.heard).toEqual(['initialize', 'list']);
  });

  it('a one-shot client: the call is heard as the first other request, and a later listing still counts', async () => {
    const client = watched();
    client.send(INITIALIZE, INITIALIZED, CALL);
    await client.until(2);
    client.send(LIST);
    await client.until(3);
    expect(client.heard).toEqual(['initialize', 'other', 'list']);
  });

  it('a notification or a request before initialize is no first request', async () => {
    const client = watched();
    client.send(CALL, INITIALIZE, INITIALIZED, LIST);
    await client.answered(2);
    expect(client.heard).toEqual(['initialize', 'list']);
  });
});
