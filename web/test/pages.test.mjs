// @ts-check
/**
 * The pages outside the table, as players and assistive technology meet them: each has one
 * <h1> and no header cell without text, and axe-core finds no WCAG 2.2 A/AA violation on it
 * (the lobby signed out and signed in with tables listed, the new table's form, a profile with
 * finished games, the leaderboard, the hall of shame); the header links to the player's own
 * profile; names carry a tag from the id, so that two players of one name are told apart; the
 * new table's form offers the server's bot levels.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, axeViolations, createTable, newPage, signUp, start, useBrowser } from './support/browser.mjs';

useBrowser();

/**
 * What every page must be: one <h1>, no empty header cell, no axe-core violation, no console error.
 * @param {import('playwright-core').Page} page
 * @param {string[]} errors
 */
async function assertAccessible(page, errors) {
  assert.equal(await page.locator('h1').count(), 1, 'exactly one <h1>');
  const empty = await page.$$eval('th', (cells) => cells.filter((th) => !(th.textContent ?? '').trim()).length);
  assert.equal(empty, 0, 'no <th> without text');
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
}

/**
 * A player's id, read with the page's token.
 * @param {import('playwright-core').Page} page
 */
async function myId(page) {
  return page.evaluate(async () => {
    const response = await fetch('/v1/players/me', { headers: { authorization: `Bearer ${localStorage.getItem('luddo.token')}` } });
    return /** @type {string} */ ((await response.json()).id);
  });
}

/**
 * A finished game of Uckers for the page's player (who up-boards at once), on the hall of
 * shame; answers the table's id.
 * @param {import('playwright-core').Page} page
 */
async function upBoard(page) {
  const id = await createTable(page, 'uckers', 2);
  await start(page);
  await page.locator('#controls button.danger').first().click();
  await page.waitForSelector('#app[data-status="finished"]');
  return id;
}

test('the lobby signed out: one <h1>, the sign-up form, no accessibility violation', async () => {
  const { context, page, errors } = await newPage();
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('#signup-name');
  await page.waitForSelector('#lobby-rows');
  await assertAccessible(page, errors);
  await context.close();
});

test('the lobby signed in, with tables listed: hosts of one name told apart by their tags, the header links to my profile, no accessibility violation', async () => {
  const first = await newPage();
  const second = await newPage();
  const viewer = await newPage();
  // Two players of one name host a table each.
  await signUp(first.page, 'Ωμέγα');
  await signUp(second.page, 'Ωμέγα');
  const tables = [await createTable(first.page, 'luddo', 4), await createTable(second.page, 'ludo', 2)];
  await signUp(viewer.page, 'Άλφα');
  for (const id of tables) await viewer.page.locator(`#lobby-rows tr[data-table="${id}"]`).waitFor();
  const hosts = await Promise.all(tables.map((id) => viewer.page.locator(`#lobby-rows tr[data-table="${id}"] td:nth-child(2)`).textContent()));
  assert.match(hosts[0] ?? '', /^Ωμέγα #[0-9a-f]{4}$/);
  assert.match(hosts[1] ?? '', /^Ωμέγα #[0-9a-f]{4}$/);
  assert.notEqual(hosts[0], hosts[1], 'two players of one name are told apart');
  // The account bar: my name and tag, a link to my own profile.
  const me = await myId(viewer.page);
  assert.equal(await viewer.page.getAttribute('#me-profile', 'href'), `#/p/${me}`);
  assert.equal((await viewer.page.textContent('#me-profile'))?.trim(), `Άλφα #${me.slice(0, 4)}`);
  await assertAccessible(viewer.page, viewer.errors);
  await viewer.page.click('#me-profile');
  await viewer.page.waitForSelector('#profile-title');
  assert.equal(await viewer.page.textContent('#profile-title'), 'Άλφα');
  for (const who of [first, second, viewer]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});

test('the new table form offers the bot levels of GET /v1/games, its default chosen, and creates a table at the level chosen; no accessibility violation', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Βήτα');
  await page.goto(`${BASE}/#/new`);
  await page.waitForSelector('#c-bot-level option', { state: 'attached' });
  const registry = await page.evaluate(async () => (await (await fetch('/v1/games')).json()).games[0]);
  assert.deepEqual(await page.$$eval('#c-bot-level option', (options) => options.map((o) => /** @type {HTMLOptionElement} */ (o).value)), registry.bot_levels);
  assert.equal(await page.inputValue('#c-bot-level'), registry.default_bot_level);
  await assertAccessible(page, errors);
  await page.selectOption('#c-bot-level', 'easy');
  await page.click('#c-submit');
  await page.waitForURL(/#\/t\//);
  const id = page.url().split('#/t/')[1];
  const table = await page.evaluate(async (id) => (await fetch(`/v1/tables/${id}`)).json(), id);
  assert.equal(table.bot_level, 'easy');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a profile with finished games: its summary, its games with their replays; no accessibility violation', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Γάμμα');
  const table = await upBoard(page);
  await page.click('#me-profile');
  await page.waitForSelector('#profile-games li a');
  assert.equal(await page.getAttribute('#profile-games li a', 'href'), `#/replay/${table}`);
  assert.match((await page.textContent('#profile-summary')) ?? '', /^1 game played, 0 won, 1 in the hall of shame\.$/);
  assert.match((await page.textContent('#profile-heading')) ?? '', /^Γάμμα #[0-9a-f]{4}$/);
  await assertAccessible(page, errors);
  await context.close();
});

test('the leaderboard: one <h1>, its headers named; no accessibility violation', async () => {
  const { context, page, errors } = await newPage();
  await page.goto(`${BASE}/#/leaderboard`);
  await page.waitForFunction(() => !document.getElementById('board-rows')?.textContent?.includes('Loading'));
  await assertAccessible(page, errors);
  await context.close();
});

test('the hall of shame: an up-boarding with its player tagged and its replay; no accessibility violation', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Δέλτα');
  const table = await upBoard(page);
  const me = await myId(page);
  await page.click('nav a[href="#/shame"]');
  const row = page.locator('#shame-rows tr', { has: page.locator(`a[href="#/replay/${table}"]`) });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', new RegExp(`Δέλτα #${me.slice(0, 4)}\\s*up-boarded`));
  await assertAccessible(page, errors);
  await context.close();
});
