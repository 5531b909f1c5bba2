// @ts-check
/** `#/invite/{code}`: a private table's invite link seats its visitor (after signing up), then shows the table. */
import { ApiError, call, token } from '../api.js';
import { newChain } from '../dice.js';
import { games, label } from '../games.js';
import { t } from '../i18n.js';
import { app, esc, message, signUpForm, stillShown } from '../ui.js';
import { tablePage } from './table.js';

/** @param {string} code */
export async function invitePage(code) {
  const shown = stillShown();
  try {
    const table = await call('GET', `/v1/invites/${encodeURIComponent(code)}`);
    if (!shown()) return;
    if (!token()) {
      const name = label(await games(), table.game);
      if (!shown()) return;
      const signUp = signUpForm(() => invitePage(code));
      app.innerHTML = `<h1>${esc(t('invite-title'))}</h1><p>${esc(t('invite-text', { game: name }))}</p>${signUp.html}`;
      signUp.bind();
      return;
    }
    const me = await call('GET', '/v1/players/me');
    const seated = table.seats.some((/** @type {any} */ s) => s.player?.id === me.id);
    if (!seated && table.status === 'open') {
      try {
        const chain = table.fresh_dice ? await newChain(table.id) : null;
        await call('POST', `/v1/tables/${table.id}/join`, { invite_code: code, ...(chain ? { dice_chain: chain.head } : {}) });
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'already_seated')) throw error;
      }
    }
    await tablePage(table.id, code);
  } catch (error) {
    app.innerHTML = `<h1>${esc(t('invite-title'))}</h1><p class="error">${esc(message(error))}</p>`;
  }
}
