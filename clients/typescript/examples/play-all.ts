/**
 * Plays one game of each kind against the server's bots, through the SDK only.
 *
 *   npx tsx examples/play-all.ts [BASE_URL]      # default http://127.0.0.1:8080 (or $LUDDO_URL)
 *
 * Signs up, then for each game creates a table (the player in seat 0) and follows its WebSocket
 * from the creation: the lobby's entries (`seat_taken`, then `bot_seated` for each seat the start
 * fills) come before the `start`. It plays its own seat by posting one of the legal actions the
 * entries carry (the first, or a random one), until the `finish` entry, and renders the end from
 * the last entry's `state` (the game state after it): it keeps no rules of its own. An entry
 * lists only what the seat can still post, so none of its actions may be refused (a 409
 * `stale_seq` fails the game). Once per game it drops its socket and resumes it. Prints one line
 * per game and exits 1 on any failure.
 * Rate limits are respected (429: waits `Retry-After`); the player acts at once, well within
 * the clock.
 *
 * The tables are public, so they take fresh dice (docs/fairness.md): the client is made with
 * `freshDice`, which commits a new dice chain with the seat and sends the next reveal with each
 * action. Once a game is over its record (`GET /v1/tables/{id}/record`) must pass `verify`, as
 * `luddo verify` checks it, with the player's rolls drawn from its reveals.
 */
import {
  act,
  actionRequest,
  isLobbyEntry,
  createPlayer,
  createTable,
  followTable,
  DiceChains,
  getTableRecord,
  verify,
  type TableRecord,
  GAMES,
  getTable,
  legalFor,
  luddoClient,
  startTable,
  type Client,
  type Entry,
  type Game,
  type GameAction,
  type GameState,
  type Problem,
} from '../src/index.js';

const baseUrl = (process.argv[2] ?? process.env.LUDDO_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
/** Seats per game: the most each allows on the square board. */
const SEATS: Record<Game, number> = { luddo: 4, ludo: 4, uckers: 4, snakes: 4, backgammon: 2 };
/** A game that has not finished by then has failed (bots play at once; so does this player). */
const GAME_TIMEOUT_MS = 150_000;
const MY_SEAT = 0;
/** After this many entries the example drops its socket once, while bots play on: the helper
 * must resume with `since` with neither a gap nor a duplicate (checked below). */
const DROP_AFTER = 20;

interface Answer<T> {
  data?: T;
  error?: unknown;
  response?: Response;
}

/** Calls a generated operation, waiting out 429s; the data, or an Error with the problem. */
async function call<T>(what: string, request: () => Promise<Answer<T>>): Promise<T> {
  for (let tries = 1; ; tries++) {
    const { data, error, response } = await request();
    if (response?.ok && data !== undefined) return data;
    const status = response?.status;
    if (status === 429 && tries < 10) {
      const seconds = Number(response?.headers.get('retry-after') ?? '1');
      await sleep(Math.max(1, seconds) * 1000);
      continue;
    }
    throw new ProblemError(what, status, error as Partial<Problem> | undefined);
  }
}

class ProblemError extends Error {
  constructor(
    what: string,
    readonly status: number | undefined,
    readonly problem: Partial<Problem> | undefined,
  ) {
    super(`${what}: ${status ?? 'no response'} ${problem?.code ?? ''} ${problem?.detail ?? ''}`.trim());
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The action to play: the first listed, or with PLAY_RANDOM=1 a random one. Either way a choice
 * among what the server lists, never one the example works out (a random one may resign: an
 * Uckers `up_board`, a backgammon `drop`, and so end the game early).
 */
function choose<T>(choices: T[]): T {
  const index = process.env.PLAY_RANDOM === '1' ? Math.floor(Math.random() * choices.length) : 0;
  return choices[index] as T;
}

interface Summary {
  entries: number;
  /** Entries before the start: seats taken, bots seated. */
  lobby: number;
  mine: number;
  reconnects: number;
  result: string;
  /** The final state, as the last entry carries it. */
  final: string;
  /** What `verify` said of the record. */
  verified: string;
}

/**
 * One line about a finished game, read from the state the last entry carries: what the state
 * says (pieces home, squares, the score and the position's IDs), nothing worked out from rules.
 */
function describeFinal(entry: Entry): string {
  switch (entry.game) {
    case 'luddo':
    case 'ludo': {
      const state: GameState<'luddo' | 'ludo'> | undefined = entry.state;
      if (!state) return 'no state';
      const home = state.seats.map((seat) => seat.pieces.filter((progress) => progress === state.home).length);
      return `${state.board} board, phase ${state.phase}, pieces home per seat [${home.join(',')}]`;
    }
    case 'uckers': {
      const state = entry.state;
      if (!state) return 'no state';
      const winner = state.winner ? ` winner ${JSON.stringify(state.winner)}` : '';
      return `phase ${state.phase.phase},${winner}${state.resigned != null ? `, seat ${state.resigned} up-boarded` : ''}`;
    }
    case 'snakes': {
      const state = entry.state;
      if (!state) return 'no state';
      return `squares [${state.squares.map((square) => square ?? '-').join(',')}]`;
    }
    case 'backgammon': {
      const state = entry.state;
      if (!state) return 'no state';
      return `score ${state.score.join('-')} after ${state.game} game(s), XGID ${state.xgid}`;
    }
  }
}

/** Plays one table of `game` to its end. */
async function play<G extends Game>(client: Client, token: string, game: G, freshDice: DiceChains): Promise<Summary> {
  const table = await call(`${game}: create`, () =>
    createTable({ client, body: { game, seat_count: SEATS[game], seat: MY_SEAT } }),
  );

  // The socket opens before the start: the lobby's entries come first, then `start`.
  const summary: Summary = { entries: 0, lobby: 0, mine: 0, reconnects: 0, result: '', final: '', verified: '' };
  const chain = await freshDice.chain(table.id);
  if (table.fresh_dice !== true || !chain || table.seats[MY_SEAT]?.dice_chain !== chain.head) {
    throw new Error(`${game}: a public table without fresh dice, or without the player's chain committed`);
  }
  const socket = followTable({
    baseUrl,
    tableId: table.id,
    game,
    token,
    onReconnect: () => void (summary.reconnects += 1),
    freshDice,
  });
  const timer = setTimeout(() => socket.close(), GAME_TIMEOUT_MS);
  let finish: Entry<G> | undefined;
  let started = false;
  try {
    for await (const message of socket) {
      if (message.type === 'error') throw new Error(`${game}: the server says ${message.code}: ${message.detail}`);
      if (message.type !== 'entry') continue;
      const entry = message as Entry<G>;
      summary.entries += 1;
      if (isLobbyEntry(entry)) {
        if (entry.state !== undefined) throw new Error(`${game}: a lobby entry (${entry.action.type}) carries a state`);
        summary.lobby += 1;
        // The host's own seat is the first entry; then the start, which the player asks for
        // once its socket is open, so that nothing of the table is missed.
        if (entry.seq === 1) {
          await call(`${game}: start`, () => startTable({ client, path: { id: table.id }, body: { fill_with_bots: true } }));
        }
        continue;
      }
      if (!started) {
        if (entry.actor !== 'server' || entry.action.type !== 'start') throw new Error(`${game}: entry ${entry.seq} (${entry.action.type}) before the start`);
        started = true;
      }
      if (entry.state === undefined) throw new Error(`${game}: entry ${entry.seq} (${entry.action.type}) has no state`);
      if (summary.entries >= DROP_AFTER && summary.reconnects === 0 && entry.to_act !== MY_SEAT) socket.drop();
      if (entry.actor === 'server' && entry.action.type === 'finish') {
        finish = entry;
        continue;
      }
      // Only when the game waits for this seat: some actions are listed out of turn too (an
      // Uckers seat may resign at any time), and those are not this player's to take. An entry
      // after which the server plays this seat's only move lists nothing: the next one is it.
      const legal = legalFor(entry, MY_SEAT);
      if (entry.to_act !== MY_SEAT || legal.length === 0) continue;
      await playOne(client, table.id, game, entry.seq, choose(legal), summary);
    }
  } finally {
    clearTimeout(timer);
  }
  if (!finish) throw new Error(`${game}: no finish entry within ${GAME_TIMEOUT_MS / 1000} s (seq ${socket.lastSeq})`);
  if (summary.reconnects === 0 && socket.lastSeq > DROP_AFTER) throw new Error(`${game}: the dropped socket was not reconnected`);
  if (summary.lobby !== SEATS[game]) throw new Error(`${game}: ${summary.lobby} lobby entries for ${SEATS[game]} seats`);
  if (!socket.started || socket.state !== finish.state) throw new Error(`${game}: the helper's state is not the last entry's`);
  if (summary.entries !== socket.lastSeq) {
    throw new Error(`${game}: ${summary.entries} entries received for ${socket.lastSeq} in the log`);
  }

  // The table view agrees with the log: finished, with the outcome the `finish` entry gave.
  const after = await call(`${game}: get`, () => getTable({ client, path: { id: table.id } }));
  const outcome = (finish.action as unknown as { outcome?: { places?: number[] } }).outcome;
  if (after.status !== 'finished') throw new Error(`${game}: the table is ${after.status} after finish`);
  if (JSON.stringify(after.play?.outcome?.places) !== JSON.stringify(outcome?.places)) {
    throw new Error(`${game}: the table's places ${JSON.stringify(after.play?.outcome?.places)} differ from the log's`);
  }
  const places = outcome?.places ?? [];
  summary.result = `places ${JSON.stringify(places)}, mine ${places[MY_SEAT] ?? '?'}`;
  summary.final = describeFinal(finish as Entry);
  // The last entry's state is the table's: what `GET` shows as `play.state`.
  if (JSON.stringify(after.play?.state) !== JSON.stringify(finish.state)) {
    throw new Error(`${game}: the table's state differs from the last entry's`);
  }

  // The record passes the check, and the player's own rolls took its reveals.
  const record = await call(`${game}: record`, () => getTableRecord({ client, path: { id: table.id }, query: { format: 'json' }, parseAs: 'json' }));
  const result = await verify(record as unknown as TableRecord);
  if (!result.verified) throw new Error(`${game}: the record is NOT verified: ${result.reason}`);
  const reveals = (record as unknown as TableRecord).entries.filter((e) => e.seat === MY_SEAT && e.reveal !== undefined).length;
  if (result.reveals !== reveals || (game !== 'backgammon' && reveals === 0)) {
    throw new Error(`${game}: ${result.reveals} reveals checked, ${reveals} of the player's logged`);
  }
  summary.verified = `verified: ${result.dice} dice, ${result.freshDice} of them from ${result.reveals} reveals`;
  return summary;
}

/** Posts one listed action as of `seq`: the table waits for exactly that, so any refusal fails. */
async function playOne<G extends Game>(
  client: Client,
  id: string,
  game: G,
  seq: number,
  action: GameAction<G>,
  summary: Summary,
): Promise<void> {
  await call(`${game}: act ${JSON.stringify(action)} at seq ${seq}`, () => act({ client, path: { id }, body: actionRequest<G>(action, seq) }));
  summary.mine += 1;
}

async function main(): Promise<void> {
  const anonymous = luddoClient(baseUrl);
  const player = await call('sign up', () => createPlayer({ client: anonymous, body: { name: 'SDK example' } }));
  const freshDice = new DiceChains();
  const client = luddoClient(baseUrl, player.token, { freshDice });
  let failed = 0;
  for (const game of GAMES) {
    const started = Date.now();
    try {
      const s = await play(client, player.token, game, freshDice);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `${game}: ${s.entries} entries (${s.lobby} before the start), ${s.mine} actions of mine, ${s.reconnects} reconnects, ${seconds} s; ${s.result}; ${s.final}; ${s.verified}`,
      );
    } catch (error) {
      failed += 1;
      console.error(`${game}: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failed > 0) {
    console.error(`play-all: ${failed} of ${GAMES.length} games failed`);
    process.exit(1);
  }
  console.log(`play-all: ${GAMES.length} games played to the end`);
}

main().catch((error: unknown) => {
  console.error(`play-all: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
