// @ts-check
/**
 * The board of the Ludo family: Luddo and Ludo (square, or hexagonal for 5–6 seats) and Uckers
 * (square), with the pieces of each arm.
 *
 * Geometry (src/rules/ludo/board.rs): arm k's start square is track square 13k, a piece at
 * progress p stands on track square (13k + p) mod L while p ≤ L − 2, then in its home column
 * (L − 1 … L + 3), and is home at L + 4. Stars are the squares 13k and 13k + 8.
 */
import { number, t } from '../i18n.js';
import { esc } from '../ui.js';
import { COLOURS, SHAPES, boardSvg, pickAttrs, shapeSvg } from './svg.js';

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
 * @property {string} label its name in words ("yellow piece 2")
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
 * Where the pieces of one spot stand around its centre: one in the middle; two or more fanned
 * on a circle wide enough that their hit targets (radius `hit`) do not overlap, so that every
 * piece of a stack shows its number and takes its own click.
 * @param {number} n @param {number} hit
 */
export function fan(n, hit) {
  if (n <= 1) return [{ dx: 0, dy: 0 }];
  const radius = hit / Math.sin(Math.PI / n);
  return Array.from({ length: n }, (_, i) => {
    const a = -Math.PI / 2 - Math.PI / n + (2 * Math.PI * i) / n;
    return { dx: radius * Math.cos(a), dy: radius * Math.sin(a) };
  });
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
  out.push(boardSvg(`${-s} ${-s} ${2 * s} ${2 * s}`, 'ludo-board', board.title));
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
  /** @type {Map<string, { x: number, y: number }[]>} */
  const glides = new Map();
  // Where the pieces that moved last came from.
  for (const piece of board.pieces) {
    if (piece.before === undefined || piece.before === piece.progress) continue;
    const from = spotOf(piece, piece.before);
    out.push(`<circle cx="${from.x.toFixed(1)}" cy="${from.y.toFixed(1)}" r="${CELL * 0.18}" fill="none" stroke="#222" stroke-dasharray="3 2" class="last-from"/>`);
  }
  // A piece's hit target: at least 24 CSS px wide on a 390 px phone (WCAG 2.5.8), where a
  // square board's cell is about 24.5 px and a hexagonal one's 20 px.
  const hit = board.arms === 4 ? CELL * 0.52 : CELL * 0.62;
  /** @type {string[]} */
  const drawn = [];
  for (const spot of spots.values()) {
    const n = spot.pieces.length;
    const r = CELL * 0.4;
    const places = fan(n, hit);
    const spread = n === 1 ? 0 : Math.hypot(places[0].dx, places[0].dy);
    const teams = new Set(spot.pieces.map((p) => p.team).filter(Boolean));
    // An Uckers blob: two or more pieces of one partnership on a track square.
    const blob = n >= 2 && teams.size === 1 && spot.pieces[0].team !== null && spot.pieces.every((p) => p.progress !== null && p.progress < 56);
    if (blob) {
      out.push(`<circle cx="${spot.x.toFixed(1)}" cy="${spot.y.toFixed(1)}" r="${(spread + r + 4).toFixed(1)}" fill="none" stroke="#111" stroke-width="3" class="blob"/>`);
    }
    spot.pieces.forEach((piece, i) => {
      const x = spot.x + places[i].dx;
      const y = spot.y + places[i].dy;
      const moved = piece.before !== undefined && piece.before !== piece.progress;
      const stroke = piece.team === 'yellow_green' ? '#1b5e20' : piece.team === 'red_blue' ? '#0d2b6b' : '#222';
      const legal = piece.actions.length > 0;
      const name = n > 1 ? t('piece-in-stack', { piece: piece.label, count: n }) : piece.label;
      const attrs = legal ? pickAttrs(piece.key, t('pick-piece', { piece: name })) : `role="img" aria-label="${esc(name)}"`;
      const parts = [`<g ${attrs} data-piece="${esc(piece.key)}" data-x="${x.toFixed(1)}" data-y="${y.toFixed(1)}">`];
      parts.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${hit.toFixed(1)}" class="hit${legal ? ' halo' : ''}"/>`);
      if (moved) parts.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r + 4}" fill="none" stroke="#000" stroke-width="2" stroke-dasharray="4 3" class="last"/>`);
      parts.push(shapeSvg(SHAPES[piece.colour] ?? 'circle', x, y, r, `fill="${COLOURS[piece.colour] ?? '#888'}" stroke="${stroke}" stroke-width="${piece.team ? 3 : 2}"`));
      parts.push(`<text x="${x.toFixed(1)}" y="${(y + 6).toFixed(1)}" text-anchor="middle" font-size="16" font-weight="600" fill="#000">${number(piece.index + 1)}</text>`);
      parts.push('</g>');
      // A moved piece is drawn last, on top of what it passes.
      if (moved) drawn.push(parts.join(''));
      else out.push(parts.join(''));
      if (legal) picks.set(piece.key, () => ctx.choose(piece.actions));
      if (moved) glides.set(piece.key, glidePath(piece, spotOf, { x, y }));
    });
  }
  out.push(...drawn);
  out.push('</svg>');
  const text = [board.legend];
  for (const piece of board.pieces) {
    text.push(t('piece-where', { piece: piece.label, owner: piece.owner, where: whereIs(piece.progress, piece.arm, board.arms) }));
  }
  return { svg: out.join(''), text, picks, glides };
}

/**
 * Where a piece at `progress` stands, in words.
 * @param {number | null} progress @param {number} arm @param {number} arms
 */
export function whereIs(progress, arm, arms) {
  const L = 13 * arms;
  if (progress === null) return t('where-base');
  if (progress <= L - 2) return t('where-track', { square: number((13 * arm + progress) % L), progress: number(progress) });
  if (progress <= L + 3) return t('where-column', { square: number(progress - L + 2) });
  return t('where-home');
}

/**
 * A piece's square as a move names it ("from base to square 26").
 * @param {number | null} progress @param {number} arm @param {number} arms
 */
export function spotName(progress, arm, arms) {
  const L = 13 * arms;
  if (progress === null) return t('spot-base');
  if (progress <= L - 2) return t('spot-track', { square: number((13 * arm + progress) % L) });
  if (progress <= L + 3) return t('spot-column', { square: number(progress - L + 2) });
  return t('spot-home');
}

/**
 * The path a piece that moved took: square by square forward along the track (out of its base
 * first), or straight back to its base when it was captured.
 * @param {Piece} piece
 * @param {(piece: Piece, progress: number | null) => { x: number, y: number }} spotOf
 * @param {{ x: number, y: number }} end where it is drawn
 */
function glidePath(piece, spotOf, end) {
  const from = piece.before ?? null;
  const to = piece.progress;
  const points = [spotOf(piece, from)];
  if (to !== null && (from === null || to > from)) {
    for (let p = from === null ? 0 : from + 1; p < to; p++) points.push(spotOf(piece, p));
  }
  points.push(end);
  return points.map((p) => ({ x: p.x, y: p.y }));
}
