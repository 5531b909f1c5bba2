// @ts-check
/**
 * `#/replay/{id}`: a finished game step by step from its JSON record (buttons with icons, a
 * slider, the arrow keys; each step said in words in a live region), its fairness check, and
 * the record to download (and backgammon's `.mat`). A backgammon game also shows its analysis
 * (docs/analysis.md): each player's error rate and band, the errors and blunders (each a link to
 * its step), and at each step the decisions made there with their equity lost and luck.
 */
import { ApiError, downloadRecord, gameRecord, tableAnalysis } from '../api.js';
import { games, label, view } from '../games.js';
import { has, number, t } from '../i18n.js';
import { announcement } from '../table/announce.js';
import { describe, seatNames } from '../table/render.js';
import { TableState } from '../table/state.js';
import { app, byId, checkFairness, esc, message, onLeave, stillShown } from '../ui.js';

/**
 * The step buttons' icons, drawn (no glyph a font may lack); the buttons are named by their
 * `aria-label`, the icons hidden.
 */
const ICONS = {
  first: '<rect x="3" y="4" width="3" height="16"/><path d="M20 4v16L8 12z"/>',
  previous: '<path d="M18 4v16L6 12z"/>',
  next: '<path d="M6 4v16l12-8z"/>',
  last: '<path d="M4 4v16l12-8z"/><rect x="18" y="4" width="3" height="16"/>',
};

/** A step button. @param {string} id @param {keyof typeof ICONS} icon @param {string} name */
function stepButton(id, icon, name) {
  return `<button type="button" id="${id}" class="icon-button" aria-label="${esc(name)}" title="${esc(name)}"><svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" fill="currentColor">${ICONS[icon]}</svg></button>`;
}

/**
 * @typedef {import('../api.js').Table} Table
 * @typedef {import('../api.js').Entry} Entry
 */

/** @param {string} id */
export async function replayPage(id) {
  const shown = stillShown();
  app.innerHTML = `<p>${esc(t('replay-loading'))}</p>`;
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
      app.innerHTML = `<p>${esc(t('replay-not-over'))} <a href="#/t/${id}">${esc(t('replay-watch'))}</a></p>`;
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
  const gameName = has(`game-${table.game}`) ? t(`game-${table.game}`) : label(list, table.game);
  app.innerHTML = `<section class="table-page"><h1>${esc(t('replay-title', { game: gameName, players: names.join(', ') }))}</h1>
    <div class="table-grid"><div class="board-wrap"><div id="board"></div></div>
    <aside class="side" aria-label="${esc(t('replay-side'))}">
      <div class="replay-controls" role="group" aria-label="${esc(t('replay-steps'))}">
        ${stepButton('r-first', 'first', t('replay-first'))}${stepButton('r-prev', 'previous', t('replay-previous'))}
        <span id="r-pos"></span>
        ${stepButton('r-next', 'next', t('replay-next'))}${stepButton('r-last', 'last', t('replay-last'))}
      </div>
      <input type="range" id="r-range" min="0" max="${steps.length - 1}" value="0" aria-label="${esc(t('replay-position'))}">
      <p id="r-entry"></p>
      ${table.game === 'backgammon' ? `<section id="review" aria-labelledby="review-title"><h2 id="review-title">${esc(t('review-title'))}</h2><div id="review-body" aria-live="polite"><p>${esc(t('review-pending'))}</p></div><ul id="review-step"></ul></section>` : ''}
      <div id="announcer" class="announcer" aria-live="polite" aria-label="${esc(t('announcer-label'))}"></div>
      <details><summary>${esc(t('board-as-text'))}</summary><ul id="board-text"></ul></details>
      <button type="button" id="check-fairness">${esc(t('end-check-dice'))}</button><p id="fairness" aria-live="polite"></p>
      <p><button type="button" id="download-json">${esc(t('download-json'))}</button>${game.record ? ` <button type="button" id="download-${game.record.format}">${esc(game.record.label())}</button>` : ''}</p>
      <p id="download-error" class="error" aria-live="polite"></p>
      <p><a href="#/t/${id}">${esc(t('replay-table'))}</a></p>
    </aside></div></section>`;
  /** The analysis, once the server has it (backgammon). @type {Awaited<ReturnType<typeof tableAnalysis>>} */
  let review = null;
  const showStep = () => {
    const list = document.getElementById('review-step');
    if (!list || !review) return;
    const here = review.decisions.filter((d) => d.seq === steps[at].seq);
    list.innerHTML = here.length
      ? here.map((d) => `<li class="review-decision"${d.mark ? ` data-mark="${d.mark}"` : ''}>${esc(decisionText(d, names))}</li>`).join('')
      : `<li>${esc(t('review-step-none'))}</li>`;
  };
  /** Shows the analysis, or asks again shortly while the server computes it. */
  const loadReview = async () => {
    if (table.game !== 'backgammon') return;
    try {
      review = await tableAnalysis(id);
    } catch (error) {
      if (!shown()) return;
      byId('review-body').innerHTML = `<p>${esc(error instanceof ApiError && error.code === 'analysis_unavailable' ? t('review-unavailable') : message(error))}</p>`;
      return;
    }
    if (!shown()) return;
    if (!review) {
      setTimeout(loadReview, 2000);
      return;
    }
    const marked = review.decisions.filter((d) => d.mark);
    byId('review-body').innerHTML = `<p>${esc(t('review-search', { search: review.search }))}</p>
      <ul id="review-seats">${review.seats
        .map(
          (s) =>
            `<li data-seat="${s.seat}">${esc(
              t('review-seat', {
                player: names[s.seat] ?? String(s.seat),
                rate: number(s.error_rate, { maximumFractionDigits: 1, minimumFractionDigits: 1 }),
                band: t(`review-band-${s.band}`),
                decisions: number(s.decisions),
                errors: number(s.errors),
                blunders: number(s.blunders),
                luck: number(s.luck, { maximumFractionDigits: 3, signDisplay: 'always' }),
              }),
            )}</li>`,
        )
        .join('')}</ul>
      ${marked.length ? `<h3>${esc(t('review-marks'))}</h3><ol id="review-marks">${marked
        .map((d) => {
          const step = steps.findIndex((e) => e.seq === d.seq);
          return `<li class="review-mark" data-mark="${d.mark}"><button type="button" class="link" data-step="${step}" aria-label="${esc(t('review-go', { step: number(step + 1) }))}">${esc(decisionText(d, names))}</button></li>`;
        })
        .join('')}</ol>` : ''}`;
    for (const button of byId('review-body').querySelectorAll('button[data-step]')) {
      /** @type {HTMLButtonElement} */ (button).onclick = () => go(Number(/** @type {HTMLButtonElement} */ (button).dataset.step));
    }
    showStep();
  };
  /** The replay as a table's state, for the words of each step. */
  const words = new TableState(table, null, game.positions);
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
    byId('board-text').innerHTML = drawing.text.map((line) => `<li>${esc(line)}</li>`).join('');
    byId('r-pos').textContent = t('replay-step', { step: number(at + 1), steps: number(steps.length), seq: number(entry.seq) });
    byId('r-entry').innerHTML = describe(entry, names, game);
    words.state = entry.state;
    byId('announcer').textContent = `${byId('r-pos').textContent}. ${announcement(entry, words, game)}`;
    /** @type {HTMLInputElement} */ (byId('r-range')).value = String(at);
    showStep();
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
  loadReview();
}

/**
 * One decision of the analysis in words: who played what, its mark, the equity it lost and the
 * best, the roll's luck.
 * @param {import('../api.js').ReviewDecision} d
 * @param {string[]} names
 */
function decisionText(d, names) {
  const player = names[d.seat] ?? String(d.seat);
  const action = (/** @type {string} */ a) => (has(`review-action-${a}`) ? t(`review-action-${a}`) : a);
  const parts = [
    d.kind === 'play' || d.kind === 'no_play'
      ? t('review-play', { player, dice: d.dice ? `${d.dice[0]}${d.dice[1]}` : '', played: d.played })
      : t('review-cube', { player, played: action(d.played) }),
  ];
  if (d.mark) parts.push(t(`review-mark-${d.mark}`));
  if (d.counted && d.equity_loss > 0) {
    parts.push(t('review-lost', { loss: number(d.equity_loss, { maximumFractionDigits: 3, minimumFractionDigits: 3 }) }));
    parts.push(t('review-best', { best: d.kind === 'play' ? d.best : action(d.best) }));
  }
  if (d.luck !== undefined && d.luck !== null) parts.push(t('review-luck', { luck: number(d.luck, { maximumFractionDigits: 3, signDisplay: 'always' }) }));
  return parts.join(' · ');
}
