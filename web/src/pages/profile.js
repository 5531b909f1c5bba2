// @ts-check
/** `#/p/{id}`: a player's ratings per game, games played and won, and finished games with their replays. */
import { call } from '../api.js';
import { games, label } from '../games.js';
import { app, esc, flash, message, stillShown } from '../ui.js';

/** @param {string} id */
export async function profilePage(id) {
  app.innerHTML = '<section class="card"><p>Loading…</p></section>';
  const shown = stillShown();
  try {
    const [p, history, list] = await Promise.all([call('GET', `/v1/players/${id}`), call('GET', `/v1/players/${id}/games?limit=20`), games()]);
    if (!shown()) return;
    const ratings =
      p.ratings.map((/** @type {any} */ r) => `<tr><td>${esc(label(list, r.game))}</td><td title="${r.provisional ? 'provisional: off the leaderboard' : ''}">${r.rating.toFixed(0)}${r.provisional ? '?' : ''}</td><td>${r.deviation.toFixed(0)}</td><td>${r.games}</td><td>${r.wins}</td></tr>`).join('') ||
      '<tr><td colspan="5">Not rated yet.</td></tr>';
    const played =
      history.games
        .map((/** @type {any} */ g) => {
          const change = g.rating_change === undefined ? '' : ` <span class="hint">${g.rating_change >= 0 ? '+' : ''}${g.rating_change.toFixed(1)}</span>`;
          return `<li><a href="#/replay/${g.table_id}">${esc(label(list, g.game))}</a>: ${g.place === 1 ? 'won' : g.place ? `place ${g.place}` : 'played'}${change} <span class="hint">${new Date(g.finished_at).toLocaleString()}</span></li>`;
        })
        .join('') || '<li>None yet.</li>';
    app.innerHTML = `<section class="card" aria-labelledby="profile-title"><h2 id="profile-title">${esc(p.name)}</h2>
      <p id="profile-summary">${p.games_played} games played, ${p.games_won} won${p.shame ? `, ${p.shame} in the hall of shame` : ''}.</p>
      <table class="list"><thead><tr><th>Game</th><th>Rating</th><th>± deviation</th><th>Games</th><th>Wins</th></tr></thead><tbody id="profile-ratings">${ratings}</tbody></table>
      <h3>Finished games</h3><ul class="plain" id="profile-games">${played}</ul></section>`;
  } catch (error) {
    app.innerHTML = '<section class="card"><p>No such player.</p></section>';
    flash(message(error));
  }
}
