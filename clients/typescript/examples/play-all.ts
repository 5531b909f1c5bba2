/**
 * Plays one game of each kind against the server's bots, through the SDK only.
 *
 *   npx tsx examples/play-all.ts [BASE_URL]      # default http://127.0.0.1:8080 (or $LUDDO_URL)
 *
 * Signs up, then for each game creates a table (the player in seat 0), starts it with bots in
 * the other seats, follows it over the WebSocket helper and plays its own seat by posting one
 * of the legal actions the entries carry (the first, or a random one: it keeps no rules of its own),
 * until the `finish` entry; once per game it drops its socket and resumes it. Prints one line per game and exits 1 on any failure. Rate limits
 * are respected (429: waits `Retry-After`); the player acts at once, well within the clock.
 */
import {
  act,
  createPlayer,
  createTable,
  followTable,
  GAMES,
  getTable,
  legalFor,
  luddoClient,
  startTable,
  type Client,
  type Entry,
  type Game,
  type GameAction,
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
  mine: number;
  stale: number;
  reconnects: number;
  result: string;
}

/** Plays one table of `game` to its end. */
async function play<G extends Game>(client: Client, token: string, game: G): Promise<Summary> {
  const table = await call(`${game}: create`, () =>
    createTable({ client, body: { game, seats: SEATS[game], seat: MY_SEAT } }),
  );
  await call(`${game}: start`, () => startTable({ client, path: { id: table.id }, body: { fill_with_bots: true } }));

  const summary: Summary = { entries: 0, mine: 0, stale: 0, reconnects: 0, result: '' };
  const socket = followTable({
    baseUrl,
    tableId: table.id,
    game,
    token,
    onReconnect: () => void (summary.reconnects += 1),
  });
  const timer = setTimeout(() => socket.close(), GAME_TIMEOUT_MS);
  let finish: Entry<G> | undefined;
  try {
    for await (const message of socket) {
      if (message.type === 'error') throw new Error(`${game}: the server says ${message.code}: ${message.detail}`);
      if (message.type !== 'entry') continue;
      const entry = message as Entry<G>;
      summary.entries += 1;
      if (summary.entries >= DROP_AFTER && summary.reconnects === 0 && entry.to_act !== MY_SEAT) socket.drop();
      if (entry.actor === 'server' && entry.action.type === 'finish') {
        finish = entry;
        continue;
      }
      // Only when the game waits for this seat: some actions are listed out of turn too (an
      // Uckers seat may resign at any time), and those are not this player's to take.
      const legal = legalFor(entry, MY_SEAT);
      if (entry.to_act !== MY_SEAT || legal.length === 0) continue;
      await playOne(client, table.id, game, entry.seq, choose(legal), summary);
    }
  } finally {
    clearTimeout(timer);
  }
  if (!finish) throw new Error(`${game}: no finish entry within ${GAME_TIMEOUT_MS / 1000} s (seq ${socket.lastSeq})`);
  if (summary.reconnects === 0 && socket.lastSeq > DROP_AFTER) throw new Error(`${game}: the dropped socket was not reconnected`);
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
  return summary;
}

/** Posts one legal action as of `seq`; a table that has moved on (409) only means a newer entry is coming. */
async function playOne<G extends Game>(
  client: Client,
  id: string,
  game: G,
  seq: number,
  action: GameAction<G>,
  summary: Summary,
): Promise<void> {
  try {
    await call(`${game}: act ${JSON.stringify(action)}`, () => act({ client, path: { id }, body: { action, seq } }));
    summary.mine += 1;
  } catch (error) {
    if (error instanceof ProblemError && error.status === 409 && error.problem?.code === 'stale_seq') {
      summary.stale += 1;
      return;
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const anonymous = luddoClient(baseUrl);
  const player = await call('sign up', () => createPlayer({ client: anonymous, body: { name: 'SDK example' } }));
  const client = luddoClient(baseUrl, player.token);
  let failed = 0;
  for (const game of GAMES) {
    const started = Date.now();
    try {
      const s = await play(client, player.token, game);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `${game}: ${s.entries} entries, ${s.mine} actions of mine (${s.stale} stale), ${s.reconnects} reconnects, ${seconds} s; ${s.result}`,
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
