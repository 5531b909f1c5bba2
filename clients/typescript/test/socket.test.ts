/**
 * `followTable` against a scripted fake socket (no server): resume with `since`, back-off, gaps,
 * refusals, the bounded queue. `npm test` (node's test runner through tsx).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isGameAction, isLobbyEntry, isTableEntry } from '../src/games.js';
import { backoffDelay } from '../src/reconnect.js';
import { followTable, TableSocketError } from '../src/socket.js';
import { FakeSocket, fresh } from './fake-socket.js';

const fast = { initialMs: 1, maxMs: 4, factor: 2 };

test('a dropped socket resumes with since = the last seq, with no gap and no duplicate', async () => {
  fresh([
    (s) => {
      s.open();
      s.entry(1);
      s.entry(2);
      s.drop(4008); // fell behind
    },
    (s, url) => {
      s.open();
      const since = Number(url.searchParams.get('since'));
      for (let seq = since + 1; seq <= 4; seq++) s.entry(seq);
      s.finish(5);
    },
  ]);
  const reconnects: Array<[number, number, string]> = [];
  const socket = followTable({
    baseUrl: 'http://127.0.0.1:1',
    tableId: 't',
    game: 'luddo',
    token: 'tk',
    backoff: fast,
    WebSocket: FakeSocket,
    onReconnect: (info) => reconnects.push([info.attempt, info.since, info.reason]),
  });
  const seqs: number[] = [];
  for await (const message of socket) if (message.type === 'entry') seqs.push(message.seq);
  assert.deepEqual(seqs, [1, 2, 3, 4, 5]);
  assert.deepEqual(reconnects, [[1, 2, 'close 4008']]);
  assert.equal(socket.connections, 2);
  assert.deepEqual(
    FakeSocket.urls.map((url) => [url.protocol, url.pathname, url.searchParams.get('since'), url.searchParams.get('token')]),
    [
      ['ws:', '/v1/tables/t/events', '0', 'tk'],
      ['ws:', '/v1/tables/t/events', '2', 'tk'],
    ],
  );
  socket.close();
});

test('the finish entry ends the iteration and every entry carries the table game', async () => {
  fresh([
    (s) => {
      s.open();
      s.entry(1);
      s.finish(2);
      s.entry(3); // never delivered: nothing comes after finish
    },
  ]);
  const games: string[] = [];
  for await (const message of followTable({ baseUrl: 'http://x', tableId: 't', game: 'snakes', backoff: fast, WebSocket: FakeSocket })) {
    if (message.type === 'entry') games.push(`${message.seq}:${message.game}`);
  }
  assert.deepEqual(games, ['1:snakes', '2:snakes']);
});

test('lobby entries come before the start without a state; then every entry carries the state after it', async () => {
  fresh([
    (s) => {
      s.open();
      s.lobby(1, { type: 'seat_taken', seat: 0, player_id: 'p', name: 'Ann' });
      s.lobby(2, { type: 'settings_changed', options: {}, visibility: 'public', party: false });
      s.lobby(3, { type: 'bot_seated', seat: 1 });
      s.start(4);
      s.entry(5);
      s.finish(6);
    },
  ]);
  const socket = followTable({ baseUrl: 'http://x', tableId: 't', game: 'snakes', backoff: fast, WebSocket: FakeSocket });
  const seen: string[] = [];
  for await (const message of socket) {
    if (message.type !== 'entry') continue;
    const kind = isLobbyEntry(message) ? 'lobby' : isTableEntry(message) ? 'table' : isGameAction(message) ? 'game' : '?';
    seen.push(`${message.seq}:${message.action.type}:${kind}:${message.state ? message.state.squares.join('/') : 'no state'}`);
  }
  assert.deepEqual(seen, [
    '1:seat_taken:lobby:no state',
    '2:settings_changed:lobby:no state',
    '3:bot_seated:lobby:no state',
    '4:start:table:/',
    '5:roll:game:5/',
    '6:finish:table:100/7',
  ]);
  assert.equal(socket.started, true);
  assert.deepEqual(socket.state?.places, [1, 2]); // the last entry's
  assert.equal(socket.lastEntry?.seq, 6);
});

test('a closed entry before any start ends the iteration: nothing follows it', async () => {
  fresh([
    (s) => {
      s.open();
      s.lobby(1, { type: 'seat_taken', seat: 0, player_id: 'p', name: 'Ann' });
      s.lobby(2, { type: 'seat_left', seat: 0, player_id: 'p' });
      s.lobby(3, { type: 'closed' });
    },
  ]);
  const socket = followTable({ baseUrl: 'http://x', tableId: 't', game: 'ludo', backoff: fast, WebSocket: FakeSocket });
  const types: string[] = [];
  for await (const message of socket) if (message.type === 'entry') types.push(message.action.type);
  assert.deepEqual(types, ['seat_taken', 'seat_left', 'closed']);
  assert.equal(socket.started, false);
  assert.equal(socket.state, undefined);
});

test('a gap in the seqs fails the iteration', async () => {
  fresh([
    (s) => {
      s.open();
      s.entry(1);
      s.entry(3);
    },
  ]);
  const seen: number[] = [];
  await assert.rejects(async () => {
    for await (const message of followTable({ baseUrl: 'http://x', tableId: 't', game: 'ludo', backoff: fast, WebSocket: FakeSocket })) {
      if (message.type === 'entry') seen.push(message.seq);
    }
  }, /gap in the log: seq 3 after 1/);
  assert.deepEqual(seen, [1]);
});

test('an upgrade refused for good (404) ends at once; failures in a row give up after maxAttempts', async () => {
  fresh([(s) => s.refuse(404)]);
  await assert.rejects(async () => {
    for await (const _ of followTable({ baseUrl: 'http://x', tableId: 't', game: 'uckers', backoff: fast, WebSocket: FakeSocket }));
  }, (error: unknown) => error instanceof TableSocketError && error.status === 404);
  assert.equal(FakeSocket.urls.length, 1);

  fresh([(s) => s.refuse(503), (s) => s.refuse(503), (s) => s.refuse(503), (s) => s.refuse(503)]);
  const retries: number[] = [];
  await assert.rejects(async () => {
    const socket = followTable({
      baseUrl: 'http://x',
      tableId: 't',
      game: 'backgammon',
      backoff: fast,
      maxAttempts: 3,
      WebSocket: FakeSocket,
      onReconnect: (info) => retries.push(info.attempt),
    });
    for await (const _ of socket);
  }, /gave up after 3 failed attempts/);
  assert.deepEqual(retries, [1, 2, 3]);
  assert.equal(FakeSocket.urls.length, 4);
});

test('an upgrade refused with 409 (a table closed unplayed) ends at once, without retrying', async () => {
  fresh([(s) => s.refuse(409)]);
  await assert.rejects(async () => {
    for await (const _ of followTable({ baseUrl: 'http://x', tableId: 't', game: 'ludo', since: 3, backoff: fast, WebSocket: FakeSocket }));
  }, (error: unknown) => error instanceof TableSocketError && error.status === 409);
  assert.equal(FakeSocket.urls.length, 1);
});

test('a reader past highWaterMark pauses the socket, which resumes with since only once the reader has caught up', async () => {
  fresh([
    (s) => {
      s.open();
      for (let seq = 1; seq <= 5; seq++) s.entry(seq); // the third fills the queue: the helper closes
    },
    (s, url) => {
      s.open();
      for (let seq = Number(url.searchParams.get('since')) + 1; seq <= 6; seq++) s.entry(seq);
      s.finish(7);
    },
  ]);
  const reconnects: number[] = [];
  const socket = followTable({
    baseUrl: 'http://x',
    tableId: 't',
    game: 'snakes',
    backoff: fast,
    highWaterMark: 3,
    WebSocket: FakeSocket,
    onReconnect: (info) => reconnects.push(info.attempt),
  });
  await new Promise((resolve) => setTimeout(resolve, 30)); // the reader is busy: nothing read yet
  assert.equal(FakeSocket.urls.length, 1, 'no new connection while the reader is behind');
  const seqs: number[] = [];
  for await (const message of socket) if (message.type === 'entry') seqs.push(message.seq);
  assert.deepEqual(seqs, [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(FakeSocket.urls.map((url) => url.searchParams.get('since')), ['0', '5']);
  assert.deepEqual(reconnects, [], 'a pause is no failure: no back-off');
});

test('a close for a revoked or expired token (4401) ends the iteration at once, without reconnecting', async () => {
  fresh([
    (s) => {
      s.open();
      s.entry(1);
      s.drop(4401);
    },
  ]);
  const seen: number[] = [];
  await assert.rejects(async () => {
    for await (const message of followTable({ baseUrl: 'http://x', tableId: 't', game: 'snakes', token: 'tk', backoff: fast, WebSocket: FakeSocket })) {
      if (message.type === 'entry') seen.push(message.seq);
    }
  }, (error: unknown) => error instanceof TableSocketError && error.closeCode === 4401);
  assert.deepEqual(seen, [1]);
  assert.equal(FakeSocket.urls.length, 1);
});

test('back-off doubles up to its ceiling, with jitter in the upper half', () => {
  const backoff = { initialMs: 100, maxMs: 1000, factor: 2 };
  assert.deepEqual([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, backoff, () => 0)), [50, 100, 200, 400, 500, 500]);
  assert.deepEqual([1, 2, 5].map((n) => backoffDelay(n, backoff, () => 1)), [100, 200, 1000]);
});

test('act sends an action with an id and resolves with its reply', async () => {
  let fake: FakeSocket | undefined;
  fresh([
    (s) => {
      fake = s;
      s.open();
      s.entry(1);
    },
  ]);
  const socket = followTable({ baseUrl: 'http://x', tableId: 't', game: 'luddo', backoff: fast, WebSocket: FakeSocket });
  const iterator = socket[Symbol.asyncIterator]();
  await iterator.next();
  const reply = socket.act({ type: 'roll' });
  const sent = JSON.parse(fake?.sent[0] ?? '{}') as { id: number; seq: number; type: string };
  assert.deepEqual({ type: sent.type, seq: sent.seq }, { type: 'action', seq: 1 });
  fake?.onmessage?.({ data: JSON.stringify({ type: 'reply', id: sent.id, ok: true, seq: 2, events: [] }) });
  assert.deepEqual(await reply, { type: 'reply', id: sent.id, ok: true, seq: 2, events: [] });
  socket.close();
  assert.deepEqual(await iterator.next(), { done: true, value: undefined });
});

test('with freshDice, act sends the next reveal, and an entry that carries it moves the count on', async () => {
  const { HashChain, DiceChains } = await import('../src/dice.js');
  const chain = await HashChain.create(8);
  const dice = new DiceChains();
  dice.adopt('t', chain);
  let fake: FakeSocket | undefined;
  fresh([
    (s) => {
      fake = s;
      s.open();
      s.entry(1);
    },
  ]);
  const socket = followTable({ baseUrl: 'http://x', tableId: 't', game: 'snakes', backoff: fast, WebSocket: FakeSocket, freshDice: dice });
  const iterator = socket[Symbol.asyncIterator]();
  await iterator.next();
  const reply = socket.act({ type: 'roll' } as never);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const sent = JSON.parse(fake?.sent[0] ?? '{}') as { id: number; reveal?: string };
  assert.equal(sent.reveal, chain.reveal(0));
  fake?.onmessage?.({ data: JSON.stringify({ type: 'reply', id: sent.id, ok: true, seq: 2, events: [] }) });
  await reply;
  fake?.onmessage?.({ data: JSON.stringify({ type: 'entry', seq: 2, seat: 0, actor: 'human', action: { type: 'roll' }, events: [], reveal: chain.reveal(0), state: {} }) });
  await iterator.next();
  assert.equal(await dice.next('t'), chain.reveal(1));
  socket.close();
});
