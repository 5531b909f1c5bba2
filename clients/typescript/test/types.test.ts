/**
 * Type-level test: compiled by `tsc --strict --noEmit` (npm run check), never run. Each function
 * switches exhaustively on a union of the generated client, with a `never` check in the default
 * branch, so the SDK stops compiling when the spec adds a member nobody handles, or loses the
 * types that make the switch possible.
 *
 * What exists today in the spec: the games, the socket's message kinds (server and client), an
 * entry's actors, the table statuses. Game actions and events are still the open
 * `{type: string}` there (a switch on `string` cannot be exhaustive), so the per-game switches
 * wait for the per-game schemas (issue 14, item 1). After that merge:
 *   1. in src/games.ts, give each game of `GameTypes` its generated types (`LuddoAction`,
 *      `LuddoEvent`, `LuddoState`, `LuddoOptions`, `LudoAction`, …, `BackgammonState`);
 *   2. here, add for every game `G` a `G_action(a: GameAction<'G'>)` and `G_event(e: GameEvent<'G'>)`
 *      switching on `a.type` / `e.type` over every member with `assertNever` in the default
 *      branch (the first two are below, commented out, for Luddo), and `distinct` checks that
 *      no two games share an action or event type.
 */
import type {
  ClientMessage,
  Entry,
  EntryMessage,
  Game,
  GameAction,
  ServerMessage,
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
      return `entry ${message.seq} of ${message.game}`;
    case 'presence':
      return `seat ${message.seat} connected: ${message.presence.connected}`;
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

/** Every message a client may send. */
export function clientMessage(message: ClientMessage): string {
  switch (message.type) {
    case 'action':
      return `action at ${message.seq}`;
    case 'reclaim':
      return 'reclaim';
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
  return entry.legal[seat]?.[0];
}

// After the per-game schemas (see the top of this file), for every game, e.g. Luddo:
//
// export function luddoAction(action: GameAction<'luddo'>): string {
//   switch (action.type) {
//     case 'roll':
//       return 'roll';
//     case 'move':
//       return `move ${action.piece}`;
//     default:
//       return assertNever(action);
//   }
// }
//
// export function luddoEvent(event: GameEvent<'luddo'>): string {
//   switch (event.type) {
//     // one case per event of the shared vocabulary and of Luddo's own (docs' event table)
//     default:
//       return assertNever(event);
//   }
// }
