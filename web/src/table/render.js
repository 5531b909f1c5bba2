// @ts-check
/**
 * A table drawn from its state (table/state.js): each part of the page (the turn and clock, the
 * seats, the waiting room, the viewer's moves, the end, the log, the dice) as HTML from the state
 * and the game's own code (games/<game>.js), with no state of its own. Buttons carry `id`s and
 * `data-*` attributes; the page binds them after drawing.
 */
import { dieFace } from '../boards/svg.js';
import { esc } from '../ui.js';

/**
 * @typedef {import('../api.js').Table} Table
 * @typedef {import('../api.js').Entry} Entry
 * @typedef {import('../api.js').Action} Action
 * @typedef {import('../games.js').GameView} GameView
 * @typedef {import('./state.js').TableState} TableState
 */

/** The names of the seats. @param {Table} table */
export function seatNames(table) {
  return table.seats.map((s) => s.player?.name ?? (s.controller === 'bot' ? `Bot ${s.seat + 1}` : `empty seat ${s.seat + 1}`));
}

/** A short text for an action: the game's own, else one every game shares. @param {Action} action @param {GameView} view */
export function actionLabel(action, view) {
  const own = view.label(action);
  if (own !== undefined) return own;
  switch (action.type) {
    case 'roll':
      return 'Roll';
    case 'pass':
      return 'Pass';
    default:
      return action.type.replaceAll('_', ' ');
  }
}

/** One line about a log entry. @param {Entry} entry @param {string[]} names @param {GameView} view */
export function describe(entry, names, view) {
  const who = entry.seat === null || entry.seat === undefined ? 'Table' : names[entry.seat] ?? `seat ${entry.seat + 1}`;
  const a = entry.action;
  /** @type {string} */
  let what;
  switch (a.type) {
    case 'seat_taken':
      what = `${esc(a.name)} sat down`;
      break;
    case 'seat_left':
      what = 'left the table';
      break;
    case 'bot_seated':
      what = 'a bot sat down';
      break;
    case 'settings_changed':
      what = 'settings changed';
      break;
    case 'start':
      what = 'the game started';
      break;
    case 'finish':
      what = 'the game is over';
      break;
    case 'takeover':
      what = `a bot took the seat (${a.reason})`;
      break;
    case 'reclaim':
      what = 'took the seat back';
      break;
    default:
      what = esc(actionLabel(a, view));
  }
  const thrown = thrownDice(entry);
  const dice = thrown.length ? ` — threw ${thrown.map((d) => d.join('+')).join(', ')}` : '';
  const by = entry.actor === 'timeout' ? ' <span class="tag warn">timed out</span>' : entry.actor === 'bot' ? ' <span class="tag">bot</span>' : '';
  return `<strong>${esc(who)}</strong>: ${what}${dice}${by}`;
}

/** Every throw an entry tells of, each as its dice. @param {Entry} entry @returns {number[][]} */
function thrownDice(entry) {
  return entry.events.filter((e) => e.type === 'rolled').map((/** @type {any} */ e) => e.dice ?? [e.value ?? e.die]);
}

/** The table's title. @param {Table} table @param {string} label the game's name */
export function title(table, label) {
  return `${label}${table.visibility === 'private' ? ' · private' : ''}${table.party ? ' · party' : ''} · ${table.turn_seconds} s clock`;
}

/** The connection's tag: its text and whether it is live. @param {TableState} s */
export function connectionText(s) {
  return s.closedNotice || (s.connection === 'connected' ? 'live' : s.connection === 'ended' ? (s.finished ? 'finished' : 'closed') : 'reconnecting…');
}

/** Whose turn and the clock counting down to the deadline. @param {TableState} s @param {number} now */
export function turnHtml(s, now) {
  if (s.table.status === 'open') return 'Waiting room';
  if (s.finished) return 'The game is over';
  if (s.toAct === null || s.toAct === undefined) return '';
  const left = s.deadline ? Math.max(0, Math.ceil((Date.parse(s.deadline) - now) / 1000)) : null;
  const whose = s.toAct === s.mySeat() ? 'Your turn' : `${seatNames(s.table)[s.toAct]}'s turn`;
  return `${esc(whose)}${left !== null ? ` · <span id="clock" class="clock${left <= 5 ? ' low' : ''}">${left} s</span>` : ''}`;
}

/** Each seat: its colour, name, and tags (host, you, presence, place). @param {TableState} s @param {GameView} view */
export function seatsHtml(s, view) {
  const { table } = s;
  const names = seatNames(table);
  const mine = s.mySeat();
  return table.seats
    .map((seat) => {
      const p = s.presence[seat.seat];
      const tags = [];
      if (seat.player && seat.player.id === table.host_id) tags.push('<span class="tag">host</span>');
      if (seat.seat === mine) tags.push('<span class="tag you">you</span>');
      if (p) {
        tags.push(p.connected ? '<span class="tag ok" title="connected">online</span>' : '<span class="tag off" title="not connected">offline</span>');
        if (p.controller === 'bot' && seat.player) tags.push(`<span class="tag warn">bot playing for ${esc(seat.player.name)}</span>`);
        if (p.timeouts > 0) tags.push(`<span class="tag warn">timed out ×${p.timeouts}</span>`);
      }
      const place = table.play?.outcome?.places?.[seat.seat];
      if (s.finished && place) tags.push(`<span class="tag">place ${place}</span>`);
      const turn = s.toAct === seat.seat && !s.finished ? ' aria-current="true" class="to-act"' : '';
      return `<li${turn} data-seat="${seat.seat}"><span class="swatch" style="background:${view.colour(s.state, seat.seat)}"></span> ${esc(names[seat.seat])} ${tags.join(' ')}</li>`;
    })
    .join('');
}

/** The link to share an open table. @param {Table} table @param {string} origin */
export function shareLink(table, origin) {
  return table.invite_code ? `${origin}/#/invite/${table.invite_code}` : `${origin}/#/t/${table.id}`;
}

/**
 * The waiting room: the link to share, *Take a seat*, *Leave*, *Start* (the host).
 * @param {TableState} s @param {string} origin @param {boolean} signedIn
 */
export function roomHtml(s, origin, signedIn) {
  const { table } = s;
  if (table.status !== 'open') return '';
  const seat = s.mySeat();
  const parts = [];
  parts.push(`<p>Waiting for players. ${table.visibility === 'private' ? 'Private table: share the invite link.' : 'Share the link:'}</p>
      <p><input id="invite-link" readonly value="${esc(shareLink(table, origin))}" aria-label="Link to this table"> <button type="button" id="copy-link">Copy</button></p>`);
  if (!signedIn) parts.push('<p><a href="#/">Sign up</a> to take a seat.</p>');
  else if (seat === null) parts.push('<button type="button" id="join">Take a seat</button>');
  else {
    parts.push('<button type="button" id="leave">Leave the table</button>');
    if (table.host_id === s.myId) parts.push(' <button type="button" id="start" class="primary">Start (bots fill the empty seats)</button>');
    else parts.push('<p class="hint">The host starts the game.</p>');
  }
  return parts.join('');
}

/**
 * The viewer's moves: *Take my seat back*, the choices a click left open, the actions off the
 * board as buttons (`data-action`: the index in `s.myLegal()`), and every board move folded.
 * @param {TableState} s @param {GameView} view
 */
export function controlsHtml(s, view) {
  const seat = s.mySeat();
  if (s.finished || s.table.status !== 'playing') return '';
  if (seat === null) return '<p class="hint">You are watching.</p>';
  const parts = [];
  const mine = s.presence[seat];
  if (mine && mine.controller === 'bot') {
    parts.push('<p class="warn">A bot is playing your seat.</p><button type="button" id="reclaim" class="primary">Take my seat back</button>');
  }
  const legal = s.myLegal();
  const danger = (/** @type {Action} */ a) => (view.dangerous.includes(a.type) ? ' danger' : '');
  if (s.choices) {
    parts.push(`<div class="choices" role="group" aria-label="Choose a move">${s.choices.map((a, i) => `<button type="button" class="choice${danger(a)}" data-choice="${i}">${esc(actionLabel(a, view))}</button>`).join('')} <button type="button" id="cancel-choice">Cancel</button></div>`);
  }
  const direct = legal.filter((a) => !view.onBoard.includes(a.type));
  const boardMoves = legal.filter((a) => view.onBoard.includes(a.type));
  if (direct.length) parts.push(`<div class="actions" role="group" aria-label="Actions">${direct.map((a) => `<button type="button" class="action${danger(a)}" data-action="${legal.indexOf(a)}">${esc(actionLabel(a, view))}</button>`).join('')}</div>`);
  if (boardMoves.length) {
    parts.push(`<p class="hint">Click a highlighted piece${view.clickHint ?? ''}, or choose:</p>`);
    if (s.selection.moves.length || s.selection.from !== null) parts.push('<button type="button" id="clear-selection">Start the move again</button>');
    parts.push(`<details class="all-moves"><summary>All legal moves (${boardMoves.length})</summary><div class="actions">${boardMoves.map((a) => `<button type="button" class="action" data-action="${legal.indexOf(a)}">${esc(actionLabel(a, view))}</button>`).join('')}</div></details>`);
  }
  if (!legal.length && !s.choices && s.toAct !== seat) parts.push('<p class="hint">Not your turn.</p>');
  // Your turn with nothing listed: the server makes your only move at once (the next entry).
  else if (!legal.length && !s.choices && !s.busy && mine?.controller !== 'bot') parts.push('<p class="hint">Your only move is made for you.</p>');
  return parts.join('');
}

/** The places after the game, *Check the dice* and *Replay*. @param {TableState} s */
export function endHtml(s) {
  if (!s.finished) return '';
  const { table } = s;
  const names = seatNames(table);
  const outcome = table.play?.outcome;
  const places = outcome?.places ?? [];
  const order = table.seats.map((seat) => seat.seat).sort((a, b) => (places[a] ?? 9) - (places[b] ?? 9));
  return `<div class="card result"><h3>Game over</h3><ol>${order.map((seat) => `<li>${esc(names[seat])}${places[seat] ? ` — place ${places[seat]}` : ''}${outcome?.points ? `, ${outcome.points[seat]} points` : ''}</li>`).join('')}</ol>
      <button type="button" id="check-fairness">Check the dice</button> <a class="button" href="#/replay/${table.id}">Replay</a>
      <p id="fairness" aria-live="polite">${s.verdict}</p></div>`;
}

/** The latest entries, newest first. @param {TableState} s @param {GameView} view */
export function logHtml(s, view) {
  const names = seatNames(s.table);
  return s.recent
    .slice(-8)
    .reverse()
    .map((e) => `<li data-seq="${e.seq}">${describe(e, names, view)}</li>`)
    .join('');
}

/** The dice to show: the state's own (a throw to play), else the last throw of the log. @param {TableState} s @param {GameView} view */
export function diceShown(s, view) {
  const own = s.state ? view.dice(s.state) : null;
  if (own) return own;
  for (let i = s.recent.length - 1; i >= 0; i--) {
    const thrown = thrownDice(s.recent[i]);
    if (thrown.length) return thrown[thrown.length - 1];
  }
  return [];
}

/** The dice, drawn. @param {number[]} dice */
export function diceHtml(dice) {
  if (!dice.length) return '';
  return `<span>Dice:</span> <svg viewBox="0 0 ${dice.length * 44} 40" width="${dice.length * 44}" height="40" role="img" aria-label="dice ${dice.join(' and ')}">${dice.map((d, i) => dieFace(2 + i * 44, 2, 36, d)).join('')}</svg>`;
}
