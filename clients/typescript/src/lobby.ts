/**
 * Follows the lobby over its WebSocket (`GET /v1/lobby/events`): the open public tables, live,
 * with no polling.
 *
 * The server first sends a `snapshot` (the open public tables, newest first, at most `limit`,
 * each with its latest log `seq`; `truncated` when there are more: page through `listTables`
 * for the rest), then a `table` message when a public table appears or changes (`opened`,
 * `seats`, `settings`, `started`) and a `removed` one when it finishes, closes unplayed or is
 * made private. Messages about one table may arrive out of order, so the protocol says to keep
 * the one with the higher `seq` and to ignore a table's messages after its removal: the helper
 * does that, yields only the messages that change what it holds, and keeps the result in
 * `socket.tables`.
 *
 * The stream is not resumable: there is no `since`. After a drop (network, 1001 idle, 1011
 * database, 1012 restart or missed changes, 4008 fell behind) the helper reconnects after the
 * shared back-off with jitter (reconnect.ts) and the server sends a new `snapshot`, which
 * replaces everything held: a snapshot after the first means "start again from this". An
 * upgrade refused for good (400, 401, 426), a close with 4401 (the token was revoked or
 * expired) or too many failed attempts in a row end the iteration with a `LobbySocketError`.
 * The iteration never ends by itself: `socket.close()` or leaving the loop ends it.
 */
import type {
  ErrorMessage,
  LobbyChallengeMessage,
  LobbyFriendMessage,
  LobbyRematchMessage,
  LobbyRemovedMessage,
  LobbySnapshotMessage,
  LobbyTableMessage,
  PongMessage,
} from './generated/types.gen.js';
import {
  FollowedSocket,
  LuddoSocketError,
  type MinimalWebSocket,
  type ReconnectInfo,
  type SocketOptions,
} from './reconnect.js';

/**
 * What the server sends on the lobby's socket (`pong` and `error` only answer the client's
 * messages; `friend`, `challenge` and `rematch` come to a signed-in player's sockets only).
 */
export type LobbyMessage =
  | LobbySnapshotMessage
  | LobbyTableMessage
  | LobbyRemovedMessage
  | LobbyFriendMessage
  | LobbyChallengeMessage
  | LobbyRematchMessage
  | PongMessage
  | ErrorMessage;

/** One open public table as the lobby holds it: the table as anyone sees it, as of its log's `seq`. */
export type LobbyTable = LobbySnapshotMessage['tables'][number];

export interface LobbyOptions extends SocketOptions {
  /** Most tables in each snapshot (1 to 100; the server's default is 20). */
  limit?: number;
  /** Called before each reconnect, with why and how long it waits (a new snapshot follows). */
  onReconnect?: (info: ReconnectInfo) => void;
}

/** How `followLobby`'s iteration fails: a refusal, a revoked token, too many failures. */
export class LobbySocketError extends LuddoSocketError {
  constructor(message: string, status?: number, closeCode?: number) {
    super(message, status, closeCode);
    this.name = 'LobbySocketError';
  }
}

/**
 * How many removed tables the helper remembers, to ignore their late messages. Out-of-order
 * messages of one table are close together, so the most recent removals suffice; the oldest is
 * forgotten first, and a new snapshot forgets them all.
 */
export const REMEMBERED_REMOVALS = 1024;

/** Opens the lobby's socket; iterate it with `for await`. */
export function followLobby(options: LobbyOptions): LobbySocket {
  return new LobbySocket(options);
}

export class LobbySocket extends FollowedSocket<LobbyMessage> {
  /**
   * The open public tables by id, as the messages received so far say (received, not yet read:
   * a reader that renders message by message applies each one itself). A snapshot replaces it.
   */
  readonly tables = new Map<string, LobbyTable>();
  /** Whether the latest snapshot left tables out (more than `limit` are open). */
  truncated = false;
  /** Snapshots received: 1 + the reconnects that got through. */
  snapshots = 0;

  private readonly options: LobbyOptions;
  /** Removed tables by the `seq` of their removal, oldest first, at most `REMEMBERED_REMOVALS`. */
  private readonly removed = new Map<string, number>();

  constructor(options: LobbyOptions) {
    super(options);
    this.options = options;
    this.start();
  }

  protected override url(): string {
    return this.socketUrl('v1/lobby/events', { limit: this.options.limit === undefined ? undefined : String(this.options.limit) });
  }

  protected override error(message: string, status?: number, closeCode?: number): LobbySocketError {
    return new LobbySocketError(message, status, closeCode);
  }

  protected override reconnecting(info: ReconnectInfo): void {
    this.options.onReconnect?.(info);
  }

  protected override receive(_socket: MinimalWebSocket, data: unknown): void {
    const message = data as LobbyMessage;
    switch (message.type) {
      case 'snapshot':
        this.snapshots += 1;
        this.tables.clear();
        this.removed.clear();
        for (const item of message.tables) this.tables.set(item.table.id, item);
        this.truncated = message.truncated;
        this.deliver(message);
        break;
      case 'table': {
        const held = this.tables.get(message.table.id)?.seq ?? -1;
        const gone = this.removed.get(message.table.id) ?? -1;
        if (message.seq <= held || message.seq <= gone) return; // older than what is held
        this.removed.delete(message.table.id); // made public again
        this.tables.set(message.table.id, { seq: message.seq, table: message.table });
        this.deliver(message);
        break;
      }
      case 'removed': {
        const held = this.tables.get(message.table_id)?.seq ?? -1;
        const gone = this.removed.get(message.table_id) ?? -1;
        if (message.seq < held || message.seq <= gone) return; // the table changed since, or was already removed
        this.tables.delete(message.table_id);
        this.removed.delete(message.table_id);
        this.removed.set(message.table_id, message.seq);
        if (this.removed.size > REMEMBERED_REMOVALS) {
          const oldest = this.removed.keys().next().value;
          if (oldest !== undefined) this.removed.delete(oldest);
        }
        this.deliver(message);
        break;
      }
      default:
        this.deliver(message);
    }
  }
}
