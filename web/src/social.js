// @ts-check
/**
 * Players together (docs/social.md, issue #37), as every page shows it: the shapes of friends,
 * challenges and chat messages, the friend and block buttons of a profile, the challenge dialog
 * (its game, seats and options are the new table's fields, pages/new-table.js), the report
 * dialog, and the list of incoming challenges with accept / decline (the lobby's and the friends
 * page's). The pages call these; nothing here keeps state of its own.
 */
import { call } from './api.js';
import { gamesFor, label } from './games.js';
import { date, t } from './i18n.js';
import { bindGameFields, gameFieldsHtml } from './pages/new-table.js';
import { app, byId, esc, flash, message, playerName, tHtml } from './ui.js';

/**
 * The shapes of docs/social.md: the chat's from the API's types (web/types/api.gen.d.ts), the
 * friends' and challenges' written here until their routes are in openapi/openapi.json.
 * @typedef {{ id: string, name: string }} PlayerRef
 * @typedef {{ id: string, game: string, status: string }} FriendTable
 * @typedef {{ player: PlayerRef, since: string, online: boolean, table: FriendTable | null }} Friend
 * @typedef {{ player: PlayerRef, at: string }} Request
 * @typedef {{ friends: Friend[], incoming: Request[], outgoing: Request[] }} Friends
 * @typedef {'pending' | 'accepted' | 'declined' | 'cancelled' | 'expired'} ChallengeStatus
 * @typedef {{ player: PlayerRef, answer: 'pending' | 'accepted' | 'declined' }} Invitee
 * @typedef {{ id: string, from: PlayerRef, to: Invitee[], table: { game: string, seat_count: number, options?: Record<string, unknown> },
 *   table_id: string | null, status: ChallengeStatus, created_at: string, expires_at: string }} Challenge
 * @typedef {import('../types/api.gen.js').ChatMessage} ChatMessage
 * @typedef {import('../types/api.gen.js').ChatSettings} ChatSettings
 * @typedef {{ type: 'challenge', event: 'received' | 'answered' | 'accepted' | 'declined' | 'cancelled' | 'expired', challenge: Challenge }
 *   | { type: 'rematch', table_id: string, from: PlayerRef, rematch: import('../types/api.gen.js').Rematch }
 *   | { type: 'friend', event: 'requested' | 'accepted' | 'removed', player: PlayerRef }} PersonalMessage
 */

/** How long a challenge waits for its answers, the choices offered (the server takes 30 to 3600 s). */
const EXPIRIES = [60, 300, 900, 3600];

/**
 * Asks a player to be friends (accepts their request if they had asked): flashes where it
 * stands. Answers the standing, or null when refused (the problem flashed).
 * @param {string} playerId
 * @returns {Promise<'requested' | 'friends' | null>}
 */
export async function addFriend(playerId) {
  try {
    const answer = await call('POST', '/v1/players/me/friends', { player_id: playerId });
    flash(t(answer.status === 'friends' ? 'friends-now' : 'friends-requested', { name: answer.player.name }));
    return answer.status;
  } catch (error) {
    flash(message(error));
    return null;
  }
}

/**
 * Runs a call whose success needs no words of its own (the page redraws), flashing a refusal.
 * Answers whether it succeeded.
 * @param {() => Promise<unknown>} f
 */
export async function attempt(f) {
  try {
    await f();
    return true;
  } catch (error) {
    flash(message(error));
    return false;
  }
}

/**
 * A modal dialog in the page (`<dialog>`, closed by Escape or *Cancel*), its form's submit
 * answered by `submit`: the dialog closes when it answers true. Removed when closed.
 * @param {string} id the dialog's id
 * @param {string} title its heading (text)
 * @param {string} fields the form's fields (HTML)
 * @param {string} submitText
 * @param {(form: HTMLFormElement) => Promise<boolean>} submit
 */
export function openDialog(id, title, fields, submitText, submit) {
  document.getElementById(id)?.remove();
  const dialog = document.createElement('dialog');
  dialog.id = id;
  dialog.className = 'dialog';
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  dialog.innerHTML = `<form method="dialog" id="${id}-form"><h2 id="${id}-title">${esc(title)}</h2>${fields}
    <p class="dialog-buttons"><button type="submit" id="${id}-submit">${esc(submitText)}</button> <button type="button" id="${id}-cancel">${esc(t('dialog-cancel'))}</button></p></form>`;
  app.append(dialog);
  const form = /** @type {HTMLFormElement} */ (byId(`${id}-form`));
  byId(`${id}-cancel`).onclick = () => dialog.close();
  dialog.onclose = () => dialog.remove();
  form.onsubmit = async (event) => {
    event.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (byId(`${id}-submit`));
    button.disabled = true;
    try {
      if (await submit(form)) dialog.close();
    } finally {
      button.disabled = false;
    }
  };
  dialog.showModal();
  return dialog;
}

/** The most players one challenge invites (docs/social.md). */
const MAX_INVITEES = 5;

/**
 * The challenge dialog: a private table for the challenger and `players` (the game, its seats
 * and options as the new table's form offers them, a seat for each), and how long the
 * invitation waits. `more` are other players offered as further invitees (the friends page's
 * other friends), up to five in all: the seat counts follow the players ticked. `done` runs
 * once the challenge is sent.
 * @param {PlayerRef[]} players
 * @param {() => boolean} shown the page's `stillShown()`
 * @param {() => void} [done]
 * @param {PlayerRef[]} [more]
 */
export async function challengeDialog(players, shown, done = () => {}, more = []) {
  const list = await gamesFor(shown);
  if (!list) return;
  /** @type {Set<string>} the further invitees ticked */
  const ticked = new Set();
  const invited = () => [...players, ...more.filter((p) => ticked.has(p.id))];
  // Only the games with room for the challenger and the players named are offered.
  const games = list.filter((g) => g.seats.allowed.some((n) => n > players.length));
  const also = more.length
    ? `<fieldset id="ch-also"><legend>${esc(t('challenge-also'))}</legend>${more
        .map((p) => `<label><input type="checkbox" data-also="${esc(p.id)}"> ${playerName(p)}</label>`)
        .join('')}</fieldset>`
    : '';
  const fields = `<p id="ch-to">${tHtml('challenge-to', { players: players.map(playerName).join(', ') })}</p>
    ${also}
    ${gameFieldsHtml(games, 'ch')}
    <p class="hint" id="ch-no-room" hidden>${esc(t('challenge-no-room'))}</p>
    <label>${esc(t('challenge-expiry'))} <select id="ch-expiry">${EXPIRIES.map((s) => `<option value="${s}"${s === 300 ? ' selected' : ''}>${esc(t('challenge-expiry-minutes', { minutes: s / 60 }))}</option>`).join('')}</select></label>
    <p class="hint">${esc(t('challenge-hint'))}</p>`;
  /** @type {ReturnType<typeof bindGameFields> | null} */
  let bound = null;
  openDialog('challenge-dialog', t('challenge-title'), fields, t('challenge-send'), async (form) => {
    if (!bound) return false;
    const to = invited();
    const body = {
      to: to.map((p) => p.id),
      table: { ...bound.read(form), visibility: 'private' },
      expires_in_seconds: Number(/** @type {HTMLSelectElement} */ (byId('ch-expiry')).value),
    };
    try {
      await call('POST', '/v1/challenges', body);
      flash(t('challenge-sent', { players: to.map((p) => p.name).join(', ') }));
      done();
      return true;
    } catch (error) {
      flash(message(error));
      return false;
    }
  });
  bound = bindGameFields(games, 'ch', shown, () => 1 + invited().length);
  /** After a change of players or game: the names, the seat counts that fit, the boxes left to tick. */
  const follow = () => {
    byId('ch-to').innerHTML = tHtml('challenge-to', { players: invited().map(playerName).join(', ') });
    const room = bound?.fillSeats() ?? 0;
    byId('ch-no-room').hidden = room > 0;
    /** @type {HTMLButtonElement} */ (byId('challenge-dialog-submit')).disabled = room === 0;
    document.querySelectorAll('#ch-also [data-also]').forEach((el) => {
      const box = /** @type {HTMLInputElement} */ (el);
      box.disabled = !box.checked && invited().length >= MAX_INVITEES;
    });
  };
  document.querySelectorAll('#ch-also [data-also]').forEach((el) => {
    const box = /** @type {HTMLInputElement} */ (el);
    box.onchange = () => {
      const id = /** @type {string} */ (box.dataset.also);
      if (box.checked) ticked.add(id);
      else ticked.delete(id);
      follow();
    };
  });
  const game = /** @type {HTMLSelectElement} */ (byId('ch-game'));
  const changeGame = game.onchange;
  game.onchange = (event) => {
    changeGame?.call(game, event);
    follow();
  };
  await bound.refresh();
}

/**
 * The report dialog: a player, or one of their chat messages (`n` at `tableId`), with the
 * reason (1 to 500 characters) for the moderators.
 * @param {PlayerRef} player
 * @param {{ tableId?: string, n?: number }} [about]
 */
export function reportDialog(player, about = {}) {
  const what = about.n === undefined ? tHtml('report-player', { player: playerName(player) }) : tHtml('report-message', { player: playerName(player) });
  const fields = `<p>${what}</p>
    <label for="report-reason">${esc(t('report-reason'))}</label>
    <textarea id="report-reason" name="reason" required maxlength="500" rows="3"></textarea>`;
  openDialog('report-dialog', t('report-title'), fields, t('report-send'), async () => {
    const reason = /** @type {HTMLTextAreaElement} */ (byId('report-reason')).value.trim();
    /** @type {Record<string, unknown>} */
    const body = { player_id: player.id, reason };
    if (about.tableId) body.table_id = about.tableId;
    if (about.n !== undefined) body.message = about.n;
    try {
      await call('POST', '/v1/reports', body);
      flash(t('report-sent'));
      return true;
    } catch (error) {
      flash(message(error));
      return false;
    }
  });
}

/**
 * What a challenge is, in a line (HTML): the game and its seats, from whom or to whom, until when.
 * @param {Challenge} challenge
 * @param {import('./api.js').GameInfo[]} list
 * @param {'incoming' | 'outgoing'} side
 */
export function challengeLine(challenge, list, side) {
  const game = label(list, challenge.table.game);
  const until = date(challenge.expires_at);
  if (side === 'incoming') return tHtml('challenge-incoming', { player: playerName(challenge.from) }, { game, seats: challenge.table.seat_count, until });
  const to = challenge.to.map((i) => `${playerName(i.player)} <span class="tag">${esc(t(`challenge-answer-${i.answer}`))}</span>`).join(', ');
  return tHtml('challenge-outgoing', { players: to }, { game, seats: challenge.table.seat_count, until });
}

/**
 * The incoming challenges (HTML list items), each with *Accept* and *Decline*
 * (`data-accept`, `data-decline`: bind them with `bindIncoming`).
 * @param {Challenge[]} challenges
 * @param {import('./api.js').GameInfo[]} list
 */
export function incomingHtml(challenges, list) {
  return challenges
    .map(
      (c) => `<li data-challenge="${esc(c.id)}">${challengeLine(c, list, 'incoming')}
        <button type="button" data-accept="${esc(c.id)}">${esc(t('challenge-accept'))}</button>
        <button type="button" data-decline="${esc(c.id)}">${esc(t('challenge-decline'))}</button></li>`,
    )
    .join('');
}

/**
 * Binds the buttons of `incomingHtml` under `root`: accepting opens the table the challenge made
 * (or joined); declining runs `changed`.
 * @param {HTMLElement} root
 * @param {() => void} changed
 */
export function bindIncoming(root, changed) {
  root.querySelectorAll('[data-accept]').forEach((el) => {
    /** @type {HTMLElement} */ (el).onclick = async () => {
      try {
        const answer = await call('POST', `/v1/challenges/${/** @type {HTMLElement} */ (el).dataset.accept}/accept`, {});
        location.hash = `#/t/${answer.table.id}`;
      } catch (error) {
        flash(message(error));
        changed();
      }
    };
  });
  root.querySelectorAll('[data-decline]').forEach((el) => {
    /** @type {HTMLElement} */ (el).onclick = async () => {
      await attempt(() => call('POST', `/v1/challenges/${/** @type {HTMLElement} */ (el).dataset.decline}/decline`));
      changed();
    };
  });
}

/**
 * Whether a challenge still waits for the viewer's answer.
 * @param {Challenge} challenge
 * @param {string | null} me
 */
export function awaitsMe(challenge, me) {
  return challenge.status === 'pending' && challenge.to.some((i) => i.player.id === me && i.answer === 'pending');
}

/**
 * Whether a challenge the viewer sent has a table to go to (an invitee accepted): the line that
 * says so, with the link (HTML), or ''.
 * @param {Challenge} challenge
 * @param {string | null} me
 */
export function acceptedHtml(challenge, me) {
  if (challenge.from.id !== me || !challenge.table_id) return '';
  const players = challenge.to.filter((i) => i.answer === 'accepted').map((i) => playerName(i.player)).join(', ');
  return `<li data-accepted="${esc(challenge.id)}">${tHtml('challenge-accepted-by', { players })} <a class="button" href="#/t/${esc(challenge.table_id)}">${esc(t('challenge-open-table'))}</a></li>`;
}
