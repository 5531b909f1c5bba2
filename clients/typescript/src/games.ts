/**
 * Each game's own types, looked up by the game's name: every row of `GameTypes` names the types
 * the server's spec generates for that game (`LuddoAction`, `LuddoEvent`, `LuddoState`,
 * `LuddoOptions`, `LuddoEntryMessage`, …), so an `Entry<'snakes'>` has Snakes' actions, events,
 * legal lists and state, and `test/types.test.ts` switches exhaustively on each game's unions.
 */
import type {
  BackgammonAction,
  BackgammonActionRequest,
  BackgammonClientMessage,
  BackgammonCreateTable,
  BackgammonEntryMessage,
  BackgammonEvent,
  BackgammonOptions,
  BackgammonReplyMessage,
  BackgammonState,
  BackgammonTable,
  Game,
  LobbyEntry,
  LuddoAction,
  LuddoActionRequest,
  LuddoClientMessage,
  LuddoCreateTable,
  LuddoEntryMessage,
  LuddoEvent,
  LuddoOptions,
  LuddoReplyMessage,
  LuddoState,
  LuddoTable,
  LudoAction,
  LudoActionRequest,
  LudoClientMessage,
  LudoCreateTable,
  LudoEntryMessage,
  LudoEvent,
  LudoOptions,
  LudoReplyMessage,
  LudoState,
  LudoTable,
  SnakesAction,
  SnakesActionRequest,
  SnakesClientMessage,
  SnakesCreateTable,
  SnakesEntryMessage,
  SnakesEvent,
  SnakesOptions,
  SnakesReplyMessage,
  SnakesState,
  SnakesTable,
  TableEntry,
  UckersAction,
  UckersActionRequest,
  UckersClientMessage,
  UckersCreateTable,
  UckersEntryMessage,
  UckersEvent,
  UckersOptions,
  UckersReplyMessage,
  UckersState,
  UckersTable,
} from './generated/types.gen.js';

export type { Game, LobbyEntry, TableEntry };

/**
 * Per game, the spec's own types: what a seat may post (`action`), what the log reports
 * (`event`), the state after an entry (`state`, as `play.state` shows it), the table's
 * `options`, the WebSocket `entry` message, the table view, the create request, the action
 * request, and the socket's client message and reply.
 */
export interface GameTypes {
  luddo: {
    action: LuddoAction;
    event: LuddoEvent;
    state: LuddoState;
    options: LuddoOptions;
    entry: LuddoEntryMessage;
    table: LuddoTable;
    createTable: LuddoCreateTable;
    actionRequest: LuddoActionRequest;
    clientMessage: LuddoClientMessage;
    reply: LuddoReplyMessage;
  };
  ludo: {
    action: LudoAction;
    event: LudoEvent;
    state: LudoState;
    options: LudoOptions;
    entry: LudoEntryMessage;
    table: LudoTable;
    createTable: LudoCreateTable;
    actionRequest: LudoActionRequest;
    clientMessage: LudoClientMessage;
    reply: LudoReplyMessage;
  };
  uckers: {
    action: UckersAction;
    event: UckersEvent;
    state: UckersState;
    options: UckersOptions;
    entry: UckersEntryMessage;
    table: UckersTable;
    createTable: UckersCreateTable;
    actionRequest: UckersActionRequest;
    clientMessage: UckersClientMessage;
    reply: UckersReplyMessage;
  };
  snakes: {
    action: SnakesAction;
    event: SnakesEvent;
    state: SnakesState;
    options: SnakesOptions;
    entry: SnakesEntryMessage;
    table: SnakesTable;
    createTable: SnakesCreateTable;
    actionRequest: SnakesActionRequest;
    clientMessage: SnakesClientMessage;
    reply: SnakesReplyMessage;
  };
  backgammon: {
    action: BackgammonAction;
    event: BackgammonEvent;
    state: BackgammonState;
    options: BackgammonOptions;
    entry: BackgammonEntryMessage;
    table: BackgammonTable;
    createTable: BackgammonCreateTable;
    actionRequest: BackgammonActionRequest;
    clientMessage: BackgammonClientMessage;
    reply: BackgammonReplyMessage;
  };
}

export type GameAction<G extends Game> = GameTypes[G]['action'];
export type GameEvent<G extends Game> = GameTypes[G]['event'];
export type GameState<G extends Game> = GameTypes[G]['state'];
export type GameOptions<G extends Game> = GameTypes[G]['options'];
export type GameTable<G extends Game> = GameTypes[G]['table'];
export type GameCreateTable<G extends Game> = GameTypes[G]['createTable'];
export type GameReply<G extends Game> = GameTypes[G]['reply'];
export type GameClientMessage<G extends Game> = GameTypes[G]['clientMessage'];

/** Every game's name, in the spec's order: a `Record<Game, …>` keeps it complete. */
export const GAMES = Object.keys({
  luddo: true,
  ludo: true,
  uckers: true,
  snakes: true,
  backgammon: true,
} satisfies Record<Game, true>) as Game[];

/**
 * One log entry of a table of game `G`: the wire's per-game entry message (`LuddoEntryMessage`,
 * …) with `game` added by the SDK (which knows the table's game), so that an `Entry` (all games)
 * narrows on `entry.game`. Its `action` is the game's action, the table's own entry
 * (`TableEntry`: start, takeover, reclaim, finish) or, before the start, a lobby entry
 * (`LobbyEntry`: seat_taken, seat_left, bot_seated, settings_changed, closed). `state` is the
 * game state after the entry; lobby entries, before there is a game, have none.
 */
export type Entry<G extends Game = Game> = {
  [K in G]: GameTypes[K]['entry'] & { game: K };
}[G];

/** The `type`s of the table's own entries (`actor: "server"`) around the play. */
export type TableEntryType = TableEntry['type'];
/** The `type`s of the entries before the start (`actor: "server"`). */
export type LobbyEntryType = LobbyEntry['type'];

const TABLE_ENTRY_TYPES: Record<TableEntryType, true> = { start: true, takeover: true, reclaim: true, finish: true };
const LOBBY_ENTRY_TYPES: Record<LobbyEntryType, true> = {
  seat_taken: true,
  seat_left: true,
  bot_seated: true,
  settings_changed: true,
  closed: true,
};

type AnyEntry = { actor: string; action: { type: string } };

/** A lobby entry: written before the start (a seat taken or left, a bot seated, settings, closed). */
export function isLobbyEntry<E extends AnyEntry>(entry: E): entry is E & { action: Extract<E['action'], LobbyEntry> } {
  return entry.actor === 'server' && entry.action.type in LOBBY_ENTRY_TYPES;
}

/** One of the table's own entries: `start`, `takeover`, `reclaim`, `finish`. */
export function isTableEntry<E extends AnyEntry>(entry: E): entry is E & { action: Extract<E['action'], TableEntry> } {
  return entry.actor === 'server' && entry.action.type in TABLE_ENTRY_TYPES;
}

/** A move of the game: the action a seat (a player, a bot, the clock, the server's forced move) played. */
export function isGameAction<G extends Game>(entry: Entry<G>): entry is Entry<G> & { action: GameAction<G> } {
  return entry.actor !== 'server';
}

/** Whether this entry ends the log: nothing is written after `finish`, nor after `closed` (before a start). */
export function isLast(entry: AnyEntry): boolean {
  return entry.actor === 'server' && (entry.action.type === 'finish' || entry.action.type === 'closed');
}

/** Whether this is the `finish` entry (the game is over; its `outcome` has the places). */
export function isFinish(entry: AnyEntry): boolean {
  return entry.actor === 'server' && entry.action.type === 'finish';
}

/**
 * What `seat` may post after `entry`: empty when it is not that seat's decision, and when the
 * server plays on at once (the seat's only move, as the next `forced` entry; a bot's move).
 */
export function legalFor<G extends Game>(entry: Entry<G>, seat: number): Array<GameAction<G>> {
  return (entry.legal_actions_by_seat[seat] ?? []) as Array<GameAction<G>>;
}

/** The game state after `entry` (undefined for lobby entries, which come before the game). */
export function stateOf<G extends Game>(entry: Entry<G>): GameState<G> | undefined {
  return entry.state as GameState<G> | undefined;
}

/**
 * The body of `POST /v1/tables/{id}/actions` for a game-`G` table: `action` as an entry listed
 * it, `seq` the entry's.
 */
export function actionRequest<G extends Game>(action: GameAction<G>, seq: number): GameTypes[G]['actionRequest'] {
  return { action, seq } as GameTypes[G]['actionRequest'];
}
