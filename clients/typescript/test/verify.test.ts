/**
 * `verify(record)` on records built here with the recipe (no server): a fair one passes; a
 * changed die, a reveal out of order, a skipped link, a player's roll without a reveal and a
 * wrong commitment each fail at their entry. The recipe without reveals is pinned to the
 * answers src/rules/dice.rs pins; the one with reveals is checked against a real server's table
 * by scripts/sdk.sh (examples/play-all.ts).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';

import { HashChain } from '../src/dice.js';
import { recipe, seedKey, verify, type RecordEntry, type TableRecord } from '../src/verify.js';

const SEED = '07'.repeat(32);
const COMMITMENT = '4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test("the recipe without a reveal gives the dice src/rules/dice.rs pins (seed [7; 32], client seed 'alice')", async () => {
  const key = await seedKey(SEED);
  const dice = [];
  for (let k = 0; k < 10; k++) dice.push(await recipe(key, 'alice', k));
  assert.deepEqual(dice, [5, 4, 1, 6, 1, 4, 4, 5, 6, 3]);
});

test('a reveal changes the dice: HMAC over client_seed ":" k ":" reveal', async () => {
  const key = await seedKey(SEED);
  const { createHmac } = await import('node:crypto');
  const reveal = 'ab'.repeat(32);
  const bytes = createHmac('sha256', Buffer.from(SEED, 'hex')).update(`alice:3:${reveal}`).digest();
  const byte = [...bytes].find((b) => b < 252) as number;
  assert.equal(await recipe(key, 'alice', 3, reveal), 1 + (byte % 6));
});

/**
 * A two-seat table: seat 0 a player with a chain, seat 1 a bot. The start throws two opening
 * dice (the server's source), the player rolls twice with reveals 0 and 1 (`reveals` overrides
 * which links the entries carry), the bot once. Dice follow the recipe for the reveals logged.
 */
async function record(chain: HashChain, reveals: Array<string | undefined> = [chain.reveal(0), chain.reveal(1)]): Promise<TableRecord> {
  const seeds = ['alice', ''];
  const clientSeed = sha(seeds.join('\n'));
  const key = await seedKey(SEED);
  let k = 0;
  const draw = async (n: number, reveal?: string) => {
    const dice = [];
    for (let i = 0; i < n; i++) dice.push(await recipe(key, clientSeed, k++, reveal));
    return dice;
  };
  const entry = (seq: number, seat: number | null, actor: string, action: any, events: any[], reveal?: string): RecordEntry => ({
    type: 'entry', seq, seat, actor, action, events, ...(reveal === undefined ? {} : { reveal }),
  });
  const entries = [
    entry(1, null, 'server', { type: 'seat_taken', seat: 0, player_id: 'p', name: 'Ann' }, []),
    entry(2, null, 'server', { type: 'start', client_seeds: seeds, client_seed: clientSeed, dice_chains: [chain.head, null] }, [
      { type: 'opening_rolled', seat: 0, dice: await draw(1) },
      { type: 'opening_rolled', seat: 1, dice: await draw(1) },
    ]),
  ];
  entries.push(entry(3, 0, 'human', { type: 'roll' }, [{ type: 'rolled', seat: 0, dice: await draw(2, reveals[0]) }], reveals[0]));
  entries.push(entry(4, 0, 'human', { type: 'move', piece: 1 }, [{ type: 'moved' }]));
  entries.push(entry(5, 1, 'bot', { type: 'roll' }, [{ type: 'rolled', seat: 1, dice: await draw(2) }]));
  entries.push(entry(6, 0, 'human', { type: 'roll' }, [{ type: 'rolled', seat: 0, dice: await draw(1, reveals[1]) }], reveals[1]));
  entries.push(entry(7, null, 'server', { type: 'finish', seed: SEED }, []));
  return {
    format: 'luddo-record',
    version: 1,
    table: {
      seed: SEED,
      seed_commitment: COMMITMENT,
      client_seed: clientSeed,
      seats: [
        { seat: 0, client_seed: 'alice', dice_chain: chain.head, reveals: 2 },
        { seat: 1, client_seed: '', dice_chain: null, reveals: 0 },
      ],
    },
    entries,
  };
}

test('a fair record with reveals is verified: dice, fresh dice and reveals counted', async () => {
  const chain = await HashChain.create(16);
  assert.deepEqual(await verify(await record(chain)), { verified: true, dice: 7, freshDice: 3, reveals: 2, entries: 7 });
});

test('a changed die is caught at its entry', async () => {
  const tampered = await record(await HashChain.create(16));
  const rolled = tampered.entries[5]?.events[0] as unknown as { dice: number[] };
  rolled.dice[0] = ((rolled.dice[0] as number) % 6) + 1;
  const result = await verify(tampered);
  assert.equal(result.verified, false);
  assert.deepEqual(result.verified ? null : [result.check, result.seq], ['die', 6]);
  assert.match(result.verified ? '' : result.reason, /^seq 6, event 0 \(rolled\): die #6 is \d, the recipe gives \d$/);
});

test('reveals out of order are not verified, even with dice that follow them', async () => {
  const chain = await HashChain.create(16);
  const result = await verify(await record(chain, [chain.reveal(1), chain.reveal(0)]));
  assert.deepEqual(result.verified ? null : [result.check, result.seq], ['chain', 3]);
  assert.match(result.verified ? '' : result.reason, /out of order or a link skipped/);
});

test('a skipped link is not verified', async () => {
  const chain = await HashChain.create(16);
  const result = await verify(await record(chain, [chain.reveal(0), chain.reveal(2)]));
  assert.deepEqual(result.verified ? null : [result.check, result.seq], ['chain', 6]);
});

test("a player's roll at a chained seat without a reveal is not verified: the server's dice where the player's were due", async () => {
  const chain = await HashChain.create(16);
  const result = await verify(await record(chain, [chain.reveal(0), undefined]));
  assert.deepEqual(result.verified ? null : [result.check, result.seq], ['reveal_missing', 6]);
});

test('a reveal not of the committed chain, a wrong commitment, a seat showing another head: each refused', async () => {
  const chain = await HashChain.create(16);
  const other = await HashChain.create(16);
  const foreign = await verify(await record(chain, [other.reveal(0), other.reveal(1)]));
  assert.deepEqual(foreign.verified ? null : [foreign.check, foreign.seq], ['chain', 3]);

  const wrong = await record(chain);
  wrong.table.seed_commitment = '00'.repeat(32);
  const refused = await verify(wrong);
  assert.equal(refused.verified ? null : refused.check, 'commitment');

  const swapped = await record(chain);
  (swapped.table.seats[0] as { dice_chain: string }).dice_chain = other.head;
  const shown = await verify(swapped);
  assert.equal(shown.verified ? null : shown.check, 'chain');
});
