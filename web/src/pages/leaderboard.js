// @ts-check
/** `#/leaderboard`: each game's established Glicko-2 ratings, best first, each name a link to its profile. */
import { call } from '../api.js';
import { gameOptions, gamesFor } from '../games.js';
import { app, byId, esc, flash, message, stillShown } from '../ui.js';

export async function leaderboardPage() {
  const shown = stillShown();
  const list = await gamesFor(shown);
  if (!list) return;
  app.innerHTML = `<section class="card" aria-labelledby="board-title"><h2 id="board-title">Leaderboard</h2>
    <p class="hint">Glicko-2 ratings from public games between players (bots are not rated); a provisional rating shows on its player's profile only.</p>
    <label>Game <select id="l-game">${gameOptions(list)}</select></label>
    <table class="list"><thead><tr><th>#</th><th>Player</th><th>Rating</th><th>± deviation</th><th>Games</th><th>Wins</th></tr></thead><tbody id="board-rows"><tr><td colspan="6">Loading…</td></tr></tbody></table></section>`;
  const select = /** @type {HTMLSelectElement} */ (byId('l-game'));
  const load = async () => {
    const game = select.value;
    try {
      const page = await call('GET', `/v1/leaderboards/${game}?limit=50`);
      // A game chosen meanwhile wins: its answer may come before this one.
      if (!shown() || select.value !== game) return;
      byId('board-rows').innerHTML =
        page.players
          .map((/** @type {any} */ r, /** @type {number} */ i) => `<tr><td>${i + 1}</td><td><a href="#/p/${r.player.id}">${esc(r.player.name)}</a></td><td>${r.rating.toFixed(0)}</td><td>${r.deviation.toFixed(0)}</td><td>${r.games}</td><td>${r.wins}</td></tr>`)
          .join('') || '<tr><td colspan="6">No established ratings yet.</td></tr>';
    } catch (error) {
      flash(message(error));
    }
  };
  select.onchange = load;
  await load();
}
