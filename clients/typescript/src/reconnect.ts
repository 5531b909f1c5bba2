/**
 * What the SDK's two WebSocket helpers share (`followTable`, socket.ts, and `followLobby`,
 * lobby.ts): one connection at a time to a URL worked out afresh for each attempt (so a table's
 * resumes with the last `seq`), the messages held for a `for await` reader, and reconnection.
 *
 * - A dropped connection (a network failure, 1001 idle, 1011 database, 1012 restart, 4008 fell
 *   behind) is opened again after a back-off that doubles from `initialMs` up to `maxMs`, with
 *   jitter (half the ceiling plus up to as much again), so that the clients of a restarted
 *   server do not all come back in the same instant. A connection that delivered messages
 *   starts the back-off afresh.
 * - An upgrade refused for a reason retrying cannot mend (400, 401, 403, 404, 409, 426: when the
 *   WebSocket implementation reports the status, as `ws` does and WHATWG WebSockets do not), a
 *   close with 4401 (the token was revoked or expired) or `maxAttempts` failed attempts in a row
 *   end the iteration with the helper's error (a `LuddoSocketError`).
 * - Messages the reader has not taken are held; past `highWaterMark` the helper closes the
 *   socket and opens it again once the reader has caught up, so memory stays bounded whatever
 *   the reader's pace (a table's socket resumes with `since`; the lobby's sends a new snapshot).
 *
 * Runs on any WHATWG `WebSocket` (browsers, Node 22, Node 20 with --experimental-websocket) and
 * otherwise on the `ws` package (a dependency for Node), imported only then.
 */

/** The part of the WHATWG WebSocket the helpers use (`ws` has it too). */
export interface MinimalWebSocket {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => MinimalWebSocket;

export interface Backoff {
  /** The first retry waits up to this long (ms). */
  initialMs: number;
  /** No wait is longer than this (ms). */
  maxMs: number;
  /** Each failure in a row multiplies the ceiling by this. */
  factor: number;
}

/** What both helpers take. */
export interface SocketOptions {
  /** The server's HTTP base URL, e.g. `http://127.0.0.1:8080` (ws:// or wss:// is derived from it). */
  baseUrl: string;
  /** A bearer token (sent as `?token=`: browsers cannot set headers on a WebSocket). */
  token?: string;
  /** The back-off between attempts (default 250 ms doubling up to 10 s). */
  backoff?: Partial<Backoff>;
  /** Connection attempts in a row that may fail before giving up (default 10). */
  maxAttempts?: number;
  /**
   * Messages received but not yet read by the caller before the helper stops reading: it then
   * closes the socket and opens it again once the caller has caught up (default 1024).
   */
  highWaterMark?: number;
  /** A WebSocket class of your choosing (default: the global one, else `ws`). */
  WebSocket?: WebSocketConstructor;
}

/** Why and when a helper reconnects (its `onReconnect` is called before the wait). */
export interface ReconnectInfo {
  /** Failures in a row so far (1 for the first retry after a working connection). */
  attempt: number;
  delayMs: number;
  /** The close code and reason, or the connection error. */
  reason: string;
}

/** How a helper's iteration fails; `TableSocketError` and `LobbySocketError` are its kinds. */
export class LuddoSocketError extends Error {
  constructor(
    message: string,
    /** The HTTP status that refused the upgrade, when the WebSocket implementation tells it. */
    readonly status?: number,
    /** The last close code seen. */
    readonly closeCode?: number,
  ) {
    super(message);
    this.name = 'LuddoSocketError';
  }
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 10_000, factor: 2 };
/**
 * Upgrades refused for a reason retrying cannot mend: a bad request, no or a refused token, a
 * private table, no such table, a table closed unplayed (409 `table_not_started`), not a
 * WebSocket request. 429 (too many sockets) and 503 are retried.
 */
const FATAL_STATUSES = new Set([400, 401, 403, 404, 409, 426]);
/** The close code of a socket whose token was revoked or expired: reconnecting with it cannot mend that. */
export const CLOSE_TOKEN_ENDED = 4401;
const OPEN = 1;

/** The delay before retry number `attempt` (1-based): half the ceiling plus up to as much again. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** How one connection ended. */
interface Attempt {
  opened: boolean;
  received: number;
  code?: number;
  reason: string;
  status?: number;
}

/**
 * One followed socket: the connection loop, the reader's queue and the back-off. A helper says
 * where to connect (`url`), what a message means (`receive`, which calls `deliver` for what the
 * reader should see) and which error class it fails with.
 */
export abstract class FollowedSocket<M> implements AsyncIterable<M> {
  /** Connections opened so far (1 + the reconnects that got through). */
  connections = 0;

  protected socket: MinimalWebSocket | null = null;
  private readonly base: SocketOptions;
  private readonly backoff: Backoff;
  private readonly queue: M[] = [];
  private waiting: ((result: IteratorResult<M>) => void) | null = null;
  private failWaiting: ((error: unknown) => void) | null = null;
  /** Resolves the wait of a paused helper once the reader has taken what it held. */
  private drained: (() => void) | null = null;
  /** Closed by the helper itself to stop reading (the reader is `highWaterMark` behind). */
  private paused = false;
  /** The iteration is over (ended, failed or closed): nothing more is delivered. */
  protected done = false;
  private failure: unknown = null;
  /** No more connections: set by `close()`, by the end of the stream and by a failure. */
  protected stopped = false;
  private wakeSleep: (() => void) | null = null;

  protected constructor(base: SocketOptions) {
    this.base = base;
    this.backoff = { ...DEFAULT_BACKOFF, ...base.backoff };
  }

  /** Where the next connection goes (called for each attempt). */
  protected abstract url(): string;
  /** One parsed message of the open socket. */
  protected abstract receive(socket: MinimalWebSocket, message: unknown): void;
  /** The helper's own error. */
  protected abstract error(message: string, status?: number, closeCode?: number): LuddoSocketError;
  /** Before each reconnect's wait. */
  protected abstract reconnecting(info: ReconnectInfo): void;
  /** A connection closed (whatever the reason). */
  protected connectionClosed(_code: number): void {}
  /** The iteration ended (whatever the reason). */
  protected ended(): void {}

  /** Starts the connection loop; the subclass calls it once its own fields are set. */
  protected start(): void {
    void this.run().catch((error: unknown) => this.finish(error));
  }

  [Symbol.asyncIterator](): AsyncIterator<M> {
    return {
      next: () => this.next(),
      return: async () => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }

  /**
   * Drops the current connection as a network failure would: the helper reconnects after its
   * back-off (what the example does once per game, to show the resume).
   */
  drop(): void {
    this.socket?.close(4000, 'dropped by the client');
  }

  /** Stops following: closes the socket; the iteration ends. */
  close(): void {
    this.stopped = true;
    this.socket?.close(1000, 'done');
    this.wakeSleep?.();
    this.drained?.();
    this.finish(null);
  }

  /** Sends a text message on the open socket; false when none is open (retry after a reconnect). */
  protected sendText(data: string): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(data);
    return true;
  }

  /** Hands a message to the reader (or holds it until read). */
  protected deliver(message: M): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failWaiting = null;
      resolve({ done: false, value: message });
    } else {
      this.queue.push(message);
    }
  }

  /** The stream is over (`error` null) or failed: closes the socket; nothing more is delivered. */
  protected end(socket: MinimalWebSocket, error: LuddoSocketError | null, reason: string): void {
    this.stopped = true;
    socket.close(1000, reason);
    this.finish(error);
  }

  /** The socket's URL: `path` under the base URL, over ws:// or wss://, with the token. */
  protected socketUrl(path: string, query: Record<string, string | undefined>): string {
    const url = new URL(path, this.base.baseUrl.endsWith('/') ? this.base.baseUrl : `${this.base.baseUrl}/`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    if (this.base.token) url.searchParams.set('token', this.base.token);
    return url.toString();
  }

  private next(): Promise<IteratorResult<M>> {
    const value = this.queue.shift();
    if (value !== undefined) {
      if (this.queue.length === 0) this.drained?.();
      return Promise.resolve({ done: false, value });
    }
    if (this.failure) return Promise.reject(this.failure);
    if (this.done) return Promise.resolve({ done: true, value: undefined });
    this.drained?.();
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }

  private finish(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failure = error;
    this.ended();
    if (error && this.failWaiting) this.failWaiting(error);
    else this.waiting?.({ done: true, value: undefined });
    this.waiting = this.failWaiting = null;
  }

  private async run(): Promise<void> {
    const WebSocketClass = this.base.WebSocket ?? (await defaultWebSocket());
    const maxAttempts = this.base.maxAttempts ?? 10;
    let failures = 0;
    while (!this.stopped && !this.done) {
      const attempt = await this.connect(WebSocketClass);
      if (this.stopped || this.done) return;
      if (this.paused) {
        // Closed by us to stop reading: open again once the reader has taken what it holds.
        await new Promise<void>((resolve) => {
          this.drained = resolve;
          if (this.queue.length === 0) resolve();
        });
        this.drained = null;
        this.paused = false;
        failures = 0;
        continue;
      }
      if (attempt.status !== undefined && FATAL_STATUSES.has(attempt.status)) {
        throw this.error(`the server refused the WebSocket: ${attempt.status}`, attempt.status, attempt.code);
      }
      if (attempt.code === CLOSE_TOKEN_ENDED) {
        throw this.error(`the token was revoked or expired: ${attempt.reason}`, undefined, attempt.code);
      }
      failures = attempt.received > 0 ? 1 : failures + 1;
      if (failures > maxAttempts) {
        throw this.error(`gave up after ${maxAttempts} failed attempts in a row: ${attempt.reason}`, attempt.status, attempt.code);
      }
      const delayMs = backoffDelay(failures, this.backoff);
      this.reconnecting({ attempt: failures, delayMs, reason: attempt.reason });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        this.wakeSleep = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeSleep = null;
    }
  }

  /** One connection, from the upgrade to the close: resolves with how it ended. */
  private connect(WebSocketClass: WebSocketConstructor): Promise<Attempt> {
    return new Promise((resolve) => {
      const attempt: Attempt = { opened: false, received: 0, reason: 'closed' };
      let socket: MinimalWebSocket;
      try {
        socket = new WebSocketClass(this.url());
      } catch (error) {
        resolve({ ...attempt, reason: String(error) });
        return;
      }
      this.socket = socket;
      socket.onopen = () => {
        attempt.opened = true;
        this.connections += 1;
      };
      socket.onerror = (event) => {
        const message = errorMessage(event);
        attempt.reason = message;
        const status = /Unexpected server response: (\d{3})/.exec(message)?.[1];
        if (status) attempt.status = Number(status);
      };
      socket.onmessage = (event) => {
        attempt.received += 1;
        if (this.done) return;
        let message: unknown;
        try {
          message = JSON.parse(typeof event.data === 'string' ? event.data : String(event.data));
        } catch {
          this.end(socket, this.error('the server sent a message that is not JSON'), 'client error');
          return;
        }
        this.receive(socket, message);
        if (this.queue.length >= (this.base.highWaterMark ?? 1024) && !this.paused && !this.done) {
          this.paused = true;
          socket.close(1000, 'client paused');
        }
      };
      socket.onclose = (event) => {
        if (this.socket === socket) this.socket = null;
        this.connectionClosed(event.code);
        if (attempt.opened) attempt.reason = `close ${event.code}${event.reason ? ` ${event.reason}` : ''}`;
        resolve({ ...attempt, code: event.code });
      };
    });
  }
}

function errorMessage(event: unknown): string {
  if (event && typeof event === 'object') {
    const { message, error } = event as { message?: unknown; error?: unknown };
    if (typeof message === 'string' && message) return message;
    if (error instanceof Error) return error.message;
  }
  return 'connection error';
}

/** The global WebSocket when there is one, else the `ws` package's. */
async function defaultWebSocket(): Promise<WebSocketConstructor> {
  const global = (globalThis as { WebSocket?: unknown }).WebSocket;
  if (typeof global === 'function') return global as WebSocketConstructor;
  const ws = await import('ws');
  return ws.WebSocket as unknown as WebSocketConstructor;
}
