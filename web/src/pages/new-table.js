// @ts-check
/**
 * `#/new`: create a table. The game and its seat counts, and its options' fields, come from the
 * server's registry (games.js); private, party and the host's dice seed are every game's.
 */
import { call, token } from '../api.js';
import { gameOptions, gamesFor, optionsForm, readOptions, view } from '../games.js';
import { t } from '../i18n.js';
import { app, byId, esc, flash, message, signUpForm, stillShown } from '../ui.js';

/** @typedef {import('../api.js').GameInfo} GameInfo */

export async function newTablePage() {
  if (!token()) {
    const signUp = signUpForm(() => newTablePage());
    app.innerHTML = signUp.html;
    signUp.bind();
    return;
  }
  const shown = stillShown();
  const list = await gamesFor(shown);
  if (!list) return;
  app.innerHTML = `<section class="card" aria-labelledby="new-title"><h2 id="new-title">Create a table</h2>
    <form id="create">
      <label>Game <select id="c-game" name="game">${gameOptions(list)}</select></label>
      <label>Seats <select id="c-seats" name="seat_count"></select></label>
      <fieldset><legend>Options</legend><div id="c-options"></div></fieldset>
      <label><input type="checkbox" id="c-private" name="private"> private (joined with the invite link)</label>
      <label><input type="checkbox" id="c-party" name="party"> party table (30 s clock)</label>
      <label><input type="checkbox" id="c-long-clock" name="long_clock" disabled aria-describedby="c-long-clock-hint"> ${esc(t('new-table-long-clock'))}</label>
      <p class="hint" id="c-long-clock-hint">${esc(t('new-table-long-clock-hint'))}</p>
      <label>Your dice seed (optional) <input id="c-seed" name="client_seed" maxlength="64"></label>
      <button type="submit" id="c-submit">Create</button>
    </form></section>`;
  const form = /** @type {HTMLFormElement} */ (byId('create'));
  // The server gives a long clock to private tables only: offered while Private is ticked.
  const privateBox = /** @type {HTMLInputElement} */ (byId('c-private'));
  const longClock = /** @type {HTMLInputElement} */ (byId('c-long-clock'));
  privateBox.onchange = () => {
    longClock.disabled = !privateBox.checked;
    if (!privateBox.checked) longClock.checked = false;
  };
  const gameSelect = /** @type {HTMLSelectElement} */ (byId('c-game'));
  const chosen = () => /** @type {GameInfo} */ (list.find((g) => g.game === gameSelect.value));
  const refresh = async () => {
    const info = chosen();
    byId('c-options').innerHTML = optionsForm(info);
    const seats = byId('c-seats');
    seats.innerHTML = info.seats.allowed.map((n) => `<option value="${n}">${n}</option>`).join('');
    // What a seat count means for the board is the game's own (Luddo's hexagonal board).
    const note = (await view(info.game)).seatNote;
    if (!note || !shown() || chosen() !== info) return;
    // The options are named in place: a count chosen meanwhile stays chosen.
    for (const option of /** @type {HTMLSelectElement} */ (seats).options) option.textContent = `${option.value}${note(Number(option.value))}`;
  };
  gameSelect.onchange = () => {
    refresh().catch((error) => flash(message(error)));
  };
  await refresh();
  form.onsubmit = async (event) => {
    event.preventDefault();
    const info = chosen();
    /** @type {Record<string, unknown>} */
    const body = {
      game: info.game,
      seat_count: Number(/** @type {HTMLSelectElement} */ (byId('c-seats')).value),
      options: readOptions(form, info),
      visibility: /** @type {HTMLInputElement} */ (byId('c-private')).checked ? 'private' : 'public',
      party: /** @type {HTMLInputElement} */ (byId('c-party')).checked,
      long_clock: privateBox.checked && longClock.checked,
    };
    const seed = /** @type {HTMLInputElement} */ (byId('c-seed')).value;
    if (seed) body.client_seed = seed;
    try {
      const table = await call('POST', '/v1/tables', body);
      location.hash = `#/t/${table.id}`;
    } catch (error) {
      flash(message(error));
    }
  };
}
