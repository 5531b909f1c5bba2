// @ts-check
/**
 * Backgammon in the browser: 24 points, the bar, the bear-off trays, the cube (value and owner),
 * the match score and the Crawford marker, from the viewer's side; a play is built point by
 * point (from, to, and again for each die) in the board context's `selection`; both seats' pip
 * counts.
 */
import { boardSvg, dieFace, pickAttrs } from '../boards/svg.js';
import { number, t } from '../i18n.js';
import { esc } from '../ui.js';

/** @typedef {import('../boards/svg.js').BoardContext} BoardContext @typedef {import('../boards/svg.js').Drawing} Drawing */

const PW = 40;
const BAR = 44;
const TRAY = 48;
const BH = 420;

/**
 * Where the viewer's point p (1–24) is: the viewer's home board bottom right.
 * @param {number} p
 */
function pointX(p) {
  if (p <= 6) return 10 + 6 * PW + BAR + (6 - p) * PW;
  if (p <= 12) return 10 + (12 - p) * PW;
  if (p <= 18) return 10 + (p - 13) * PW;
  return 10 + 6 * PW + BAR + (p - 19) * PW;
}

/**
 * A seat's pip count: what it still has to move to bear every checker off (a checker on its
 * point p counts p, one on the bar 25). `board[seat][i]` is the seat's point i + 1, the bar 24.
 * @param {any} state @param {number} seat
 */
export function pips(state, seat) {
  return state.board[seat].reduce((/** @type {number} */ sum, /** @type {number} */ n, /** @type {number} */ i) => sum + n * (i + 1), 0);
}

/** A seat's name. @param {BoardContext | { names: string[] }} ctx @param {number} seat */
const nameOf = (ctx, seat) => ctx.names[seat] ?? t('seat-number', { seat: seat + 1 });

/**
 * @param {any} state
 * @param {any} before
 * @param {BoardContext} ctx
 * @returns {Drawing}
 */
function draw(state, before, ctx) {
  const me = ctx.seat ?? 0;
  const them = 1 - me;
  const width = 10 + 12 * PW + BAR + TRAY + 10;
  const barX = 10 + 6 * PW;
  const trayX = barX + BAR + 6 * PW + 6;
  const top = 66;
  const bottom = top + BH;
  const out = [];
  out.push(boardSvg(`0 0 ${width} ${bottom + 40}`, 'backgammon-board', t('board-backgammon')));
  out.push(`<rect x="6" y="${top - 4}" width="${width - 12}" height="${BH + 8}" fill="#6d4c2f" rx="6"/>`);
  out.push(`<rect x="10" y="${top}" width="${12 * PW + BAR}" height="${BH}" fill="#e8d3a6"/>`);
  out.push(`<rect x="${barX}" y="${top}" width="${BAR}" height="${BH}" fill="#8a6240" class="bar"/>`);
  out.push(`<rect x="${trayX}" y="${top}" width="${TRAY - 6}" height="${BH}" fill="#5a3d24" class="tray"/>`);
  const viewerPoint = (/** @type {number} */ seat, /** @type {number} */ p) => (seat === me ? p : 25 - p);
  // The play being built: which points are sources and targets now.
  const plays = ctx.seat === null ? [] : ctx.legal.filter((a) => a.type === 'play');
  const sel = ctx.selection;
  const prefix = sel.moves;
  const matching = plays.filter((a) => prefix.every((m, i) => a.moves[i] && a.moves[i].from === m.from && a.moves[i].to === m.to));
  const k = prefix.length;
  /** @type {Map<string, () => void>} */
  const picks = new Map();
  const sources = new Set();
  const targets = new Set();
  for (const play of matching) {
    const step = play.moves[k];
    if (!step) continue;
    if (sel.from === null) sources.add(step.from);
    else if (step.from === sel.from) targets.add(step.to);
  }
  const choose = (/** @type {number} */ to) => {
    if (sel.from === null) return;
    const moves = [...prefix, { from: sel.from, to }];
    sel.moves = moves;
    sel.from = null;
    const done = plays.find((a) => a.moves.length === moves.length && moves.every((m, i) => a.moves[i].from === m.from && a.moves[i].to === m.to));
    if (done) {
      ctx.choose([done]);
    } else {
      ctx.redraw();
    }
  };
  for (let p = 1; p <= 24; p++) {
    const x = pointX(p);
    const down = p >= 13;
    const y0 = down ? top : bottom;
    const tip = down ? top + 170 : bottom - 170;
    const fill = p % 2 ? '#a0302a' : '#f6f1e4';
    const key = `pt${p}`;
    const isSource = sources.has(p);
    const isTarget = targets.has(p);
    const selected = sel.from === p;
    const attrs = isSource || isTarget ? pickAttrs(key, t(isSource ? 'pick-from-point' : 'pick-to-point', { point: p })) : selected ? pickAttrs(key, t('pick-selected-point', { point: p })) : '';
    out.push(`<g ${attrs} data-point="${p}"${selected ? ' data-selected="true"' : ''}>`);
    out.push(`<path d="M${x} ${y0}L${x + PW / 2} ${tip}L${x + PW} ${y0}Z" fill="${fill}" stroke="#5b4030"/>`);
    if (isSource || isTarget || selected) out.push(`<rect x="${x + 1}" y="${down ? top : bottom - 200}" width="${PW - 2}" height="200" class="${selected ? 'selected' : 'halo'}"/>`);
    out.push(`<text x="${x + PW / 2}" y="${down ? top - 8 : bottom + 18}" text-anchor="middle" font-size="11" fill="#333">${number(p)}</text>`);
    out.push('</g>');
    if (isSource) picks.set(key, () => { sel.from = p; ctx.redraw(); });
    if (isTarget) picks.set(key, () => choose(p));
    if (selected) picks.set(key, () => { sel.from = null; ctx.redraw(); });
  }
  /** @type {Map<string, { x: number, y: number }[]>} */
  const glides = new Map();
  /** Where each seat's top checker of each of its points is drawn (index 24: the bar). */
  const tops = [new Map(), new Map()];
  /** @param {number} cx @param {number} cy @param {number} seat @param {boolean} moved @param {string} [key] */
  const checker = (cx, cy, seat, moved, key) => {
    const fill = seat === 0 ? '#f7f3e8' : '#2b2b2b';
    const rim = seat === 0 ? '#7a6a50' : '#000';
    return `<circle cx="${cx}" cy="${cy}" r="${PW / 2 - 2}" fill="${fill}" stroke="${moved ? '#0a84ff' : rim}" stroke-width="${moved ? 3 : 1.5}" class="checker${moved ? ' last' : ''}"${key ? ` data-piece="${key}"` : ''}/>`;
  };
  const text = [];
  const off = [0, 0];
  for (const seat of [0, 1]) {
    const counts = state.board[seat];
    off[seat] = 15 - counts.reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0);
    for (let i = 0; i < 24; i++) {
      const n = counts[i];
      if (!n) continue;
      const p = viewerPoint(seat, i + 1);
      const x = pointX(p) + PW / 2;
      const down = p >= 13;
      const moved = !!before && before.board[seat][i] !== n;
      for (let j = 0; j < Math.min(n, 5); j++) {
        const y = down ? top + PW / 2 + j * (PW - 4) : bottom - PW / 2 - j * (PW - 4);
        const last = j === Math.min(n, 5) - 1;
        out.push(checker(x, y, seat, moved && last, last ? `k${seat}-${i}` : undefined));
        if (last) tops[seat].set(i, { x, y });
      }
      if (n > 5) out.push(`<text x="${x}" y="${down ? top + PW / 2 + 4 * (PW - 4) + 4 : bottom - PW / 2 - 4 * (PW - 4) + 4}" text-anchor="middle" font-size="13" font-weight="bold" fill="${seat === 0 ? '#000' : '#fff'}">${number(n)}</text>`);
      text.push(t('bg-on-point', { who: nameOf(ctx, seat), count: n, point: i + 1 }));
    }
    const bar = counts[24];
    if (bar) {
      const mine = seat === me;
      for (let j = 0; j < Math.min(bar, 4); j++) {
        const y = mine ? bottom - 150 - j * (PW - 4) : top + 150 + j * (PW - 4);
        const last = j === Math.min(bar, 4) - 1;
        out.push(checker(barX + BAR / 2, y, seat, !!before && before.board[seat][24] !== bar, last ? `k${seat}-24` : undefined));
        if (last) tops[seat].set(24, { x: barX + BAR / 2, y });
      }
      if (bar > 1) out.push(`<text x="${barX + BAR / 2}" y="${mine ? bottom - 150 + 4 : top + 150 + 4}" text-anchor="middle" font-size="13" fill="${seat === 0 ? '#000' : '#fff'}">${number(bar)}</text>`);
      text.push(t('bg-on-bar', { who: nameOf(ctx, seat), count: bar }));
    }
    if (off[seat]) text.push(t('bg-borne-off', { who: nameOf(ctx, seat), count: off[seat] }));
  }
  // The checkers that moved glide from a point that lost one to a point that gained one.
  if (before) {
    for (const seat of [0, 1]) {
      const from = [];
      for (let i = 0; i < 25; i++) for (let d = before.board[seat][i] - state.board[seat][i]; d > 0; d--) from.push(i);
      for (let i = 0; i < 25; i++) {
        const end = tops[seat].get(i);
        if (!end || state.board[seat][i] <= before.board[seat][i] || !from.length) continue;
        const source = from.shift() ?? 0;
        const p = source === 24 ? null : viewerPoint(seat, source + 1);
        const start = p === null ? { x: barX + BAR / 2, y: top + BH / 2 } : { x: pointX(p) + PW / 2, y: p >= 13 ? top + PW / 2 : bottom - PW / 2 };
        glides.set(`k${seat}-${i}`, [start, end]);
      }
    }
  }
  if (sources.has(25) || sel.from === 25) {
    out.push(`<g ${pickAttrs('bar', t('pick-from-bar'))} data-point="25"><rect x="${barX + 2}" y="${bottom - 200}" width="${BAR - 4}" height="200" class="${sel.from === 25 ? 'selected' : 'halo'}"/></g>`);
    picks.set('bar', () => { sel.from = sel.from === 25 ? null : 25; ctx.redraw(); });
  }
  // The trays: borne-off checkers as slabs, the viewer's at the bottom.
  for (const seat of [me, them]) {
    const n = off[seat];
    for (let j = 0; j < n; j++) {
      const y = seat === me ? bottom - 8 - j * 9 : top + 2 + j * 9;
      out.push(`<rect x="${trayX + 4}" y="${y}" width="${TRAY - 14}" height="7" fill="${seat === 0 ? '#f7f3e8' : '#2b2b2b'}" stroke="#000" stroke-width="0.5"/>`);
    }
  }
  if (targets.has(0)) {
    out.push(`<g ${pickAttrs('off', t('pick-bear-off'))} data-point="0"><rect x="${trayX}" y="${bottom - 200}" width="${TRAY - 6}" height="200" class="halo"/></g>`);
    picks.set('off', () => choose(0));
  }
  // The cube: centred on the bar, or on its owner's side.
  if (state.options.cube) {
    const owner = state.cube_owner;
    const cy = owner === null || owner === undefined ? top + BH / 2 : owner === me ? bottom - 40 : top + 40;
    const value = owner === null || owner === undefined ? (state.cube === 1 ? 64 : state.cube) : state.cube;
    const cubeText = owner === null || owner === undefined ? t('bg-cube-centred', { value: state.cube }) : t('bg-cube-owned', { value: state.cube, who: nameOf(ctx, owner) });
    out.push(`<g class="cube" role="img" aria-label="${esc(cubeText)}">`);
    out.push(`<rect x="${barX + 5}" y="${cy - 17}" width="${BAR - 10}" height="34" rx="5" fill="#fff" stroke="#000" stroke-width="2"/>`);
    out.push(`<text x="${barX + BAR / 2}" y="${cy + 6}" text-anchor="middle" font-size="16" font-weight="bold">${number(value)}</text></g>`);
    text.push(cubeText);
  }
  // Dice of the throw to play, on the side of the seat on roll.
  if (state.phase.phase === 'to_play') {
    const cx = state.turn === me ? barX + BAR + 3 * PW : 10 + 3 * PW;
    state.phase.dice.forEach((/** @type {number} */ d, /** @type {number} */ i) => {
      out.push(dieFace(cx - 30 + i * 36, top + BH / 2 - 15, 30, d, state.turn === 0 ? '#fff' : '#333', state.turn === 0 ? '#000' : '#fff'));
    });
  }
  // Score, pips and Crawford.
  const match = state.options.match_to ? t('bg-match-to', { points: state.options.match_to }) : t('bg-money-game');
  const score = t('bg-score', { match, first: nameOf(ctx, 0), second: nameOf(ctx, 1), a: state.score[0], b: state.score[1], game: state.game });
  out.push(`<text x="10" y="18" font-size="14" fill="#222" class="score">${esc(score)}</text>`);
  const pipText = t('bg-pips', { first: nameOf(ctx, 0), second: nameOf(ctx, 1), a: pips(state, 0), b: pips(state, 1) });
  out.push(`<text x="10" y="37" font-size="13" fill="#222" class="pips">${esc(pipText)}</text>`);
  if (state.crawford_game) out.push(`<g class="crawford"><rect x="${width - 130}" y="6" width="120" height="20" rx="4" fill="#b71c1c"/><text x="${width - 70}" y="20" text-anchor="middle" font-size="12" fill="#fff">${esc(t('bg-crawford'))}</text></g>`);
  out.push(`<text x="10" y="${bottom + 30}" font-size="12" fill="#333">${esc(t('bg-direction', { who: nameOf(ctx, me), colour: t('colour-name', { colour: me === 0 ? 'white' : 'black' }) }))}</text>`);
  out.push('</svg>');
  text.unshift(t('bg-text-head', { score, crawford: state.crawford_game ? 'yes' : 'no', who: nameOf(ctx, me) }), pipText);
  text.push(t('bg-ids', { position: state.position_id, match: state.match_id }));
  return { svg: out.join(''), text, picks, glides };
}

/** A point as a play names it. @param {number} p */
const point = (p) => (p === 25 ? t('bg-bar') : p === 0 ? t('bg-off') : number(p));

/** @type {import('../boards/svg.js').GameView} */
export default {
  draw,
  look: (_state, seat) => (seat === 0 ? { fill: '#f7f3e8', shape: 'circle', colour: 'white' } : { fill: '#2b2b2b', shape: 'circle', colour: 'black' }),
  positions: (state) => JSON.stringify(state.board),
  dice: (state) => state.phase?.dice ?? null,
  label(action) {
    switch (action.type) {
      case 'double':
        return t('action-bg-double');
      case 'take':
        return t('action-bg-take');
      case 'drop':
        return t('action-bg-drop');
      case 'beaver':
        return t('action-bg-beaver');
      case 'play':
        return action.moves.length ? t('action-bg-play', { moves: action.moves.map((/** @type {any} */ m) => `${point(m.from)}/${point(m.to)}`).join(' ') }) : t('action-bg-play-nothing');
      default:
        return undefined;
    }
  },
  event(event, _state, who) {
    switch (event.type) {
      case 'play_made':
        return event.moves.length
          ? t('said-bg-played', { who: who(event.seat), moves: event.moves.map((/** @type {any} */ m) => t('said-bg-move', { from: point(m.from), to: point(m.to) })).join(', ') })
          : t('said-bg-no-play', { who: who(event.seat) });
      case 'no_legal_play':
        return t('said-bg-no-play', { who: who(event.seat) });
      case 'captured':
        return t('said-bg-hit', { who: who(event.seat), point: event.point });
      case 'doubled':
        return t('said-bg-doubled', { who: who(event.seat), value: event.value });
      case 'taken':
        return t('said-bg-taken', { who: who(event.seat), value: event.value });
      case 'beavered':
        return t('said-bg-beavered', { who: who(event.seat), value: event.value });
      case 'dropped':
        return t('said-bg-dropped', { who: who(event.seat) });
      case 'game_won':
        return t('said-bg-game-won', { who: who(event.seat), points: event.points, kind: event.kind });
      case 'new_game':
        return t('said-bg-new-game', { game: event.game });
      default:
        return undefined;
    }
  },
  where(state, seat) {
    const lines = [];
    for (let i = 23; i >= 0; i--) if (state.board[seat][i]) lines.push(t('bg-count-on-point', { count: state.board[seat][i], point: i + 1 }));
    if (state.board[seat][24]) lines.push(t('bg-count-on-bar', { count: state.board[seat][24] }));
    const off = 15 - state.board[seat].reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0);
    if (off) lines.push(t('bg-count-off', { count: off }));
    return lines.join('; ');
  },
  score(state, names) {
    const who = (/** @type {number} */ s) => names[s] ?? t('seat-number', { seat: s + 1 });
    return `${t('bg-score', { match: state.options.match_to ? t('bg-match-to', { points: state.options.match_to }) : t('bg-money-game'), first: who(0), second: who(1), a: state.score[0], b: state.score[1], game: state.game })}; ${t('bg-pips', { first: who(0), second: who(1), a: pips(state, 0), b: pips(state, 1) })}`;
  },
  onBoard: ['play'],
  dangerous: ['drop'],
  clickHint: () => t('hint-bg-click'),
  record: { format: 'mat', label: () => t('download-mat') },
};
