// @ts-check
/**
 * `#/`: the lobby. *Play now* (signed in), the open public tables live from the lobby stream
 * (filtered by game, party and free seats) and the latest finished games, each with its replay.
 */
import { LobbyFeed, call, token } from '../api.js';
import { gameOptions, gamesFor, label } from '../games.js';
import { app, byId, esc, flash, message, onLeave, route, signUpForm, stillShown } from '../ui.js';

/** @typedef {import('../api.js').Table} Table @typedef {import('../api.js').GameInfo} GameInfo */

/** @param {Table} table */
function seatsSummary(table) {
  const taken = table.seats.filter((s) => s.player || s.controller === 'bot').length;
  return `${taken}/${table.seats.length}`;
}

export async function lobbyPage() {
  const shown = stillShown();
  const list = await gamesFor(shown);
  if (!list) return;
  const signUp = token() ? null : signUpForm(() => route());
  app.innerHTML = `${signUp ? signUp.html : ''}
    ${token() ? `<section class="card" aria-labelledby="play-now-title">
      <h2 id="play-now-title">Play now</h2>
      <form id="play-now" class="filters">
        <label>Game <select id="q-game">${gameOptions(list)}</select></label>
        <label>Players <select id="q-seats"></select></label>
        <label><input type="checkbox" id="q-bots" checked> bots after 30 s</label>
        <button type="submit" id="play-now-go">Play now</button>
      </form>
      <p class="hint">A seat at the oldest table waiting for the same game, or a new one; it starts when full.</p>
    </section>` : ''}
    <section class="card" aria-labelledby="lobby-title">
      <h2 id="lobby-title">Open tables <span class="live" id="lobby-live">live</span></h2>
      <div class="filters" role="group" aria-label="Filters">
        <label>Game <select id="f-game"><option value="">any</option>${gameOptions(list)}</select></label>
        <label>Party <select id="f-party"><option value="">any</option><option value="yes">party only</option><option value="no">no party</option></select></label>
        <label><input type="checkbox" id="f-free"> with free seats</label>
      </div>
      <table class="list"><thead><tr><th>Game</th><th>Host</th><th>Seats</th><th>Clock</th><th></th></tr></thead><tbody id="lobby-rows"><tr><td colspan="5">Loading…</td></tr></tbody></table>
      <p><a href="#/new" class="button" id="new-table">Create a table</a></p>
    </section>
    <section class="card" aria-labelledby="finished-title"><h2 id="finished-title">Finished games</h2><ul id="finished" class="plain"></ul></section>`;
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
          .map((t) => {
            const host = t.seats.find((s) => s.player?.id === t.host_id)?.player?.name ?? '—';
            const open = t.status === 'open';
            return `<tr data-table="${t.id}"><td>${esc(label(list, t.game))}${t.party ? ' <span class="tag">party</span>' : ''}</td><td>${esc(host)}</td><td>${seatsSummary(t)}</td><td>${t.turn_seconds} s</td>
              <td><a class="button" href="#/t/${t.id}">${open ? 'Open' : 'Watch'}</a></td></tr>`;
          })
          .join('')
      : '<tr><td colspan="5">No open table matches. Create one!</td></tr>';
  };
  for (const id of ['f-game', 'f-party', 'f-free']) byId(id).onchange = draw;
  const feed = new LobbyFeed((next) => {
    tables = next;
    draw();
  });
  call('GET', '/v1/tables?status=finished&limit=10')
    .then((page) => {
      if (!shown()) return;
      byId('finished').innerHTML =
        page.tables.map((/** @type {Table} */ t) => `<li><a href="#/replay/${t.id}">${esc(label(list, t.game))}: ${t.seats.map((s) => esc(s.player?.name ?? 'bot')).join(', ')}</a> <span class="hint">${new Date(t.finished_at ?? t.created_at).toLocaleString()}</span></li>`).join('') ||
        '<li>None yet.</li>';
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
    seats.innerHTML = counts.map((n) => `<option value="${n}"${n === Math.min(4, counts[counts.length - 1]) ? ' selected' : ''}>${n}</option>`).join('');
  };
  game.onchange = fill;
  fill();
  /** @type {HTMLFormElement} */ (byId('play-now')).onsubmit = async (event) => {
    event.preventDefault();
    /** @type {Record<string, any>} */
    const body = { game: game.value, seats: Number(seats.value) };
    if (/** @type {HTMLInputElement} */ (byId('q-bots')).checked) body.bots_after_seconds = 30;
    try {
      const table = await call('POST', '/v1/quick-play', body);
      location.hash = `#/t/${table.id}`;
    } catch (error) {
      flash(message(error));
    }
  };
}
