// @ts-check
/**
 * The browser's fairness check (src/fairness.js) against the answers src/rules/dice.rs pins, so
 * the client's recipe cannot drift from the server's. Runs in Node (the same WebCrypto API).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recipe, verify } from '../src/fairness.js';

const SEED = '07'.repeat(32);
const COMMITMENT = '4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0';

/** @param {string} hex */
function bytes(hex) {
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}

async function key() {
  return crypto.subtle.importKey('raw', bytes(SEED), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** @param {string} text */
async function sha256(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('hex');
}

test("the recipe gives the dice src/rules/dice.rs pins (seed [7; 32], client seed 'alice')", async () => {
  const k = await key();
  const dice = [];
  for (let i = 0; i < 10; i++) dice.push(await recipe(k, 'alice', i));
  assert.deepEqual(dice, [5, 4, 1, 6, 1, 4, 4, 5, 6, 3]);
});

/**
 * A finished table's view and log whose dice are the recipe's, as the server would send them.
 * @param {number[]} dice
 */
async function table(dice) {
  const seeds = ['alice', '', 'bob'];
  const clientSeed = await sha256(seeds.join('\n'));
  assert.equal(clientSeed, '66abe0f31a69f65f9e31a1b1d46cd6cd47e6742ff883d24f6bb86e7e0b10d43f');
  const entry = (/** @type {number} */ seq, /** @type {any} */ action, /** @type {any[]} */ events) => ({
    type: /** @type {const} */ ('entry'), seq, seat: null, actor: 'server', action, events, to_act: null, deadline: null, legal_actions_by_seat: [], at: '',
  });
  const entries = [
    entry(1, { type: 'seat_taken', seat: 0, player_id: 'x', name: 'Ann' }, []),
    entry(2, { type: 'start', client_seeds: seeds, client_seed: clientSeed }, [
      { type: 'opening_rolled', seat: 0, dice: [dice[0]] },
      { type: 'opening_rolled', seat: 1, dice: [dice[1]] },
    ]),
    entry(3, { type: 'roll' }, [{ type: 'rolled', seat: 0, dice: [dice[2], dice[3]] }, { type: 'moved', dice: [9] }]),
    entry(4, { type: 'finish', seed: SEED }, []),
  ];
  const view = /** @type {any} */ ({
    seed_commitment: COMMITMENT,
    client_seed: clientSeed,
    seats: seeds.map((client_seed, seat) => ({ seat, client_seed })),
  });
  return { view, entries };
}

test('a log whose dice are the recipe\'s is verified; one changed die is caught with its seq', async () => {
  const k = await key();
  const clientSeed = await sha256('alice\n\nbob');
  const dice = [];
  for (let i = 0; i < 4; i++) dice.push(await recipe(k, clientSeed, i));
  const fair = await table(dice);
  assert.deepEqual(await verify(fair.view, fair.entries), { verified: true, dice: 4, entries: 4, reveals: 0 });

  const tampered = await table([dice[0], dice[1], (dice[2] % 6) + 1, dice[3]]);
  const verdict = await verify(tampered.view, tampered.entries);
  assert.equal(verdict.verified, false);
  assert.match(verdict.verified ? '' : verdict.reason, /^seq 3, event 0 \(rolled\): die #2 is \d, the recipe gives \d$/);

  const wrongCommitment = await table(dice);
  wrongCommitment.view.seed_commitment = '00'.repeat(32);
  const refused = await verify(wrongCommitment.view, wrongCommitment.entries);
  assert.match(refused.verified ? '' : refused.reason, /not the commitment/);
});

/**
 * A fresh-dice table: seat 0 a player with a chain (its reveals as given), seat 1 a bot. The
 * dice follow the recipe for the reveals logged, so only the chain's check can object.
 * @param {import('../src/dice.js').DiceChain} chain
 * @param {(string | undefined)[]} reveals
 */
async function freshTable(chain, reveals) {
  const k = await key();
  const seeds = ['alice', ''];
  const clientSeed = await sha256(seeds.join('\n'));
  let n = 0;
  /** @param {number} count @param {string} [reveal] */
  const draw = async (count, reveal) => {
    const dice = [];
    for (let i = 0; i < count; i++) dice.push(await recipe(k, clientSeed, n++, reveal));
    return dice;
  };
  /** @param {number} seq @param {number | null} seat @param {string} actor @param {any} action @param {any[]} events @param {string} [reveal] */
  const entry = (seq, seat, actor, action, events, reveal) => ({
    type: 'entry', seq, seat, actor, action, events, ...(reveal === undefined ? {} : { reveal }),
  });
  const entries = [
    entry(1, null, 'server', { type: 'start', client_seeds: seeds, client_seed: clientSeed, dice_chains: [chain.head, null] }, [{ type: 'opening_rolled', seat: 0, dice: await draw(1) }]),
    entry(2, 0, 'human', { type: 'roll' }, [{ type: 'rolled', seat: 0, dice: await draw(2, reveals[0]) }], reveals[0]),
    entry(3, 1, 'bot', { type: 'roll' }, [{ type: 'rolled', seat: 1, dice: await draw(1) }]),
    entry(4, 0, 'human', { type: 'roll' }, [{ type: 'rolled', seat: 0, dice: await draw(1, reveals[1]) }], reveals[1]),
    entry(5, null, 'server', { type: 'finish', seed: SEED }, []),
  ];
  const view = /** @type {any} */ ({
    seed_commitment: COMMITMENT,
    client_seed: clientSeed,
    seats: [
      { seat: 0, client_seed: 'alice', dice_chain: chain.head, reveals: 2 },
      { seat: 1, client_seed: '', dice_chain: null, reveals: 0 },
    ],
  });
  return { view, entries: /** @type {any[]} */ (entries) };
}

test('fresh dice: reveals that walk down the chain verify; out of order, skipped, missing or a changed die do not', async () => {
  const { DiceChain } = await import('../src/dice.js');
  const chain = await DiceChain.fromSecret('2a'.repeat(32), 16);
  const fair = await freshTable(chain, [chain.reveal(0), chain.reveal(1)]);
  assert.deepEqual(await verify(fair.view, fair.entries), { verified: true, dice: 5, entries: 5, reveals: 2 });

  const failure = async (/** @type {{ view: any, entries: any[] }} */ t) => {
    const verdict = await verify(t.view, t.entries);
    return verdict.verified ? null : [verdict.failure, verdict.args?.seq];
  };
  assert.deepEqual(await failure(await freshTable(chain, [chain.reveal(1), chain.reveal(0)])), ['fairness-chain', 2]);
  assert.deepEqual(await failure(await freshTable(chain, [chain.reveal(0), chain.reveal(2)])), ['fairness-chain', 4]);
  assert.deepEqual(await failure(await freshTable(chain, [chain.reveal(0), undefined])), ['fairness-reveal-missing', 4]);
  const tampered = await freshTable(chain, [chain.reveal(0), chain.reveal(1)]);
  tampered.entries[3].events[0].dice[0] = (tampered.entries[3].events[0].dice[0] % 6) + 1;
  assert.deepEqual(await failure(tampered), ['fairness-die', 4]);
});
