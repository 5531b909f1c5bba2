// @ts-check
/**
 * `#/friends`: the signed-in player's friends (online or not, and the public table each sits at,
 * with a link to watch it), the requests both ways (accept or decline theirs, withdraw one's
 * own), a friend added by player id, the challenges sent (withdraw) and received (accept or
 * decline), and the players blocked (unblock). The lists follow the lobby stream's messages for
 * this player (`friend`, `challenge`: docs/social.md), each of which fetches them again.
 */
import { LobbyFeed, call, storedId, token } from '../api.js';
import { gamesFor, label } from '../games.js';
import { date, t } from '../i18n.js';
import { acceptedHtml, addFriend, attempt, awaitsMe, bindIncoming, challengeDialog, challengeLine, incomingHtml } from '../social.js';
import { app, byId, esc, flash, message, onLeave, playerName, route, signUpForm, stillShown } from '../ui.js';

/**
 * @typedef {import('../social.js').Friends} Friends
 * @typedef {import('../social.js').Challenge} Challenge
 * @typedef {import('../social.js').Request} Request
 */

/** A player's name linked to their profile (HTML). @param {import('../social.js').PlayerRef} player */
const linked = (player) => `<a href="#/p/${esc(player.id)}">${playerName(player)}</a>`;

export async function friendsPage() {
  if (!token()) {
    const signUp = signUpForm(() => route());
    app.innerHTML = `<h1>${esc(t('friends-title'))}</h1>${signUp.html}`;
    signUp.bind();
    return;
  }
  const shown = stillShown();
  const list = await gamesFor(shown);
  if (!list) return;
  const section = (/** @type {string} */ id, /** @type {string} */ title, /** @type {string} */ body) =>
    `<section class="card" aria-labelledby="${id}-title"><h2 id="${id}-title">${esc(t(title))}</h2>${body}</section>`;
  app.innerHTML = `<h1>${esc(t('friends-title'))}</h1>
    ${section('friends-add', 'friends-add-title', `<form id="add-friend" class="filters">
      <label>${esc(t('friends-add-id'))} <input id="add-friend-id" name="player_id" required autocomplete="off" spellcheck="false"></label>
      <button type="submit" id="add-friend-submit">${esc(t('friends-add-submit'))}</button></form>
      <p class="hint">${esc(t('friends-add-hint'))}</p>`)}
    ${section('friends-list', 'friends-list-title', `<table class="list"><thead><tr><th scope="col">${esc(t('friends-column-player'))}</th><th scope="col">${esc(t('friends-column-online'))}</th><th scope="col">${esc(t('friends-column-table'))}</th><th scope="col">${esc(t('friends-column-actions'))}</th></tr></thead><tbody id="friends-rows"><tr><td colspan="4">${esc(t('loading'))}</td></tr></tbody></table>`)}
    ${section('friends-incoming', 'friends-incoming-title', '<ul id="friends-incoming" class="plain"></ul>')}
    ${section('friends-outgoing', 'friends-outgoing-title', '<ul id="friends-outgoing" class="plain"></ul>')}
    ${section('challenges', 'challenges-title', `<h3>${esc(t('challenges-incoming'))}</h3><ul id="challenges-incoming" class="plain"></ul>
      <h3>${esc(t('challenges-outgoing'))}</h3><ul id="challenges-accepted" class="plain"></ul><ul id="challenges-outgoing" class="plain"></ul>`)}
    ${section('blocked', 'blocked-title', '<ul id="blocked" class="plain"></ul>')}`;

  const none = `<li>${esc(t('none-yet'))}</li>`;
  /** @type {Map<string, Challenge>} the viewer's challenges an invitee accepted, told by the lobby stream (their table is open) */
  const accepted = new Map();
  let loading = false;
  let again = false;
  /** Fetches the lists and draws them (once more if asked again meanwhile). */
  const load = async () => {
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      /** @type {[Friends, { blocked: Request[] }, { incoming: Challenge[], outgoing: Challenge[] }]} */
      const [friends, blocks, challenges] = await Promise.all([call('GET', '/v1/players/me/friends'), call('GET', '/v1/players/me/blocks'), call('GET', '/v1/challenges')]);
      if (shown()) draw(friends, blocks.blocked, challenges);
    } catch (error) {
      flash(message(error));
    } finally {
      loading = false;
      if (again && shown()) {
        again = false;
        load();
      }
    }
  };

  /**
   * @param {Friends} friends
   * @param {Request[]} blocked
   * @param {{ incoming: Challenge[], outgoing: Challenge[] }} challenges
   */
  const draw = (friends, blocked, challenges) => {
    byId('friends-rows').innerHTML =
      friends.friends
        .map((f) => {
          const online = `<span class="tag ${f.online ? 'ok' : 'off'}">${esc(t(f.online ? 'friends-online' : 'friends-offline'))}</span>`;
          const table = f.table ? `<a href="#/t/${esc(f.table.id)}">${esc(t('friends-watch', { game: label(list, f.table.game) }))}</a>` : '—';
          return `<tr data-friend="${esc(f.player.id)}"><td>${linked(f.player)}</td><td>${online}</td><td>${table}</td>
            <td><button type="button" data-challenge-friend="${esc(f.player.id)}">${esc(t('friends-challenge'))}</button>
            <button type="button" data-remove="${esc(f.player.id)}">${esc(t('friends-remove'))}</button></td></tr>`;
        })
        .join('') || `<tr><td colspan="4">${esc(t('friends-none'))}</td></tr>`;
    byId('friends-incoming').innerHTML =
      friends.incoming
        .map(
          (r) => `<li data-request="${esc(r.player.id)}">${linked(r.player)} <span class="hint">${esc(date(r.at))}</span>
            <button type="button" data-accept-friend="${esc(r.player.id)}">${esc(t('friends-accept'))}</button>
            <button type="button" data-remove="${esc(r.player.id)}">${esc(t('friends-decline'))}</button></li>`,
        )
        .join('') || none;
    byId('friends-outgoing').innerHTML =
      friends.outgoing
        .map(
          (r) => `<li data-request="${esc(r.player.id)}">${linked(r.player)} <span class="hint">${esc(date(r.at))}</span>
            <button type="button" data-remove="${esc(r.player.id)}">${esc(t('friends-withdraw'))}</button></li>`,
        )
        .join('') || none;
    const incoming = byId('challenges-incoming');
    incoming.innerHTML = incomingHtml(challenges.incoming.filter((c) => awaitsMe(c, storedId())), list) || none;
    bindIncoming(incoming, load);
    byId('challenges-accepted').innerHTML = [...accepted.values()].map((c) => acceptedHtml(c, storedId())).join('');
    byId('challenges-outgoing').innerHTML =
      challenges.outgoing
        .map((c) => {
          const open = c.table_id ? ` <a class="button" href="#/t/${esc(c.table_id)}">${esc(t('challenge-open-table'))}</a>` : '';
          return `<li data-challenge="${esc(c.id)}">${challengeLine(c, list, 'outgoing')}${open} <button type="button" data-withdraw="${esc(c.id)}">${esc(t('challenge-withdraw'))}</button></li>`;
        })
        .join('') || none;
    byId('blocked').innerHTML =
      blocked
        .map((b) => `<li data-blocked="${esc(b.player.id)}">${linked(b.player)} <button type="button" data-unblock="${esc(b.player.id)}">${esc(t('blocked-unblock'))}</button></li>`)
        .join('') || none;
    /** Binds each button with `data-<key>` to a call for its value, then fetches the lists again. @param {string} key @param {(value: string) => Promise<unknown>} f */
    const bind = (key, f) =>
      app.querySelectorAll(`[data-${key}]`).forEach((el) => {
        const value = /** @type {HTMLElement} */ (el).getAttribute(`data-${key}`) ?? '';
        /** @type {HTMLElement} */ (el).onclick = async () => {
          await attempt(() => f(value));
          load();
        };
      });
    bind('remove', (id) => call('DELETE', `/v1/players/me/friends/${id}`));
    bind('accept-friend', (id) => call('POST', '/v1/players/me/friends', { player_id: id }));
    bind('withdraw', (id) => call('DELETE', `/v1/challenges/${id}`));
    bind('unblock', (id) => call('DELETE', `/v1/players/me/blocks/${id}`));
    app.querySelectorAll('[data-challenge-friend]').forEach((el) => {
      const id = /** @type {HTMLElement} */ (el).dataset.challengeFriend;
      const friend = friends.friends.find((f) => f.player.id === id);
      const others = friends.friends.filter((f) => f.player.id !== id).map((f) => f.player);
      if (friend) /** @type {HTMLElement} */ (el).onclick = () => challengeDialog([friend.player], shown, load, others);
    });
  };

  /** @type {HTMLFormElement} */ (byId('add-friend')).onsubmit = async (event) => {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ (byId('add-friend-id'));
    // A profile's address is taken as well as the bare id.
    const id = input.value.trim().replace(/^.*#\/p\//, '');
    if (await addFriend(id)) input.value = '';
    load();
  };

  // What the server tells this player alone: a request, an acceptance, a challenge's news.
  const feed = new LobbyFeed(
    () => {},
    (news) => {
      if (news.type === 'challenge' && acceptedHtml(news.challenge, storedId())) accepted.set(news.challenge.id, news.challenge);
      if (news.type === 'friend' || news.type === 'challenge') load();
    },
  );
  onLeave(() => feed.stop());
  await load();
}
