/**
 * The few W3C WebDriver calls the selenium provider needs (new session, delete, a liveness probe)
 * plus Grid 4's GraphQL lookup of a session's node. Credentials in the Grid URL become a Basic
 * Authorization header and never appear in a URL, a message or a log.
 */

export interface WebDriverClientOptions {
  /** Grid URL, e.g. `http://user:pass@grid:4444` or `https://grid.example/wd/hub`. */
  url: string;
  /** Extra headers for every request (a gateway's auth); secret-bearing. */
  headers?: Record<string, string>;
}

export interface NewSessionResult {
  sessionId: string;
  capabilities: Record<string, unknown>;
}

/** A refused WebDriver call. `error` is the W3C error code; the server's message is kept off it. */
export class WebDriverError extends Error {
  override readonly name = 'WebDriverError';
  constructor(
    readonly status: number,
    readonly error: string,
    /** Whether the server's message says a queued request timed out (kept as a flag, not as text). */
    readonly queueTimedOut = false,
  ) {
    super(`WebDriver ${status} ${error}`);
  }
}

export type Liveness = 'alive' | 'gone' | 'unknown';

export class WebDriverClient {
  /** The Grid URL without credentials, ending in `/`. */
  readonly baseUrl: string;
  /** Headers for the Grid, including Basic auth from the URL; also sent on the CDP WebSocket. */
  readonly headers: Record<string, string>;

  constructor(options: WebDriverClientOptions) {
    const url = new URL(options.url);
    const headers: Record<string, string> = { ...options.headers };
    if (url.username !== '') {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      headers.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    }
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    this.baseUrl = url.toString();
    this.headers = headers;
  }

  /**
   * POST /session. `timeoutMs` only caps the HTTP call: the caller races it against its own deadline
   * and deletes a session that arrives after it gave up (aborting would not stop the Grid's queue).
   */
  async newSession(capabilities: Record<string, unknown>, timeoutMs: number): Promise<NewSessionResult> {
    const body = { capabilities: { alwaysMatch: capabilities, firstMatch: [{}] } };
    const value = await this.request('POST', 'session', body, timeoutMs);
    if (!isRecord(value) || typeof value.sessionId !== 'string' || !isRecord(value.capabilities)) {
      throw new WebDriverError(200, 'invalid response');
    }
    return { sessionId: value.sessionId, capabilities: value.capabilities };
  }

  /** DELETE /session/{id}. A session the Grid no longer knows counts as deleted. */
  async deleteSession(sessionId: string, timeoutMs: number): Promise<void> {
    try {
      await this.request('DELETE', `session/${encodeURIComponent(sessionId)}`, undefined, timeoutMs);
    } catch (error) {
      if (error instanceof WebDriverError && (error.status === 404 || error.error === 'invalid session id'))
        return;
      throw error;
    }
  }

  /**
   * Asks the node for the session's windows: it reaches the browser, so a dead browser answers
   * `invalid session id`; it also counts as activity for the Grid's idle timeout.
   */
  async probe(sessionId: string, timeoutMs: number): Promise<Liveness> {
    try {
      await this.request(
        'GET',
        `session/${encodeURIComponent(sessionId)}/window/handles`,
        undefined,
        timeoutMs,
      );
      return 'alive';
    } catch (error) {
      if (error instanceof WebDriverError && (error.status === 404 || error.error === 'invalid session id'))
        return 'gone';
      return 'unknown';
    }
  }

  /** The node a Grid 4 session runs on (its URI), via the Grid's GraphQL endpoint; undefined if unknown. */
  async nodeOf(sessionId: string, timeoutMs: number): Promise<string | undefined> {
    if (!/^[\w-]+$/.test(sessionId)) return undefined;
    const query = `{ session (id: "${sessionId}") { nodeUri } }`;
    const response = await this.fetch('POST', 'graphql', { query }, timeoutMs);
    const json: unknown = await response.json();
    const data = isRecord(json) && isRecord(json.data) ? json.data : undefined;
    const session = data && isRecord(data.session) ? data.session : undefined;
    return session && typeof session.nodeUri === 'string' ? session.nodeUri : undefined;
  }

  private async request(method: string, path: string, body: unknown, timeoutMs: number): Promise<unknown> {
    const response = await this.fetch(method, path, body, timeoutMs);
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new WebDriverError(response.status, response.ok ? 'invalid response' : 'unknown error');
    }
    const value = isRecord(json) ? json.value : undefined;
    if (!response.ok || (isRecord(value) && typeof value.error === 'string')) {
      const code = isRecord(value) && typeof value.error === 'string' ? value.error : 'unknown error';
      const message = isRecord(value) && typeof value.message === 'string' ? value.message : '';
      throw new WebDriverError(response.status, code.slice(0, 64), /timed out|timeout/i.test(message));
    }
    return value;
  }

  private fetch(method: string, path: string, body: unknown, timeoutMs: number): Promise<Response> {
    return fetch(new URL(path, this.baseUrl), {
      method,
      headers: {
        ...this.headers,
        // Grid 4 refuses a JSON body whose Content-Type does not name utf-8.
        ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
    });
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
