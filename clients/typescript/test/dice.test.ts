/**
 * Fresh dice in the SDK without a server: the chain's links, and `DiceChains` committing a head
 * when it takes a seat and sending the next reveal with each action (a scripted `fetch`).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';

import { CHAIN_LENGTH, HashChain, DiceChains } from '../src/dice.js';

const sha = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

test('a chain hashes down to its head: reveal j is h_(n-1-j), and SHA-256 of each is the one before', async () => {
  const chain = await HashChain.create();
  assert.equal(chain.length, CHAIN_LENGTH);
  assert.match(chain.head, /^[0-9a-f]{64}$/);
  assert.equal(sha(chain.reveal(0)), chain.head);
  assert.equal(sha(chain.reveal(1)), chain.reveal(0));
  assert.equal(chain.reveal(CHAIN_LENGTH - 1), chain.secret);
  assert.throws(() => chain.reveal(CHAIN_LENGTH), RangeError);
  assert.equal(chain.revealsBefore(chain.reveal(7)), 7);
  assert.equal(chain.revealsBefore(chain.head), undefined);
  const again = await HashChain.fromSecret(chain.secret, chain.length);
  assert.equal(again.head, chain.head);
  assert.notEqual((await HashChain.create()).head, chain.head);
});

test('a chain of a known secret: three links by hand', async () => {
  const secret = '00'.repeat(32);
  const chain = await HashChain.fromSecret(secret, 3);
  assert.equal(chain.head, sha(sha(sha(secret))));
  assert.deepEqual([chain.reveal(0), chain.reveal(1), chain.reveal(2)], [sha(sha(secret)), sha(secret), secret]);
});

/** A scripted server: records each request's method, path and body; answers with `answer`. */
function server(answer: (method: string, path: string, body: any) => [number, unknown]) {
  const seen: Array<{ method: string; path: string; body: any }> = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text();
    const body = text === '' ? undefined : JSON.parse(text);
    const path = new URL(request.url).pathname;
    seen.push({ method: request.method, path, body });
    const [status, json] = answer(request.method, path, body);
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  };
  return { seen, fetch: fetch as typeof globalThis.fetch };
}

const post = (path: string, body: unknown) => new Request(`http://luddo${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test('DiceChains commits a head when seating at a fresh-dice table, not at one with the option off', async () => {
  let head: string | undefined;
  const { seen, fetch } = server((method, path, body) => {
    if (method === 'GET' && path === '/v1/tables/off') return [200, { id: 'off', fresh_dice: false, seats: [] }];
    if (method === 'GET' && path === '/v1/tables/on') return [200, { id: 'on', fresh_dice: true, seats: [] }];
    if (path === '/v1/tables') {
      head = body.dice_chain;
      return [201, { id: body.visibility === 'private' ? 'private' : 'new', fresh_dice: body.visibility !== 'private', seats: [] }];
    }
    if (path === '/v1/quick-play') return [201, { id: 'quick', fresh_dice: true, seats: [] }];
    if (path.endsWith('/join')) return [200, { id: path.split('/')[3], seats: [] }];
    if (path.endsWith('/rematch')) return [201, { accepted: [0], waiting_for: [], table_id: 'again' }];
    return [404, {}];
  });
  const dice = new DiceChains();
  const call = dice.fetcher(fetch);
  await call(post('/v1/tables', { game: 'ludo', seat_count: 2 }));
  assert.match(seen[0]?.body.dice_chain, /^[0-9a-f]{64}$/);
  assert.equal((await dice.chain('new'))?.head, head);
  await call(post('/v1/tables', { game: 'ludo', seat_count: 2, visibility: 'private' }));
  assert.equal(seen[1]?.body.dice_chain, undefined, 'a private table is off by default');
  await call(post('/v1/tables', { game: 'ludo', seat_count: 2, visibility: 'private', fresh_dice: true }));
  assert.match(seen[2]?.body.dice_chain, /^[0-9a-f]{64}$/, 'unless asked for');
  await call(post('/v1/quick-play', { game: 'ludo', seats: 2 }));
  assert.match(seen[3]?.body.dice_chain, /^[0-9a-f]{64}$/);
  await call(post('/v1/tables/off/join', {}));
  assert.equal(seen.at(-1)?.body.dice_chain, undefined);
  assert.equal(await dice.chain('off'), undefined);
  await call(post('/v1/tables/on/join', { seat: 1 }));
  assert.match(seen.at(-1)?.body.dice_chain, /^[0-9a-f]{64}$/);
  assert.equal(seen.at(-1)?.body.seat, 1);
  assert.equal((await dice.chain('on'))?.head, seen.at(-1)?.body.dice_chain);
  await call(post('/v1/tables/on/rematch', {}));
  assert.equal((await dice.chain('again'))?.head, seen.at(-1)?.body.dice_chain);
});

test('each action at a chained table carries the next reveal; only one that drew dice uses it up', async () => {
  const chain = await HashChain.create(8);
  let consumed = 0;
  const { seen, fetch } = server((_method, path, body) => {
    if (path === '/v1/tables/t') return [200, { id: 't', fresh_dice: true, seats: [{ seat: 0, dice_chain: null }, { seat: 1, dice_chain: chain.head, reveals: 3 }] }];
    if (body.reveal !== chain.reveal(consumed)) return [422, { code: 'reveal_mismatch' }];
    if (body.action.type === 'roll') {
      consumed += 1;
      return [200, { seq: body.seq + 1, events: [{ type: 'rolled', seat: 1, dice: [3] }] }];
    }
    return [200, { seq: body.seq + 1, events: [{ type: 'moved' }] }];
  });
  const dice = new DiceChains();
  dice.adopt('t', chain);
  const call = dice.fetcher(fetch);
  assert.equal((await call(post('/v1/tables/t/actions', { action: { type: 'roll' }, seq: 4 }))).status, 200);
  assert.equal(seen[0]?.body.reveal, chain.reveal(0));
  await call(post('/v1/tables/t/actions', { action: { type: 'move', piece: 0 }, seq: 5 }));
  assert.equal(seen[1]?.body.reveal, chain.reveal(1), 'a move carries the next reveal, which it does not use up');
  await call(post('/v1/tables/t/actions', { action: { type: 'roll' }, seq: 6 }));
  assert.equal(seen[2]?.body.reveal, chain.reveal(1));
  assert.equal(await dice.next('t'), chain.reveal(2));
  // Out of step (another client of the same player rolled): the seat view's count, then once more.
  consumed = 3;
  assert.equal((await call(post('/v1/tables/t/actions', { action: { type: 'roll' }, seq: 9 }))).status, 200);
  assert.deepEqual(seen.slice(3).map((s) => [s.method, s.path, s.body?.reveal]), [
    ['POST', '/v1/tables/t/actions', chain.reveal(2)],
    ['GET', '/v1/tables/t', undefined],
    ['POST', '/v1/tables/t/actions', chain.reveal(3)],
  ]);
  assert.equal(await dice.next('t'), chain.reveal(4));
});

test('a store keeps a chain and its count across DiceChains instances (a restart)', async () => {
  const kept = new Map<string, { secret: string; length: number; reveals: number }>();
  const store = { load: (id: string) => kept.get(id), save: (id: string, c: { secret: string; length: number; reveals: number }) => void kept.set(id, c) };
  const chain = await HashChain.create(16);
  const first = new DiceChains(store);
  first.adopt('t', chain);
  first.observe('t', chain.reveal(0));
  first.observe('t', chain.reveal(0)); // the same entry seen twice (socket and HTTP) counts once
  const second = new DiceChains(store);
  assert.equal(await second.next('t'), chain.reveal(1));
});
