// @ts-check
/**
 * A finished backgammon game's analysis on its replay (docs/analysis.md): two players play a
 * money game without the cube over the API, the first opening with 3-1 (scripted dice: the
 * server runs in test mode) played 24/23 24/21 instead of making the 5-point, a blunder; the
 * rest by each seat's first legal action. The replay then shows each player's error rate and
 * band, the blunder marked in the list of errors and blunders, and, from its link, at its step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, GAME_MS, axeViolations, newPage, signUp, useBrowser } from './support/browser.mjs';

useBrowser();

/**
 * One call of the API from the test itself.
 * @param {string} method
 * @param {string} path
 * @param {string | null} token
 * @param {unknown} [body]
 */
async function api(method, path, token, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return json;
}

/** Signs a player up; answers its token. @param {string} name */
async function player(name) {
  return (await api('POST', '/v1/players', null, { name })).token;
}

test('a finished match’s review shows the error rates and a marked blunder', async () => {
  const tokens = [await player('Blunderer'), await player('Steady')];
  const table = await api('POST', '/v1/tables', tokens[0], { game: 'backgammon', seat_count: 2, options: { cube: false }, dice: [3, 1] });
  const id = table.id;
  await api('POST', `/v1/tables/${id}/join`, tokens[1], { seat: 1 });
  await api('POST', `/v1/tables/${id}/start`, tokens[0], {});
  let view = await api('GET', `/v1/tables/${id}`, tokens[0]);
  const blunder = { type: 'play', moves: [{ from: 24, to: 23 }, { from: 24, to: 21 }] };
  await api('POST', `/v1/tables/${id}/actions`, tokens[0], { action: blunder, seq: view.play.seq });
  const deadline = Date.now() + GAME_MS;
  for (;;) {
    view = await api('GET', `/v1/tables/${id}`, tokens[0]);
    if (view.status === 'finished') break;
    assert.ok(Date.now() < deadline, 'the game did not end');
    const seat = view.play.to_act;
    const mine = await api('GET', `/v1/tables/${id}`, tokens[seat]);
    const [action] = mine.play.legal_actions;
    if (action) await api('POST', `/v1/tables/${id}/actions`, tokens[seat], { action, seq: mine.play.seq });
  }

  const { context, page, errors } = await newPage();
  await page.goto(`${BASE}/#/replay/${id}`);
  // The server computes the review in the background: the page says so, then shows it.
  await page.waitForSelector('#review-seats li', { timeout: GAME_MS });
  const seats = await page.locator('#review-seats li').allTextContents();
  assert.equal(seats.length, 2);
  assert.match(seats[0], /^Blunderer: \d+\.\d mp per decision \((Supernatural|World class|Expert|Advanced|Intermediate|Casual player|Beginner|Awful!)\)/);
  assert.match(seats[1], /^Steady: \d+\.\d mp per decision/);
  assert.match(seats[0], /[1-9]\d* blunders?/);
  const marked = page.locator('#review-marks li[data-mark="blunder"]').first();
  assert.match((await marked.textContent()) ?? '', /Blunderer played 31: 24\/23 24\/21 · blunder · lost 0\.\d{3} · best: 8\/5 6\/5/);
  // Its link shows the step where it was played, the blunder marked there.
  await page.click('#r-last');
  await marked.locator('button').click();
  await page.waitForSelector('#review-step li[data-mark="blunder"]');
  assert.match((await page.textContent('#review-step')) ?? '', /24\/23 24\/21/);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('at a private table with hints, the player on turn asks for one and sees the best plays', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Hinted');
  const mine = /** @type {string} */ (await page.evaluate(() => localStorage.getItem('luddo.token')));
  const other = await player('Opponent');
  const table = await api('POST', '/v1/tables', mine, { game: 'backgammon', seat_count: 2, visibility: 'private', options: { hints: true }, dice: [3, 1] });
  await api('POST', `/v1/tables/${table.id}/join`, other, { seat: 1, invite_code: table.invite_code });
  await api('POST', `/v1/tables/${table.id}/start`, mine, {});
  await page.goto(`${BASE}/#/t/${table.id}`);
  await page.click('#ask-hint');
  await page.waitForSelector('#hint-plays li');
  assert.match((await page.textContent('#hint-plays li')) ?? '', /^8\/5 6\/5 \([+-]\d\.\d{3}\)$/);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
