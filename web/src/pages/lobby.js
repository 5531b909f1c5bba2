// @ts-check
/**
 * `#/`: the lobby. *Play now* (signed in), the challenges and rematch offers sent to the player
 * (live: the lobby stream's `challenge` and `rematch` messages, docs/social.md; accepting a
 * challenge opens its table), the open public tables live from the lobby stream (filtered by
 * game, party and free seats) and the latest finished games, each with its replay.
 */
import { LobbyFeed, call, storedId, token } from '../api.js';
import { chainMoved, newChain } from '../dice.js';
import { gameOptions, gamesFor, label } from '../games.js';
import { date, number, t } from '../i18n.js';
import { acceptedHtml, awaitsMe, bindIncoming, incomingHtml } from '../social.js';
import { app, byId, esc, flash, message, onLeave, playerName, route, signUpForm, stillShown, tHtml } from '../ui.js';

/**
 * @typedef {import('../api.js').Table} Table @typedef {import('../api.js').GameInfo} GameInfo
 * @typedef {import('../social.js').Challenge} Challenge @typedef {import('../social.js').PersonalMessage} PersonalMessage
 */

/** @param {Table} table */
function seatsSummary(table) {
  const taken = table.seats.filter((s) => s.player || s.controller === 'bot').length;
  return `${number(taken)}/${number(table.seats.length)}`;
}

/** Seconds a quick-play table waits before bots take its empty seats, when the box is ticked. */
const BOTS_AFTER_SECONDS = 30;

export async function lobbyPage() {
  const shown = stillShown();
  const list = await gamesFor(shown);
  if (!list) return;
  const signUp = token() ? null : signUpForm(() => route());
  app.innerHTML = `<h1>${esc(t('lobby-heading'))}</h1>${signUp ? signUp.html : ''}
    ${token() ? `<section class="card" aria-labelledby="play-now-title">
      <h2 id="play-now-title">${esc(t('play-now-title'))}</h2>
      <form id="play-now" class="filters">
        <label>${esc(t('field-game'))} <select id="q-game">${gameOptions(list)}</select></label>
        <label>${esc(t('play-now-players'))} <select id="q-seats"></select></label>
        <label><input type="checkbox" id="q-bots" checked> ${esc(t('play-now-bots', { seconds: BOTS_AFTER_SECONDS }))}</label>
        <button type="submit" id="play-now-go">${esc(t('play-now-submit'))}</button>
      </form>
      <p class="hint">${esc(t('play-now-hint'))}</p>
    </section>
    <section class="card" aria-labelledby="offers-title" id="lobby-offers" hidden>
      <h2 id="offers-title">${esc(t('lobby-offers'))}</h2>
      <ul id="lobby-challenges" class="plain"></ul><ul id="lobby-accepted" class="plain"></ul><ul id="lobby-rematches" class="plain"></ul>
    </section>
    <p id="lobby-said" class="sr-only" aria-live="polite"></p>` : ''}
    <section class="card" aria-labelledby="lobby-title">
      <h2 id="lobby-title">${esc(t('lobby-open-tables'))} <span class="live" id="lobby-live">${esc(t('lobby-live'))}</span></h2>
      <div class="filters" role="group" aria-label="${esc(t('lobby-filters'))}">
        <label>${esc(t('field-game'))} <select id="f-game"><option value="">${esc(t('filter-any'))}</option>${gameOptions(list)}</select></label>
        <label>${esc(t('filter-party'))} <select id="f-party"><option value="">${esc(t('filter-any'))}</option><option value="yes">${esc(t('filter-party-only'))}</option><option value="no">${esc(t('filter-no-party'))}</option></select></label>
        <label><input type="checkbox" id="f-free"> ${esc(t('filter-free'))}</label>
      </div>
      <table class="list"><thead><tr><th scope="col">${esc(t('column-game'))}</th><th scope="col">${esc(t('column-host'))}</th><th scope="col">${esc(t('column-seats'))}</th><th scope="col">${esc(t('column-clock'))}</th><th scope="col"><span class="sr-only">${esc(t('column-table'))}</span></th></tr></thead><tbody id="lobby-rows"><tr><td colspan="5">${esc(t('loading'))}</td></tr></tbody></table>
      <p><a href="#/new" class="button" id="new-table">${esc(t('lobby-create'))}</a></p>
    </section>
    <section class="card" aria-labelledby="finished-title"><h2 id="finished-title">${esc(t('lobby-finished'))}</h2><ul id="finished" class="plain"></ul></section>`;
  signUp?.bind();
  if (token()) bindPlayNow(list);
  /** @type {Map<string, { seq: number, table: Table }>} */
  let tables = new Map();
  const draw = () => {
    const game = /** @type {HTMLSelectElement} */ (byId('f-game')).value;
    const party = /** @type {HTMLSelectElement} */ (byId('f-party')).value;
    const free = /** @type {HTMLInputElement} */ (byId('f-free')).checked;
    const rows = [...tables.values()]
      .map((t) => t.table)
      .filter((t) => (!game || t.game === game) && (!party || t.party === (party === 'yes')) && (!free || t.seats.some((s) => !s.player && s.controller !== 'bot')))
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    byId('lobby-rows').innerHTML = rows.length
      ? rows
          .map((table) => {
            const host = table.seats.find((s) => s.player?.id === table.host_id)?.player;
            const open = table.status === 'open';
            const party = table.party ? ` <span class="tag">${esc(t('tag-party'))}</span>` : '';
            return `<tr data-table="${table.id}"><td>${esc(label(list, table.game))}${party}</td><td>${host ? playerName(host) : '—'}</td><td>${seatsSummary(table)}</td><td>${esc(t('seconds', { seconds: table.turn_seconds }))}</td>
              <td><a class="button" href="#/t/${table.id}">${esc(t(open ? 'lobby-open' : 'lobby-watch'))}</a></td></tr>`;
          })
          .join('')
      : `<tr><td colspan="5">${esc(t('lobby-none'))}</td></tr>`;
  };
  for (const id of ['f-game', 'f-party', 'f-free']) byId(id).onchange = draw;
  const offers = token() ? followOffers(list, shown) : null;
  const feed = new LobbyFeed(
    (next) => {
      tables = next;
      draw();
    },
    (news) => offers?.(news),
  );
  call('GET', '/v1/tables?status=finished&limit=10')
    .then((page) => {
      if (!shown()) return;
      byId('finished').innerHTML =
        page.tables
          .map((/** @type {Table} */ table) => {
            const players = table.seats.map((s) => (s.player ? playerName(s.player) : esc(t('bot')))).join(', ');
            return `<li><a href="#/replay/${table.id}">${esc(label(list, table.game))}: ${players}</a> <span class="hint">${esc(date(table.finished_at ?? table.created_at))}</span></li>`;
          })
          .join('') || `<li>${esc(t('none-yet'))}</li>`;
    })
    .catch((error) => flash(message(error)));
  onLeave(() => feed.stop());
}

/** The lobby's "Play now" form: quick play, then the table. @param {GameInfo[]} list */
function bindPlayNow(list) {
  const game = /** @type {HTMLSelectElement} */ (byId('q-game'));
  const seats = /** @type {HTMLSelectElement} */ (byId('q-seats'));
  const fill = () => {
    const counts = list.find((g) => g.game === game.value)?.seats.allowed ?? [];
    seats.innerHTML = counts.map((n) => `<option value="${n}"${n === Math.min(4, counts[counts.length - 1]) ? ' selected' : ''}>${number(n)}</option>`).join('');
  };
  game.onchange = fill;
  fill();
  /** @type {HTMLFormElement} */ (byId('play-now')).onsubmit = async (event) => {
    event.preventDefault();
    /** @type {Record<string, any>} */
    const body = { game: game.value, seats: Number(seats.value) };
    if (/** @type {HTMLInputElement} */ (byId('q-bots')).checked) body.bots_after_seconds = BOTS_AFTER_SECONDS;
    // Quick-play tables are public: fresh dice, the chain committed with the seat.
    const chain = await newChain('');
    body.dice_chain = chain.head;
    try {
      const table = await call('POST', '/v1/quick-play', body);
      chainMoved(chain.head, table.id);
      location.hash = `#/t/${table.id}`;
    } catch (error) {
      flash(message(error));
    }
  };
}

/**
 * The challenges waiting for the player's answer and the rematch offers, each with its buttons:
 * fetched once (`GET /v1/challenges`), then kept from the lobby stream's messages to the player
 * (each new one said in the live region). Answers what handles those messages.
 * @param {GameInfo[]} list
 * @param {() => boolean} shown
 */
function followOffers(list, shown) {
  /** @type {Map<string, Challenge>} */
  const challenges = new Map();
  /** @type {Map<string, Challenge>} the player's own challenges an invitee accepted (their table is open) */
  const accepted = new Map();
  /** @type {Map<string, { from: import('../social.js').PlayerRef }>} rematch offers, by the finished table */
  const rematches = new Map();
  const draw = () => {
    if (!shown()) return;
    const waiting = [...challenges.values()].filter((c) => awaitsMe(c, storedId())).sort((a, b) => b.created_at.localeCompare(a.created_at));
    const ul = byId('lobby-challenges');
    ul.innerHTML = incomingHtml(waiting, list);
    bindIncoming(ul, () => {
      refetch();
    });
    byId('lobby-accepted').innerHTML = [...accepted.values()].map((c) => acceptedHtml(c, storedId())).join('');
    byId('lobby-rematches').innerHTML = [...rematches]
      .map(([table, offer]) => `<li data-rematch="${esc(table)}">${tHtml('rematch-offer', { player: playerName(offer.from) })} <a class="button" href="#/t/${esc(table)}">${esc(t('rematch-open'))}</a></li>`)
      .join('');
    byId('lobby-offers').hidden = waiting.length === 0 && accepted.size === 0 && rematches.size === 0;
  };
  const refetch = () =>
    call('GET', '/v1/challenges')
      .then((/** @type {{ incoming: Challenge[] }} */ answer) => {
        challenges.clear();
        for (const c of answer.incoming) challenges.set(c.id, c);
        draw();
      })
      .catch((error) => flash(message(error)));
  refetch();
  /** @param {string} text */
  const say = (text) => {
    byId('lobby-said').textContent = text;
  };
  /** @param {PersonalMessage} news */
  return (news) => {
    if (news.type === 'challenge') {
      challenges.set(news.challenge.id, news.challenge);
      if (news.event === 'received' && awaitsMe(news.challenge, storedId())) say(t('challenge-received', { name: news.challenge.from.name }));
      if (acceptedHtml(news.challenge, storedId()) && !accepted.has(news.challenge.id)) {
        accepted.set(news.challenge.id, news.challenge);
        say(t('challenge-accepted-said'));
      }
    } else if (news.type === 'rematch') {
      if (news.rematch.table_id) rematches.delete(news.table_id);
      else {
        rematches.set(news.table_id, { from: news.from });
        say(t('rematch-offer-said', { name: news.from.name }));
      }
    } else return;
    draw();
  };
}
