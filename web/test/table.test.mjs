// @ts-check
/**
 * The table page's promises to players (issue #34), in Chromium: a screen reader's path through
 * a whole game (the live region's words), the turn alert of a page in the background, rematch
 * from the finished page between two players, stacked pieces each clickable on a phone, and a
 * table that fits the window, keeps its seats' colours, tags its bots, counts backgammon's pips,
 * says who threw the dice and answers single-key queries. Scripted dice (`dice` at table
 * creation) need a server in test mode (LUDDO_TEST_MODE=1; scripts/browser.sh starts one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, createTable, newPage, playToTheEnd, screenshot, signUp, start, useBrowser } from './support/browser.mjs';

useBrowser();

/**
 * Creates a table through the API with the page's token (scripted dice need it), opens it.
 * @param {import('playwright-core').Page} page
 * @param {Record<string, unknown>} body
 */
async function tableWithDice(page, body) {
  const answer = await page.evaluate(async (request) => {
    const response = await fetch('/v1/tables', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('luddo.token')}` },
      body: JSON.stringify(request),
    });
    return { status: response.status, body: await response.json() };
  }, body);
  assert.equal(answer.status, 201, `the table was created: ${JSON.stringify(answer.body)}`);
  await page.goto(`${BASE}/#/t/${answer.body.id}`);
  await page.waitForSelector('#app[data-status="open"]');
  return /** @type {string} */ (answer.body.id);
}

/**
 * Records every text the live region gets, from now on, in `window.said`.
 * @param {import('playwright-core').Page} page
 */
async function recordAnnouncements(page) {
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.said = [];
    new MutationObserver((changes) => {
      for (const change of changes) change.addedNodes.forEach((node) => w.said.push(node.textContent));
    }).observe(/** @type {HTMLElement} */ (document.getElementById('announcer')), { childList: true });
  });
}

/** @param {import('playwright-core').Page} page @returns {Promise<string[]>} */
const announcements = (page) => page.evaluate(() => /** @type {any} */ (window).said);

/** Clicks the page's Roll button once it is there, and waits for the throw's entry. @param {import('playwright-core').Page} page */
async function roll(page) {
  const before = Number(await page.getAttribute('#app', 'data-seq'));
  await page.click('#controls .actions button[data-action]');
  await page.waitForFunction((seq) => Number(document.getElementById('app')?.dataset.seq) > seq, before);
}

test('the live region says every throw and every move of a whole Luddo game against a bot, in order, and its end', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Reader');
  const id = await createTable(page, 'luddo', 2);
  await recordAnnouncements(page);
  await start(page);
  await playToTheEnd(page);
  await page.waitForSelector('#end .result');
  const said = await announcements(page);
  const record = await page.evaluate(async (table) => (await fetch(`/v1/tables/${table}/record`)).json(), id);
  const names = record.table.seats.map((/** @type {any} */ s) => s.player?.name ?? `Bot ${s.seat + 1}`);
  const seats = record.entries.find((/** @type {any} */ e) => e.state)?.state.seats;
  const who = (/** @type {number} */ seat) => `${names[seat]} (${seats[seat].colour})`;
  // Every throw and every move of the log, in the log's order, in the words of the live region.
  /** @type {string[]} */
  const expected = [];
  for (const entry of record.entries) {
    for (const event of entry.events) {
      if (event.type === 'rolled') expected.push(`${who(event.seat)} rolled ${event.dice.join(' and ')}.`);
      if (event.type === 'moved') expected.push(`${who(event.seat)} moved piece ${event.piece + 1} from `);
      if (event.type === 'captured') expected.push(`${who(event.seat)} captured `);
    }
  }
  assert.ok(expected.length > 20, `a whole game: ${expected.length} throws and moves`);
  const text = said.join('\n');
  let at = 0;
  for (const phrase of expected) {
    const found = text.indexOf(phrase, at);
    assert.ok(found >= 0, `said in order: ${JSON.stringify(phrase)} after ${JSON.stringify(text.slice(Math.max(0, at - 200), at))}`);
    at = found + phrase.length;
  }
  assert.match(text.slice(at), /Game over: .+ won\./, 'the end is said, with the winner');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * Makes a page behave as a tab in the background once `window.luddoHide()` is called: hidden
 * (`visibilityState`), no animation frames, and a `Notification` that records what it shows.
 * Headless Chromium keeps every tab visible, even one behind another brought to the front
 * (w3c/webdriver#1718), so the test brings another page to the front as a player would and
 * then asks the page to be what a real browser makes of it.
 */
function backgroundTab() {
  const w = /** @type {any} */ (window);
  w.notified = [];
  w.Notification = class {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    /** @param {string} title */
    constructor(title) {
      w.notified.push(title);
    }
  };
  w.luddoHide = () => {
    Object.defineProperty(document, 'visibilityState', { get: () => 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { get: () => true, configurable: true });
    w.requestAnimationFrame = () => 0;
    document.dispatchEvent(new Event('visibilitychange'));
  };
}

test('a player whose page is in the background is alerted by its title and a notification when the turn comes back', async () => {
  const { context, page, errors } = await newPage();
  await context.addInitScript(backgroundTab);
  await signUp(page, 'Away');
  // Luddo, two seats: the opening 6 against 1 gives the first turn to seat 0; then 3 and 2
  // bring no piece out, so the turn passes to the bot and back.
  await tableWithDice(page, { game: 'luddo', seat_count: 2, dice: [6, 1, 3, 2, 4, 5, 3, 2, 4, 5] });
  const title = await page.title();
  await page.click('#table-settings summary');
  await page.check('#set-notify');
  await start(page);
  await page.waitForFunction(() => document.title.startsWith('●'));
  assert.equal(await page.title(), `● Your turn — ${title}`);
  // The title's changes, and whether the page was hidden at each.
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.titles = [];
    new MutationObserver(() => w.titles.push({ title: document.title, visibility: document.visibilityState })).observe(
      /** @type {HTMLElement} */ (document.querySelector('title')),
      { childList: true, characterData: true, subtree: true },
    );
  });
  const other = await context.newPage();
  await other.goto(`${BASE}/#/`);
  await other.bringToFront();
  await page.evaluate(() => /** @type {any} */ (window).luddoHide());
  assert.equal(await page.evaluate(() => document.visibilityState), 'hidden', 'the table page is in the background');
  // The roll, clicked in the hidden page: no piece can move, the bot plays, the turn comes back.
  await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#controls .actions button[data-action]')).click());
  await page.waitForFunction(() => /** @type {any} */ (window).titles.some((/** @type {any} */ t) => t.title.startsWith('●')), undefined, { timeout: 20_000 });
  const titles = await page.evaluate(() => /** @type {any} */ (window).titles);
  assert.equal(titles[0].title, title, `the title was put back while the bot played: ${JSON.stringify(titles)}`);
  const alert = titles.find((/** @type {any} */ t) => t.title.startsWith('●'));
  assert.deepEqual(alert, { title: `● Your turn — ${title}`, visibility: 'hidden' }, 'the alert came while the page was hidden');
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).notified), ['Your turn'], 'one notification, while hidden');
  assert.deepEqual(errors, []);
  await context.close();
});

test('rematch from the finished page: one player asks, the other sees the request live and accepts, both land on the new table', async () => {
  const host = await newPage();
  const guest = await newPage({ width: 390, height: 844 });
  await signUp(host.page, 'Ann');
  await signUp(guest.page, 'Bob');
  // Snakes and Ladders with scripted dice: a short game that seat 0 wins (1 climbs to 38, …).
  const id = await tableWithDice(host.page, { game: 'snakes', seat_count: 2, dice: [6, 1, 1, 2, 4, 2, 4, 2, 5, 2, 4, 2, 5, 2, 4, 2, 3, 3, 3, 3] });
  await guest.page.goto(`${BASE}/#/t/${id}`);
  await guest.page.click('#join');
  await host.page.waitForSelector('#seats li[data-seat="1"] .discriminator');
  await start(host.page);
  await Promise.all([playToTheEnd(host.page), playToTheEnd(guest.page)]);
  for (const { page } of [host, guest]) {
    await page.waitForSelector('#rematch');
    assert.equal(await page.textContent('#connection'), 'finished', 'the status tag is not "live" once the game is over');
  }
  await host.page.click('#rematch');
  await host.page.waitForSelector('#end .rematch:has-text("waiting for Bob")');
  assert.equal(await host.page.locator('#rematch').count(), 0, 'asked once');
  // The guest, who has not asked, sees Ann's request come, in the end section and the live region.
  await guest.page.waitForSelector('#end .rematch:has-text("Ann wants a rematch.")', { timeout: 10_000 });
  await guest.page.waitForSelector('#seats li[data-seat="0"] :text("wants a rematch")');
  await guest.page.waitForFunction(() => document.getElementById('announcer')?.textContent?.includes('Ann wants a rematch.'), null, { timeout: 5000 });
  await guest.page.click('#rematch');
  for (const { page } of [host, guest]) {
    await page.waitForFunction((old) => location.hash.startsWith('#/t/') && !location.hash.endsWith(old), id, { timeout: 10_000 });
    await page.waitForSelector('#app[data-status="playing"]');
  }
  assert.equal(host.page.url().split('#/t/')[1], guest.page.url().split('#/t/')[1], 'both on the same new table');
  for (const { page, errors, context } of [host, guest]) {
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('on a 390 px phone, every piece of a stack shows and takes its own click through a target of at least 24×24 px', async () => {
  const { context, page, errors } = await newPage({ width: 390, height: 844 });
  await signUp(page, 'Stacker');
  // Classic Ludo, two seats, every throw a 6 after the opening: pieces 0, 1 and 2 come out onto
  // the start square (piece 0 by itself: the only move), piece 3 stays in base. Without fresh
  // dice, so that the server rolls for the seat where a roll is its only move, as this counts
  // on (a seat with a dice chain rolls only when it asks: fresh-dice.test.mjs).
  await tableWithDice(page, { game: 'ludo', seat_count: 2, fresh_dice: false, dice: [6, 1, ...Array(20).fill(6)] });
  await start(page);
  await roll(page);
  for (const piece of [1, 2]) {
    await roll(page);
    await page.click(`#board [data-pick="p0-${piece}"]`);
    await page.waitForFunction((p) => /** @type {HTMLElement | null} */ (document.querySelector(`[data-piece="p0-${p}"]`))?.getAttribute('aria-label')?.includes('one of'), piece);
  }
  await recordAnnouncements(page);
  // Three on the start square: each clicked in turn at its own centre moves that piece.
  for (const piece of [0, 1, 2]) {
    await roll(page);
    // The board in view, as a player scrolls it back after the Roll button below it (how far the
    // click scrolled depends on how long the page is).
    await page.evaluate(() => document.getElementById('board')?.scrollIntoView({ block: 'start' }));
    const targets = await page.evaluate(() =>
      [...document.querySelectorAll('#board [data-pick]')].map((el) => {
        const hit = /** @type {Element} */ (el.querySelector('.hit')).getBoundingClientRect();
        const x = hit.left + hit.width / 2;
        const y = hit.top + hit.height / 2;
        const under = /** @type {HTMLElement | null} */ (document.elementFromPoint(x, y)?.closest('[data-piece]') ?? null);
        return { key: /** @type {HTMLElement} */ (el).dataset.piece, width: hit.width, height: hit.height, x, y, under: under?.dataset.piece ?? null, label: el.getAttribute('aria-label') };
      }),
    );
    if (piece === 0) await screenshot(page, 'stack-phone');
    const stacked = targets.filter((target) => target.label?.includes('one of'));
    assert.ok(stacked.length >= 2, `a stack to click: ${JSON.stringify(targets)}`);
    for (const target of targets) {
      assert.ok(target.width >= 24 && target.height >= 24, `${target.key}'s target is ${target.width}×${target.height} px`);
      assert.equal(target.under, target.key, `${target.key} is what lies at its own centre`);
    }
    const mine = /** @type {{ x: number, y: number }} */ (targets.find((target) => target.key === `p0-${piece}`));
    await page.evaluate(() => {
      /** @type {any} */ (window).said.length = 0;
    });
    await page.mouse.click(mine.x, mine.y);
    await page.waitForFunction((p) => /** @type {any} */ (window).said.some((/** @type {string} */ line) => line.includes(`moved piece ${p + 1} from`)), piece);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a table fits a 1280×900 window, keeps each seat its colour and shape from the waiting room to the end, tags its bot, says who threw and answers single keys', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Looker');
  await createTable(page, 'luddo', 2);
  const swatches = () => page.evaluate(() => [...document.querySelectorAll('#seats li')].map((li) => li.querySelector('svg.swatch')?.innerHTML));
  const waiting = await swatches();
  await start(page);
  assert.deepEqual(await swatches(), waiting, 'the same colours and shapes in the game as in the waiting room');
  assert.equal(await page.locator('#seats li[data-seat="1"] .tag.bot').count(), 1, 'the bot is tagged bot');
  assert.equal(await page.locator('#seats li[data-seat="1"] .tag.off').count(), 0, 'the bot is not "offline"');
  const size = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth }));
  assert.ok(size.height <= 900 && size.width <= 1280, `no scrolling: ${JSON.stringify(size)}`);
  await page.waitForSelector('#controls button[data-action]');
  // The single keys, with the table focused.
  await recordAnnouncements(page);
  await page.focus('#app');
  await page.keyboard.press('t');
  await page.keyboard.press('?');
  await page.waitForFunction(() => /** @type {any} */ (window).said.length >= 2);
  const said = await announcements(page);
  assert.match(said[0], /^Your turn/);
  assert.match(said[1], /^Keys: T whose turn/);
  await page.click('#table-settings summary');
  await page.uncheck('#set-keys');
  await page.focus('#app');
  await page.keyboard.press('t');
  await page.waitForTimeout(300);
  assert.deepEqual((await announcements(page)).slice(2), [], 'the keys are off');
  await page.check('#set-keys');
  await page.click('#table-settings summary');
  // Whose dice: after the first throws, the thrower is named; at the viewer's turn to throw,
  // another seat's throw is faded and said to be theirs.
  await playToTheEnd(page, async () => {
    const owner = await page.textContent('#dice .dice-owner').catch(() => null);
    if (owner) assert.match(owner, /You threw|Bot 2 \(green\) threw/);
    if (await page.$('#dice .dice-faces.stale')) assert.match(owner ?? '', /Bot 2/);
  });
  await page.waitForSelector('#end .result');
  assert.deepEqual(await swatches(), waiting, 'the same colours and shapes at the end');
  assert.equal(await page.textContent('#connection'), 'finished');
  assert.deepEqual(errors, []);
  await context.close();
});

test('backgammon shows both seats’ pip counts', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Pips');
  await createTable(page, 'backgammon', 2);
  await start(page);
  const pips = await page.textContent('#board .pips');
  assert.match(pips ?? '', /^Pips: Pips \d+ · Bot 2 \d+$/);
  const counts = (pips ?? '').match(/\d+(?= ·|$)/g)?.map(Number) ?? [];
  assert.ok(counts.every((n) => n > 100 && n <= 167), `a count of each seat near the start: ${pips}`);
  assert.deepEqual(errors, []);
  await context.close();
});
