// @ts-check
/**
 * The boards, drawn in SVG from an entry's `state` alone (the server's state shapes, see
 * openapi/openapi.json: LuddoState, UckersState, SnakesState, BackgammonState), with the viewer's
 * legal actions made clickable. Each renderer returns the SVG markup, a text description of the
 * position (the board's text alternative) and `picks`: what clicking each marked element does.
 *
 * Geometry of the Ludo family (src/rules/ludo/board.rs): arm k's start square is track square
 * 13k, a piece at progress p stands on track square (13k + p) mod L while p ≤ L − 2, then in its
 * home column (L − 1 … L + 3), and is home at L + 4. Stars are the squares 13k and 13k + 8.
 */

/** @typedef {import('./api.js').Action} Action */

/**
 * @typedef {object} BoardContext
 * @property {number | null} seat the viewer's seat (null: a spectator)
 * @property {Action[]} legal what the viewer may do now
 * @property {(actions: Action[]) => void} choose play one action, or let the viewer choose among several
 * @property {() => void} redraw draw again (after a selection changed)
 * @property {{ moves: { from: number, to: number }[], from: number | null }} selection backgammon's play being built
 * @property {string[]} names the seats' names
 */

/** @typedef {{ svg: string, text: string[], picks: Map<string, () => void> }} Drawing */

export const COLOURS = /** @type {Record<string, string>} */ ({
  yellow: '#f2c200',
  red: '#d8342c',
  green: '#2e9e44',
  blue: '#2d6fd6',
  purple: '#8b4fc7',
  orange: '#f08a24',
});
const SQUARE_ARMS = ['yellow', 'red', 'green', 'blue'];
const HEX_ARMS = ['yellow', 'red', 'green', 'blue', 'purple', 'orange'];
/** Seat colours of the games whose seats have no colour of their own (snakes, backgammon). */
export const SEAT_COLOURS = ['#f2c200', '#d8342c', '#2e9e44', '#2d6fd6'];

/** @param {string} text */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A clickable group's attributes: focusable, a button for assistive technology, named.
 * @param {string} key
 * @param {string} label
 */
function pickAttrs(key, label) {
  return `class="legal" data-pick="${esc(key)}" tabindex="0" role="button" aria-label="${esc(label)}"`;
}

// ---------------------------------------------------------------------------------------------
// The Ludo family: luddo, ludo (square or hexagonal board) and uckers (square).

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
function drawLudoFamily(board, ctx) {
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

/**
 * Luddo and classic Ludo.
 * @param {any} state
 * @param {any} before the state before the last entry, if any
 * @param {BoardContext} ctx
 */
export function drawLudo(state, before, ctx) {
  const arms = state.board === 'hex' ? 6 : 4;
  /** @type {Piece[]} */
  const pieces = [];
  state.seats.forEach((/** @type {any} */ seat, /** @type {number} */ s) => {
    seat.pieces.forEach((/** @type {number | null} */ progress, /** @type {number} */ index) => {
      const actions = ctx.seat === s ? ctx.legal.filter((a) => a.type === 'move' && a.piece === index) : [];
      pieces.push({
        key: `p${s}-${index}`,
        colour: seat.colour,
        arm: seat.arm,
        index,
        progress,
        before: before ? before.seats[s]?.pieces[index] : undefined,
        label: `${seat.colour} piece ${index + 1}`,
        team: null,
        actions,
        owner: ctx.names[s] ?? `seat ${s + 1}`,
      });
    });
  });
  const title = `${state.rules?.game === 'ludo' ? 'Ludo' : 'Luddo'} board, ${arms === 6 ? 'hexagonal' : 'square'}, ${state.seats.length} players`;
  const colours = arms === 6 ? HEX_ARMS : SQUARE_ARMS;
  return drawLudoFamily({ arms, colours, pieces, title, legend: title }, ctx);
}

const UCKERS_COLOURS = ['yellow', 'red', 'green', 'blue'];

/**
 * @param {any} a @param {any} b
 */
function samePiece(a, b) {
  return a && b && a.colour === b.colour && a.index === b.index;
}

/**
 * Uckers: the same square board, four colours in two partnerships (yellow & green, red & blue).
 * @param {any} state
 * @param {any} before
 * @param {BoardContext} ctx
 */
export function drawUckers(state, before, ctx) {
  /** @type {Piece[]} */
  const pieces = [];
  UCKERS_COLOURS.forEach((colour, c) => {
    const seat = c % state.seats;
    state.board.pieces[c].forEach((/** @type {any} */ piece, /** @type {number} */ index) => {
      const id = { colour, index };
      const actions =
        ctx.seat === null
          ? []
          : ctx.legal.filter((a) => (a.type === 'move' ? samePiece(a.steps[0]?.piece, id) : samePiece(a.piece, id)));
      pieces.push({
        key: `${colour}-${index}`,
        colour,
        arm: c,
        index,
        progress: piece.progress,
        before: before ? before.board.pieces[c][index].progress : undefined,
        label: `${colour} piece ${index + 1}`,
        team: c % 2 === 0 ? 'yellow_green' : 'red_blue',
        actions,
        owner: ctx.names[seat] ?? `seat ${seat + 1}`,
      });
    });
  });
  const legend = 'Uckers board: yellow & green (dark green rims) against red & blue (navy rims); two or more of a partnership on a square form a blob (ringed)';
  return drawLudoFamily({ arms: 4, colours: UCKERS_COLOURS, pieces, title: 'Uckers board', legend }, ctx);
}

// ---------------------------------------------------------------------------------------------
// Snakes and Ladders: 10×10, square 1 bottom left, boustrophedon.

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
export function drawSnakes(state, before, ctx) {
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

// ---------------------------------------------------------------------------------------------
// Backgammon: 24 points, the bar, bear-off trays, the cube, the score.

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
 * @param {any} state
 * @param {any} before
 * @param {BoardContext} ctx
 * @returns {Drawing}
 */
export function drawBackgammon(state, before, ctx) {
  const me = ctx.seat ?? 0;
  const them = 1 - me;
  const width = 10 + 12 * PW + BAR + TRAY + 10;
  const barX = 10 + 6 * PW;
  const trayX = barX + BAR + 6 * PW + 6;
  const top = 50;
  const bottom = top + BH;
  const out = [];
  out.push(`<svg viewBox="0 0 ${width} ${bottom + 40}" class="board backgammon-board" role="img" aria-label="Backgammon board">`);
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
    const attrs = isSource || isTarget ? pickAttrs(key, isSource ? `move from point ${p}` : `move to point ${p}`) : `aria-label="point ${p}"`;
    out.push(`<g ${attrs} data-point="${p}"${selected ? ' data-selected="true"' : ''}>`);
    out.push(`<path d="M${x} ${y0}L${x + PW / 2} ${tip}L${x + PW} ${y0}Z" fill="${fill}" stroke="#5b4030"/>`);
    if (isSource || isTarget || selected) out.push(`<rect x="${x + 1}" y="${down ? top : bottom - 200}" width="${PW - 2}" height="200" class="${selected ? 'selected' : 'halo'}"/>`);
    out.push(`<text x="${x + PW / 2}" y="${down ? top - 8 : bottom + 18}" text-anchor="middle" font-size="11" fill="#333">${p}</text>`);
    out.push('</g>');
    if (isSource) picks.set(key, () => { sel.from = p; ctx.redraw(); });
    if (isTarget) picks.set(key, () => choose(p));
    if (selected) picks.set(key, () => { sel.from = null; ctx.redraw(); });
  }
  /** @param {number} cx @param {number} cy @param {number} seat @param {boolean} moved */
  const checker = (cx, cy, seat, moved) => {
    const fill = seat === 0 ? '#f7f3e8' : '#2b2b2b';
    const rim = seat === 0 ? '#7a6a50' : '#000';
    return `<circle cx="${cx}" cy="${cy}" r="${PW / 2 - 2}" fill="${fill}" stroke="${moved ? '#0a84ff' : rim}" stroke-width="${moved ? 3 : 1.5}" class="checker${moved ? ' last' : ''}"/>`;
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
        out.push(checker(x, y, seat, moved && j === Math.min(n, 5) - 1));
      }
      if (n > 5) out.push(`<text x="${x}" y="${down ? top + PW / 2 + 4 * (PW - 4) + 4 : bottom - PW / 2 - 4 * (PW - 4) + 4}" text-anchor="middle" font-size="13" font-weight="bold" fill="${seat === 0 ? '#000' : '#fff'}">${n}</text>`);
      text.push(`${ctx.names[seat] ?? `seat ${seat + 1}`}: ${n} on point ${i + 1}`);
    }
    const bar = counts[24];
    if (bar) {
      const mine = seat === me;
      for (let j = 0; j < Math.min(bar, 4); j++) {
        const y = mine ? bottom - 150 - j * (PW - 4) : top + 150 + j * (PW - 4);
        out.push(checker(barX + BAR / 2, y, seat, !!before && before.board[seat][24] !== bar));
      }
      if (bar > 1) out.push(`<text x="${barX + BAR / 2}" y="${mine ? bottom - 150 + 4 : top + 150 + 4}" text-anchor="middle" font-size="13" fill="${seat === 0 ? '#000' : '#fff'}">${bar}</text>`);
      text.push(`${ctx.names[seat] ?? `seat ${seat + 1}`}: ${bar} on the bar`);
    }
    if (off[seat]) text.push(`${ctx.names[seat] ?? `seat ${seat + 1}`}: ${off[seat]} borne off`);
  }
  if (sources.has(25) || sel.from === 25) {
    out.push(`<g ${pickAttrs('bar', 'move from the bar')} data-point="25"><rect x="${barX + 2}" y="${bottom - 200}" width="${BAR - 4}" height="200" class="${sel.from === 25 ? 'selected' : 'halo'}"/></g>`);
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
    out.push(`<g ${pickAttrs('off', 'bear off')} data-point="0"><rect x="${trayX}" y="${bottom - 200}" width="${TRAY - 6}" height="200" class="halo"/></g>`);
    picks.set('off', () => choose(0));
  }
  // The cube: centred on the bar, or on its owner's side.
  if (state.options.cube) {
    const owner = state.cube_owner;
    const cy = owner === null || owner === undefined ? top + BH / 2 : owner === me ? bottom - 40 : top + 40;
    const value = owner === null || owner === undefined ? (state.cube === 1 ? 64 : state.cube) : state.cube;
    out.push(`<g class="cube" aria-label="cube at ${state.cube}${owner === null || owner === undefined ? ', centred' : `, owned by ${esc(ctx.names[owner] ?? `seat ${owner + 1}`)}`}">`);
    out.push(`<rect x="${barX + 5}" y="${cy - 17}" width="${BAR - 10}" height="34" rx="5" fill="#fff" stroke="#000" stroke-width="2"/>`);
    out.push(`<text x="${barX + BAR / 2}" y="${cy + 6}" text-anchor="middle" font-size="16" font-weight="bold">${value}</text></g>`);
    text.push(`Cube: ${state.cube}${owner === null || owner === undefined ? ' (centred)' : `, owned by ${ctx.names[owner] ?? `seat ${owner + 1}`}`}`);
  }
  // Dice of the throw to play, on the side of the seat on roll.
  if (state.phase.phase === 'to_play') {
    const cx = state.turn === me ? barX + BAR + 3 * PW : 10 + 3 * PW;
    state.phase.dice.forEach((/** @type {number} */ d, /** @type {number} */ i) => {
      out.push(dieFace(cx - 30 + i * 36, top + BH / 2 - 15, 30, d, state.turn === 0 ? '#fff' : '#333', state.turn === 0 ? '#000' : '#fff'));
    });
  }
  // Score and Crawford.
  const match = state.options.match_to ? `Match to ${state.options.match_to}` : 'Money game';
  const score = `${match} · score ${esc(ctx.names[0] ?? 'seat 1')} ${state.score[0]} – ${state.score[1]} ${esc(ctx.names[1] ?? 'seat 2')} · game ${state.game}`;
  out.push(`<text x="10" y="20" font-size="14" fill="#222" class="score">${score}</text>`);
  if (state.crawford_game) out.push(`<g class="crawford"><rect x="${width - 110}" y="6" width="100" height="20" rx="4" fill="#b71c1c"/><text x="${width - 60}" y="20" text-anchor="middle" font-size="12" fill="#fff">Crawford game</text></g>`);
  out.push(`<text x="10" y="${bottom + 30}" font-size="12" fill="#333">${esc(ctx.names[me] ?? `seat ${me + 1}`)} (${me === 0 ? 'white' : 'black'}) plays from 24 down to 1 and bears off to the right</text>`);
  out.push('</svg>');
  text.unshift(`${match}; score ${state.score[0]}–${state.score[1]}; game ${state.game}${state.crawford_game ? '; Crawford game' : ''}; ${ctx.names[me] ?? `seat ${me + 1}`}'s points numbered from its side`);
  text.push(`Position ID ${state.position_id}, Match ID ${state.match_id}`);
  return { svg: out.join(''), text, picks };
}

/**
 * A die's face.
 * @param {number} x @param {number} y @param {number} size @param {number} value
 * @param {string} fill @param {string} pip
 */
export function dieFace(x, y, size, value, fill = '#fff', pip = '#000') {
  const spots = /** @type {Record<number, number[][]>} */ ({
    1: [[1, 1]],
    2: [[0, 0], [2, 2]],
    3: [[0, 0], [1, 1], [2, 2]],
    4: [[0, 0], [2, 0], [0, 2], [2, 2]],
    5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
    6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  })[value] ?? [];
  const q = size / 4;
  const pips = spots.map(([i, j]) => `<circle cx="${x + q * (i + 1)}" cy="${y + q * (j + 1)}" r="${size / 11}" fill="${pip}"/>`).join('');
  return `<g class="die" aria-label="die showing ${value}"><rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${size / 6}" fill="${fill}" stroke="#333" stroke-width="1.5"/>${pips}</g>`;
}

/**
 * The board of any game.
 * @param {string} game
 * @param {any} state
 * @param {any} before
 * @param {BoardContext} ctx
 * @returns {Drawing}
 */
export function drawBoard(game, state, before, ctx) {
  switch (game) {
    case 'luddo':
    case 'ludo':
      return drawLudo(state, before, ctx);
    case 'uckers':
      return drawUckers(state, before, ctx);
    case 'snakes':
      return drawSnakes(state, before, ctx);
    case 'backgammon':
      return drawBackgammon(state, before, ctx);
    default:
      return { svg: '', text: [`no board for ${game}`], picks: new Map() };
  }
}
