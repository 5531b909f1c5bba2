/**
 * Type-level test: compiled by `tsc --strict --noEmit` (npm run check), never run. Each function
 * switches exhaustively on a union of the client generated from the served spec, with a `never`
 * check in the default branch, so the SDK stops compiling when the spec adds a member nobody
 * handles, drops one a case names (a case outside the union does not compile either), or loses
 * the per-game types that make the switches possible.
 *
 * Per game, a switch on its actions and one on its events: each lists exactly that game's
 * members (docs/events.md), so every game has distinct, exhaustive unions. The type checks at
 * the end say which per-game types differ: every game's options, and its actions, events and
 * state from every other game's, except Luddo's and classic Ludo's actions, events and state,
 * which are one family's (the same two actions, the same events, the same engine state: the
 * games differ in their options and rules, docs/rules/ludo.md); they are still named types of
 * their own (`LuddoAction`, `LudoAction`).
 */
import type {
  ClientMessage,
  Entry,
  EntryMessage,
  Game,
  GameAction,
  GameEvent,
  GameOptions,
  GameState,
  GameTypes,
  LobbyEntry,
  LobbyMessage,
  LuddoAction,
  LuddoEntryMessage,
  LuddoEvent,
  LuddoOptions,
  LuddoState,
  ServerMessage,
  TableEntry,
  TableStatus,
} from '../src/index.js';

function assertNever(value: never): never {
  throw new Error(`unhandled: ${JSON.stringify(value)}`);
}

/** Every game is known to the SDK, and an `Entry` narrows on its `game`. */
export function gameOf(entry: Entry): Game {
  switch (entry.game) {
    case 'luddo':
      return entry.game;
    case 'ludo':
      return entry.game;
    case 'uckers':
      return entry.game;
    case 'snakes':
      return entry.game;
    case 'backgammon':
      return entry.game;
    default:
      return assertNever(entry);
  }
}

/** Every message the server sends on a table's socket. */
export function describe(message: ServerMessage): string {
  switch (message.type) {
    case 'entry':
      return `entry ${message.seq} of ${message.game}${message.state ? ' with its state' : ''}`;
    case 'presence':
      return `seat ${message.seat} connected: ${message.presence.connected}`;
    case 'chat':
      return `chat ${message.message.n}: ${message.message.text ?? message.message.emote ?? ''}`;
    case 'chat_hidden':
      return `chat ${message.n} hidden`;
    case 'reply':
      return message.ok ? `reply ${message.seq ?? ''}` : `refused: ${message.error?.code ?? ''}`;
    case 'error':
      return `error ${message.code}`;
    case 'pong':
      return 'pong';
    default:
      return assertNever(message);
  }
}

/** Every message the server sends on the lobby's socket. */
export function describeLobby(message: LobbyMessage): string {
  switch (message.type) {
    case 'snapshot':
      return `${message.tables.length} tables${message.truncated ? ' and more' : ''}`;
    case 'table':
      return `${message.table.game} table ${message.table.id} ${message.change} at ${message.seq}`;
    case 'removed':
      return `table ${message.table_id} ${message.reason} at ${message.seq}`;
    case 'friend':
      return `${message.player.name}: friend ${message.event}`;
    case 'challenge':
      return `challenge ${message.challenge.id} ${message.event}`;
    case 'rematch':
      return `rematch of ${message.table_id} asked by ${message.from.name}`;
    case 'error':
      return `error ${message.code}`;
    case 'pong':
      return 'pong';
    default:
      return assertNever(message);
  }
}

/** Every message a client may send. */
export function clientMessage(message: ClientMessage): string {
  switch (message.type) {
    case 'action':
      return `action at ${message.seq}`;
    case 'reclaim':
      return 'reclaim';
    case 'chat':
      return `chat ${message.text ?? message.emote ?? ''}`;
    case 'ping':
      return 'ping';
    default:
      return assertNever(message);
  }
}

/** Who acted in an entry. */
export function actor(entry: EntryMessage): string {
  switch (entry.actor) {
    case 'human':
    case 'timeout':
    case 'bot':
    case 'forced':
    case 'server':
      return entry.actor;
    default:
      return assertNever(entry.actor);
  }
}

export function status(value: TableStatus): boolean {
  switch (value) {
    case 'open':
    case 'playing':
      return true;
    case 'finished':
    case 'closed':
      return false;
    default:
      return assertNever(value);
  }
}

/** A game's actions are what its entries list: the legal lists carry exactly `GameAction<G>`. */
export function firstLegal<G extends Game>(entry: Entry<G>, seat: number): GameAction<G> | undefined {
  return entry.legal_actions_by_seat[seat]?.[0];
}

/** The table's own entries around the play. */
export function tableEntry(action: TableEntry): string {
  switch (action.type) {
    case 'start':
      return `start with client seed ${action.client_seed ?? ''}`;
    case 'takeover':
      return `a bot takes seat ${action.seat}: ${action.reason}`;
    case 'reclaim':
      return `seat ${action.seat} reclaimed`;
    case 'finish':
      return `finish: places ${action.outcome.places.join(',')}`;
    default:
      return assertNever(action);
  }
}

/** The entries before the start. */
export function lobbyEntry(action: LobbyEntry): string {
  switch (action.type) {
    case 'seat_taken':
      return `${action.name} sits at ${action.seat}`;
    case 'seat_left':
      return `seat ${action.seat} left${action.host_id ? `, host ${action.host_id}` : ''}`;
    case 'bot_seated':
      return `a bot at ${action.seat}`;
    case 'settings_changed':
      return `settings: ${action.visibility}, party ${action.party}`;
    case 'closed':
      return 'closed';
    default:
      return assertNever(action);
  }
}

/** An entry's action: the game's own, the table's, or the lobby's; the state only after the start. */
export function luddoEntry(entry: Entry<'luddo'>): string {
  const state: LuddoState | undefined = entry.state;
  const action = entry.action;
  switch (action.type) {
    case 'roll':
    case 'move':
      return `${luddoAction(action)} → phase ${state?.phase ?? '?'}`;
    case 'start':
    case 'takeover':
    case 'reclaim':
    case 'finish':
      return tableEntry(action);
    case 'seat_taken':
    case 'seat_left':
    case 'bot_seated':
    case 'settings_changed':
    case 'closed':
      return lobbyEntry(action);
    default:
      return assertNever(action);
  }
}

// ---- Luddo ----

export function luddoAction(action: GameAction<'luddo'>): string {
  switch (action.type) {
    case 'roll':
      return 'roll';
    case 'move':
      return `move ${action.piece}`;
    default:
      return assertNever(action);
  }
}

export function luddoEvent(event: GameEvent<'luddo'>): string {
  switch (event.type) {
    case 'opening_rolled':
      return `${event.seat} opens with ${event.dice[0]}`;
    case 'opening_tie':
      return `tie ${event.seats.join(',')}`;
    case 'first_to_play':
      return `${event.seat} first`;
    case 'rolled':
      return `${event.seat} rolled ${event.dice[0]}`;
    case 'three_sixes':
      return `${event.seat}: three sixes`;
    case 'moved':
      return `${event.seat} moved ${event.piece} by ${event.number} to ${event.to}`;
    case 'captured':
      return `${event.seat} captured ${event.pieces.length} at ${event.square}`;
    case 'piece_home':
      return `${event.seat}'s ${event.piece} home`;
    case 'numbers_forfeited':
      return `${event.seat} forfeits ${event.numbers.join(',')}`;
    case 'extra_roll':
      return `${event.seat} again: ${event.reason}`;
    case 'seat_finished':
      return `${event.seat} finished ${event.place}`;
    case 'turn_passed':
      return `${event.seat} to play`;
    case 'game_over':
      return `places ${event.places.join(',')}`;
    default:
      return assertNever(event);
  }
}

// ---- Ludo ----

export function ludoAction(action: GameAction<'ludo'>): string {
  switch (action.type) {
    case 'roll':
      return 'roll';
    case 'move':
      return `move ${action.piece}`;
    default:
      return assertNever(action);
  }
}

export function ludoEvent(event: GameEvent<'ludo'>): string {
  switch (event.type) {
    case 'opening_rolled':
      return `${event.seat} opens with ${event.dice[0]}`;
    case 'opening_tie':
      return `tie ${event.seats.join(',')}`;
    case 'first_to_play':
      return `${event.seat} first`;
    case 'rolled':
      return `${event.seat} rolled ${event.dice[0]}`;
    case 'three_sixes':
      return `${event.seat}: three sixes`;
    case 'moved':
      return `${event.seat} moved ${event.piece} by ${event.number}`;
    case 'captured':
      return `${event.seat} captured at ${event.square}`;
    case 'piece_home':
      return `${event.seat}'s ${event.piece} home`;
    case 'numbers_forfeited':
      return `${event.seat} forfeits ${event.numbers.join(',')}`;
    case 'extra_roll':
      return `${event.seat} again: ${event.reason}`;
    case 'seat_finished':
      return `${event.seat} finished ${event.place}`;
    case 'turn_passed':
      return `${event.seat} to play`;
    case 'game_over':
      return `places ${event.places.join(',')}`;
    default:
      return assertNever(event);
  }
}

// ---- Uckers ----

export function uckersAction(action: GameAction<'uckers'>): string {
  switch (action.type) {
    case 'roll':
      return 'roll';
    case 'move':
      return `move ${JSON.stringify(action.steps)}`;
    case 'total':
      return `total with ${JSON.stringify(action.piece)}`;
    case 'challenge':
      return `challenge ${JSON.stringify(action.target)}`;
    case 'pass':
      return 'pass';
    case 'call_snake_eyes':
      return 'snake eyes!';
    case 'suck_back':
      return `suck back ${JSON.stringify(action.target)}`;
    case 'blow_back':
      return `blow back ${JSON.stringify(action.piece)}`;
    case 'stand_up':
      return 'stand up';
    case 'up_board':
      return 'up board';
    default:
      return assertNever(action);
  }
}

export function uckersEvent(event: GameEvent<'uckers'>): string {
  switch (event.type) {
    case 'opening_rolled':
      return `${event.seat} opens with ${event.dice.join('+')}`;
    case 'opening_tie':
      return `tie ${event.seats.join(',')}`;
    case 'first_to_play':
      return `${event.seat} (${event.colour}) first`;
    case 'snake_eyes_called':
      return `${event.colour} calls snake eyes`;
    case 'rolled':
      return `${event.colour} rolled ${event.dice.join('+')}`;
    case 'entered':
      return `entered at ${event.square}`;
    case 'moved':
      return `moved to ${event.to}`;
    case 'captured':
      return `${event.seat} captured at ${event.square}`;
    case 'piece_home':
      return `${event.seat}'s piece home`;
    case 'colour_home':
      return `${event.colour} home`;
    case 'dice_forfeited':
      return `forfeited: ${event.reason}`;
    case 'extra_roll':
      return `${event.colour} again: ${event.reason}`;
    case 'turn_passed':
      return `${event.colour} to play`;
    case 'all_pieces_out':
      return `${event.colour}: all out`;
    case 'snake_eyes_again':
      return `${event.colour}: snake eyes again`;
    case 'challenge_declared':
      return `challenge: ${event.needed} sixes needed`;
    case 'challenge_sixes':
      return `${event.colour}: ${event.sixes} of ${event.needed}`;
    case 'blob_captured':
      return `blob captured at ${event.square}`;
    case 'challenge_lapsed':
      return `${event.colour}'s challenge lapsed`;
    case 'suck_back':
      return `suck back ${event.distance}`;
    case 'blow_back':
      return `blow back ${event.distance}`;
    case 'stand_up_finish':
      return `${event.seat} stands up`;
    case 'partner_unlocked':
      return `${event.colour} unlocks ${event.partner}`;
    case 'up_board':
      return `${event.seat} up-boards`;
    case 'game_over':
      return `places ${event.places.join(',')}`;
    default:
      return assertNever(event);
  }
}

// ---- Snakes and Ladders ----

export function snakesAction(action: GameAction<'snakes'>): string {
  switch (action.type) {
    case 'roll':
      return 'roll';
    default:
      // A one-member union does not narrow to `never` on its tag: check the tag itself.
      return assertNever(action.type);
  }
}

export function snakesEvent(event: GameEvent<'snakes'>): string {
  switch (event.type) {
    case 'opening_rolled':
      return `${event.seat} opens with ${event.dice[0]}`;
    case 'opening_tie':
      return `tie ${event.seats.join(',')}`;
    case 'first_to_play':
      return `${event.seat} first`;
    case 'rolled':
      return `${event.seat} rolled ${event.dice[0]}`;
    case 'need_six_to_start':
      return `${event.seat} needs a six`;
    case 'moved':
      return `${event.seat} ${event.from ?? 'off'} → ${event.to}`;
    case 'climbed_ladder':
      return `${event.seat} climbs to ${event.to}`;
    case 'slid_snake':
      return `${event.seat} slides to ${event.to}`;
    case 'overshoot_stay':
      return `${event.seat} stays at ${event.at}`;
    case 'extra_roll':
      return `${event.seat} again: ${event.reason}`;
    case 'seat_finished':
      return `${event.seat} finished ${event.place}`;
    case 'turn_passed':
      return `${event.seat} to play`;
    case 'game_over':
      return `places ${event.places.join(',')}`;
    default:
      return assertNever(event);
  }
}

// ---- Backgammon ----

export function backgammonAction(action: GameAction<'backgammon'>): string {
  switch (action.type) {
    case 'roll':
      return 'roll';
    case 'double':
      return 'double';
    case 'take':
      return 'take';
    case 'drop':
      return 'drop';
    case 'beaver':
      return 'beaver';
    case 'play':
      return `play ${action.moves.length} moves`;
    default:
      return assertNever(action);
  }
}

export function backgammonEvent(event: GameEvent<'backgammon'>): string {
  switch (event.type) {
    case 'new_game':
      return `game ${event.game}${event.crawford ? ' (Crawford)' : ''}`;
    case 'opening_rolled':
      return `${event.seat} opens with ${event.dice[0]}`;
    case 'opening_tie':
      return `tie ${event.seats.join(',')}`;
    case 'first_to_play':
      return `${event.seat} first`;
    case 'rolled':
      return `${event.seat} rolled ${event.dice.join('-')}`;
    case 'no_legal_play':
      return `${event.seat} cannot play`;
    case 'play_made':
      return `${event.seat} plays ${event.play}`;
    case 'captured':
      return `${event.seat} hits on ${event.point}`;
    case 'doubled':
      return `${event.seat} doubles to ${event.value}`;
    case 'taken':
      return `${event.seat} takes at ${event.value}`;
    case 'beavered':
      return `${event.seat} beavers to ${event.value}`;
    case 'dropped':
      return `${event.seat} drops`;
    case 'game_won':
      return `${event.seat} wins a ${event.kind}: ${event.points}`;
    case 'match_score':
      return `score ${event.score.join('-')} to ${event.match_to}`;
    case 'game_over':
      return `places ${event.places.join(',')}, score ${event.score.join('-')}`;
    default:
      return assertNever(event);
  }
}

/** Every game's action and event describer, keyed by game: a `Record<Game, …>` misses none. */
export const DESCRIBE = {
  luddo: { action: luddoAction, event: luddoEvent },
  ludo: { action: ludoAction, event: ludoEvent },
  uckers: { action: uckersAction, event: uckersEvent },
  snakes: { action: snakesAction, event: snakesEvent },
  backgammon: { action: backgammonAction, event: backgammonEvent },
} satisfies { [G in Game]: { action: (a: GameAction<G>) => string; event: (e: GameEvent<G>) => string } };

// ---- Which per-game types are distinct ----

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type IsTrue<T extends true> = T;
type Kind = 'action' | 'event' | 'state' | 'options';
type Differ<A extends Game, B extends Game, K extends Kind> = Equals<GameTypes[A][K], GameTypes[B][K]> extends false ? true : false;
/** Every pair of games has distinct `K`s (`skip`: a pair allowed to share them). */
type AllDistinct<K extends Kind, Skip extends [Game, Game] | never = never> = {
  [A in Game]: { [B in Exclude<Game, A>]: [A, B] extends Skip ? true : [B, A] extends Skip ? true : Differ<A, B, K> }[Exclude<Game, A>];
}[Game];

/** The rows are the spec's named types. */
export type RowsAreTheSpecs = [
  IsTrue<Equals<GameAction<'luddo'>, LuddoAction>>,
  IsTrue<Equals<GameEvent<'luddo'>, LuddoEvent>>,
  IsTrue<Equals<GameState<'luddo'>, LuddoState>>,
  IsTrue<Equals<GameOptions<'luddo'>, LuddoOptions>>,
  IsTrue<Equals<GameTypes['luddo']['entry'], LuddoEntryMessage>>,
];
export type OptionsDistinct = IsTrue<Equals<AllDistinct<'options'>, true>>;
export type ActionsDistinct = IsTrue<Equals<AllDistinct<'action', ['luddo', 'ludo']>, true>>;
export type EventsDistinct = IsTrue<Equals<AllDistinct<'event', ['luddo', 'ludo']>, true>>;
export type StatesDistinct = IsTrue<Equals<AllDistinct<'state', ['luddo', 'ludo']>, true>>;
