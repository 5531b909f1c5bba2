// @ts-check
/**
 * A table drawn from its state (table/state.js): each part of the page (the turn and clock, the
 * seats, the waiting room, the viewer's moves, the end and its rematch, the log, the dice and
 * who threw them) as HTML from the state and the game's own code (games/<game>.js), with no
 * state of its own. Buttons carry `id`s and `data-*` attributes; the page binds them after
 * drawing. Every text is in the language in use (i18n.js).
 */
import { dieFace, swatchSvg } from '../boards/svg.js';
import { has, number, t } from '../i18n.js';
import { esc, playerName } from '../ui.js';

/**
 * @typedef {import('../api.js').Table} Table
 * @typedef {import('../api.js').Entry} Entry
 * @typedef {import('../api.js').Action} Action
 * @typedef {import('../games.js').GameView} GameView
 * @typedef {import('./state.js').TableState} TableState
 */

/** The names of the seats. @param {Table} table */
export function seatNames(table) {
  return table.seats.map((s) => s.player?.name ?? (s.controller === 'bot' ? t('bot-name', { seat: s.seat + 1 }) : t('empty-seat', { seat: s.seat + 1 })));
}

/**
 * A seat as announcements and the dice's owner name it: its name and its colour.
 * @param {Table} table @param {GameView} view @param {any} state @param {number} seat
 */
export function seatWho(table, view, state, seat) {
  const names = seatNames(table);
  const look = view.look(state, seat, table.seats.length);
  return t('seat-who', { name: names[seat] ?? t('seat-number', { seat: seat + 1 }), colour: t('colour-name', { colour: look.colour }) });
}

/** A short text for an action: the game's own, else one every game shares. @param {Action} action @param {GameView} view */
export function actionLabel(action, view) {
  const own = view.label(action);
  if (own !== undefined) return own;
  const id = `action-${action.type.replaceAll('_', '-')}`;
  return has(id) ? t(id) : action.type.replaceAll('_', ' ');
}

/** One line about a log entry (HTML). @param {Entry} entry @param {string[]} names @param {GameView} view */
export function describe(entry, names, view) {
  const who = entry.seat === null || entry.seat === undefined ? t('log-table') : names[entry.seat] ?? t('seat-number', { seat: entry.seat + 1 });
  const a = entry.action;
  /** @type {string} */
  let what;
  switch (a.type) {
    case 'seat_taken':
      what = t('log-seat-taken', { name: a.name });
      break;
    case 'seat_left':
      what = t('log-seat-left');
      break;
    case 'bot_seated':
      what = t('log-bot-seated');
      break;
    case 'settings_changed':
      what = t('log-settings-changed');
      break;
    case 'start':
      what = t('log-start');
      break;
    case 'finish':
      what = t('log-finish');
      break;
    case 'takeover':
      what = t('log-takeover', { reason: a.reason });
      break;
    case 'reclaim':
      what = t('log-reclaim');
      break;
    case 'closed':
      what = t('log-closed');
      break;
    default:
      what = actionLabel(a, view);
  }
  const thrown = thrownDice(entry);
  const dice = thrown.length ? t('log-threw', { dice: thrown.map((d) => d.dice.map((d) => number(d)).join('+')).join(', ') }) : '';
  const by = entry.actor === 'timeout' ? ` <span class="tag warn">${esc(t('tag-timed-out-entry'))}</span>` : entry.actor === 'bot' ? ` <span class="tag bot">${esc(t('tag-bot'))}</span>` : '';
  return `<strong>${esc(who)}</strong>: ${esc(what)}${esc(dice)}${by}`;
}

/** Every throw an entry tells of: its dice and who threw them. @param {Entry} entry @returns {{ dice: number[], seat: number | null }[]} */
export function thrownDice(entry) {
  return entry.events
    .filter((e) => e.type === 'rolled')
    .map((/** @type {any} */ e) => ({ dice: e.dice ?? [e.value ?? e.die], seat: e.seat ?? entry.seat ?? null }));
}

/** The table's title. @param {Table} table @param {string} label the game's name */
export function title(table, label) {
  return t('table-title', { game: label, private: table.visibility === 'private' ? 'yes' : 'no', party: table.party ? 'yes' : 'no', seconds: table.turn_seconds });
}

/**
 * The connection's tag: never *live* once the game is over.
 * @param {TableState} s
 */
export function connectionText(s) {
  // The notices of table/state.js and api.js, which speak no language of their own.
  if (s.closedNotice === 'closed: everyone left') return t('connection-everyone-left');
  if (s.closedNotice === 'this table is private') return t('connection-private');
  if (s.finished) return t('connection-finished');
  return s.connection === 'connected' ? t('connection-live') : s.connection === 'ended' ? t('connection-closed') : t('connection-reconnecting');
}

/** The seconds left on the clock, or null. @param {TableState} s @param {number} now */
export function secondsLeft(s, now) {
  return s.deadline ? Math.max(0, Math.ceil((Date.parse(s.deadline) - now) / 1000)) : null;
}

/** Whose turn and the clock counting down to the deadline (HTML). @param {TableState} s @param {number} now */
export function turnHtml(s, now) {
  if (s.table.status === 'open') return esc(t('turn-waiting-room'));
  if (s.finished) return esc(t('turn-game-over'));
  if (s.toAct === null || s.toAct === undefined) return '';
  const left = secondsLeft(s, now);
  const whose = s.toAct === s.mySeat() ? t('turn-yours') : t('turn-theirs', { name: seatNames(s.table)[s.toAct] });
  return `${esc(whose)}${left !== null ? ` · <span id="clock" class="clock${left <= 5 ? ' low' : ''}">${esc(t('clock-seconds', { seconds: left }))}</span>` : ''}`;
}

/**
 * Each seat: its shape in its colour (the colour named for assistive technology), its name, and
 * tags (host, you, bot, online or offline, a bot playing for its player, timeouts, place).
 * @param {TableState} s @param {GameView} view
 */
export function seatsHtml(s, view) {
  const { table } = s;
  const names = seatNames(table);
  const mine = s.mySeat();
  return table.seats
    .map((seat) => {
      const p = s.presence[seat.seat];
      const tags = [];
      if (seat.player && seat.player.id === table.host_id) tags.push(`<span class="tag">${esc(t('tag-host'))}</span>`);
      if (seat.seat === mine) tags.push(`<span class="tag you">${esc(t('tag-you'))}</span>`);
      // A bot's seat is a bot's, never "offline": that tag is for the absent humans.
      const botSeat = !seat.player && seat.controller === 'bot';
      if (botSeat) tags.push(`<span class="tag bot">${esc(t('tag-bot'))}</span>`);
      else if (p) {
        tags.push(p.connected ? `<span class="tag ok">${esc(t('tag-online'))}</span>` : `<span class="tag off">${esc(t('tag-offline'))}</span>`);
        if (p.controller === 'bot' && seat.player) tags.push(`<span class="tag warn">${esc(t('tag-bot-playing-for', { name: seat.player.name }))}</span>`);
        if (p.timeouts > 0) tags.push(`<span class="tag warn">${esc(t('tag-timed-out', { count: p.timeouts }))}</span>`);
      }
      const place = table.play?.outcome?.places?.[seat.seat];
      if (s.finished && place) tags.push(`<span class="tag">${esc(t('tag-place', { place }))}</span>`);
      if (s.rematchAsked.includes(seat.seat)) tags.push(`<span class="tag you">${esc(t('tag-wants-rematch'))}</span>`);
      const turn = s.toAct === seat.seat && !s.finished ? ' aria-current="true" class="to-act"' : '';
      const look = view.look(s.state, seat.seat, table.seats.length);
      const name = seat.player ? playerName(seat.player) : esc(names[seat.seat]);
      return `<li${turn} data-seat="${seat.seat}">${swatchSvg(look.fill, look.shape)} <span class="visually-hidden">${esc(t('seat-colour', { colour: t('colour-name', { colour: look.colour }), shape: t('shape-name', { shape: look.shape }) }))}</span> ${name} ${tags.join(' ')}</li>`;
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
  parts.push(`<p>${esc(t(table.visibility === 'private' ? 'room-waiting-private' : 'room-waiting-public'))}</p>
      <p><input id="invite-link" readonly value="${esc(shareLink(table, origin))}" aria-label="${esc(t('room-link'))}"> <button type="button" id="copy-link">${esc(t('room-copy'))}</button></p>`);
  if (!signedIn) parts.push(`<p><a href="#/">${esc(t('room-sign-up'))}</a> ${esc(t('room-sign-up-after'))}</p>`);
  else if (seat === null) parts.push(`<button type="button" id="join">${esc(t('room-join'))}</button>`);
  else {
    parts.push(`<button type="button" id="leave">${esc(t('room-leave'))}</button>`);
    if (table.host_id === s.myId) parts.push(` <button type="button" id="start" class="primary">${esc(t('room-start'))}</button>`);
    else parts.push(`<p class="hint">${esc(t('room-host-starts'))}</p>`);
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
  if (seat === null) return `<p class="hint">${esc(t('controls-watching'))}</p>`;
  const parts = [];
  const mine = s.presence[seat];
  if (mine && mine.controller === 'bot') {
    parts.push(`<p class="warn">${esc(t('controls-bot-playing'))}</p><button type="button" id="reclaim" class="primary">${esc(t('controls-reclaim'))}</button>`);
  }
  const legal = s.myLegal();
  const danger = (/** @type {Action} */ a) => (view.dangerous.includes(a.type) ? ' danger' : '');
  if (s.choices) {
    parts.push(`<div class="choices" role="group" aria-label="${esc(t('controls-choose'))}">${s.choices.map((a, i) => `<button type="button" class="choice${danger(a)}" data-choice="${i}">${esc(actionLabel(a, view))}</button>`).join('')} <button type="button" id="cancel-choice">${esc(t('controls-cancel'))}</button></div>`);
  }
  const direct = legal.filter((a) => !view.onBoard.includes(a.type));
  const boardMoves = legal.filter((a) => view.onBoard.includes(a.type));
  if (direct.length) parts.push(`<div class="actions" role="group" aria-label="${esc(t('controls-actions'))}">${direct.map((a) => `<button type="button" class="action${danger(a)}" data-action="${legal.indexOf(a)}">${esc(actionLabel(a, view))}</button>`).join('')}</div>`);
  if (boardMoves.length) {
    parts.push(`<p class="hint">${esc(view.clickHint ? view.clickHint() : t('controls-click-piece'))}</p>`);
    if (s.selection.moves.length || s.selection.from !== null) parts.push(`<button type="button" id="clear-selection">${esc(t('controls-start-again'))}</button>`);
    parts.push(`<details class="all-moves"><summary>${esc(t('controls-all-moves', { count: boardMoves.length }))}</summary><div class="actions">${boardMoves.map((a) => `<button type="button" class="action" data-action="${legal.indexOf(a)}">${esc(actionLabel(a, view))}</button>`).join('')}</div></details>`);
  }
  if (!legal.length && !s.choices && s.toAct !== seat) parts.push(`<p class="hint">${esc(t('controls-not-your-turn'))}</p>`);
  // Your turn with nothing listed: the server makes your only move at once (the next entry).
  else if (!legal.length && !s.choices && !s.busy && mine?.controller !== 'bot') parts.push(`<p class="hint">${esc(t('controls-only-move'))}</p>`);
  return parts.join('');
}

/**
 * The places after the game, *Rematch* (for its players) with who asked for one, *Check the
 * dice* and *Replay*.
 * @param {TableState} s
 */
export function endHtml(s) {
  if (!s.finished) return '';
  const { table } = s;
  const names = seatNames(table);
  const outcome = table.play?.outcome;
  const places = outcome?.places ?? [];
  const order = table.seats.map((seat) => seat.seat).sort((a, b) => (places[a] ?? 9) - (places[b] ?? 9));
  const rows = order.map((seat) => {
    const place = places[seat] ? t('end-place', { place: places[seat] }) : '';
    const points = outcome?.points ? t('end-points', { points: outcome.points[seat] }) : '';
    return `<li>${esc(names[seat])}${esc(place)}${esc(points)}</li>`;
  });
  return `<div class="card result"><h2>${esc(t('end-title'))}</h2><ol>${rows.join('')}</ol>
      ${rematchHtml(s)}
      <button type="button" id="check-fairness">${esc(t('end-check-dice'))}</button> <a class="button" href="#/replay/${table.id}">${esc(t('end-replay'))}</a>
      <p id="fairness" aria-live="polite">${s.verdict}</p></div>`;
}

/**
 * The rematch: the button for a player who has not asked, who asked and who is awaited, and the
 * new table once it opened.
 * @param {TableState} s
 */
export function rematchHtml(s) {
  const { table } = s;
  const names = seatNames(table);
  if (table.rematch_id) return `<p class="rematch" role="status"><a href="#/t/${table.rematch_id}">${esc(t('rematch-opened'))}</a></p>`;
  const me = s.mySeat();
  const parts = [];
  const others = s.rematchAsked.filter((seat) => seat !== me);
  if (others.length) parts.push(esc(t('rematch-wanted', { names: others.map((seat) => names[seat]).join(', '), count: others.length })));
  if (me !== null && s.rematchAsked.includes(me)) {
    const waiting = s.rematchWaiting.map((seat) => names[seat]).join(', ');
    parts.push(esc(waiting ? t('rematch-waiting', { names: waiting }) : t('rematch-asked')));
  }
  const button = me !== null && !s.rematchAsked.includes(me) ? `<button type="button" id="rematch" class="primary">${esc(t('rematch-ask'))}</button> ` : '';
  return `${button}<p class="rematch" role="status">${parts.join(' ')}</p>`;
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

/**
 * @typedef {object} ShownDice
 * @property {number[]} dice
 * @property {number | null} seat who threw them (null: unknown)
 * @property {number} seq the entry of the throw (0: the state's own, its throw not in the log kept)
 */

/**
 * The dice to show and who threw them: the latest throw of the log (its thrower named), or the
 * state's own dice when the log kept none.
 * @param {TableState} s @param {GameView} view
 * @returns {ShownDice}
 */
export function diceShown(s, view) {
  for (let i = s.recent.length - 1; i >= 0; i--) {
    const thrown = thrownDice(s.recent[i]);
    if (thrown.length) {
      const last = thrown[thrown.length - 1];
      const own = s.state ? view.dice(s.state) : null;
      // Luddo's sequence of throws: the state holds every number still to play.
      return { dice: own && last.seat === s.toAct ? own : last.dice, seat: last.seat, seq: s.recent[i].seq };
    }
  }
  const own = s.state ? view.dice(s.state) : null;
  return { dice: own ?? [], seat: own ? s.toAct ?? null : null, seq: 0 };
}

/**
 * The dice, drawn with who threw them. When the viewer is to throw, the throw shown is someone
 * else's: it is marked as the last throw of that seat, faded, never as the viewer's.
 * @param {ShownDice} shown @param {TableState} s @param {GameView} view
 */
export function diceHtml(shown, s, view) {
  const { dice, seat } = shown;
  if (!dice.length) return '';
  const me = s.mySeat();
  const mine = seat !== null && seat === me;
  const look = seat !== null ? view.look(s.state, seat, s.table.seats.length) : null;
  const who = seat === null ? '' : mine ? t('dice-you-threw') : t('dice-threw', { who: seatWho(s.table, view, s.state, seat) });
  const stale = !mine && me !== null && s.toAct === me && !s.finished;
  const label = t('dice-label', { dice: dice.map((d) => number(d)).join(', '), count: dice.length });
  return `<span class="dice-owner">${look ? swatchSvg(look.fill, look.shape) : ''} ${esc(who)}</span>
    <svg class="dice-faces${stale ? ' stale' : ''}" viewBox="0 0 ${dice.length * 44} 40" width="${dice.length * 44}" height="40" role="img" aria-label="${esc(label)}">${dice.map((d, i) => dieFace(2 + i * 44, 2, 36, d)).join('')}</svg>${stale ? ` <span class="hint">${esc(t('dice-your-turn-to-throw'))}</span>` : ''}`;
}
