// The rules pages (#/rules, #/rules/<game>) in every language, the Devanagari font they need for
// Hindi, and their files (web/src/rules/<language>/). The browser's locale picks the language, as
// it does for a player.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { axeViolations, BASE, newPage, screenshot, useBrowser } from './support/browser.mjs';

useBrowser();

const rulesDir = join(dirname(fileURLToPath(import.meta.url)), '../src/rules');
/** Each language of the client, and a browser locale that picks it. */
const LOCALES = { en: 'en-US', de: 'de-DE', hu: 'hu-HU', hi: 'hi-IN' };

/** The text of a rules file. @param {string} language @param {string} name */
function rulesFile(language, name) {
  return readFileSync(join(rulesDir, language, `${name}.html`), 'utf8');
}

/** The texts of a fragment's `<h2>` headings, in order. @param {string} html */
function headings(html) {
  return [...html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => m[1]);
}

/** The games of the server's registry. @returns {Promise<string[]>} */
async function registry() {
  const response = await fetch(`${BASE}/v1/games`);
  assert.equal(response.status, 200);
  return (await response.json()).games.map((/** @type {{ game: string }} */ g) => g.game);
}

test('every language has the rules of the same games, section for section, with no script or inline style', () => {
  const english = readdirSync(join(rulesDir, 'en')).sort();
  assert.ok(english.includes('online.html'));
  for (const language of Object.keys(LOCALES)) {
    assert.deepEqual(readdirSync(join(rulesDir, language)).sort(), english, `${language}: the same files as en`);
    for (const file of english) {
      const name = file.replace(/\.html$/, '');
      const text = rulesFile(language, name);
      const source = rulesFile('en', name);
      assert.doesNotMatch(text, /<script|<style|\sstyle=|\son[a-z]+=|<iframe|javascript:/i, `${language}/${file}`);
      // The same sections and as many points in each: a translation that drops a rule shows.
      assert.equal(headings(text).length, headings(source).length, `${language}/${file}: its <h2> sections`);
      for (const tag of ['li', 'ol', 'ul', 'p']) {
        const count = (/** @type {string} */ html) => html.split(`<${tag}>`).length;
        assert.equal(count(text), count(source), `${language}/${file}: its <${tag}> elements`);
      }
    }
  }
  assert.deepEqual(headings(rulesFile('hi', 'luddo')).filter((h) => !/[\u0900-\u097F]/.test(h)), [], 'Hindi headings are in Devanagari');
});

test('every game\'s rules open in every language, from the header\'s link', async () => {
  const games = await registry();
  assert.deepEqual(
    [...games].sort(),
    readdirSync(join(rulesDir, 'en')).filter((f) => f !== 'online.html').map((f) => f.replace(/\.html$/, '')).sort(),
    'a rules file for each game of the registry, and for no other',
  );
  for (const [language, locale] of Object.entries(LOCALES)) {
    const { context, page, errors } = await newPage({ locale });
    await page.goto(`${BASE}/#/`);
    await page.click('nav a[href="#/rules"]');
    await page.waitForSelector('.rules-games a');
    assert.equal(await page.evaluate(() => document.documentElement.lang), language);
    assert.equal(await page.getAttribute('nav a[href="#/rules"]', 'aria-current'), 'page');
    assert.deepEqual(
      await page.$$eval('.rules-games a', (links) => links.map((a) => a.getAttribute('href'))),
      games.map((g) => `#/rules/${g}`),
    );
    for (const game of games) {
      await page.goto(`${BASE}/#/rules/${game}`);
      const [first] = headings(rulesFile(language, game));
      const [online] = headings(rulesFile(language, 'online'));
      await page.waitForSelector('#rules-text:not([aria-busy]) h2');
      const shown = await page.$$eval('#rules-text h2', (hs) => hs.map((h) => h.textContent));
      assert.equal(shown[0], first, `${language}/${game}: its first section`);
      assert.ok(shown.includes(online), `${language}/${game}: the online table's rules follow`);
      assert.equal(await page.getAttribute('#rules-text', 'lang'), language);
      assert.equal(await page.evaluate(() => document.documentElement.lang), language);
      // The other games are linked, this one is not.
      const others = await page.$$eval('.rules-others a', (links) => links.map((a) => a.getAttribute('href')));
      assert.deepEqual(others, games.filter((g) => g !== game).map((g) => `#/rules/${g}`));
    }
    assert.deepEqual(errors, [], `${language}: no console error`);
    await context.close();
  }
});

test('the Hindi rules are drawn in the vendored Noto Sans Devanagari', async () => {
  const { context, page, errors } = await newPage({ locale: 'hi-IN' });
  /** @type {string[]} */
  const fonts = [];
  page.on('response', (response) => {
    if (response.url().includes('/web/fonts/') && response.ok()) fonts.push(new URL(response.url()).pathname);
  });
  await page.goto(`${BASE}/#/rules/luddo`);
  await page.waitForSelector('#rules-text:not([aria-busy]) h2');
  const drawn = await page.evaluate(async () => {
    await document.fonts.ready;
    const faces = [...document.fonts].filter((face) => face.family.replace(/"/g, '') === 'Noto Sans Devanagari');
    return {
      check: document.fonts.check('16px "Noto Sans Devanagari"', 'लूडो'),
      regular: faces.find((face) => face.weight === '400')?.status,
      heading: getComputedStyle(/** @type {Element} */ (document.querySelector('#rules-text h2'))).fontFamily,
    };
  });
  assert.equal(drawn.check, true, 'document.fonts.check says the font for लूडो is loaded');
  assert.equal(drawn.regular, 'loaded', 'the regular face is loaded');
  assert.match(drawn.heading, /^"?Noto Sans Devanagari"?,/);
  assert.ok(fonts.includes('/web/fonts/noto-sans-devanagari-devanagari-400-normal.woff2'), `the font came from the client's own files: ${fonts}`);
  await screenshot(page, 'rules-hi');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the pseudolocale shows the rules in English, in a page whose own words are accented', async () => {
  const { context, page, errors } = await newPage();
  await page.goto(`${BASE}/?lang=en-XA#/rules/snakes`);
  await page.waitForSelector('#rules-text:not([aria-busy]) h2');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en-XA');
  assert.equal(await page.getAttribute('#rules-text', 'lang'), 'en');
  assert.equal(await page.textContent('#rules-text h2'), headings(rulesFile('en', 'snakes'))[0]);
  // The page's own words went through t(): no unaccented letter is left in the title.
  const title = /** @type {string} */ (await page.textContent('#rules-title'));
  assert.doesNotMatch(title, /[A-Za-z]/, title);
  assert.match(/** @type {string} */ (await page.textContent('.rules-others h2')), /^[^A-Za-z]+$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the rules follow the language when it changes', async () => {
  const { context, page, errors } = await newPage({ locale: 'en-US' });
  await page.goto(`${BASE}/#/rules/uckers`);
  await page.waitForSelector('#rules-text:not([aria-busy]) h2');
  assert.equal(await page.textContent('#rules-text h2'), headings(rulesFile('en', 'uckers'))[0]);
  // What the language switch does: set the language, then run the router again.
  await page.evaluate(async () => {
    const module = '/web/i18n.js';
    const i18n = await import(module);
    await i18n.setLanguage('hu');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
  await page.waitForFunction((heading) => document.querySelector('#rules-text:not([aria-busy]) h2')?.textContent === heading, headings(rulesFile('hu', 'uckers'))[0]);
  assert.equal(await page.getAttribute('#rules-text', 'lang'), 'hu');
  assert.equal(await page.textContent('nav a[href="#/rules"]'), 'Szabályok');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a name that is not a game shows "no such game" and loads no file', async () => {
  const { context, page, errors } = await newPage({ locale: 'en-US' });
  /** @type {string[]} */
  const fetched = [];
  page.on('request', (request) => {
    if (request.url().includes('/web/rules/')) fetched.push(request.url());
  });
  for (const name of ['chess', '..%2F..%2Findex', 'online', 'Luddo']) {
    await page.goto(`${BASE}/#/rules/${name}`);
    await page.waitForFunction(() => document.getElementById('rules-title')?.textContent === 'No such game');
    assert.match(/** @type {string} */ (await page.textContent('.rules-page p')), /There is no game called/);
    assert.equal(await page.locator('.rules-others a').count(), (await registry()).length);
  }
  assert.deepEqual(fetched, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('axe-core finds no WCAG 2.2 A/AA violation on the rules pages', async () => {
  for (const [locale, path] of [['en-US', '#/rules'], ['en-US', '#/rules/backgammon'], ['hi-IN', '#/rules/luddo'], ['de-DE', '#/rules/uckers']]) {
    const { context, page, errors } = await newPage({ locale });
    await page.goto(`${BASE}/${path}`);
    await page.waitForSelector(path === '#/rules' ? '.rules-games a' : '#rules-text:not([aria-busy]) h2');
    assert.deepEqual(await axeViolations(page), [], `${locale} ${path}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('on a phone the rules read in one column, with nothing wider than the screen', async () => {
  const { context, page, errors } = await newPage({ width: 390, height: 844, locale: 'hu-HU' });
  await page.goto(`${BASE}/#/rules/uckers`);
  await page.waitForSelector('#rules-text:not([aria-busy]) h2');
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
  assert.ok(widths.page <= widths.screen, `the page is ${widths.page} px wide on a ${widths.screen} px screen`);
  assert.deepEqual(errors, []);
  await context.close();
});
