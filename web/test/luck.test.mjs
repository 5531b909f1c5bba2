// @ts-check
/**
 * The luck and fairness ledger in the browser (docs/luck.md): a game played to its end is counted
 * a moment later on the public fairness page (reached from the navigation) and in the Luck
 * section of the player's profile, with the faces' plot and the p-values in words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, createTable, newPage, playToTheEnd, signUp, start, useBrowser } from './support/browser.mjs';

useBrowser();

/**
 * Reloads `hash` until its ledger shows `game` counted at more tables than `before`.
 * @param {import('playwright-core').Page} page
 * @param {string} hash
 * @param {string} selector the ledger's container
 * @param {number} before
 */
async function countedAfter(page, hash, selector, before) {
  for (let i = 0; i < 40; i++) {
    // A new load each time: going to the address already shown changes nothing.
    await page.goto(`${BASE}/${hash}`);
    await page.reload();
    await page.waitForSelector(selector);
    const now = await tables(page, selector);
    if (now > before) return now;
    await page.waitForTimeout(500);
  }
  assert.fail(`${hash}: the finished game was never counted`);
}

/** Tables counted for snakes in the ledger under `selector` (0 when none). @param {import('playwright-core').Page} page @param {string} selector */
async function tables(page, selector) {
  const block = page.locator(`${selector} .luck-game[data-game="snakes"]`);
  if (!(await block.count())) return 0;
  const text = (await block.locator('p').first().textContent()) ?? '';
  return Number(/tables: (\d+)/.exec(text)?.[1] ?? 0);
}

test('a finished game is counted on the fairness page and in the Luck section of its player’s profile', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Lucky');
  await page.goto(`${BASE}/#/`);
  await page.click('nav a[href="#/fairness"]');
  await page.waitForSelector('#fairness-games');
  const before = await tables(page, '#fairness-games');
  await createTable(page, 'snakes', 2);
  await start(page);
  await playToTheEnd(page);
  await countedAfter(page, '#/fairness', '#fairness-games', before);
  assert.ok(await page.locator('#fairness-games .luck-game[data-game="snakes"] svg[role="img"]').count(), 'the faces are plotted');
  assert.match((await page.textContent('#fairness-games')) ?? '', /p = /, 'p-values in words');
  const profile = (await page.getAttribute('#me-profile', 'href')) ?? '';
  assert.match(profile, /^#\/p\//);
  await countedAfter(page, profile, '#profile-luck', 0);
  assert.deepEqual(errors, []);
  await context.close();
});
