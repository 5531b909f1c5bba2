// @ts-check
// The long clock (WCAG 2.2.1, "Timing adjustable"): the new-table form offers it for private
// tables only, and a table created with it has ten times the server's clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, axeViolations, newPage, signUp, useBrowser } from './support/browser.mjs';

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

test('a private table created with the long clock has ten times the clock', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Screen reader');
  await page.goto(`${BASE}/#/new`);
  await page.selectOption('#c-game', 'luddo');
  await page.selectOption('#c-seats', '2');
  const box = page.locator('#c-long-clock');
  assert.ok(await box.isDisabled(), 'not offered to a public table');
  await page.check('#c-private');
  assert.ok(await box.isEnabled(), 'offered once Private is ticked');
  await box.check();
  await page.uncheck('#c-private');
  assert.ok((await box.isDisabled()) && !(await box.isChecked()), 'a public table again: no long clock');
  await page.check('#c-private');
  await box.check();
  // Its name says what it is for, and the hint why it may be off.
  const name = await page.getByRole('checkbox', { name: /long clock/i }).getAttribute('id');
  assert.equal(name, 'c-long-clock');
  assert.match(await page.textContent('#c-long-clock-hint') ?? '', /private/i);
  const mine = (await axeViolations(page)).filter((v) => v.includes('c-long-clock'));
  assert.deepEqual(mine, []);

  await page.click('#c-submit');
  await page.waitForURL(/#\/t\//);
  await page.waitForSelector('#app[data-status="open"]');
  const id = page.url().split('#/t/')[1];
  const { games } = await read(page, '/v1/games');
  const server = games.find((/** @type {{ game: string }} */ g) => g.game === 'luddo').clocks.turn_seconds;
  const table = await read(page, `/v1/tables/${id}`);
  assert.equal(table.visibility, 'private');
  assert.equal(table.long_clock, true);
  assert.equal(table.turn_seconds, server * 10);
  // The waiting room shows the table's clock.
  const shown = await page.textContent('#app') ?? '';
  const seconds = table.turn_seconds;
  assert.ok(shown.includes(String(seconds)) || shown.includes(seconds.toLocaleString('en')), `${seconds} s shown: ${shown}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the long clock is offered in the language of the page', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Pseudo reader');
  await page.goto(`${BASE}/?lang=en-XA#/new`);
  await page.waitForSelector('#c-long-clock');
  const label = (await page.locator('label', { has: page.locator('#c-long-clock') }).textContent()) ?? '';
  assert.ok(label.trim().length > 0);
  assert.doesNotMatch(label, /Long clock/, `the label goes through t(): ${label}`);
  assert.doesNotMatch(await page.textContent('#c-long-clock-hint') ?? '', /Private tables only/);
  assert.deepEqual(errors, []);
  await context.close();
});
