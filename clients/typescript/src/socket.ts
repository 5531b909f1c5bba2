/**
 * Follows a table over its WebSocket (`GET /v1/tables/{id}/events`): every log entry in order,
 * each `seq` exactly once, across drops and reconnects.
 *
 * The socket opens as soon as the table exists: before the start its entries are the lobby's
 * (`seat_taken`, `seat_left`, `bot_seated`, `settings_changed`, and `closed` when the last player
 * left: nothing follows it), all with actor `server` and no `state`; then `start`, the game's
 * entries, each with the game `state` after it, and `finish`. The helper keeps the latest state
 * (`socket.state`) and whether the game has started (`socket.started`), so a frontend can render
 * from the entries alone.
 *
 * The server sends every entry after `since`, then live ones. When the socket drops (a network
 * failure, a restart: 1012, a database hiccup: 1011, the client fell 64 messages behind: 4008,
 * idle: 1001) the helper reconnects with `since` = the last `seq` it received, after an
 * exponential back-off with jitter, so neither a gap nor a duplicate reaches the caller. An
 * upgrade refused for good (400, 401, 403, 404, 426), a close with 4401 (the token was revoked
 * or expired: sign in again, then follow anew with `since` = `lastSeq`) or too many failed
 * attempts in a row end the iteration with a `TableSocketError`. Iteration ends by itself after the `finish` entry, or
 * a `closed` one before any start (nothing is written after either), unless `untilFinish` is false.
 *
 * Runs on any WHATWG `WebSocket` (browsers, Node 22, Node 20 with --experimental-websocket) and
 * otherwise on the `ws` package, loaded only then.
 */
import type { ErrorMessage, Game, PongMessage, PresenceMessage } from './generated/types.gen.js';
import {
  isLast,
  type Entry,
  type GameAction,
  type GameClientMessage,
  type GameReply,
  type GameState,
} from './games.js';

/** What the server sends on a table's socket; entries and replies typed for the table's game. */
export type ServerMessage<G extends Game = Game> =
  | Entry<G>
  | PresenceMessage
  | GameReply<G>
  | ErrorMessage
  | PongMessage;

/** A server message as it comes off the wire (no `game` on entries yet). */
type WireMessage =
  | { type: 'entry'; seq: number; actor: string; action: { type: string }; state?: unknown }
  | { type: 'reply'; id?: unknown }
  | { type: 'presence' | 'error' | 'pong' };

/** The part of the WHATWG WebSocket this helper uses (`ws` has it too). */
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

export interface FollowOptions<G extends Game> {
  /** The server's HTTP base URL, e.g. `http://127.0.0.1:8080` (ws:// is derived from it). */
  baseUrl: string;
  tableId: string;
  /** The table's game: entries are typed, and tagged, with it. */
  game: G;
  /** A bearer token (sent as `?token=`: browsers cannot set headers on a WebSocket). */
  token?: string;
  /** Resume after this `seq` (default 0: the whole log). */
  since?: number;
  /** Take the seat back from a bot on (every) connect. */
  reclaim?: boolean;
  /** End the iteration after the `finish` entry, or a `closed` one before the start (default true). */
  untilFinish?: boolean;
  backoff?: Partial<Backoff>;
  /** Connection attempts in a row that may fail before giving up (default 10). */
  maxAttempts?: number;
  /**
   * Messages received but not yet read by the caller before the helper stops reading: it then
   * closes the socket and reconnects with `since` once the caller has caught up (default 1024).
   */
  highWaterMark?: number;
  /** A WebSocket class of your choosing (default: the global one, else `ws`). */
  WebSocket?: WebSocketConstructor;
  /** Called before each reconnect, with why and how long it waits. */
  onReconnect?: (info: ReconnectInfo) => void;
}

export interface ReconnectInfo {
  /** Failures in a row so far (1 for the first retry after a working connection). */
  attempt: number;
  delayMs: number;
  since: number;
  /** The close code and reason, or the connection error. */
  reason: string;
}

export class TableSocketError extends Error {
  constructor(
    message: string,
    /** The HTTP status that refused the upgrade, when the WebSocket implementation tells it. */
    readonly status?: number,
    /** The last close code seen. */
    readonly closeCode?: number,
  ) {
    super(message);
    this.name = 'TableSocketError';
  }
}

const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 10_000, factor: 2 };
/** Upgrades refused for a reason retrying cannot mend. */
const FATAL_STATUSES = new Set([400, 401, 403, 404, 426]);
/** The close code of a socket whose token was revoked or expired: reconnecting with it cannot mend that. */
export const CLOSE_TOKEN_ENDED = 4401;
const OPEN = 1;

/** The delay before retry number `attempt` (1-based): half the ceiling plus up to as much again. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Opens a table's socket; iterate it with `for await`. */
export function followTable<G extends Game>(options: FollowOptions<G>): TableSocket<G> {
  return new TableSocket(options);
}

interface Attempt {
  opened: boolean;
  received: number;
  code?: number;
  reason: string;
  status?: number;
}

export class TableSocket<G extends Game> implements AsyncIterable<ServerMessage<G>> {
  /** The last `seq` received: where a reconnect resumes. */
  lastSeq: number;
  /** Connections opened so far (1 + the reconnects that got through). */
  connections = 0;
  /**
   * The game state after the latest entry received that carries one (undefined before the
   * start). Received, not yet read: to render step by step, use each entry's own `state`.
   */
  state: GameState<G> | undefined = undefined;
  /** Whether the `start` entry has been received (entries before it are the lobby's). */
  started = false;
  /** The latest entry received (not necessarily read yet). */
  lastEntry: Entry<G> | undefined = undefined;

  private readonly options: FollowOptions<G>;
  private readonly backoff: Backoff;
  private socket: MinimalWebSocket | null = null;
  private readonly queue: Array<ServerMessage<G>> = [];
  private waiting: ((result: IteratorResult<ServerMessage<G>>) => void) | null = null;
  private failWaiting: ((error: unknown) => void) | null = null;
  private drained: (() => void) | null = null;
  private paused = false;
  private done = false;
  private error: unknown = null;
  private stopped = false;
  private wakeSleep: (() => void) | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: GameReply<G>) => void; reject: (error: unknown) => void }>();

  constructor(options: FollowOptions<G>) {
    this.options = options;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.lastSeq = options.since ?? 0;
    void this.run().catch((error: unknown) => this.finish(error));
  }

  [Symbol.asyncIterator](): AsyncIterator<ServerMessage<G>> {
    return {
      next: () => this.next(),
      return: async () => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }

  /** Sends a client message on the open socket; false when none is open (retry after a reconnect). */
  send(message: GameClientMessage<G>): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /**
   * Plays `action` over the socket (the same `seq` rule as `POST /actions`) and waits for the
   * server's reply. Rejects when no socket is open or it drops before the reply. A reply with
   * error `outcome_unknown` (cluster mode: the action was forwarded and its answer lost) means
   * it may or may not be in the log: wait for the next entries (the socket resumes with
   * `since`) before acting again; posting it again at the same `seq` is safe.
   */
  act(action: GameAction<G>, seq: number = this.lastSeq): Promise<GameReply<G>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const message = { type: 'action', id, seq, action } as GameClientMessage<G>;
      if (!this.send(message)) {
        this.pending.delete(id);
        reject(new TableSocketError('no socket open'));
      }
    });
  }

  /**
   * Drops the current connection as a network failure would: the helper reconnects after its
   * back-off and resumes with `since` (what the example does once per game, to show it).
   */
  drop(): void {
    this.socket?.close(4000, 'dropped by the client');
  }

  /** Stops following: closes the socket; the iteration ends. */
  close(): void {
    this.stopped = true;
    this.socket?.close(1000, 'done');
    this.wakeSleep?.();
    this.finish(null);
  }

  private next(): Promise<IteratorResult<ServerMessage<G>>> {
    const value = this.queue.shift();
    if (value !== undefined) {
      if (this.queue.length === 0) this.drained?.();
      return Promise.resolve({ done: false, value });
    }
    if (this.error) return Promise.reject(this.error);
    if (this.done) return Promise.resolve({ done: true, value: undefined });
    this.drained?.();
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }

  private deliver(message: ServerMessage<G>): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failWaiting = null;
      resolve({ done: false, value: message });
    } else {
      this.queue.push(message);
    }
  }

  private finish(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.error = error;
    for (const { reject } of this.pending.values()) reject(new TableSocketError('socket closed before the reply'));
    this.pending.clear();
    if (error && this.failWaiting) this.failWaiting(error);
    else this.waiting?.({ done: true, value: undefined });
    this.waiting = this.failWaiting = null;
  }

  private async run(): Promise<void> {
    const WebSocketClass = this.options.WebSocket ?? (await defaultWebSocket());
    const maxAttempts = this.options.maxAttempts ?? 10;
    let failures = 0;
    while (!this.stopped && !this.done) {
      const attempt = await this.connect(WebSocketClass);
      if (this.stopped || this.done) return;
      if (this.paused) {
        // Closed by us to stop reading: resume once the caller has read what it holds.
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
        throw new TableSocketError(`the server refused the WebSocket: ${attempt.status}`, attempt.status, attempt.code);
      }
      if (attempt.code === CLOSE_TOKEN_ENDED) {
        throw new TableSocketError(`the token was revoked or expired: ${attempt.reason}`, undefined, attempt.code);
      }
      failures = attempt.received > 0 ? 1 : failures + 1;
      if (failures > maxAttempts) {
        throw new TableSocketError(
          `gave up after ${maxAttempts} failed attempts in a row: ${attempt.reason}`,
          attempt.status,
          attempt.code,
        );
      }
      const delayMs = backoffDelay(failures, this.backoff);
      this.options.onReconnect?.({ attempt: failures, delayMs, since: this.lastSeq, reason: attempt.reason });
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

  private url(): string {
    const url = new URL(`v1/tables/${encodeURIComponent(this.options.tableId)}/events`, withSlash(this.options.baseUrl));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('since', String(this.lastSeq));
    if (this.options.token) url.searchParams.set('token', this.options.token);
    if (this.options.reclaim) url.searchParams.set('reclaim', 'true');
    return url.toString();
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
        this.receive(socket, event.data);
      };
      socket.onclose = (event) => {
        if (this.socket === socket) this.socket = null;
        for (const { reject } of this.pending.values()) reject(new TableSocketError(`socket closed (${event.code}) before the reply`));
        this.pending.clear();
        if (attempt.opened) attempt.reason = `close ${event.code}${event.reason ? ` ${event.reason}` : ''}`;
        resolve({ ...attempt, code: event.code });
      };
    });
  }

  private receive(socket: MinimalWebSocket, data: unknown): void {
    if (this.done) return;
    let message: WireMessage;
    try {
      message = JSON.parse(typeof data === 'string' ? data : String(data)) as WireMessage;
    } catch {
      this.fail(socket, new TableSocketError('the server sent a message that is not JSON'));
      return;
    }
    switch (message.type) {
      case 'entry': {
        if (message.seq <= this.lastSeq) return; // already delivered (never expected; harmless)
        if (message.seq !== this.lastSeq + 1) {
          this.fail(socket, new TableSocketError(`gap in the log: seq ${message.seq} after ${this.lastSeq}`));
          return;
        }
        this.lastSeq = message.seq;
        const entry = { ...message, game: this.options.game } as unknown as Entry<G>;
        if (message.actor === 'server' && message.action.type === 'start') this.started = true;
        if (message.state !== undefined) {
          this.started = true; // only game entries carry a state (one resumed after the start, too)
          this.state = message.state as GameState<G>;
        }
        this.lastEntry = entry;
        this.deliver(entry);
        if (isLast(message) && this.options.untilFinish !== false) {
          this.stopped = true;
          socket.close(1000, 'finished');
          this.finish(null);
        }
        break;
      }
      case 'reply': {
        const id = typeof message.id === 'number' ? message.id : NaN;
        const pending = this.pending.get(id);
        if (pending) {
          this.pending.delete(id);
          pending.resolve(message as GameReply<G>);
          return;
        }
        this.deliver(message as GameReply<G>);
        break;
      }
      default:
        this.deliver(message as ServerMessage<G>);
    }
    if (this.queue.length >= (this.options.highWaterMark ?? 1024) && !this.paused && !this.done) {
      this.paused = true;
      socket.close(1000, 'client paused');
    }
  }

  private fail(socket: MinimalWebSocket, error: TableSocketError): void {
    this.stopped = true;
    socket.close(1000, 'client error');
    this.finish(error);
  }
}

function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
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
