/**
 * `followLobby` against a scripted fake socket (no server): the snapshot and the changes kept by
 * the higher `seq`, reconnection (a new snapshot: the stream has no `since`), refusals and the
 * bound on remembered removals. `npm test` (node's test runner through tsx).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { followLobby, LobbySocketError, REMEMBERED_REMOVALS, type LobbyMessage, type LobbySocket } from '../src/lobby.js';
import { FakeSocket, fresh } from './fake-socket.js';

const fast = { initialMs: 1, maxMs: 4, factor: 2 };

/** A public table as the lobby shows it (only `id` matters to the helper). */
function table(id: string): object {
  return { id, game: 'snakes', options: {}, seats: [], visibility: 'public', party: false, status: 'open', host_id: 'h' };
}
const snapshot = (...tables: Array<[string, number]>) => ({
  type: 'snapshot',
  tables: tables.map(([id, seq]) => ({ seq, table: table(id) })),
  truncated: false,
});
const changed = (id: string, seq: number, change = 'seats') => ({ type: 'table', change, seq, table: table(id) });
const removed = (id: string, seq: number, reason = 'finished') => ({ type: 'removed', table_id: id, seq, reason });

/** Reads `count` messages, then closes the socket; each as `type id seq`. */
async function take(socket: LobbySocket, count: number): Promise<string[]> {
  const seen: string[] = [];
  for await (const message of socket) {
    seen.push(describe(message));
    if (seen.length === count) break; // leaving the loop closes the socket
  }
  return seen;
}

function describe(message: LobbyMessage): string {
  switch (message.type) {
    case 'snapshot':
      return `snapshot ${message.tables.map((item) => `${item.table.id}@${item.seq}`).join(',')}`;
    case 'table':
      return `table ${message.table.id}@${message.seq} ${message.change}`;
    case 'removed':
      return `removed ${message.table_id}@${message.seq} ${message.reason}`;
    default:
      return message.type;
  }
}

const held = (socket: LobbySocket) => [...socket.tables.values()].map((item) => `${item.table.id}@${item.seq}`).sort();

test('the lobby keeps each table by its higher seq and ignores a removed table: only what changes the view is yielded', async () => {
  fresh([
    (s) => {
      s.open();
      s.json(snapshot(['a', 2], ['b', 1]));
      s.json(changed('a', 3)); // a seat taken
      s.json(changed('a', 2)); // late: older than what is held
      s.json(removed('b', 4));
      s.json(changed('b', 3)); // late: b was removed at 4
      s.json(changed('c', 1, 'opened'));
    },
  ]);
  const socket = followLobby({ baseUrl: 'http://x', backoff: fast, WebSocket: FakeSocket });
  assert.deepEqual(await take(socket, 4), ['snapshot a@2,b@1', 'table a@3 seats', 'removed b@4 finished', 'table c@1 opened']);
  assert.deepEqual(held(socket), ['a@3', 'c@1']);
});

test('a table made private and then public again comes back with its higher seq', async () => {
  fresh([
    (s) => {
      s.open();
      s.json(snapshot(['a', 2]));
      s.json(removed('a', 3, 'private'));
      s.json(changed('a', 4, 'opened'));
    },
  ]);
  const socket = followLobby({ baseUrl: 'http://x', backoff: fast, WebSocket: FakeSocket });
  assert.deepEqual(await take(socket, 3), ['snapshot a@2', 'removed a@3 private', 'table a@4 opened']);
  assert.deepEqual(held(socket), ['a@4']);
});

test('a dropped lobby socket reconnects after the back-off, and the new snapshot replaces everything held', async () => {
  fresh([
    (s) => {
      s.open();
      s.json(snapshot(['a', 2], ['b', 5]));
      s.json(removed('b', 6));
      s.drop(1012); // the server restarting
    },
    (s) => {
      s.open();
      s.json(snapshot(['c', 1])); // a finished meanwhile, c opened: no message tells of either
      s.json(changed('b', 7, 'opened')); // b was removed at 6 before the drop: a new snapshot forgets that
    },
  ]);
  const reasons: string[] = [];
  const socket = followLobby({
    baseUrl: 'https://luddo.example/api/',
    token: 'tk',
    limit: 50,
    backoff: fast,
    WebSocket: FakeSocket,
    onReconnect: (info) => reasons.push(`${info.attempt} ${info.reason}`),
  });
  assert.deepEqual(await take(socket, 4), ['snapshot a@2,b@5', 'removed b@6 finished', 'snapshot c@1', 'table b@7 opened']);
  assert.deepEqual(held(socket), ['b@7', 'c@1']);
  assert.deepEqual(reasons, ['1 close 1012']);
  assert.equal(socket.snapshots, 2);
  assert.deepEqual(
    FakeSocket.urls.map((url) => `${url.protocol}//${url.host}${url.pathname}?limit=${url.searchParams.get('limit')}&token=${url.searchParams.get('token')}`),
    ['wss://luddo.example/api/v1/lobby/events?limit=50&token=tk', 'wss://luddo.example/api/v1/lobby/events?limit=50&token=tk'],
  );
});

test('a lobby socket closed for a revoked or expired token (4401) ends the iteration at once, without reconnecting', async () => {
  fresh([
    (s) => {
      s.open();
      s.json(snapshot());
      s.drop(4401);
    },
  ]);
  const seen: string[] = [];
  await assert.rejects(async () => {
    for await (const message of followLobby({ baseUrl: 'http://x', token: 'tk', backoff: fast, WebSocket: FakeSocket })) seen.push(describe(message));
  }, (error: unknown) => error instanceof LobbySocketError && error.closeCode === 4401);
  assert.deepEqual(seen, ['snapshot ']);
  assert.equal(FakeSocket.urls.length, 1);
});

test('a lobby upgrade refused for good (401) ends at once; failures in a row give up after maxAttempts', async () => {
  fresh([(s) => s.refuse(401)]);
  await assert.rejects(async () => {
    for await (const _ of followLobby({ baseUrl: 'http://x', token: 'bad', backoff: fast, WebSocket: FakeSocket }));
  }, (error: unknown) => error instanceof LobbySocketError && error.status === 401);
  assert.equal(FakeSocket.urls.length, 1);

  fresh([(s) => s.refuse(429), (s) => s.refuse(503), (s) => s.refuse(503)]);
  const retries: number[] = [];
  await assert.rejects(async () => {
    const socket = followLobby({ baseUrl: 'http://x', backoff: fast, maxAttempts: 2, WebSocket: FakeSocket, onReconnect: (info) => retries.push(info.attempt) });
    for await (const _ of socket);
  }, /gave up after 2 failed attempts/);
  assert.deepEqual(retries, [1, 2]);
  assert.equal(FakeSocket.urls.length, 3);
});

test('the lobby remembers only the latest REMEMBERED_REMOVALS removals: the oldest is forgotten first', async () => {
  const count = REMEMBERED_REMOVALS + 1;
  fresh([
    (s) => {
      s.open();
      s.json(snapshot());
      for (let n = 0; n < count; n++) s.json(removed(`t${n}`, 2));
      s.json(changed(`t${count - 1}`, 1)); // late, and its removal is remembered: ignored
      s.json(changed('t0', 1)); // late, but t0's removal, the oldest, was forgotten
    },
  ]);
  const socket = followLobby({ baseUrl: 'http://x', backoff: fast, highWaterMark: 2 * count, WebSocket: FakeSocket });
  const seen = await take(socket, count + 2);
  assert.equal(seen.at(-1), 'table t0@1 seats');
  assert.deepEqual(held(socket), ['t0@1']);
});
