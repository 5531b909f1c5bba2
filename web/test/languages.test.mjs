// @ts-check
/**
 * The client in its languages: every problem code the server can answer has a message; in the
 * pseudolocale (`en-XA`: every letter of every message accented) no page shows an unaccented
 * English word, so a string shown without `t()` fails here; each language renders a live table
 * (from the browser's own language), with the page's `lang`; the switch in the header redraws
 * the page in place and is remembered; a refusal of the server is shown by its code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FluentResource } from '@fluent/bundle';
import { BASE, createTable, newPage, playToTheEnd, screenshot, signUp, start, useBrowser } from './support/browser.mjs';

useBrowser();

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The message ids and values of one language's area file. @param {string} language @param {string} area */
function messages(language, area) {
  const resource = new FluentResource(readFileSync(join(root, 'web/src/locales', language, `${area}.ftl`), 'utf8'));
  return new Map(resource.body.map((m) => [m.id, m.value]));
}

test('every problem code the server can answer (src/api/error.rs ErrorCode) has a problem-<code> message', () => {
  const source = readFileSync(join(root, 'src/api/error.rs'), 'utf8');
  const declared = source.slice(source.indexOf('error_codes! {'), source.indexOf('/// A failed request'));
  const codes = [...declared.matchAll(/^\s*[A-Z]\w* = "([a-z_]+)",$/gm)].map((m) => m[1]);
  assert.ok(codes.length > 40, `the codes were read (${codes.length})`);
  const known = messages('en', 'problems');
  assert.deepEqual(codes.filter((code) => !known.has(`problem-${code}`)), []);
});

/**
 * Where an unlocalized string hides: a visible text node, or an attribute a person hears or
 * reads (aria-label, title, placeholder, alt), or an SVG's <title>/<desc>. Each one holding a
 * run of two or more unaccented ASCII letters, outside the allowlist, is answered.
 * @param {import('playwright-core').Page} page
 */
function unlocalized(page) {
  return page.evaluate(() => {
    // What may stay as it is, and why:
    const ALLOWED = [
      '.player-name', // a player's name, as given (other tests' players show in the lobby)
      '.discriminator', // a player's tag: the start of the id (hex digits)
      '#language option', // each language named in itself (English, Deutsch, Magyar)
      '.brand', // the brand, Luddo
      'noscript', // shown only without JavaScript, so never translated
      'script, style',
    ].join(', ');
    const ASCII_WORD = /[A-Za-z]{2,}/;
    // Text marked as written in another language than the page's (`lang`): the rules, which
    // the pseudolocale shows in English, and a language's name written in itself.
    const inAnotherLanguage = (/** @type {Element} */ element) => element.closest('[lang]') !== document.documentElement;
    /** @type {string[]} */
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const parent = node.parentElement;
      if (!parent || !ASCII_WORD.test(text) || parent.closest(ALLOWED) || inAnotherLanguage(parent)) continue;
      const inSvgText = parent.closest('svg title, svg desc');
      const option = parent.closest('option');
      const seen = inSvgText || (option ? option.parentElement?.checkVisibility() : parent.checkVisibility({ visibilityProperty: true }));
      if (seen) found.push(text.trim());
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (element.closest(ALLOWED) || inAnotherLanguage(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value && ASCII_WORD.test(value)) found.push(`${name}="${value}"`);
      }
    }
    return found;
  });
}

test('in the pseudolocale no page shows an unlocalized string (every offending string listed with its page)', async () => {
  /** @type {Map<string, Set<string>>} offending strings, by page */
  const offences = new Map();
  /** @param {import('playwright-core').Page} page @param {string} where */
  const scan = async (page, where) => {
    for (const text of await unlocalized(page)) {
      if (!offences.has(where)) offences.set(where, new Set());
      offences.get(where)?.add(text);
    }
  };
  const player = await newPage();
  const { page } = player;
  // `?lang=` chooses the pseudolocale, and it is remembered for the pages after.
  await page.goto(`${BASE}/?lang=en-XA#/`);
  await page.waitForSelector('#lobby-rows');
  assert.equal(await page.getAttribute('html', 'lang'), 'en-XA');
  await scan(page, 'lobby, signed out');
  // Names without ASCII letters, so that a name is never taken for an unlocalized word where a
  // page shows it without its `.player-name` (the table's pages).
  await signUp(page, 'Ωμέγα');
  await page.waitForSelector('#lobby-rows');
  await scan(page, 'lobby, signed in');
  await page.goto(`${BASE}/#/new`);
  await page.waitForSelector('#c-options');
  await scan(page, 'new table');
  const games = await page.evaluate(async () => (await (await fetch('/v1/games')).json()).games.map((/** @type {any} */ g) => g.game));
  for (const game of games) {
    await createTable(page, game, 2);
    await scan(page, `waiting room (${game})`);
    await start(page);
    let moves = 0;
    await playToTheEnd(page, async (n) => {
      moves = n;
    }, false, () => moves >= 3);
    await scan(page, `live table (${game})`);
  }
  // A game ended at once: an Uckers player up-boards.
  const finished = await createTable(page, 'uckers', 2);
  await start(page);
  await page.locator('#controls button.danger').first().click();
  await page.waitForSelector('#app[data-status="finished"]');
  await page.waitForSelector('#fairness .verified, #fairness .error').catch(() => {});
  await scan(page, 'finished table');
  await page.goto(`${BASE}/#/replay/${finished}`);
  await page.waitForSelector('#r-pos');
  await scan(page, 'replay');
  await page.click('#me-profile');
  await page.waitForSelector('#profile-games li a');
  await scan(page, 'profile');
  await page.goto(`${BASE}/#/friends`);
  await page.waitForSelector('#friends-rows');
  await page.waitForLoadState('networkidle');
  await scan(page, 'friends');
  await page.goto(`${BASE}/#/leaderboard`);
  await page.waitForSelector('#board-rows');
  await page.waitForLoadState('networkidle');
  await scan(page, 'leaderboard');
  await page.goto(`${BASE}/#/shame`);
  await page.waitForSelector('#shame-rows a');
  await scan(page, 'hall of shame');
  // The rules of each game: the "rules" part of the client, at #/rules/<game>.
  for (const game of games) {
    await page.goto(`${BASE}/#/rules/${game}`);
    await page.waitForLoadState('networkidle');
    await scan(page, `rules (${game})`);
  }
  // A private table's invite link, opened by someone not signed in.
  await createTable(page, 'snakes', 2, { private: true });
  const link = await page.inputValue('#invite-link');
  const visitor = await newPage();
  await visitor.page.goto(`${BASE}/?lang=en-XA${new URL(link).hash}`);
  await visitor.page.waitForSelector('#signup-name');
  await scan(visitor.page, 'invite link');
  const report = [...offences].map(([where, texts]) => `${where}:\n${[...texts].map((text) => `  ${JSON.stringify(text)}`).join('\n')}`);
  assert.deepEqual(player.errors, []);
  assert.deepEqual(visitor.errors, []);
  await player.context.close();
  await visitor.context.close();
  assert.equal(report.length, 0, `strings shown without t():\n${report.join('\n')}`);
});

/** Each language by the browser's own: its locale, the page's `lang`, its word for the lobby. */
const LOCALES = [
  { locale: 'de-DE', lang: 'de' },
  { locale: 'hu-HU', lang: 'hu' },
  { locale: 'hi-IN', lang: 'hi' },
  { locale: 'en-GB', lang: 'en' },
];

test('each language renders a live table, chosen from the browser\'s language, with the page\'s lang', async () => {
  for (const { locale, lang } of LOCALES) {
    const { context, page, errors } = await newPage({ locale });
    await signUp(page, 'Ωμέγα');
    assert.equal(await page.getAttribute('html', 'lang'), lang, `${locale}: html lang`);
    assert.equal(await page.textContent('nav a[href="#/"]'), messages(lang, 'common').get('nav-lobby'), `${locale}: the lobby's link`);
    assert.equal(await page.inputValue('#language'), lang, `${locale}: the switch says the language in use`);
    await createTable(page, 'luddo', 4);
    await start(page);
    let moves = 0;
    await playToTheEnd(page, async (n) => {
      moves = n;
    }, false, () => moves >= 4);
    await screenshot(page, `table-${lang}`);
    assert.deepEqual(errors, [], locale);
    await context.close();
  }
});

test('the language switch redraws the page in place (no reload), sets the page\'s lang, and is remembered', async () => {
  const { context, page, errors } = await newPage();
  await signUp(page, 'Ωμέγα');
  await page.goto(`${BASE}/#/leaderboard`);
  await page.waitForSelector('#board-title');
  assert.equal(await page.textContent('#board-title'), 'Leaderboard');
  // A mark on the window: a reload would lose it.
  await page.evaluate(() => {
    /** @type {any} */ (window).sameDocument = true;
  });
  await page.selectOption('#language', 'hu');
  await page.waitForFunction(() => document.getElementById('board-title')?.textContent === 'Ranglista');
  assert.equal(await page.getAttribute('html', 'lang'), 'hu');
  assert.equal(await page.textContent('nav a[href="#/"]'), 'Előcsarnok');
  assert.match((await page.textContent('#account')) ?? '', /^Bejelentkezve: Ωμέγα #[0-9a-f]{4} Kijelentkezés$/);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).sameDocument), true, 'no reload');
  await page.reload();
  await page.waitForSelector('#board-title');
  assert.equal(await page.textContent('#board-title'), 'Ranglista');
  assert.equal(await page.inputValue('#language'), 'hu');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a refusal of the server is shown by its code, in the language in use', async () => {
  const { context, page, errors } = await newPage({ locale: 'de-DE' });
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('#signup-name');
  // 33 visible characters: the server refuses the name (422 invalid_name).
  await page.fill('#signup-name', 'Ω'.repeat(33));
  await page.click('#signup button[type=submit]');
  await page.waitForSelector('#flash:not([hidden])');
  assert.equal(await page.textContent('#flash'), messages('de', 'problems').get('problem-invalid_name'));
  assert.deepEqual(errors, ['console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
  await context.close();
});
