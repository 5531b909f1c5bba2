// @ts-check
/**
 * `#/replay/{id}`: a finished game step by step from its JSON record (buttons, a slider, the
 * arrow keys), its fairness check, and the record to download (and backgammon's `.mat`).
 */
import { downloadRecord, gameRecord } from '../api.js';
import { games, label, view } from '../games.js';
import { describe, seatNames } from '../table/render.js';
import { app, byId, checkFairness, esc, message, onLeave, stillShown } from '../ui.js';

/**
 * @typedef {import('../api.js').Table} Table
 * @typedef {import('../api.js').Entry} Entry
 */

/** @param {string} id */
export async function replayPage(id) {
  const shown = stillShown();
  app.innerHTML = '<p>Loading the game…</p>';
  /** @type {Table} */
  let table;
  /** @type {Entry[]} */
  let entries;
  /** @type {import('../api.js').GameInfo[]} */
  let list;
  /** @type {import('../games.js').GameView} */
  let game;
  try {
    const record = await gameRecord(id);
    table = record.table;
    if (table.status !== 'finished') {
      app.innerHTML = `<p>This game is not over yet: <a href="#/t/${id}">watch it</a>.</p>`;
      return;
    }
    entries = record.entries;
    [list, game] = await Promise.all([games(), view(table.game)]);
  } catch (error) {
    if (shown()) app.innerHTML = `<p class="error">${esc(message(error))}</p>`;
    return;
  }
  if (!shown()) return;
  const steps = entries.filter((e) => e.state !== undefined);
  let at = 0;
  const names = seatNames(table);
  app.innerHTML = `<section class="table-page"><h2>Replay: ${esc(label(list, table.game))} — ${names.map(esc).join(', ')}</h2>
    <div class="table-grid"><div class="board-wrap"><div id="board"></div></div>
    <aside class="side">
      <div class="replay-controls" role="group" aria-label="Step through the game">
        <button type="button" id="r-first" aria-label="First">⏮</button><button type="button" id="r-prev" aria-label="Previous">◀</button>
        <span id="r-pos" aria-live="polite"></span>
        <button type="button" id="r-next" aria-label="Next">▶</button><button type="button" id="r-last" aria-label="Last">⏭</button>
      </div>
      <input type="range" id="r-range" min="0" max="${steps.length - 1}" value="0" aria-label="Position in the game">
      <p id="r-entry"></p>
      <details><summary>The board as text</summary><ul id="board-text"></ul></details>
      <button type="button" id="check-fairness">Check the dice</button><p id="fairness" aria-live="polite"></p>
      <p><button type="button" id="download-json">Download the record</button>${game.record ? ` <button type="button" id="download-${game.record.format}">${esc(game.record.label)}</button>` : ''}</p>
      <p id="download-error" class="error" aria-live="polite"></p>
      <p><a href="#/t/${id}">The table</a></p>
    </aside></div></section>`;
  const show = () => {
    const entry = steps[at];
    const drawing = game.draw(entry.state, at > 0 ? steps[at - 1].state : null, {
      seat: null,
      legal: [],
      names,
      selection: { moves: [], from: null },
      redraw: () => {},
      choose: () => {},
    });
    byId('board').innerHTML = drawing.svg;
    byId('board-text').innerHTML = drawing.text.map((t) => `<li>${esc(t)}</li>`).join('');
    byId('r-pos').textContent = `${at + 1} / ${steps.length} (seq ${entry.seq})`;
    byId('r-entry').innerHTML = describe(entry, names, game);
    /** @type {HTMLInputElement} */ (byId('r-range')).value = String(at);
  };
  const go = (/** @type {number} */ n) => {
    at = Math.max(0, Math.min(steps.length - 1, n));
    show();
  };
  byId('r-first').onclick = () => go(0);
  byId('r-prev').onclick = () => go(at - 1);
  byId('r-next').onclick = () => go(at + 1);
  byId('r-last').onclick = () => go(steps.length - 1);
  byId('r-range').oninput = () => go(Number(/** @type {HTMLInputElement} */ (byId('r-range')).value));
  byId('check-fairness').onclick = () =>
    checkFairness(id, (html) => {
      if (shown()) byId('fairness').innerHTML = html;
    });
  for (const format of /** @type {const} */ (['json', 'mat'])) {
    const button = document.getElementById(`download-${format}`);
    if (button) {
      button.onclick = () =>
        downloadRecord(id, format).catch((error) => {
          if (shown()) byId('download-error').textContent = message(error);
        });
    }
  }
  const keys = (/** @type {KeyboardEvent} */ event) => {
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === 'ArrowRight') go(at + 1);
    if (event.key === 'ArrowLeft') go(at - 1);
  };
  document.addEventListener('keydown', keys);
  onLeave(() => document.removeEventListener('keydown', keys));
  show();
}
