// @ts-check
/**
 * The board of the Ludo family: Luddo and Ludo (square, or hexagonal for 5–6 seats) and Uckers
 * (square), with the pieces of each arm.
 *
 * Geometry (src/rules/ludo/board.rs): arm k's start square is track square 13k, a piece at
 * progress p stands on track square (13k + p) mod L while p ≤ L − 2, then in its home column
 * (L − 1 … L + 3), and is home at L + 4. Stars are the squares 13k and 13k + 8.
 */
import { esc } from '../ui.js';
import { COLOURS, pickAttrs } from './svg.js';

/**
 * @typedef {import('../api.js').Action} Action
 * @typedef {import('./svg.js').BoardContext} BoardContext
 * @typedef {import('./svg.js').Drawing} Drawing
 */

const CELL = 40;

/**
 * Where things are on a board of `arms` arms (4: the classic 15×15 cross; 6: a hexagon with six
 * arms), in SVG units from the board's centre.
 * @param {number} arms
 */
function ludoGeometry(arms) {
  const step = (2 * Math.PI) / arms;
  // The distance from the centre to an arm's inner end: half the 3×3 centre, or the hexagon's apothem.
  const inner = arms === 4 ? 1.5 * CELL : 1.5 * CELL * Math.sqrt(3);
  /** @param {number} k */
  const dir = (k) => {
    const a = Math.PI + k * step;
    return { x: Math.cos(a), y: Math.sin(a) };
  };
  /** The centre of cell (u across, v outward) of arm k. @param {number} k @param {number} u @param {number} v */
  const cell = (k, u, v) => {
    const d = dir(((k % arms) + arms) % arms);
    const p = { x: -d.y, y: d.x };
    const r = inner + (v + 0.5) * CELL;
    return { x: d.x * r + p.x * u * CELL, y: d.y * r + p.y * u * CELL, angle: Math.atan2(d.y, d.x) };
  };
  /** Track square t (0 … 13·arms − 1). @param {number} t */
  const track = (t) => {
    const k = Math.floor(t / 13);
    const i = t % 13;
    if (i <= 4) return cell(k, 1, 4 - i);
    if (i <= 10) return cell(k + 1, -1, i - 5);
    if (i === 11) return cell(k + 1, 0, 5);
    return cell(k + 1, 1, 5);
  };
  /** Home column square j (0 = nearest the track) of arm k. @param {number} k @param {number} j */
  const column = (k, j) => cell(k, 0, 4 - j);
  /** The home triangle's centre of arm k. @param {number} k */
  const home = (k) => {
    const d = dir(k);
    return { x: d.x * inner * 0.55, y: d.y * inner * 0.55 };
  };
  /** The base of arm k: between it and the next arm. @param {number} k */
  const base = (k) => {
    const a = dir(k);
    const b = dir(k + 1);
    const m = Math.hypot(a.x + b.x, a.y + b.y);
    const r = arms === 4 ? 4.5 * CELL * Math.SQRT2 : 6.6 * CELL;
    return { x: ((a.x + b.x) / m) * r, y: ((a.y + b.y) / m) * r };
  };
  const size = arms === 4 ? 7.5 * CELL : 9.2 * CELL;
  return { arms, inner, dir, cell, track, column, home, base, size };
}

/**
 * @typedef {object} Piece
 * @property {string} key unique on the board
 * @property {string} colour
 * @property {number} arm
 * @property {number} index 0–3
 * @property {number | null} progress
 * @property {number | null} before its progress in the previous state (undefined: unknown)
 * @property {string} label
 * @property {string | null} team uckers: the partnership
 * @property {Action[]} actions the viewer's actions that move it
 * @property {string} owner the seat's name
 */

/**
 * A square cell, rotated with its arm.
 * @param {{ x: number, y: number, angle: number }} c
 * @param {string} fill
 * @param {string} [extra]
 */
function cellRect(c, fill, extra = '') {
  const deg = (c.angle * 180) / Math.PI;
  const h = CELL / 2;
  return `<rect x="${-h}" y="${-h}" width="${CELL}" height="${CELL}" fill="${fill}" stroke="#555" stroke-width="1" transform="translate(${c.x.toFixed(1)} ${c.y.toFixed(1)}) rotate(${deg.toFixed(1)})" ${extra}/>`;
}

/** @param {number} x @param {number} y @param {number} r */
function starPath(x, y, r) {
  let d = '';
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.45 : r;
    d += `${i ? 'L' : 'M'}${(x + rr * Math.cos(a)).toFixed(1)} ${(y + rr * Math.sin(a)).toFixed(1)}`;
  }
  return `<path d="${d}Z" fill="#fff" stroke="#666" stroke-width="1"/>`;
}

/**
 * The board of the Ludo family with its pieces.
 * @param {{ arms: number, colours: string[], pieces: Piece[], title: string, legend: string }} board
 * @param {BoardContext} ctx
 * @returns {Drawing}
 */
export function drawLudoFamily(board, ctx) {
  const g = ludoGeometry(board.arms);
  const L = 13 * board.arms;
  const out = [];
  const s = g.size;
  out.push(`<svg viewBox="${-s} ${-s} ${2 * s} ${2 * s}" class="board ludo-board" role="img" aria-label="${esc(board.title)}">`);
  out.push(`<rect x="${-s}" y="${-s}" width="${2 * s}" height="${2 * s}" fill="#fbf8ef"/>`);
  // Bases.
  for (let k = 0; k < board.arms; k++) {
    const colour = COLOURS[board.colours[k]] ?? '#999';
    const b = g.base(k);
    if (board.arms === 4) {
      out.push(`<rect x="${(b.x - 3 * CELL).toFixed(1)}" y="${(b.y - 3 * CELL).toFixed(1)}" width="${6 * CELL}" height="${6 * CELL}" fill="${colour}" stroke="#555"/>`);
      out.push(`<rect x="${(b.x - 2 * CELL).toFixed(1)}" y="${(b.y - 2 * CELL).toFixed(1)}" width="${4 * CELL}" height="${4 * CELL}" fill="#fff" stroke="#555" rx="6"/>`);
    } else {
      out.push(`<circle cx="${b.x.toFixed(1)}" cy="${b.y.toFixed(1)}" r="${1.6 * CELL}" fill="${colour}" stroke="#555"/>`);
      out.push(`<circle cx="${b.x.toFixed(1)}" cy="${b.y.toFixed(1)}" r="${1.2 * CELL}" fill="#fff" stroke="#555"/>`);
    }
  }
  // Track, home columns, start squares, stars.
  for (let t = 0; t < L; t++) {
    const c = g.track(t);
    const arm = Math.floor(t / 13);
    const start = t % 13 === 0;
    out.push(cellRect(c, start ? COLOURS[board.colours[arm]] ?? '#ddd' : '#fff', `data-square="${t}"`));
    if (start || t % 13 === 8) out.push(starPath(c.x, c.y, CELL * 0.32));
  }
  for (let k = 0; k < board.arms; k++) {
    for (let j = 0; j < 5; j++) out.push(cellRect(g.column(k, j), COLOURS[board.colours[k]] ?? '#ddd'));
  }
  // The centre: one triangle per arm, in its colour.
  for (let k = 0; k < board.arms; k++) {
    const colour = COLOURS[board.colours[k]] ?? '#ddd';
    const corner = (/** @type {number} */ side) => {
      const d = g.dir(k);
      const p = { x: -d.y, y: d.x };
      return { x: d.x * g.inner + p.x * side * 1.5 * CELL, y: d.y * g.inner + p.y * side * 1.5 * CELL };
    };
    const a = corner(-1);
    const b = corner(1);
    out.push(`<path d="M0 0L${a.x.toFixed(1)} ${a.y.toFixed(1)}L${b.x.toFixed(1)} ${b.y.toFixed(1)}Z" fill="${colour}" stroke="#555"/>`);
  }
  // Pieces: grouped by where they stand, so a square's pieces sit side by side.
  /** @type {Map<string, { x: number, y: number, pieces: Piece[] }>} */
  const spots = new Map();
  /** @param {Piece} piece @param {number | null} progress */
  const spotOf = (piece, progress) => {
    if (progress === null) {
      const b = g.base(piece.arm);
      const dx = (piece.index % 2 ? 1 : -1) * 0.9 * CELL * (board.arms === 4 ? 1.1 : 0.7);
      const dy = (piece.index < 2 ? -1 : 1) * 0.9 * CELL * (board.arms === 4 ? 1.1 : 0.7);
      return { key: `base-${piece.arm}-${piece.index}`, x: b.x + dx, y: b.y + dy };
    }
    if (progress <= L - 2) {
      const t = (13 * piece.arm + progress) % L;
      const c = g.track(t);
      return { key: `t${t}`, x: c.x, y: c.y };
    }
    if (progress <= L + 3) {
      const c = g.column(piece.arm, progress - (L - 1));
      return { key: `c${piece.arm}-${progress}`, x: c.x, y: c.y };
    }
    const h = g.home(piece.arm);
    return { key: `home-${piece.arm}`, x: h.x, y: h.y };
  };
  for (const piece of board.pieces) {
    const spot = spotOf(piece, piece.progress);
    const known = spots.get(spot.key) ?? { x: spot.x, y: spot.y, pieces: [] };
    known.pieces.push(piece);
    spots.set(spot.key, known);
  }
  /** @type {Map<string, () => void>} */
  const picks = new Map();
  // Where the pieces that moved last came from.
  for (const piece of board.pieces) {
    if (piece.before === undefined || piece.before === piece.progress) continue;
    const from = spotOf(piece, piece.before);
    out.push(`<circle cx="${from.x.toFixed(1)}" cy="${from.y.toFixed(1)}" r="${CELL * 0.18}" fill="none" stroke="#222" stroke-dasharray="3 2" class="last-from"/>`);
  }
  for (const spot of spots.values()) {
    const n = spot.pieces.length;
    const r = n === 1 ? CELL * 0.34 : CELL * 0.26;
    const teams = new Set(spot.pieces.map((p) => p.team).filter(Boolean));
    // An Uckers blob: two or more pieces of one partnership on a track square.
    const blob = n >= 2 && teams.size === 1 && spot.pieces[0].team !== null && spot.pieces.every((p) => p.progress !== null && p.progress < 56);
    if (blob) {
      out.push(`<circle cx="${spot.x.toFixed(1)}" cy="${spot.y.toFixed(1)}" r="${CELL * 0.56}" fill="none" stroke="#111" stroke-width="3" class="blob"><title>blob of ${n}</title></circle>`);
    }
    spot.pieces.forEach((piece, i) => {
      const angle = (2 * Math.PI * i) / Math.max(n, 1);
      const off = n === 1 ? 0 : CELL * 0.22;
      const x = spot.x + off * Math.cos(angle - Math.PI / 4);
      const y = spot.y + off * Math.sin(angle - Math.PI / 4);
      const moved = piece.before !== undefined && piece.before !== piece.progress;
      const stroke = piece.team === 'yellow_green' ? '#1b5e20' : piece.team === 'red_blue' ? '#0d2b6b' : '#222';
      const legal = piece.actions.length > 0;
      const attrs = legal ? pickAttrs(piece.key, `move ${piece.label}`) : `aria-label="${esc(piece.label)}"`;
      out.push(`<g ${attrs} data-piece="${esc(piece.key)}">`);
      if (legal) out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r + 5}" class="halo"/>`);
      if (moved) out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r + 3}" fill="none" stroke="#000" stroke-width="2" stroke-dasharray="4 3" class="last"/>`);
      out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" fill="${COLOURS[piece.colour] ?? '#888'}" stroke="${stroke}" stroke-width="${piece.team ? 3 : 2}"/>`);
      out.push(`<text x="${x.toFixed(1)}" y="${(y + 4).toFixed(1)}" text-anchor="middle" font-size="11" fill="#000">${piece.index + 1}</text>`);
      out.push('</g>');
      if (legal) picks.set(piece.key, () => ctx.choose(piece.actions));
    });
  }
  out.push('</svg>');
  const text = [board.legend];
  for (const piece of board.pieces) {
    const p = piece.progress;
    const where = p === null ? 'in base' : p <= L - 2 ? `on track square ${(13 * piece.arm + p) % L} (progress ${p})` : p <= L + 3 ? `in its home column, square ${p - L + 2} of 5` : 'home';
    text.push(`${piece.label} (${piece.owner}): ${where}`);
  }
  return { svg: out.join(''), text, picks };
}

