// @ts-check
/**
 * `#/p/{id}`: a player's games played and won, ratings per game, finished games with their
 * replays, and their luck (docs/luck.md: their dice against chance, backgammon luck).
 *
 * Two counts of wins, which differ on purpose: the summary's are the tables the player's seat
 * finished first (`games_won`: against bots and at private tables too, and a seat a bot played
 * for them included), a rating row's are its rated wins (docs/ratings.md: public tables between
 * players only, and a seat a bot played most of — abandoned — never wins). The page names them
 * so, and says why a rated game the seat won can count as lost.
 */
import { call, storedId, token } from '../api.js';
import { games, label } from '../games.js';
import { date, number, t } from '../i18n.js';
import { ledgerHtml } from '../luck.js';
import { addFriend, attempt, challengeDialog, reportDialog } from '../social.js';
import { app, byId, discriminator, esc, flash, message, nameOf, stillShown } from '../ui.js';

/** A rating or a deviation as the page shows it: whole, ungrouped (1500, as players write it). @param {number} value */
const rounded = (value) => number(value, { maximumFractionDigits: 0, useGrouping: false });

/** @param {string} id */
export async function profilePage(id) {
  app.innerHTML = `<section class="card"><p>${esc(t('loading'))}</p></section>`;
  const shown = stillShown();
  try {
    const [p, history, list, luck] = await Promise.all([
      call('GET', `/v1/players/${id}`),
      call('GET', `/v1/players/${id}/games?limit=20`),
      games(),
      call('GET', `/v1/players/${id}/luck`),
    ]);
    if (!shown()) return;
    const ratings =
      p.ratings
        .map((/** @type {any} */ r) => {
          const provisional = r.provisional ? ` title="${esc(t('profile-provisional'))}"` : '';
          return `<tr><td>${esc(label(list, r.game))}</td><td${provisional}>${rounded(r.rating)}${r.provisional ? '?' : ''}</td><td>${rounded(r.deviation)}</td><td>${number(r.games)}</td><td>${number(r.wins)}</td></tr>`;
        })
        .join('') || `<tr><td colspan="5">${esc(t('profile-not-rated'))}</td></tr>`;
    const played =
      history.games
        .map((/** @type {any} */ g) => {
          const change = g.rating_change === undefined ? '' : ` <span class="hint">${number(g.rating_change, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' })}</span>`;
          const result = g.place === 1 ? t('profile-won') : g.place ? t('profile-place', { place: g.place }) : t('profile-played');
          return `<li><a href="#/replay/${g.table_id}">${esc(label(list, g.game))}</a>: ${esc(result)}${change} <span class="hint">${esc(date(g.finished_at))}</span></li>`;
        })
        .join('') || `<li>${esc(t('none-yet'))}</li>`;
    const summary = { played: p.games_played, won: p.games_won, shame: p.shame };
    app.innerHTML = `<section class="card" aria-labelledby="profile-heading"><h1 id="profile-heading">${nameOf(p.name, 'profile-title')} ${discriminator(p.id)}</h1>
      ${token() && storedId() !== p.id ? `<p class="profile-actions" role="group" aria-label="${esc(t('profile-actions'))}">
        <button type="button" id="profile-add-friend">${esc(t('profile-add-friend'))}</button>
        <button type="button" id="profile-challenge">${esc(t('friends-challenge'))}</button>
        <button type="button" id="profile-block">${esc(t('profile-block'))}</button>
        <button type="button" id="profile-report">${esc(t('profile-report'))}</button></p>` : ''}
      <p id="profile-summary">${esc(t(p.shame ? 'profile-summary-shame' : 'profile-summary', summary))}</p>
      <h2>${esc(t('profile-ratings'))}</h2>
      <table class="list"><thead><tr><th scope="col">${esc(t('column-game'))}</th><th scope="col">${esc(t('column-rating'))}</th><th scope="col">${esc(t('column-deviation'))}</th><th scope="col">${esc(t('column-rated-games'))}</th><th scope="col">${esc(t('column-rated-wins'))}</th></tr></thead><tbody id="profile-ratings">${ratings}</tbody></table>
      <p class="hint">${esc(t('profile-rated-hint'))}</p>
      <h2>${esc(t('profile-finished'))}</h2><ul class="plain" id="profile-games">${played}</ul>
      <h2>${esc(t('luck-title'))}</h2><div id="profile-luck">${ledgerHtml(list, luck.games, 'profile')}</div></section>`;
    bindActions({ id: p.id, name: p.name }, shown);
  } catch (error) {
    app.innerHTML = `<section class="card"><h1>${esc(t('profile-none'))}</h1></section>`;
    flash(message(error));
  }
}

/**
 * A profile's buttons for another player (signed in): *Add friend* (or accept their request),
 * *Challenge*, *Block* (which ends a friendship and the challenges between the two) and *Report*.
 * @param {import('../social.js').PlayerRef} player
 * @param {() => boolean} shown
 */
function bindActions(player, shown) {
  if (!document.getElementById('profile-add-friend')) return;
  byId('profile-add-friend').onclick = () => addFriend(player.id);
  byId('profile-challenge').onclick = () => challengeDialog([player], shown);
  byId('profile-block').onclick = async () => {
    if (await attempt(() => call('PUT', `/v1/players/me/blocks/${player.id}`))) flash(t('profile-blocked', { name: player.name }));
  };
  byId('profile-report').onclick = () => reportDialog(player);
}
