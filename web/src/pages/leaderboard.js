// @ts-check
/** `#/leaderboard`: each game's established Glicko-2 ratings, best first, each name a link to its profile. */
import { call } from '../api.js';
import { gameOptions, gamesFor } from '../games.js';
import { number, t } from '../i18n.js';
import { app, byId, esc, flash, message, playerName, stillShown } from '../ui.js';

export async function leaderboardPage() {
  const shown = stillShown();
  const list = await gamesFor(shown);
  if (!list) return;
  const columns = ['column-rank', 'column-player', 'column-rating', 'column-deviation', 'column-games', 'column-wins'];
  app.innerHTML = `<section class="card" aria-labelledby="board-title"><h1 id="board-title">${esc(t('leaderboard-title'))}</h1>
    <p class="hint">${esc(t('leaderboard-hint'))}</p>
    <label>${esc(t('field-game'))} <select id="l-game">${gameOptions(list)}</select></label>
    <table class="list"><thead><tr>${columns.map((id) => `<th scope="col">${esc(t(id))}</th>`).join('')}</tr></thead><tbody id="board-rows"><tr><td colspan="6">${esc(t('loading'))}</td></tr></tbody></table></section>`;
  const select = /** @type {HTMLSelectElement} */ (byId('l-game'));
  const whole = (/** @type {number} */ value) => number(value, { maximumFractionDigits: 0, useGrouping: false });
  const load = async () => {
    const game = select.value;
    try {
      const page = await call('GET', `/v1/leaderboards/${game}?limit=50`);
      // A game chosen meanwhile wins: its answer may come before this one.
      if (!shown() || select.value !== game) return;
      byId('board-rows').innerHTML =
        page.players
          .map((/** @type {any} */ r, /** @type {number} */ i) => `<tr><td>${number(i + 1)}</td><td><a href="#/p/${esc(r.player.id)}">${playerName(r.player)}</a></td><td>${whole(r.rating)}</td><td>${whole(r.deviation)}</td><td>${number(r.games)}</td><td>${number(r.wins)}</td></tr>`)
          .join('') || `<tr><td colspan="6">${esc(t('leaderboard-none'))}</td></tr>`;
    } catch (error) {
      flash(message(error));
    }
  };
  select.onchange = load;
  await load();
}
