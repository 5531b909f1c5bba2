// @ts-check
/**
 * The table page, the replay and the fairness page against WCAG 2.2 A/AA (axe-core), in Chromium: a
 * live table of each game, mid-game with the viewer's moves on the board, a finished game's replay,
 * the fairness page with a game counted, and the friends page, the lobby's challenges and a table's
 * chat (docs/social.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MOVES, axeViolations, createTable, newPage, playToTheEnd, signUp, start, useBrowser } from './support/browser.mjs';

useBrowser();

/**
 * Plays the viewer's seat until its moves are on the board (or a few moves were made).
 * @param {import('playwright-core').Page} page
 */
async function untilMovesOnTheBoard(page) {
  for (let i = 0; i < 30; i++) {
    await page.waitForSelector(MOVES.join(', '), { timeout: 20_000 });
    if (i >= 2 && (await page.$('#board [data-pick]'))) return;
    const renders = Number(await page.getAttribute('#app', 'data-renders'));
    await page.locator(MOVES.join(', ')).first().click({ timeout: 3000 }).catch(() => {});
    await page.waitForFunction((r) => Number(document.getElementById('app')?.dataset.renders) > r, renders, { timeout: 5000 }).catch(() => {});
  }
}

for (const [game, seats] of /** @type {const} */ ([['luddo', 4], ['ludo', 2], ['uckers', 4], ['snakes', 3], ['backgammon', 2]])) {
  test(`axe finds no WCAG 2.2 A/AA violation on a live table of ${game}, mid-game`, async () => {
    const { context, page, errors } = await newPage();
    await signUp(page, `axe ${game}`);
    await createTable(page, game, seats);
    assert.deepEqual(await axeViolations(page), [], 'the waiting room');
    await start(page);
    if (game !== 'snakes') await untilMovesOnTheBoard(page);
    assert.deepEqual(await axeViolations(page), [], 'the table mid-game');
    assert.equal(await page.locator('h1').count(), 1, 'one h1');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('axe finds no WCAG 2.2 A/AA violation on a replay; its step buttons are icons with names', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'axe replay');
  await createTable(page, 'snakes', 2);
  await start(page);
  await playToTheEnd(page);
  const id = page.url().split('#/t/')[1];
  await page.goto(page.url().replace(`#/t/${id}`, `#/replay/${id}`));
  await page.waitForSelector('#board svg');
  await page.click('#r-next');
  assert.deepEqual(await axeViolations(page), []);
  for (const button of ['#r-first', '#r-prev', '#r-next', '#r-last']) {
    assert.ok(await page.locator(`${button} svg`).count(), `${button} draws an icon`);
    assert.match((await page.getAttribute(button, 'aria-label')) ?? '', /\w/, `${button} is named`);
    assert.doesNotMatch((await page.textContent(button)) ?? '', /[⏮⏭◀▶]/, `${button} uses no glyph`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('axe finds no WCAG 2.2 A/AA violation on the fairness page, with a finished game counted', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'axe fairness');
  await createTable(page, 'snakes', 2);
  await start(page);
  await playToTheEnd(page);
  const base = page.url().split('#/')[0];
  for (let i = 0; i < 40 && !(await page.locator('#fairness-games .luck-game').count()); i++) {
    await page.goto(`${base}#/fairness`);
    await page.reload();
    await page.waitForSelector('#fairness-games');
    if (!(await page.locator('#fairness-games .luck-game').count())) await page.waitForTimeout(500);
  }
  assert.ok(await page.locator('#fairness-games .luck-game').count(), 'a game counted');
  assert.deepEqual(await axeViolations(page), []);
  assert.equal(await page.locator('h1').count(), 1, 'one h1');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * A call of the API with the page's token (to set the scene quickly).
 * @param {import('playwright-core').Page} page @param {string} method @param {string} path @param {unknown} [body]
 */
function api(page, method, path, body) {
  return page.evaluate(
    async ([method, path, body]) => {
      const headers = { authorization: `Bearer ${localStorage.getItem('luddo.token')}`, 'content-type': 'application/json' };
      const response = await fetch(/** @type {string} */ (path), { method: /** @type {string} */ (method), headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return response.status === 204 ? null : response.json();
    },
    [method, path, body],
  );
}

test('axe finds no WCAG 2.2 A/AA violation on the friends page with a friend, a request each way, a challenge and a block, nor on a table\'s chat with messages', async () => {
  const me = await newPage();
  const others = await Promise.all([newPage(), newPage(), newPage(), newPage()]);
  await signUp(me.page, 'axe friends');
  const ids = [];
  for (const [i, other] of others.entries()) {
    await signUp(other.page, `axe other ${i}`);
    ids.push(/** @type {string} */ (await other.page.evaluate(() => localStorage.getItem('luddo.player'))));
  }
  const [friend, asked, asking, blocked] = ids;
  const myId = /** @type {string} */ (await me.page.evaluate(() => localStorage.getItem('luddo.player')));
  await api(me.page, 'POST', '/v1/players/me/friends', { player_id: friend });
  await api(others[0].page, 'POST', '/v1/players/me/friends', { player_id: myId });
  await api(me.page, 'POST', '/v1/players/me/friends', { player_id: asked });
  await api(others[2].page, 'POST', '/v1/players/me/friends', { player_id: myId });
  await api(me.page, 'PUT', `/v1/players/me/blocks/${blocked}`);
  await api(others[0].page, 'POST', '/v1/challenges', { to: [myId], table: { game: 'snakes', seat_count: 2 } });
  await me.page.click('nav a[href="#/friends"]');
  await me.page.waitForSelector(`#friends-rows tr[data-friend="${friend}"]`);
  await me.page.waitForSelector(`#friends-incoming [data-request="${asking}"]`);
  await me.page.waitForSelector('#challenges-incoming [data-accept]');
  assert.equal(await me.page.locator('h1').count(), 1, 'one h1');
  assert.deepEqual(await axeViolations(me.page), [], 'the friends page');
  // The lobby with the challenge waiting.
  await me.page.click('nav a[href="#/"]');
  await me.page.waitForSelector('#lobby-challenges [data-accept]');
  assert.deepEqual(await axeViolations(me.page), [], 'the lobby with a challenge');
  // A table's chat with a message and an emote of each player.
  await me.page.click('#lobby-challenges [data-accept]');
  await me.page.waitForURL(/#\/t\//);
  const table = me.page.url().split('#/t/')[1];
  await me.page.waitForSelector('#chat-controls [data-emote]');
  await api(others[0].page, 'POST', `/v1/tables/${table}/chat`, { text: 'hello there' });
  await api(me.page, 'POST', `/v1/tables/${table}/chat`, { emote: 'good_game' });
  await me.page.waitForSelector('#chat-messages li[data-n="2"]', { timeout: 10_000 });
  assert.deepEqual(await axeViolations(me.page), [], 'the table with its chat');
  for (const { context, errors } of [me, ...others]) {
    assert.deepEqual(errors, []);
    await context.close();
  }
});
