// @ts-check
/**
 * What the browser tests share: Debian's Chromium (/usr/bin/chromium, or $CHROMIUM) driven by
 * playwright-core against a running server ($LUDDO_URL; scripts/browser.sh starts one), pages
 * whose console errors are collected, signing up, creating and starting tables and playing them
 * out by clicking, screenshots to $SCREENSHOTS, and axe-core's accessibility check.
 */
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** axe-core's script, as npm installed it (web/package.json pins it). */
const AXE = join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/axe-core/axe.min.js');

export const BASE = (process.env.LUDDO_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const SCREENSHOTS = process.env.SCREENSHOTS ?? '';
/** A server whose turn clock runs out in a few seconds (the takeover test), if any. */
export const FAST = (process.env.LUDDO_FAST_URL ?? '').replace(/\/$/, '');
/** A game that has not ended by then has failed. */
export const GAME_MS = 180_000;

/** @type {import('playwright-core').Browser} */
let browser;

/** Launches the browser before the importing file's tests and closes it after them. */
export function useBrowser() {
  before(launch);
  after(async () => {
    await browser?.close();
  });
}

async function launch() {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
}

/**
 * A new browser context and page whose console errors are collected; `locale` is the browser's
 * language (its `navigator.languages`), en-US unless given.
 * @param {{ width?: number, height?: number, locale?: string }} [viewport]
 */
export async function newPage(viewport = {}) {
  const size = { width: viewport.width ?? 1280, height: viewport.height ?? 900 };
  const context = await browser.newContext({ viewport: size, locale: viewport.locale ?? 'en-US' });
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return { context, page, errors };
}

/**
 * Signs up through the form on the lobby page.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 * @param {string} [base] the server
 */
export async function signUp(page, name, base = BASE) {
  await page.goto(`${base}/#/`);
  await page.fill('#signup-name', name);
  await page.click('#signup button[type=submit]');
  await page.waitForSelector('#me-name');
  assert.equal(await page.textContent('#me-name'), name);
}

/**
 * Creates a table through the form; answers its id.
 * @param {import('playwright-core').Page} page
 * @param {string} game
 * @param {number} seats
 * @param {{ private?: boolean, uncheck?: string[], base?: string }} [options] `uncheck`: options of the game to turn off
 */
export async function createTable(page, game, seats, options = {}) {
  await page.goto(`${options.base ?? BASE}/#/new`);
  await page.selectOption('#c-game', game);
  await page.selectOption('#c-seats', String(seats));
  if (options.private) await page.check('#c-private');
  for (const name of options.uncheck ?? []) await page.uncheck(`#c-options input[name="${name}"]`);
  await page.click('#c-submit');
  await page.waitForURL(/#\/t\//);
  await page.waitForSelector('#app[data-status="open"]');
  return page.url().split('#/t/')[1];
}

/** @param {import('playwright-core').Page} page */
export async function seq(page) {
  return Number(await page.getAttribute('#app', 'data-seq'));
}

/** What a player may click, most specific first: a choice a click left open, a highlighted piece
 * or point on the board, an action button (never one that gives the game away). */
export const MOVES = ['#controls .choices button.choice:not(.danger)', '#board [data-pick]', '#controls .actions > button.action:not(.danger)'];

/**
 * Plays the page's seat by clicking (or with the keyboard: focus, then Enter) until the game is
 * over; answers how many moves it made.
 * @param {import('playwright-core').Page} page
 * @param {(moves: number) => Promise<void>} [afterMove] called after each move made
 * @param {boolean} [keyboard] play with the keyboard instead
 * @param {() => boolean} [stop] stop playing, the game not over, once this says so
 */
export async function playToTheEnd(page, afterMove, keyboard = false, stop = () => false) {
  const deadline = Date.now() + GAME_MS;
  let moves = 0;
  for (;;) {
    if (stop()) break;
    const left = deadline - Date.now();
    if (left <= 0) {
      // Say where the page stood, so that a stall can be told from a slow game.
      const where = await page.evaluate(() => {
        const text = (/** @type {string} */ id) => document.getElementById(id)?.textContent?.trim() ?? null;
        return { app: { ...document.getElementById('app')?.dataset }, connection: text('connection'), turn: text('turn'), flash: text('flash'), controls: text('controls') };
      });
      assert.fail(`the game did not end in ${GAME_MS / 1000} s (${moves} moves made): ${JSON.stringify(where)}`);
    }
    // Wait for something to click, or the end.
    const ready = await page
      .waitForSelector(`#app[data-status="finished"], ${MOVES.join(', ')}`, { timeout: Math.min(left, 1000) })
      .catch(() => null);
    if (!ready) continue;
    const found = await page.evaluate((selectors) => {
      const app = document.getElementById('app');
      if (app?.dataset.status === 'finished') return null;
      const index = selectors.findIndex((s) => document.querySelector(s));
      return { index, renders: Number(app?.dataset.renders) };
    }, MOVES);
    if (!found) break;
    if (found.index < 0) continue;
    const target = page.locator(MOVES[found.index]).first();
    try {
      if (keyboard) {
        await target.focus({ timeout: 1500 });
        await page.keyboard.press('Enter');
      } else {
        try {
          await target.click({ timeout: 1500 });
        } catch {
          // Stacked pieces overlap: the first one's centre may lie under its neighbour, which
          // takes the click. A player then uses the keyboard, as this does.
          await target.focus({ timeout: 1500 });
          await page.keyboard.press('Enter');
        }
      }
    } catch {
      // The page re-rendered under the click (an entry arrived): look again.
      continue;
    }
    // Wait for the redraw the click caused (a move sent, a choice offered, a point selected).
    await page
      .waitForFunction((r) => Number(document.getElementById('app')?.dataset.renders) > r, found.renders, { timeout: 5000 })
      .catch(() => {});
    moves += 1;
    if (afterMove) await afterMove(moves);
  }
  return moves;
}

/**
 * Starts the table (host), waits for the board.
 * @param {import('playwright-core').Page} page
 */
export async function start(page) {
  await page.click('#start');
  await page.waitForSelector('#app[data-status="playing"]');
  await page.waitForSelector('#board svg');
}

/** @param {import('playwright-core').Page} page @param {string} name */
export async function screenshot(page, name) {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/**
 * One whole game against bots, every move clicked; a screenshot mid-game.
 * @param {string} game
 * @param {number} seats
 * @param {string} shot the screenshot's name
 * @param {number} shotAt after this many moves
 * @param {(page: import('playwright-core').Page, moves: number) => Promise<void>} [extra]
 * @param {boolean} [keyboard] every move with the keyboard
 * @param {string[]} [uncheck] options of the game to turn off
 */
export async function gameAgainstBots(game, seats, shot, shotAt, extra, keyboard = false, uncheck = []) {
  const { context, page, errors } = await newPage();
  await signUp(page, `${game} player`);
  await createTable(page, game, seats, { uncheck });
  await start(page);
  let shotTaken = false;
  const moves = await playToTheEnd(page, async (n) => {
    if (!shotTaken && n >= shotAt) {
      shotTaken = true;
      await screenshot(page, shot);
    }
    if (extra) await extra(page, n);
  }, keyboard);
  assert.ok(moves > 0, 'moves were made by clicking');
  await page.waitForSelector('#end .result');
  if (!shotTaken) await screenshot(page, shot);
  assert.ok(await page.isHidden('#flash'), `no error was shown: ${await page.textContent('#flash')}`);
  assert.deepEqual(errors, []);
  return { context, page, errors };
}

/** The WCAG rules axe-core checks: 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * axe-core's WCAG 2.2 A/AA violations on the page as it stands, each as "rule: target" lines
 * (an empty list when there is none): assert.deepEqual(await axeViolations(page), []).
 * @param {import('playwright-core').Page} page
 */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.addScriptTag({ path: AXE });
  }
  /** @type {{ id: string, help: string, nodes: { target: string[] }[] }[]} */
  const violations = await page.evaluate(
    (tags) => /** @type {any} */ (window).axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((/** @type {any} */ r) => r.violations),
    WCAG,
  );
  return violations.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.help}): ${node.target.join(' ')}`));
}
