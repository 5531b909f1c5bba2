// @ts-check
/**
 * `#/new`: create a table. The game and its seat counts, its options' fields and the bots'
 * levels come from the server's registry (games.js); private, party and the host's dice seed are
 * every game's.
 */
import { call, token } from '../api.js';
import { chainMoved, newChain } from '../dice.js';
import { gameOptions, gamesFor, optionsForm, readOptions, view } from '../games.js';
import { has, number, t } from '../i18n.js';
import { app, byId, esc, flash, message, signUpForm, stillShown } from '../ui.js';

/** @typedef {import('../api.js').GameInfo} GameInfo */

export async function newTablePage() {
  if (!token()) {
    const signUp = signUpForm(() => newTablePage());
    app.innerHTML = `<h1>${esc(t('new-title'))}</h1>${signUp.html}`;
    signUp.bind();
    return;
  }
  const shown = stillShown();
  const list = await gamesFor(shown);
  if (!list) return;
  app.innerHTML = `<section class="card" aria-labelledby="new-title"><h1 id="new-title">${esc(t('new-title'))}</h1>
    <form id="create">
      ${gameFieldsHtml(list, 'c')}
      <label>${esc(t('new-bot-level'))} <select id="c-bot-level" name="bot_level"></select></label>
      <label><input type="checkbox" id="c-private" name="private"> ${esc(t('new-private'))}</label>
      <label><input type="checkbox" id="c-party" name="party"> ${esc(t('new-party', { seconds: list[0]?.clocks.party_turn_seconds ?? 0 }))}</label>
      <label><input type="checkbox" id="c-long-clock" name="long_clock" disabled aria-describedby="c-long-clock-hint"> ${esc(t('new-table-long-clock'))}</label>
      <p class="hint" id="c-long-clock-hint">${esc(t('new-table-long-clock-hint'))}</p>
      <label>${esc(t('new-seed'))} <input id="c-seed" name="client_seed" maxlength="64"></label>
      <button type="submit" id="c-submit">${esc(t('new-submit'))}</button>
    </form></section>`;
  const form = /** @type {HTMLFormElement} */ (byId('create'));
  // The server gives a long clock to private tables only: offered while Private is ticked.
  const privateBox = /** @type {HTMLInputElement} */ (byId('c-private'));
  const longClock = /** @type {HTMLInputElement} */ (byId('c-long-clock'));
  privateBox.onchange = () => {
    longClock.disabled = !privateBox.checked;
    if (!privateBox.checked) longClock.checked = false;
  };
  const fields = bindGameFields(list, 'c', shown, 1, (info) => {
    // The levels the server's bots play at, weakest first, its default chosen.
    byId('c-bot-level').innerHTML = info.bot_levels
      .map((level) => `<option value="${level}"${level === info.default_bot_level ? ' selected' : ''}>${esc(has(`bot-level-${level}`) ? t(`bot-level-${level}`) : level)}</option>`)
      .join('');
  });
  // Bound before the fields are filled: a submit meanwhile is never the browser's own (a reload).
  form.onsubmit = async (event) => {
    event.preventDefault();
    /** @type {Record<string, unknown>} */
    const body = {
      ...fields.read(form),
      visibility: /** @type {HTMLInputElement} */ (byId('c-private')).checked ? 'private' : 'public',
      party: /** @type {HTMLInputElement} */ (byId('c-party')).checked,
      long_clock: privateBox.checked && longClock.checked,
      bot_level: /** @type {HTMLSelectElement} */ (byId('c-bot-level')).value,
    };
    const seed = /** @type {HTMLInputElement} */ (byId('c-seed')).value;
    if (seed) body.client_seed = seed;
    // Public tables take fresh dice by default (the host's chain is committed with the seat).
    const chain = body.visibility === 'public' ? await newChain('') : null;
    if (chain) body.dice_chain = chain.head;
    try {
      const table = await call('POST', '/v1/tables', body);
      if (chain) chainMoved(chain.head, table.id);
      location.hash = `#/t/${table.id}`;
    } catch (error) {
      flash(message(error));
    }
  };
  await fields.refresh();
}

/**
 * The game, its seat count and its options (the registry's, built by games.js): the fields the
 * new table's form and a challenge's (social.js) share. Ids are `<prefix>-game`, `-seats` and
 * `-options`.
 * @param {GameInfo[]} list
 * @param {string} prefix
 */
export function gameFieldsHtml(list, prefix) {
  return `<label>${esc(t('field-game'))} <select id="${prefix}-game" name="game">${gameOptions(list)}</select></label>
      <label>${esc(t('new-seats'))} <select id="${prefix}-seats" name="seat_count"></select></label>
      <fieldset><legend>${esc(t('new-options'))}</legend><div id="${prefix}-options"></div></fieldset>`;
}

/**
 * Fills the fields of `gameFieldsHtml` for the game chosen, and again at each change of game:
 * its seat counts (at least `minSeats`, each named by the game's note: Luddo's hexagonal board),
 * its options' fields; `onGame` adds what a form has more (the new table's bot levels).
 * `read` says the table's `game`, `seat_count` and `options` as the form holds them; `fillSeats`
 * lists the seat counts again after `minSeats` changed (more players invited), the count chosen
 * kept where it still fits; it answers how many counts fit.
 * @param {GameInfo[]} list
 * @param {string} prefix
 * @param {() => boolean} shown the page's `stillShown()`
 * @param {number | (() => number)} minSeats
 * @param {(info: GameInfo) => void} [onGame]
 */
export function bindGameFields(list, prefix, shown, minSeats, onGame = () => {}) {
  const least = typeof minSeats === 'function' ? minSeats : () => minSeats;
  const gameSelect = /** @type {HTMLSelectElement} */ (byId(`${prefix}-game`));
  const seats = /** @type {HTMLSelectElement} */ (byId(`${prefix}-seats`));
  const chosen = () => /** @type {GameInfo} */ (list.find((g) => g.game === gameSelect.value));
  /** @param {boolean} keep keep the count chosen (else the first fits) */
  const fillSeats = (keep) => {
    const info = chosen();
    const kept = keep ? seats.value : '';
    const allowed = info.seats.allowed.filter((n) => n >= least());
    seats.innerHTML = allowed.map((n) => `<option value="${n}"${String(n) === kept ? ' selected' : ''}>${number(n)}</option>`).join('');
    // What a seat count means for the board is the game's own (Luddo's hexagonal board).
    view(info.game)
      .then(({ seatNote: note }) => {
        if (!note || !shown() || chosen() !== info) return;
        // The options are named in place: a count chosen meanwhile stays chosen.
        for (const option of seats.options) option.textContent = `${number(Number(option.value))}${note(Number(option.value))}`;
      })
      .catch((error) => flash(message(error)));
    return allowed.length;
  };
  const refresh = async () => {
    const info = chosen();
    byId(`${prefix}-options`).innerHTML = optionsForm(info);
    fillSeats(false);
    onGame(info);
    await view(info.game);
  };
  gameSelect.onchange = () => {
    refresh().catch((error) => flash(message(error)));
  };
  return {
    refresh,
    fillSeats: () => fillSeats(true),
    /** @param {HTMLFormElement} form */
    read: (form) => ({
      game: chosen().game,
      seat_count: Number(seats.value),
      options: readOptions(form, chosen()),
    }),
  };
}
