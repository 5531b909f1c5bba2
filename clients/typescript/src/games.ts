/**
 * Each game's own types, looked up by the game's name: every row of `GameTypes` names the types
 * the server's spec generates for that game (`LuddoAction`, `LuddoEvent`, `LuddoState`,
 * `LuddoOptions`, `LuddoEntryMessage`, …), so an `Entry<'snakes'>` has Snakes' actions, events,
 * legal lists and state, and `test/types.test.ts` switches exhaustively on each game's unions.
 * The rows and `GAMES` are generated from the spec with the client (`src/generated/games.gen.ts`,
 * scripts/generate.mjs): a game the server adds needs no edit here.
 */
import type { Game, LobbyEntry, TableEntry } from './generated/types.gen.js';
import type { GameTypes } from './generated/games.gen.js';

export type { Game, GameTypes, LobbyEntry, TableEntry };
export { GAMES } from './generated/games.gen.js';

export type GameAction<G extends Game> = GameTypes[G]['action'];
export type GameEvent<G extends Game> = GameTypes[G]['event'];
export type GameState<G extends Game> = GameTypes[G]['state'];
export type GameOptions<G extends Game> = GameTypes[G]['options'];
export type GameTable<G extends Game> = GameTypes[G]['table'];
export type GameCreateTable<G extends Game> = GameTypes[G]['createTable'];
export type GameReply<G extends Game> = GameTypes[G]['reply'];
export type GameClientMessage<G extends Game> = GameTypes[G]['clientMessage'];

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
 * it, `seq` the entry's, and at a fresh-dice table the seat's next `reveal` (dice.ts; a client
 * made with `freshDice` adds it by itself).
 */
export function actionRequest<G extends Game>(action: GameAction<G>, seq: number, reveal?: string): GameTypes[G]['actionRequest'] {
  return (reveal === undefined ? { action, seq } : { action, seq, reveal }) as GameTypes[G]['actionRequest'];
}
