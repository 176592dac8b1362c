import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import type { IncomingMessage } from 'node:http';
import type { EventEmitter } from 'node:events';
import { BrowserMeshError, ErrorCodes } from '../../errors.js';
import { safeEndpoint } from './cdp.js';

const require = createRequire(import.meta.url);

/** The part of a `ws` client socket the tunnel uses (playwright-core bundles `ws` without its types). */
export interface UpstreamSocket extends EventEmitter {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  terminate(): void;
}

type UpstreamSocketClass = new (url: string, options: Record<string, unknown>) => UpstreamSocket;

/** The playwright-core version this process speaks (its client and the server must share major.minor). */
export function clientVersion(): string {
  return (require('playwright-core/package.json') as { version: string }).version;
}

/** A body is read for its version line only; a server has no reason to send more. */
const BODY_LIMIT = 8_192;

/**
 * Opens the WebSocket to a Playwright browser server as Playwright's own client would (its
 * User-Agent, so the server checks the version, the browser it asks for) and with
 * `x-playwright-proxy: *`, which asks the server to send every connection of the browser it launches
 * back over this socket. `ws` is the copy playwright-core bundles, so no dependency is added.
 */
export async function openUpstream(
  endpoint: string,
  headers: Record<string, string>,
  timeoutMs: number,
  options: { tunnel: boolean } = { tunnel: true },
): Promise<UpstreamSocket> {
  const { ws: WebSocketClass } = require('playwright-core/lib/utilsBundle') as { ws: UpstreamSocketClass };
  const socket = new WebSocketClass(endpoint, {
    headers: {
      'User-Agent': `Playwright/${clientVersion()} (${arch()}; ${platform()}) node/${process.versions.node.split('.').slice(0, 2).join('.')}`,
      'x-playwright-browser': 'chromium',
      ...(options.tunnel ? { 'x-playwright-proxy': '*' } : {}),
      ...headers,
    },
    handshakeTimeout: timeoutMs,
    maxPayload: 256 * 1024 * 1024,
    perMessageDeflate: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('unexpected-response', (_request, response: IncomingMessage) => {
      void readBody(response).then((body) => {
        socket.terminate();
        reject(refusal(endpoint, response.statusCode ?? 0, body));
      });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => reject(unreachable(endpoint, error)));
  });
}

/** The server's answer to the upgrade, as an error with a safe reason (never its headers or body). */
export function refusal(endpoint: string, status: number, body: string): BrowserMeshError {
  const where = safeEndpoint(endpoint);
  if (status === 428) {
    const serverVersion = /server version:\s*v?(\d+\.\d+(?:\.\d+)?)/i.exec(body)?.[1] ?? 'unknown';
    const ours = clientVersion();
    return new BrowserMeshError(
      ErrorCodes.BROWSER_ERROR,
      `The Playwright server at ${where} runs Playwright ${serverVersion}; BrowserMesh speaks ${ours} (the major.minor must match)`,
      {
        details: { reason: 'version_mismatch', serverVersion, clientVersion: ours },
        recoveryHint: `Run the server with the same version: npx playwright@${ours} run-server.`,
      },
    );
  }
  if (status === 429 || /quota|too many|limit/i.test(body)) {
    return new BrowserMeshError(ErrorCodes.BROWSER_ERROR, `The Playwright server at ${where} is busy`, {
      details: { reason: 'pool_busy', status },
      recoveryHint: 'Retry later, or raise the pool size or quota.',
    });
  }
  if (status === 401 || status === 403) {
    return new BrowserMeshError(
      ErrorCodes.BROWSER_ERROR,
      `The Playwright server at ${where} refused the credentials`,
      {
        details: { reason: 'pool_auth_failed', status },
        recoveryHint: 'Check the token in BROWSERMESH_PLAYWRIGHT_HEADERS or in the endpoint URL.',
      },
    );
  }
  return new BrowserMeshError(
    ErrorCodes.BROWSER_ERROR,
    `The Playwright server at ${where} answered HTTP ${status}`,
    {
      details: { reason: 'pool_unreachable', status },
      recoveryHint: 'Check the endpoint path (run-server --path) and that the server is a Playwright server.',
    },
  );
}

export function unreachable(endpoint: string, error?: NodeJS.ErrnoException): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.BROWSER_ERROR,
    `Could not reach the Playwright server at ${safeEndpoint(endpoint)}`,
    {
      details: { reason: 'pool_unreachable', ...(error?.code ? { errno: error.code } : {}) },
      recoveryHint: 'Check that the server runs (playwright run-server --host … --port …) and is reachable.',
    },
  );
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      if (body.length < BODY_LIMIT) body += chunk;
    });
    response.on('end', () => resolve(body));
    response.on('error', () => resolve(body));
    response.on('close', () => resolve(body));
  });
}
