// @ts-check
/**
 * Snakes and Ladders in the browser: the 10×10 board (square 1 bottom left, boustrophedon) with
 * the engine's own snakes and ladders, a counter per seat; nothing on it is clicked.
 */
import { SEAT_COLOURS } from '../boards/svg.js';
import { esc } from '../ui.js';

/** @typedef {import('../boards/svg.js').BoardContext} BoardContext @typedef {import('../boards/svg.js').Drawing} Drawing */

const SQ = 48;

/** The centre of square n (1–100). @param {number} n */
function snakesCell(n) {
  const row = Math.floor((n - 1) / 10);
  const col = row % 2 === 0 ? (n - 1) % 10 : 9 - ((n - 1) % 10);
  return { x: col * SQ + SQ / 2, y: (9 - row) * SQ + SQ / 2 };
}

/**
 * @param {any} state
 * @param {any} before
 * @param {BoardContext} ctx
 * @returns {Drawing}
 */
function draw(state, before, ctx) {
  const out = [];
  const height = 10 * SQ + 60;
  out.push(`<svg viewBox="0 0 ${10 * SQ} ${height}" class="board snakes-board" role="img" aria-label="Snakes and Ladders board, 10 by 10">`);
  for (let n = 1; n <= 100; n++) {
    const c = snakesCell(n);
    const row = Math.floor((n - 1) / 10);
    const fill = (row + ((n - 1) % 10)) % 2 === 0 ? '#fff3c4' : '#d9f0d2';
    out.push(`<rect x="${c.x - SQ / 2}" y="${c.y - SQ / 2}" width="${SQ}" height="${SQ}" fill="${fill}" stroke="#999" data-square="${n}"/>`);
    out.push(`<text x="${c.x - SQ / 2 + 3}" y="${c.y - SQ / 2 + 12}" font-size="10" fill="#555">${n}</text>`);
  }
  const board = state.options.board;
  for (const [from, to] of board.ladders) {
    const a = snakesCell(from);
    const b = snakesCell(to);
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const nx = (-(b.y - a.y) / len) * 7;
    const ny = ((b.x - a.x) / len) * 7;
    out.push(`<g class="ladder" aria-label="ladder from ${from} to ${to}">`);
    out.push(`<line x1="${a.x + nx}" y1="${a.y + ny}" x2="${b.x + nx}" y2="${b.y + ny}" stroke="#8b5a2b" stroke-width="3"/>`);
    out.push(`<line x1="${a.x - nx}" y1="${a.y - ny}" x2="${b.x - nx}" y2="${b.y - ny}" stroke="#8b5a2b" stroke-width="3"/>`);
    const rungs = Math.max(2, Math.floor(len / 16));
    for (let i = 1; i < rungs; i++) {
      const t = i / rungs;
      const x = a.x + (b.x - a.x) * t;
      const y = a.y + (b.y - a.y) * t;
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
    out.push(`<g class="snake" aria-label="snake from ${head} to ${tail}">`);
    out.push(`<path d="M${a.x} ${a.y}C${c1.x} ${c1.y} ${c2.x} ${c2.y} ${b.x} ${b.y}" fill="none" stroke="#2e7d32" stroke-width="9" stroke-linecap="round" opacity="0.85"/>`);
    out.push(`<path d="M${a.x} ${a.y}C${c1.x} ${c1.y} ${c2.x} ${c2.y} ${b.x} ${b.y}" fill="none" stroke="#a5d6a7" stroke-width="2" stroke-dasharray="4 6"/>`);
    out.push(`<circle cx="${a.x}" cy="${a.y}" r="8" fill="#1b5e20"/><circle cx="${a.x - 3}" cy="${a.y - 2}" r="1.8" fill="#fff"/><circle cx="${a.x + 3}" cy="${a.y - 2}" r="1.8" fill="#fff"/>`);
    out.push('</g>');
  }
  out.push(`<text x="6" y="${10 * SQ + 22}" font-size="13" fill="#333">Not yet on the board:</text>`);
  const text = ['Snakes and Ladders, 10 by 10: square 1 bottom left, 100 top left'];
  text.push(`Ladders: ${board.ladders.map((/** @type {number[]} */ l) => `${l[0]}→${l[1]}`).join(', ')}`);
  text.push(`Snakes: ${board.snakes.map((/** @type {number[]} */ l) => `${l[0]}→${l[1]}`).join(', ')}`);
  /** @type {Map<number, number>} */
  const onSquare = new Map();
  let waiting = 0;
  state.squares.forEach((/** @type {number | null} */ square, /** @type {number} */ s) => {
    const colour = SEAT_COLOURS[s % SEAT_COLOURS.length];
    const moved = before && before.squares[s] !== square;
    let x;
    let y;
    if (square === null) {
      x = 160 + waiting * 30;
      y = 10 * SQ + 18;
      waiting += 1;
    } else {
      const c = snakesCell(square);
      const k = onSquare.get(square) ?? 0;
      onSquare.set(square, k + 1);
      x = c.x - 10 + (k % 2) * 20;
      y = c.y - 6 + Math.floor(k / 2) * 14;
      if (moved && before.squares[s] !== null) {
        const from = snakesCell(before.squares[s]);
        out.push(`<circle cx="${from.x}" cy="${from.y}" r="6" fill="none" stroke="#222" stroke-dasharray="3 2" class="last-from"/>`);
      }
    }
    if (moved) out.push(`<circle cx="${x}" cy="${y}" r="13" fill="none" stroke="#000" stroke-width="2" stroke-dasharray="4 3" class="last"/>`);
    const name = ctx.names[s] ?? `seat ${s + 1}`;
    out.push(`<circle cx="${x}" cy="${y}" r="10" fill="${colour}" stroke="#222" stroke-width="2" aria-label="${esc(name)}"/>`);
    out.push(`<text x="${x}" y="${y + 4}" text-anchor="middle" font-size="11">${s + 1}</text>`);
    const place = state.places[s] ? `, finished in place ${state.places[s]}` : '';
    text.push(`${name}: ${square === null ? 'not yet on the board' : `square ${square}`}${place}`);
  });
  out.push('</svg>');
  return { svg: out.join(''), text, picks: new Map() };
}

/** @type {import('../boards/svg.js').GameView} */
export default {
  draw,
  colour: (_state, seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length],
  positions: (state) => JSON.stringify(state.squares),
  dice: () => null,
  label: () => undefined,
  onBoard: [],
  dangerous: [],
};
