// @ts-check
// Fresh dice (issue #35) in the browser: a public table takes the player's entropy. The page
// commits a dice chain with the seat, keeps it in localStorage across a reload, sends a reveal
// with each roll, and the fairness check verifies the reveal recipe and the chain; a record with
// the reveals out of order is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, createTable, newPage, playToTheEnd, signUp, start, useBrowser } from './support/browser.mjs';

useBrowser();

/**
 * GET `path` of the server as the page's signed-in player.
 * @param {import('playwright-core').Page} page
 * @param {string} path
 */
async function read(page, path) {
  return page.evaluate(async (path) => {
    const token = localStorage.getItem('luddo.token');
    const response = await fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  }, path);
}

test('a fresh-dice game of Snakes played by clicking, reloaded mid-game, ends verified with the player\'s reveals; a tampered record is refused', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Fresh roller');
  const id = await createTable(page, 'snakes', 2);
  const open = await read(page, `/v1/tables/${id}`);
  assert.equal(open.fresh_dice, true, 'a public table takes fresh dice');
  const head = open.seats[0].dice_chain;
  assert.match(head, /^[0-9a-f]{64}$/, 'the host\'s seat committed a chain');
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('luddo-dice-chains') ?? '{}'));
  assert.equal(kept[head]?.table, id, 'the chain is kept in localStorage with its table');
  assert.match(await page.textContent('#fresh-dice') ?? '', /^Fresh dice:/);
  await start(page);

  let reloaded = false;
  const moves = await playToTheEnd(page, async (n) => {
    if (n === 6 && !reloaded) {
      reloaded = true;
      await page.reload();
      await page.waitForSelector('#board svg');
    }
  });
  assert.ok(moves > 6, `moves were made by clicking (${moves})`);
  await page.waitForSelector('#end .result');
  assert.ok(await page.isHidden('#flash'), `no error was shown: ${await page.textContent('#flash')}`);

  // Every roll of the player took a reveal, down the chain, across the reload.
  const record = await read(page, `/v1/tables/${id}/record?format=json`);
  const start_ = record.entries.find((/** @type {any} */ e) => e.action.type === 'start');
  assert.deepEqual(start_.action.dice_chains, [head, null]);
  const mine = record.entries.filter((/** @type {any} */ e) => e.seat === 0 && e.actor !== 'server');
  const rolls = mine.filter((/** @type {any} */ e) => e.events.some((/** @type {any} */ ev) => ev.type === 'rolled'));
  assert.ok(rolls.length > 0);
  assert.deepEqual(rolls.filter((/** @type {any} */ e) => e.actor === 'human' && !e.reveal).map((/** @type {any} */ e) => e.seq), [], 'no roll of the player without a reveal');
  const final = await read(page, `/v1/tables/${id}`);
  assert.equal(final.seats[0].reveals, rolls.filter((/** @type {any} */ e) => e.reveal).length);

  await page.click('#check-fairness');
  await page.waitForSelector('#fairness .verified, #fairness .error', { timeout: 60_000 });
  assert.match((await page.textContent('#fairness')) ?? '', /^verified: /);

  // The same check on a record whose first two reveals were swapped: NOT verified, at the chain.
  const revealed = record.entries.filter((/** @type {any} */ e) => e.reveal);
  assert.ok(revealed.length >= 2, 'two reveals to swap');
  await page.route(`**/v1/tables/${id}/record**`, async (route) => {
    const tampered = structuredClone(record);
    const [a, b] = tampered.entries.filter((/** @type {any} */ e) => e.reveal);
    [a.reveal, b.reveal] = [b.reveal, a.reveal];
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(tampered) });
  });
  await page.reload();
  await page.waitForSelector('#check-fairness');
  await page.click('#check-fairness');
  await page.waitForSelector('#fairness .verified, #fairness .error', { timeout: 60_000 });
  const verdict = (await page.textContent('#fairness')) ?? '';
  assert.match(verdict, /^NOT verified: entry \d+: seat 0's reveal is not the next link of its dice chain/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a private table says its dice come from the server alone, and commits no chain', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Private roller');
  const id = await createTable(page, 'snakes', 2, { private: true });
  const table = await read(page, `/v1/tables/${id}`);
  assert.equal(table.fresh_dice, false);
  assert.equal(table.seats[0].dice_chain, null);
  assert.match(await page.textContent('#fresh-dice') ?? '', /server's committed seed alone/);
  assert.deepEqual(errors, []);
  await context.close();
});
