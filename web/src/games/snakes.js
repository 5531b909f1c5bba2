// @ts-check
/**
 * Snakes and Ladders in the browser: the 10×10 board (square 1 bottom left, boustrophedon) with
 * the engine's own snakes and ladders, a counter per seat in its colour and shape; nothing on it
 * is clicked.
 */
import { COLOURS, SEAT_COLOUR_NAMES, SHAPES, boardSvg, shapeSvg } from '../boards/svg.js';
import { number, t } from '../i18n.js';
import { esc } from '../ui.js';

/** @typedef {import('../boards/svg.js').BoardContext} BoardContext @typedef {import('../boards/svg.js').Drawing} Drawing */

const SQ = 48;

/** The centre of square n (1–100). @param {number} n */
function snakesCell(n) {
  const row = Math.floor((n - 1) / 10);
  const col = row % 2 === 0 ? (n - 1) % 10 : 9 - ((n - 1) % 10);
  return { x: col * SQ + SQ / 2, y: (9 - row) * SQ + SQ / 2 };
}

/** A seat's colour name. @param {number} seat */
const colourOf = (seat) => SEAT_COLOUR_NAMES[seat % SEAT_COLOUR_NAMES.length];

/**
 * @param {any} state
 * @param {any} before
 * @param {BoardContext} ctx
 * @returns {Drawing}
 */
function draw(state, before, ctx) {
  const out = [];
  const height = 10 * SQ + 60;
  out.push(boardSvg(`0 0 ${10 * SQ} ${height}`, 'snakes-board', t('board-snakes')));
  for (let n = 1; n <= 100; n++) {
    const c = snakesCell(n);
    const row = Math.floor((n - 1) / 10);
    const fill = (row + ((n - 1) % 10)) % 2 === 0 ? '#fff3c4' : '#d9f0d2';
    out.push(`<rect x="${c.x - SQ / 2}" y="${c.y - SQ / 2}" width="${SQ}" height="${SQ}" fill="${fill}" stroke="#999" data-square="${n}"/>`);
    out.push(`<text x="${c.x - SQ / 2 + 3}" y="${c.y - SQ / 2 + 12}" font-size="10" fill="#444">${number(n)}</text>`);
  }
  const board = state.options.board;
  for (const [from, to] of board.ladders) {
    const a = snakesCell(from);
    const b = snakesCell(to);
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const nx = (-(b.y - a.y) / len) * 7;
    const ny = ((b.x - a.x) / len) * 7;
    out.push(`<g class="ladder" role="img" aria-label="${esc(t('snakes-ladder', { from, to }))}">`);
    out.push(`<line x1="${a.x + nx}" y1="${a.y + ny}" x2="${b.x + nx}" y2="${b.y + ny}" stroke="#8b5a2b" stroke-width="3"/>`);
    out.push(`<line x1="${a.x - nx}" y1="${a.y - ny}" x2="${b.x - nx}" y2="${b.y - ny}" stroke="#8b5a2b" stroke-width="3"/>`);
    const rungs = Math.max(2, Math.floor(len / 16));
    for (let i = 1; i < rungs; i++) {
      const f = i / rungs;
      const x = a.x + (b.x - a.x) * f;
      const y = a.y + (b.y - a.y) * f;
      out.push(`<line x1="${x + nx}" y1="${y + ny}" x2="${x - nx}" y2="${y - ny}" stroke="#8b5a2b" stroke-width="2"/>`);
    }
    out.push('</g>');
  }
  for (const [head, tail] of board.snakes) {
    const a = snakesCell(head);
    const b = snakesCell(tail);
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const c1 = { x: a.x + dx * 0.25 + dy * 0.3, y: a.y + dy * 0.25 - dx * 0.3 };
    const c2 = { x: mx + dx * 0.25 - dy * 0.3, y: my + dy * 0.25 + dx * 0.3 };
    out.push(`<g class="snake" role="img" aria-label="${esc(t('snakes-snake', { from: head, to: tail }))}">`);
    out.push(`<path d="M${a.x} ${a.y}C${c1.x} ${c1.y} ${c2.x} ${c2.y} ${b.x} ${b.y}" fill="none" stroke="#2e7d32" stroke-width="9" stroke-linecap="round" opacity="0.85"/>`);
    out.push(`<path d="M${a.x} ${a.y}C${c1.x} ${c1.y} ${c2.x} ${c2.y} ${b.x} ${b.y}" fill="none" stroke="#a5d6a7" stroke-width="2" stroke-dasharray="4 6"/>`);
    out.push(`<circle cx="${a.x}" cy="${a.y}" r="8" fill="#1b5e20"/><circle cx="${a.x - 3}" cy="${a.y - 2}" r="1.8" fill="#fff"/><circle cx="${a.x + 3}" cy="${a.y - 2}" r="1.8" fill="#fff"/>`);
    out.push('</g>');
  }
  out.push(`<text x="6" y="${10 * SQ + 22}" font-size="13" fill="#333">${esc(t('snakes-waiting'))}</text>`);
  const text = [t('board-snakes-text')];
  text.push(t('snakes-ladders-list', { list: board.ladders.map((/** @type {number[]} */ l) => `${number(l[0])}→${number(l[1])}`).join(', ') }));
  text.push(t('snakes-snakes-list', { list: board.snakes.map((/** @type {number[]} */ l) => `${number(l[0])}→${number(l[1])}`).join(', ') }));
  /** @type {Map<string, { x: number, y: number }[]>} */
  const glides = new Map();
  /** @type {string[]} */
  const counters = [];
  /** @type {Map<number, number>} */
  const onSquare = new Map();
  let waiting = 0;
  state.squares.forEach((/** @type {number | null} */ square, /** @type {number} */ s) => {
    const colour = colourOf(s);
    const moved = before && before.squares[s] !== square;
    let x;
    let y;
    if (square === null) {
      x = 200 + waiting * 30;
      y = 10 * SQ + 18;
      waiting += 1;
    } else {
      const c = snakesCell(square);
      const k = onSquare.get(square) ?? 0;
      onSquare.set(square, k + 1);
      x = c.x - 11 + (k % 2) * 22;
      y = c.y - 6 + Math.floor(k / 2) * 18;
      if (moved && before.squares[s] !== null) {
        const from = snakesCell(before.squares[s]);
        out.push(`<circle cx="${from.x}" cy="${from.y}" r="6" fill="none" stroke="#222" stroke-dasharray="3 2" class="last-from"/>`);
      }
    }
    const name = ctx.names[s] ?? t('seat-number', { seat: s + 1 });
    const label = t('snakes-counter', { who: name, colour: t('colour-name', { colour }), where: square === null ? t('snakes-not-on-board') : t('snakes-square', { square }) });
    const parts = [`<g role="img" aria-label="${esc(label)}" data-piece="s${s}">`];
    if (moved) parts.push(`<circle cx="${x}" cy="${y}" r="14" fill="none" stroke="#000" stroke-width="2" stroke-dasharray="4 3" class="last"/>`);
    parts.push(shapeSvg(SHAPES[colour], x, y, 10, `fill="${COLOURS[colour]}" stroke="#222" stroke-width="2"`));
    parts.push(`<text x="${x}" y="${y + 4}" text-anchor="middle" font-size="11">${number(s + 1)}</text></g>`);
    counters.push(parts.join(''));
    if (moved) glides.set(`s${s}`, glidePath(before.squares[s], square, board, { x, y }));
    const place = state.places[s] ? t('snakes-place', { place: state.places[s] }) : '';
    text.push(`${label}${place}`);
  });
  out.push(...counters, '</svg>');
  return { svg: out.join(''), text, picks: new Map(), glides };
}

/**
 * The path of a counter that moved: square by square from where it stood to where the throw
 * took it, then up its ladder or down its snake (straight).
 * @param {number | null} from @param {number | null} to
 * @param {{ ladders: number[][], snakes: number[][] }} board
 * @param {{ x: number, y: number }} end where it is drawn
 */
function glidePath(from, to, board, end) {
  if (to === null) return [end];
  const jump = [...board.ladders, ...board.snakes].find(([, b]) => b === to);
  const landed = jump && from !== null && from < jump[0] ? jump[0] : to;
  const points = [];
  for (let n = Math.max(from ?? 1, 1); n <= landed && n - (from ?? 1) <= 12; n++) points.push(snakesCell(n));
  if (!points.length) points.push(snakesCell(landed));
  points.push(end);
  return points;
}

/** @type {import('../boards/svg.js').GameView} */
export default {
  draw,
  look: (_state, seat) => ({ fill: COLOURS[colourOf(seat)], shape: SHAPES[colourOf(seat)], colour: colourOf(seat) }),
  positions: (state) => JSON.stringify(state.squares),
  dice: () => null,
  label: () => undefined,
  event(event, _state, who) {
    switch (event.type) {
      case 'moved':
        return event.from === null || event.from === undefined
          ? t('said-snakes-entered', { who: who(event.seat), to: event.to })
          : t('said-snakes-moved', { who: who(event.seat), from: event.from, to: event.to });
      case 'climbed_ladder':
        return t('said-snakes-ladder', { who: who(event.seat), from: event.from, to: event.to });
      case 'slid_snake':
        return t('said-snakes-snake', { who: who(event.seat), from: event.from, to: event.to });
      case 'need_six_to_start':
        return t('said-snakes-need-six', { who: who(event.seat) });
      case 'overshoot_stay':
        return t('said-snakes-overshoot', { who: who(event.seat), at: event.at });
      default:
        return undefined;
    }
  },
  where: (state, seat) => (state.squares[seat] === null ? t('snakes-not-on-board') : t('snakes-square', { square: state.squares[seat] })),
  score: (state, names) =>
    state.squares
      .map((/** @type {number | null} */ square, /** @type {number} */ s) =>
        t('score-square', { who: names[s] ?? t('seat-number', { seat: s + 1 }), where: square === null ? t('snakes-not-on-board') : t('snakes-square', { square }) }),
      )
      .join('; '),
  onBoard: [],
  dangerous: [],
};
