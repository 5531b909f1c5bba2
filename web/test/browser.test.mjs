// @ts-check
/**
 * The web client in a real browser: Debian's Chromium (/usr/bin/chromium, or $CHROMIUM) driven by
 * playwright-core, against a running server ($LUDDO_URL; scripts/browser.sh starts one).
 *
 * Every move is made by clicking the page: a highlighted piece or point on the board, a choice
 * the click left open, or an action button (never one that gives the game away: up-board, drop).
 * Any console error or uncaught exception of a page fails its test. Screenshots of each board
 * mid-game go to $SCREENSHOTS (docs/screenshots when run by scripts/browser.sh).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  BASE,
  FAST,
  createTable,
  gameAgainstBots,
  newPage,
  playToTheEnd,
  screenshot,
  seq,
  signUp,
  start,
  useBrowser,
} from './support/browser.mjs';

useBrowser();

test('a game of Luddo against three bots, played by clicking, to the end; a dropped socket resumes without a gap', async () => {
  let dropped = false;
  const { context, page } = await gameAgainstBots('luddo', 4, 'luddo', 12, async (page, moves) => {
    if (!dropped && moves >= 6) {
      dropped = true;
      await page.evaluate(() => /** @type {any} */ (window).luddoDropSocket());
      await page.waitForSelector('#connection[data-status="connected"]', { timeout: 10_000 });
    }
  });
  assert.ok(dropped, 'the socket was dropped mid-game');
  // Each entry seen once: the log's seqs (newest first) have no repeat.
  const seqs = await page.$$eval('#log li', (items) => items.map((li) => Number(li.getAttribute('data-seq'))));
  assert.equal(new Set(seqs).size, seqs.length);
  await context.close();
});

test('a game of classic Ludo against a bot, to the end, played with the keyboard alone', async () => {
  const { context } = await gameAgainstBots('ludo', 2, 'ludo', 10, undefined, true);
  await context.close();
});

test('six players of Luddo on the hexagonal board: every arm drawn, moves made by clicking', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Hex player');
  await createTable(page, 'luddo', 6);
  await start(page);
  assert.equal(await page.locator('#board [data-square]').count(), 78, 'the hexagonal board has 78 track squares');
  assert.equal(await page.locator('#seats li').count(), 6);
  let shot = false;
  await playToTheEnd(page, async (moves) => {
    if (moves === 12) {
      await screenshot(page, 'luddo-hex');
      shot = true;
    }
  }, false, () => shot);
  assert.ok(shot, 'twelve moves were made');
  assert.ok(await page.isHidden('#flash'), `no error was shown: ${await page.textContent('#flash')}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a game of Uckers (four seats, partnerships) against bots, to the end', async () => {
  const { context } = await gameAgainstBots('uckers', 4, 'uckers', 14);
  await context.close();
});

test('a game of Snakes and Ladders against bots to the end, then the dice check out as verified in the browser', async () => {
  const { context, page, errors } = await gameAgainstBots('snakes', 4, 'snakes', 8);
  await page.click('#check-fairness');
  await page.waitForSelector('#fairness .verified, #fairness .error', { timeout: 60_000 });
  const verdict = await page.textContent('#fairness');
  assert.match(verdict ?? '', /^verified: .* all \d+ dice/);
  // The replay steps through the same game.
  await page.click('a[href^="#/replay/"]');
  await page.waitForSelector('#r-pos');
  await page.click('#r-next');
  assert.match((await page.textContent('#r-pos')) ?? '', /^2 \//);
  await page.click('#r-last');
  // Its record, downloaded: the JSON that `luddo verify` reads.
  const record = JSON.parse(await downloaded(page, '#download-json'));
  assert.equal(record.format, 'luddo-record');
  assert.equal(record.table.game, 'snakes');
  assert.equal(record.entries.at(-1).action.type, 'finish');
  assert.equal(await page.locator('#download-mat').count(), 0, 'no .mat but for backgammon');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * Clicks `selector` and returns the text of the file it downloads.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFileSync(await download.path(), 'utf8');
}

test('a game of Backgammon against a bot to the end: checkers moved point by point; a reload mid-game resumes the same position', async () => {
  let reloaded = false;
  const { context, page } = await gameAgainstBots('backgammon', 2, 'backgammon', 10, async (page, moves) => {
    if (reloaded || moves < 6) return;
    // Reload on our own turn, when nothing moves until we do.
    const mine = await page.locator('#board [data-pick], #controls .actions > button.action').count();
    if (!mine) return;
    reloaded = true;
    const at = await seq(page);
    const position = await page.innerHTML('#board-text');
    await page.reload();
    await page.waitForFunction((s) => Number(document.getElementById('app')?.dataset.seq) === s, at, { timeout: 15_000 });
    await page.waitForSelector('#board svg');
    assert.equal(await page.innerHTML('#board-text'), position, 'the same position after the reload');
  });
  assert.ok(reloaded, 'the page was reloaded mid-game');
  // The match for GNU Backgammon, from the replay.
  await page.click('a[href^="#/replay/"]');
  await page.waitForSelector('#r-pos');
  const mat = await downloaded(page, '#download-mat');
  assert.match(mat, /^; \[Site "Luddo"\]$/m);
  assert.match(mat, /^ 0 point match$/m);
  assert.match(mat, /^ Game 1$/m);
  await context.close();
});

test('two players in two browser contexts play Luddo by clicking while a spectator watches the moves live', async () => {
  const host = await newPage();
  const guest = await newPage({ width: 390, height: 844 });
  const watcher = await newPage();
  await signUp(host.page, 'Ann');
  await signUp(guest.page, 'Bob');
  const id = await createTable(host.page, 'luddo', 2);
  // The guest joins by the link.
  await guest.page.goto(`${BASE}/#/t/${id}`);
  await guest.page.click('#join');
  await host.page.waitForFunction(() => document.querySelectorAll('#seats li .tag').length >= 2 && document.body.textContent?.includes('Bob'));
  // A spectator, not signed in, opens the same link.
  await watcher.page.goto(`${BASE}/#/t/${id}`);
  await watcher.page.waitForSelector('#app[data-status="open"]');
  await start(host.page);
  await guest.page.waitForSelector('#board svg');
  await watcher.page.waitForSelector('#board svg');
  const watched = await seq(watcher.page);
  let spectatorSawMoves = false;
  const watch = async () => {
    await watcher.page.waitForFunction((s) => Number(document.getElementById('app')?.dataset.seq) > s + 4, watched, { timeout: 60_000 });
    spectatorSawMoves = true;
    assert.equal(await watcher.page.locator('#board [data-pick]').count(), 0, 'a spectator has nothing to click');
    assert.match((await watcher.page.textContent('#controls')) ?? '', /watching/);
    await screenshot(watcher.page, 'spectator');
    await screenshot(guest.page, 'phone');
  };
  const [hostMoves, guestMoves] = await Promise.all([playToTheEnd(host.page), playToTheEnd(guest.page), watch()]);
  assert.ok(hostMoves > 0 && guestMoves > 0, 'both players clicked moves');
  assert.ok(spectatorSawMoves);
  await watcher.page.waitForSelector('#app[data-status="finished"]');
  assert.equal(await seq(watcher.page), await seq(host.page), 'the spectator saw every entry');
  for (const who of [host, guest, watcher]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});

test('the lobby shows a new public table live and filters it; a private table is joined by its invite link', async () => {
  const host = await newPage();
  const visitor = await newPage({ width: 390, height: 844 });
  await signUp(host.page, 'Cleo');
  await signUp(visitor.page, 'Dan');
  // The visitor's lobby is open before the table exists: the table appears without a reload.
  await visitor.page.goto(`${BASE}/#/`);
  await visitor.page.waitForSelector('#lobby-rows');
  const id = await createTable(host.page, 'uckers', 4);
  const row = visitor.page.locator(`#lobby-rows tr[data-table="${id}"]`);
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /Uckers.*Cleo.*1\/4/);
  await visitor.page.selectOption('#f-game', 'backgammon');
  await row.waitFor({ state: 'detached' });
  await visitor.page.selectOption('#f-game', 'uckers');
  await row.waitFor();
  await screenshot(visitor.page, 'lobby-phone');
  // The games the tests before this one finished are listed, each with its replay.
  await visitor.page.waitForSelector('#finished a[href^="#/replay/"]');
  // A private table never shows in the lobby; its invite link seats whoever opens it.
  const secret = await createTable(host.page, 'snakes', 2, { private: true });
  const link = await host.page.inputValue('#invite-link');
  assert.match(link, /#\/invite\/\w+/);
  await visitor.page.goto(link);
  await visitor.page.waitForSelector('#app[data-status="open"]');
  await visitor.page.waitForFunction(() => document.querySelector('#seats')?.textContent?.includes('Dan'));
  await host.page.waitForFunction(() => document.querySelector('#seats')?.textContent?.includes('Dan'));
  assert.equal(await visitor.page.locator(`#lobby-rows tr[data-table="${secret}"]`).count(), 0);
  for (const who of [host, visitor]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});

test('the hall of shame lists up-boardings: an Uckers player who resigns is on it', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Quitter');
  await createTable(page, 'uckers', 2);
  await start(page);
  await page.locator('#controls button.danger', { hasText: 'Up-board' }).click();
  await page.waitForSelector('#app[data-status="finished"]');
  await page.click('nav a[href="#/shame"]');
  await page.waitForSelector('#shame-rows tr td:has-text("Quitter")');
  assert.match((await page.textContent('#shame-rows')) ?? '', /Quitter #[0-9a-f]{4}\s*up-boarded/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a player who lets the clock run out is marked timed out, a bot takes the seat, and the reclaim button takes it back', { skip: !FAST && 'LUDDO_FAST_URL names no server with a short clock' }, async () => {
  const idle = await newPage();
  const active = await newPage();
  await signUp(idle.page, 'Idle', FAST);
  await signUp(active.page, 'Active', FAST);
  const id = await createTable(idle.page, 'luddo', 2, { base: FAST });
  await active.page.goto(`${FAST}/#/t/${id}`);
  await active.page.click('#join');
  await idle.page.waitForFunction(() => document.querySelector('#seats')?.textContent?.includes('Active'));
  await start(idle.page);
  // The clock counts down on the page.
  await idle.page.waitForSelector('#clock');
  // The active player plays on while the idle one lets its clock run out.
  let done = false;
  const playing = playToTheEnd(active.page, undefined, false, () => done);
  try {
    await idle.page.waitForSelector('#seats li[data-seat="0"] .tag.warn:has-text("timed out")', { timeout: 30_000 });
    await idle.page.waitForSelector('#seats li[data-seat="0"] .tag.warn:has-text("bot playing for Idle")', { timeout: 30_000 });
    await active.page.waitForSelector('#seats li[data-seat="0"] .tag.warn:has-text("bot playing for Idle")', { timeout: 10_000 });
    await screenshot(idle.page, 'reclaim');
    await idle.page.click('#reclaim');
    await idle.page.waitForSelector('#seats li[data-seat="0"] .tag.warn:has-text("bot playing")', { state: 'detached', timeout: 10_000 });
    assert.equal(await idle.page.locator('#reclaim').count(), 0, 'the button is gone once the seat is back');
  } finally {
    done = true;
    await playing.catch(() => 0);
  }
  for (const who of [idle, active]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});

test('two players press Play now and meet at one table, play it out, then find their provisional ratings on a profile, not on the leaderboard', async () => {
  const a = await newPage();
  const b = await newPage();
  await signUp(a.page, 'Quick Ann');
  await signUp(b.page, 'Quick Bob');
  const ids = [];
  for (const who of [a, b]) {
    await who.page.selectOption('#q-game', 'snakes');
    await who.page.selectOption('#q-seats', '2');
    await who.page.uncheck('#q-bots');
    await who.page.click('#play-now-go');
    await who.page.waitForURL(/#\/t\//);
    ids.push(new URL(who.page.url()).hash.split('/')[2]);
  }
  assert.equal(ids[0], ids[1], 'both at the same table');
  // The second seat filled it: it started by itself.
  await a.page.waitForSelector('#board svg');
  await b.page.waitForSelector('#board svg');
  await Promise.all([playToTheEnd(a.page), playToTheEnd(b.page)]);
  await a.page.waitForSelector('#app[data-status="finished"]');
  // The first game's board answers late (after the one chosen next): the chosen one must stay.
  await a.page.route('**/v1/leaderboards/luddo?*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await a.page.goto(`${BASE}/#/leaderboard`);
  // One game against one player: provisional ratings, not listed (docs/ratings.md).
  const unlisted = () => (document.getElementById('board-rows')?.textContent ?? '').includes('No established ratings yet');
  await a.page.selectOption('#l-game', 'snakes');
  await a.page.waitForFunction(unlisted);
  await a.page.waitForTimeout(2000);
  await a.page.waitForFunction(unlisted);
  const bob = await b.page.evaluate(async () => {
    const response = await fetch('/v1/players/me', { headers: { authorization: `Bearer ${localStorage.getItem('luddo.token')}` } });
    return (await response.json()).id;
  });
  await a.page.goto(`${BASE}/#/p/${bob}`);
  await a.page.waitForSelector('#profile-title');
  assert.equal(await a.page.textContent('#profile-title'), 'Quick Bob');
  assert.match((await a.page.textContent('#profile-summary')) ?? '', /^1 game played/);
  assert.match((await a.page.textContent('#profile-ratings')) ?? '', /Snakes and Ladders\d+\?/);
  assert.equal(await a.page.locator('#profile-games li a').count(), 1);
  for (const who of [a, b]) {
    assert.deepEqual(who.errors, []);
    await who.context.close();
  }
});
