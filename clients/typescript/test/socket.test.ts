/**
 * The WebSocket helper against a scripted fake socket (no server): resume with `since`, back-off,
 * gaps and refusals. `npm test` (node's test runner through tsx).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { backoffDelay, followTable, type MinimalWebSocket, TableSocketError } from '../src/socket.js';

/** A fake WebSocket: each connection runs the next script, given the URL it was opened with. */
type Script = (socket: FakeSocket, url: URL) => void;

class FakeSocket implements MinimalWebSocket {
  static scripts: Script[] = [];
  static urls: URL[] = [];
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  sent: string[] = [];

  constructor(url: string) {
    const parsed = new URL(url);
    FakeSocket.urls.push(parsed);
    const script = FakeSocket.scripts.shift();
    setImmediate(() => (script ? script(this, parsed) : this.refuse(404)));
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  entry(seq: number): void {
    const message = { type: 'entry', seq, seat: 0, actor: 'human', action: { type: 'roll' }, events: [], to_act: 0, deadline: null, legal: [], at: '' };
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** The table's last entry. */
  finish(seq: number): void {
    const message = { type: 'entry', seq, seat: null, actor: 'server', action: { type: 'finish' }, events: [], to_act: null, deadline: null, legal: [], at: '' };
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  refuse(status: number): void {
    this.onerror?.({ message: `Unexpected server response: ${status}` });
    this.drop(1006);
  }
  drop(code: number): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(code = 1000): void {
    setImmediate(() => this.drop(code));
  }
}

function fresh(scripts: Script[]): void {
  FakeSocket.scripts = scripts;
  FakeSocket.urls = [];
}

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
  const socket = followTable({ baseUrl: 'http://127.0.0.1:1', tableId: 't', game: 'luddo', token: 'tk', backoff: fast, WebSocket: FakeSocket });
  const seqs: number[] = [];
  for await (const message of socket) if (message.type === 'entry') seqs.push(message.seq);
  assert.deepEqual(seqs, [1, 2, 3, 4, 5]);
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
