// @ts-check
/**
 * `#/rules`: the games, each linked to its rules; `#/rules/<game>`: one game's rules in the
 * language in use. The rules themselves are HTML fragments written per language,
 * `rules/<language>/<game>.html`, followed by `rules/<language>/online.html` (the online table's
 * clocks, takeovers and fair dice, the same for every game); the pseudolocale reads English's.
 * Only the server's own games are fetched, so no address can make the page load another file.
 */
import { gamesFor } from '../games.js';
import { has, language, LANGUAGES, PSEUDO, t } from '../i18n.js';
import { app, byId, esc, flash, stillShown } from '../ui.js';

/** @typedef {import('../api.js').GameInfo} GameInfo */

/** The language the rules are written in: the one in use, English for the pseudolocale. */
function rulesLanguage() {
  const current = language();
  return /** @type {keyof typeof LANGUAGES} */ (current !== PSEUDO && current in LANGUAGES ? current : 'en');
}

/** A game's name in the language in use (the registry's label for a game the messages lack). @param {GameInfo} game */
function gameName(game) {
  return has(`game-${game.game}`) ? t(`game-${game.game}`) : game.label;
}

/**
 * The rules index, or one game's rules.
 * @param {string} [game] the game's name in the API (`luddo`), from the address
 */
export async function rulesPage(game) {
  const shown = stillShown();
  const list = await gamesFor(shown);
  if (!list) return;
  if (game === undefined || game === '') {
    indexPage(list);
    return;
  }
  const found = list.find((g) => g.game === game);
  if (!found) {
    app.innerHTML = `<section class="card rules-page" aria-labelledby="rules-title"><h1 id="rules-title">${esc(t('rules-no-such-game-title'))}</h1>
      <p>${esc(t('rules-no-such-game', { game }))}</p>${gameLinks(list, t('rules-all-games'))}</section>`;
    return;
  }
  await gamePage(found, list, shown);
}

/** The games, each linked to its rules, with a line on what sets it apart. @param {GameInfo[]} list */
function indexPage(list) {
  const items = list
    .map((g) => `<li><a href="#/rules/${esc(g.game)}">${esc(gameName(g))}</a>${has(`rules-about-${g.game}`) ? ` — ${esc(t(`rules-about-${g.game}`))}` : ''}</li>`)
    .join('');
  app.innerHTML = `<section class="card rules-page" aria-labelledby="rules-title"><h1 id="rules-title">${esc(t('rules-title'))}</h1>
    <p>${esc(t('rules-intro'))}</p><ul class="rules-games">${items}</ul></section>`;
}

/**
 * A navigation list of the games' rules, but `except`.
 * @param {GameInfo[]} list
 * @param {string} heading
 * @param {string} [except]
 */
function gameLinks(list, heading, except) {
  const links = list
    .filter((g) => g.game !== except)
    .map((g) => `<li><a href="#/rules/${esc(g.game)}">${esc(gameName(g))}</a></li>`)
    .join('');
  return `<nav class="card rules-others" aria-labelledby="rules-others-title"><h2 id="rules-others-title">${esc(heading)}</h2><ul>${links}</ul></nav>`;
}

/**
 * One game's rules: its fragment and the online table's, in the rules' language.
 * @param {GameInfo} game
 * @param {GameInfo[]} list
 * @param {() => boolean} shown
 */
async function gamePage(game, list, shown) {
  const written = rulesLanguage();
  app.innerHTML = `<div class="rules-layout"><article class="card rules-page" aria-labelledby="rules-title">
      <h1 id="rules-title">${esc(t('rules-game-title', { game: gameName(game) }))}</h1>
      <p class="hint">${esc(t('rules-written-in'))} <span lang="${written}">${esc(LANGUAGES[written])}</span></p>
      <div id="rules-text" class="rules-text" lang="${written}" aria-busy="true"><p>${esc(t('rules-loading'))}</p></div>
    </article>${gameLinks(list, t('rules-other-games'), game.game)}</div>`;
  try {
    const [rules, online] = await Promise.all([fragment(written, game.game), fragment(written, 'online')]);
    if (!shown()) return;
    const text = byId('rules-text');
    text.innerHTML = rules + online;
    text.removeAttribute('aria-busy');
  } catch (error) {
    if (!shown()) return;
    byId('rules-text').removeAttribute('aria-busy');
    byId('rules-text').innerHTML = '';
    flash(t('rules-not-loaded', { status: error instanceof Error ? error.message : String(error) }));
  }
}

/**
 * One of the client's own rules files (`name` is a game of the registry, or `online`).
 * @param {string} written the language it is written in
 * @param {string} name
 */
async function fragment(written, name) {
  const response = await fetch(`/web/rules/${written}/${encodeURIComponent(name)}.html`);
  if (!response.ok) throw new Error(`${written}/${name}.html: ${response.status}`);
  return response.text();
}
