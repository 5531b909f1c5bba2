// @ts-check
/** `#/shame`: the hall of shame ("back of the board"), newest first. */
import { call } from '../api.js';
import { app, byId, esc, flash, message, stillShown } from '../ui.js';

export async function shamePage() {
  app.innerHTML = '<section class="card"><h2>Hall of shame</h2><p class="hint">Back of the board: every 8-piece dicking and up-boarding in Uckers, newest first.</p><table class="list"><thead><tr><th>When</th><th>Who</th><th>What</th><th>Pieces home</th><th></th></tr></thead><tbody id="shame-rows"><tr><td colspan="5">Loading…</td></tr></tbody></table></section>';
  const shown = stillShown();
  try {
    const page = await call('GET', '/v1/hall-of-shame?limit=50');
    if (!shown()) return;
    byId('shame-rows').innerHTML =
      page.entries
        .map((/** @type {any} */ e) => `<tr><td>${new Date(e.at).toLocaleString()}</td><td>${esc(e.name)}</td><td>${e.kind === 'up_board' ? 'up-boarded' : 'dicked (8 pieces)'}</td><td>${e.pieces_home}</td><td><a href="#/replay/${e.table_id}">replay</a></td></tr>`)
        .join('') || '<tr><td colspan="5">Nobody yet.</td></tr>';
  } catch (error) {
    flash(message(error));
  }
}
