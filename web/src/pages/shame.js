// @ts-check
/** `#/shame`: the hall of shame ("back of the board"), newest first. */
import { call } from '../api.js';
import { date, number, t } from '../i18n.js';
import { app, byId, esc, flash, message, playerName, stillShown } from '../ui.js';

export async function shamePage() {
  const columns = ['column-when', 'column-who', 'column-what', 'column-pieces-home', 'column-replay'];
  app.innerHTML = `<section class="card" aria-labelledby="shame-title"><h1 id="shame-title">${esc(t('shame-title'))}</h1><p class="hint">${esc(t('shame-hint'))}</p>
    <table class="list"><thead><tr>${columns.map((id) => `<th scope="col">${esc(t(id))}</th>`).join('')}</tr></thead><tbody id="shame-rows"><tr><td colspan="5">${esc(t('loading'))}</td></tr></tbody></table></section>`;
  const shown = stillShown();
  try {
    const page = await call('GET', '/v1/hall-of-shame?limit=50');
    if (!shown()) return;
    byId('shame-rows').innerHTML =
      page.entries
        .map((/** @type {any} */ e) => {
          // No player: a bot's seat was dicked (the server names it "Bot (seat n)", in English).
          const who = e.player_id ? playerName({ id: e.player_id, name: e.name }) : esc(t('bot'));
          const what = t(e.kind === 'up_board' ? 'shame-up-board' : 'shame-dicking');
          return `<tr><td>${esc(date(e.at))}</td><td>${who}</td><td>${esc(what)}</td><td>${number(e.pieces_home)}</td><td><a href="#/replay/${esc(e.table_id)}">${esc(t('shame-replay'))}</a></td></tr>`;
        })
        .join('') || `<tr><td colspan="5">${esc(t('shame-none'))}</td></tr>`;
  } catch (error) {
    flash(message(error));
  }
}
