/**
 * The package as a project that installed it uses it (scripts/sdk.sh copies this folder into an
 * empty project, installs the `npm pack` tarball there, type-checks it with `tsc --strict`,
 * compiles it and runs it against a live server): imports only from '@luddo/client'.
 *
 *   node example.js BASE_URL
 *
 * Signs up, follows the lobby, creates a public two-seat Snakes table, follows it from its
 * creation, starts it with a bot and plays its own seat over the table's socket
 * (`socket.act`) until the finish; checks that the lobby told of the table opening, starting
 * and being removed as finished. One line on success; exit 1 on any failure.
 */
import {
  createPlayer,
  createTable,
  followLobby,
  followTable,
  isFinish,
  isLobbyEntry,
  legalFor,
  luddoClient,
  startTable,
  type Entry,
  type GameState,
  type LobbyMessage,
  type LobbySocket,
  type TableSocket,
} from '@luddo/client';

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error('usage: node example.js BASE_URL');
const MY_SEAT = 0;
setTimeout(() => fail('no finish within 60 s'), 60_000).unref();

function fail(why: string): never {
  console.error(`package example: ${why}`);
  process.exit(1);
}

/** Everything the lobby yields, and a way to wait for a message. */
function watch(lobby: LobbySocket): { seen: LobbyMessage[]; until: (test: (message: LobbyMessage) => boolean) => Promise<void> } {
  const seen: LobbyMessage[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    for await (const message of lobby) {
      seen.push(message);
      for (const wake of waiters) wake();
    }
  })().catch((error: unknown) => fail(`the lobby failed: ${String(error)}`));
  const until = (test: (message: LobbyMessage) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!seen.some(test)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return { seen, until };
}

const { data: me } = await createPlayer({ client: luddoClient(baseUrl), body: { name: 'Package check' }, throwOnError: true });
const client = luddoClient(baseUrl, me.token);
const lobby = followLobby({ baseUrl, token: me.token });
const news = watch(lobby);
await news.until((message) => message.type === 'snapshot');

const { data: table } = await createTable({
  client,
  body: { game: 'snakes', seat_count: 2, seat: MY_SEAT, visibility: 'public' },
  throwOnError: true,
});
const socket: TableSocket<'snakes'> = followTable({ baseUrl, tableId: table.id, game: 'snakes', token: me.token });
let entries = 0;
let mine = 0;
let finish: Entry<'snakes'> | undefined;
for await (const message of socket) {
  if (message.type !== 'entry') continue;
  entries += 1;
  if (isLobbyEntry(message)) {
    if (message.seq === 1) await startTable({ client, path: { id: table.id }, body: { fill_with_bots: true }, throwOnError: true });
    continue;
  }
  if (isFinish(message)) finish = message;
  const legal = legalFor(message, MY_SEAT);
  if (message.to_act !== MY_SEAT || !legal[0]) continue;
  const reply = await socket.act(legal[0], message.seq);
  if (!reply.ok) fail(`the server refused ${JSON.stringify(legal[0])} at ${message.seq}: ${reply.error?.code ?? ''}`);
  mine += 1;
}
if (!finish) fail('the table socket ended without a finish entry');
const state: GameState<'snakes'> | undefined = finish.state;
if (!state || entries !== socket.lastSeq) fail(`${entries} entries for ${socket.lastSeq} in the log`);

await news.until((message) => message.type === 'removed' && message.table_id === table.id);
lobby.close();
/** What the lobby told of this table, in order: `opened`, `seats`, `started`, `removed finished`. */
const told = news.seen.flatMap((message) => {
  if (message.type === 'table' && message.table.id === table.id) return [message.change];
  if (message.type === 'removed' && message.table_id === table.id) return [`removed ${message.reason}`];
  return [];
});
for (const expected of ['opened', 'started', 'removed finished']) {
  if (!told.includes(expected)) fail(`the lobby did not tell "${expected}" of the table (it told: ${told.join(', ')})`);
}
if (lobby.tables.has(table.id)) fail('the lobby still holds the finished table');

const implementation = typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function' ? 'the global WebSocket' : 'the ws package';
console.log(
  `package example: snakes played to the end over ${implementation}: ${entries} entries, ${mine} actions of mine by socket.act, ` +
    `squares [${state.squares.map((square) => square ?? '-').join(',')}]; the lobby told ${told.join(', ')}`,
);
