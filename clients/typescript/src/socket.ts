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
 * exponential back-off with jitter (reconnect.ts), so neither a gap nor a duplicate reaches the
 * caller; an entry with any other `seq` than the next fails the iteration. An upgrade refused
 * for good (400, 401, 403, 404, 409 for a table closed unplayed, 426), a close with 4401 (the
 * token was revoked or expired: sign in again, then follow anew with `since` = `lastSeq`) or
 * too many failed attempts in a row end the iteration with a `TableSocketError`. Iteration ends
 * by itself after the `finish` entry, or a `closed` one before any start (nothing is written
 * after either), unless `untilFinish` is false.
 */
import type { DiceChains } from './dice.js';
import type {
  ChatHiddenMessage,
  ChatSocketMessage,
  ErrorMessage,
  Game,
  PongMessage,
  PresenceMessage,
} from './generated/types.gen.js';
import {
  isLast,
  type Entry,
  type GameAction,
  type GameClientMessage,
  type GameReply,
  type GameState,
} from './games.js';
import {
  FollowedSocket,
  LuddoSocketError,
  type MinimalWebSocket,
  type ReconnectInfo,
  type SocketOptions,
} from './reconnect.js';

/** What the server sends on a table's socket; entries and replies typed for the table's game. */
export type ServerMessage<G extends Game = Game> =
  | Entry<G>
  | PresenceMessage
  | ChatSocketMessage
  | ChatHiddenMessage
  | GameReply<G>
  | ErrorMessage
  | PongMessage;

/** A server message as it comes off the wire (no `game` on entries yet). */
type WireMessage =
  | { type: 'entry'; seq: number; actor: string; action: { type: string }; state?: unknown; reveal?: string }
  | { type: 'reply'; id?: unknown }
  | { type: 'presence' | 'chat' | 'chat_hidden' | 'error' | 'pong' };

export interface FollowOptions<G extends Game> extends SocketOptions {
  tableId: string;
  /** The table's game: entries are typed, and tagged, with it. */
  game: G;
  /** Resume after this `seq` (default 0: the whole log). */
  since?: number;
  /** Take the seat back from a bot on (every) connect. */
  reclaim?: boolean;
  /** End the iteration after the `finish` entry, or a `closed` one before the start (default true). */
  untilFinish?: boolean;
  /** Called before each reconnect, with why, how long it waits and the `seq` it resumes after. */
  onReconnect?: (info: TableReconnectInfo) => void;
  /**
   * The player's dice chains (dice.ts): `act` sends the seat's next `reveal` at a fresh-dice
   * table, and each entry that carries one moves the count on.
   */
  freshDice?: DiceChains;
}

export interface TableReconnectInfo extends ReconnectInfo {
  /** The reconnect asks for the entries after this `seq`: the last one received. */
  since: number;
}

/** How `followTable`'s iteration fails: a gap, a refusal, a revoked token, too many failures. */
export class TableSocketError extends LuddoSocketError {
  constructor(message: string, status?: number, closeCode?: number) {
    super(message, status, closeCode);
    this.name = 'TableSocketError';
  }
}

/** Opens a table's socket; iterate it with `for await`. */
export function followTable<G extends Game>(options: FollowOptions<G>): TableSocket<G> {
  return new TableSocket(options);
}

export class TableSocket<G extends Game> extends FollowedSocket<ServerMessage<G>> {
  /** The last `seq` received: where a reconnect resumes. */
  lastSeq: number;
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
  private nextId = 1;
  /** `act`s waiting for their reply, by the id they were sent with. */
  private readonly pending = new Map<number, { resolve: (reply: GameReply<G>) => void; reject: (error: unknown) => void }>();

  constructor(options: FollowOptions<G>) {
    super(options);
    this.options = options;
    this.lastSeq = options.since ?? 0;
    this.start();
  }

  /** Sends a client message on the open socket; false when none is open (retry after a reconnect). */
  send(message: GameClientMessage<G>): boolean {
    return this.sendText(JSON.stringify(message));
  }

  /**
   * Plays `action` over the socket (the same `seq` rule as `POST /actions`) and waits for the
   * server's reply. Rejects when no socket is open or it drops before the reply. A reply with
   * error `outcome_unknown` (cluster mode: the action was forwarded and its answer lost) means
   * it may or may not be in the log: wait for the next entries (the socket resumes with
   * `since`) before acting again; posting it again at the same `seq` is safe. With `freshDice`,
   * the message carries the seat's next reveal (the server ignores it for an action that draws
   * no die).
   */
  act(action: GameAction<G>, seq: number = this.lastSeq): Promise<GameReply<G>> {
    const dice = this.options.freshDice;
    if (dice === undefined) return this.sendAction(action, seq, undefined);
    return dice.next(this.options.tableId).then((reveal) => this.sendAction(action, seq, reveal));
  }

  private sendAction(action: GameAction<G>, seq: number, reveal: string | undefined): Promise<GameReply<G>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const message = (reveal === undefined ? { type: 'action', id, seq, action } : { type: 'action', id, seq, action, reveal }) as GameClientMessage<G>;
      if (!this.send(message)) {
        this.pending.delete(id);
        reject(new TableSocketError('no socket open'));
      }
    });
  }

  protected override url(): string {
    return this.socketUrl(`v1/tables/${encodeURIComponent(this.options.tableId)}/events`, {
      since: String(this.lastSeq),
      reclaim: this.options.reclaim ? 'true' : undefined,
    });
  }

  protected override error(message: string, status?: number, closeCode?: number): TableSocketError {
    return new TableSocketError(message, status, closeCode);
  }

  protected override reconnecting(info: ReconnectInfo): void {
    this.options.onReconnect?.({ ...info, since: this.lastSeq });
  }

  protected override connectionClosed(code: number): void {
    for (const { reject } of this.pending.values()) reject(new TableSocketError(`socket closed (${code}) before the reply`));
    this.pending.clear();
  }

  protected override ended(): void {
    for (const { reject } of this.pending.values()) reject(new TableSocketError('socket closed before the reply'));
    this.pending.clear();
  }

  protected override receive(socket: MinimalWebSocket, data: unknown): void {
    const message = data as WireMessage;
    switch (message.type) {
      case 'entry': {
        if (message.seq <= this.lastSeq) return; // already delivered (never expected; harmless)
        if (message.seq !== this.lastSeq + 1) {
          this.end(socket, new TableSocketError(`gap in the log: seq ${message.seq} after ${this.lastSeq}`), 'client error');
          return;
        }
        this.lastSeq = message.seq;
        if ('reveal' in message) this.options.freshDice?.observe(this.options.tableId, message.reveal);
        const entry = { ...message, game: this.options.game } as unknown as Entry<G>;
        if (message.actor === 'server' && message.action.type === 'start') this.started = true;
        if (message.state !== undefined) {
          this.started = true; // only game entries carry a state (one resumed after the start, too)
          this.state = message.state as GameState<G>;
        }
        this.lastEntry = entry;
        this.deliver(entry);
        if (isLast(message) && this.options.untilFinish !== false) this.end(socket, null, 'finished');
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
  }
}
