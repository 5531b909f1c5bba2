/**
 * Each game's own types, looked up by the game's name, over the generated ones.
 *
 * The server's spec today types only the envelope: every game's actions and events are the open
 * `Action` / `Event` (`{type: string}`), its state and options open objects. Once the spec
 * carries per-game schemas (issue 14, item 1: `LuddoAction`, `LuddoEvent`, `LuddoState`,
 * `LuddoOptions`, `LudoAction`, …, `BackgammonState`), each row of `GameTypes` names them, and
 * everything below (entries, legal lists, the socket's messages) follows without other changes;
 * `test/types.test.ts` then fails to compile until every game has distinct, exhaustive unions.
 */
import type {
  Action,
  EntryMessage,
  Event,
  Game,
  Options,
  Play,
} from './generated/types.gen.js';

export type { Game };

/** The game state as the server renders it (`play.state`; entries carry it after item 4). */
type OpenState = Play['state'];

/** Per game: what a seat may post, what the log reports, the state and the table's options. */
export interface GameTypes {
  luddo: { action: Action; event: Event; state: OpenState; options: Options };
  ludo: { action: Action; event: Event; state: OpenState; options: Options };
  uckers: { action: Action; event: Event; state: OpenState; options: Options };
  snakes: { action: Action; event: Event; state: OpenState; options: Options };
  backgammon: { action: Action; event: Event; state: OpenState; options: Options };
}

export type GameAction<G extends Game> = GameTypes[G]['action'];
export type GameEvent<G extends Game> = GameTypes[G]['event'];
export type GameState<G extends Game> = GameTypes[G]['state'];
export type GameOptions<G extends Game> = GameTypes[G]['options'];

/** Every game's name, in the spec's order: a `Record<Game, …>` keeps it complete. */
export const GAMES = Object.keys({
  luddo: true,
  ludo: true,
  uckers: true,
  snakes: true,
  backgammon: true,
} satisfies Record<Game, true>) as Game[];

/**
 * One log entry of a table of game `G`: the wire's `EntryMessage`, with the game's own action,
 * events and legal lists, and `game` (added by the SDK, which knows the table's game), so that
 * an `Entry` (all games) narrows on `entry.game`.
 */
export type Entry<G extends Game = Game> = {
  [K in G]: Omit<EntryMessage, 'action' | 'events' | 'legal'> & {
    game: K;
    /** The action played, as listed; or, with `actor: "server"`, the table's own entry. */
    action: GameAction<K>;
    events: Array<GameEvent<K>>;
    /** By seat: what each seat may post after this entry, exactly as it is to be posted. */
    legal: Array<Array<GameAction<K>>>;
  };
}[G];

/** The table's own entries (`actor: "server"`), by the `type` of their action. */
export type ServerEntryType = 'start' | 'takeover' | 'reclaim' | 'finish';

/** Whether this entry ends the log: nothing is written after `finish`. */
export function isFinish(entry: Pick<EntryMessage, 'actor'> & { action: { type: string } }): boolean {
  return entry.actor === 'server' && entry.action.type === 'finish';
}

/** What `seat` may post after `entry` (empty when it is not that seat's decision). */
export function legalFor<G extends Game>(entry: Entry<G>, seat: number): Array<GameAction<G>> {
  return (entry.legal[seat] ?? []) as Array<GameAction<G>>;
}
