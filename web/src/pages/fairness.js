// @ts-check
/** `#/fairness`: every die of every finished table, per game, against a fair die (docs/luck.md). */
import { call } from '../api.js';
import { games } from '../games.js';
import { t } from '../i18n.js';
import { ledgerHtml } from '../luck.js';
import { app, esc, flash, message, stillShown } from '../ui.js';

export async function fairnessPage() {
  app.innerHTML = `<section class="card"><p>${esc(t('loading'))}</p></section>`;
  const shown = stillShown();
  try {
    const [site, list] = await Promise.all([call('GET', '/v1/fairness'), games()]);
    if (!shown()) return;
    app.innerHTML = `<section class="card" aria-labelledby="fairness-title"><h1 id="fairness-title">${esc(t('fairness-title'))}</h1>
      <p class="hint">${esc(t('fairness-hint'))}</p><div id="fairness-games">${ledgerHtml(list, site.games, 'site')}</div></section>`;
  } catch (error) {
    flash(message(error));
  }
}
