// @ts-check
/**
 * What every board shares: the pieces' colours, a die's face, and the attributes that make an
 * SVG element a focusable, named button. A board is drawn as SVG markup from an entry's `state`
 * alone (the server's state shapes, see openapi/openapi.json), with the viewer's legal actions
 * made clickable: it returns the markup, a text description of the position (the board's text
 * alternative) and `picks`, what clicking each marked element does. `GameView` is what each
 * game's module (games/<game>.js) gives: its board and the little else only it knows.
 */
import { esc } from '../ui.js';

/** @typedef {import('../api.js').Action} Action */

/**
 * @typedef {object} BoardContext
 * @property {number | null} seat the viewer's seat (null: a spectator)
 * @property {Action[]} legal what the viewer may do now
 * @property {(actions: Action[]) => void} choose play one action, or let the viewer choose among several
 * @property {() => void} redraw draw again (after a selection changed)
 * @property {{ moves: { from: number, to: number }[], from: number | null }} selection backgammon's play being built
 * @property {string[]} names the seats' names
 */

/**
 * A board drawn: its markup, its text alternative (one line each), what clicking each marked
 * element (`data-pick`) does, and the path of each piece that moved last (`data-piece` → the
 * points it passed, in SVG units, ending where it is drawn), for the page to glide it along.
 * @typedef {{ svg: string, text: string[], picks: Map<string, () => void>, glides: Map<string, { x: number, y: number }[]> }} Drawing
 */

/**
 * How a seat looks: its colour (CSS), its shape (so that colour is never the only cue) and the
 * colour's name (`yellow`…, `white`, `black`: the messages' `$colour`).
 * @typedef {{ fill: string, shape: Shape, colour: string }} SeatLook
 */

/**
 * What a game's `games/<game>.js` exports (as its default): what only that game knows. Every
 * text it returns is in the language in use (i18n.js).
 * @typedef {object} GameView
 * @property {(state: any, before: any, ctx: BoardContext) => Drawing} draw the board from a state
 *   (and the one before, to mark the last move), the viewer's legal actions clickable
 * @property {(state: any, seat: number, seats: number) => SeatLook} look a seat's colour and
 *   shape, the same from the waiting room (`state` null; `seats` the table's seat count) to the end
 * @property {(state: any) => string} positions where the pieces stand: a change marks the last move
 * @property {(state: any) => number[] | null} dice the dice the state itself shows, if any
 * @property {(action: any) => string | undefined} label a short text for the game's own actions
 * @property {(event: any, state: any, who: (seat: number) => string) => string | undefined} event
 *   a sentence for one of the game's own events (a move, a capture…), for the live region;
 *   `who` names a seat; undefined for the events every game shares (announce.js says those)
 * @property {(state: any, seat: number, names: string[]) => string} where where a seat's pieces are, in words
 * @property {(state: any, names: string[]) => string} score the score in words (pieces home, pips…)
 * @property {string[]} onBoard the action types played by clicking the board
 * @property {string[]} dangerous the action types that give the game away (red, never preselected)
 * @property {() => string} [clickHint] how the board is clicked, after "Click a highlighted piece"
 * @property {(seats: number) => string} [seatNote] what a seat count implies (another board)
 * @property {{ format: 'mat', label: () => string }} [record] the record in another program's
 *   format (`GET /v1/tables/{id}/record?format=…`), offered beside the JSON record
 */

export const COLOURS = /** @type {Record<string, string>} */ ({
  yellow: '#f2c200',
  red: '#d8342c',
  green: '#2e9e44',
  blue: '#2d6fd6',
  purple: '#8b4fc7',
  orange: '#f08a24',
});

/** The colours of seats that have none of their own (snakes; a Ludo seat before the start has its arm's). */
export const SEAT_COLOUR_NAMES = ['yellow', 'red', 'green', 'blue'];

/** Seat colours of the games whose seats have no colour of their own (snakes). */
export const SEAT_COLOURS = SEAT_COLOUR_NAMES.map((name) => COLOURS[name]);

/**
 * Each colour's shape, so that colour is never the only cue (WCAG 1.4.1): a piece, a counter
 * and the seat list's swatch are drawn in it.
 */
export const SHAPES = /** @type {Record<string, Shape>} */ ({
  yellow: 'circle',
  red: 'square',
  green: 'triangle',
  blue: 'diamond',
  purple: 'hexagon',
  orange: 'down',
});

/** @typedef {'circle' | 'square' | 'triangle' | 'diamond' | 'hexagon' | 'down'} Shape */

/**
 * A shape centred on (x, y) whose body fits a circle of radius r, as an SVG element.
 * @param {Shape} shape @param {number} x @param {number} y @param {number} r
 * @param {string} attrs the fill, stroke and other attributes
 */
export function shapeSvg(shape, x, y, r, attrs) {
  /** A regular polygon of n corners, the first at `start` radians. @param {number} n @param {number} start @param {number} radius */
  const polygon = (n, start, radius) => {
    const points = [];
    for (let i = 0; i < n; i++) {
      const a = start + (2 * Math.PI * i) / n;
      points.push(`${(x + radius * Math.cos(a)).toFixed(1)},${(y + radius * Math.sin(a)).toFixed(1)}`);
    }
    return `<polygon points="${points.join(' ')}" ${attrs}/>`;
  };
  switch (shape) {
    case 'square':
      return `<rect x="${(x - r * 0.86).toFixed(1)}" y="${(y - r * 0.86).toFixed(1)}" width="${(r * 1.72).toFixed(1)}" height="${(r * 1.72).toFixed(1)}" rx="${(r * 0.15).toFixed(1)}" ${attrs}/>`;
    case 'triangle':
      return polygon(3, -Math.PI / 2, r * 1.2);
    case 'down':
      return polygon(3, Math.PI / 2, r * 1.2);
    case 'diamond':
      return polygon(4, -Math.PI / 2, r * 1.12);
    case 'hexagon':
      return polygon(6, 0, r * 1.02);
    default:
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}" ${attrs}/>`;
  }
}

/**
 * A seat's swatch for the seat list and the dice's owner: its shape in its colour, hidden from
 * assistive technology (the text beside it names the colour).
 * @param {string} fill @param {Shape} shape
 */
export function swatchSvg(fill, shape) {
  return `<svg class="swatch" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">${shapeSvg(shape, 10, 10.5, 7.5, `fill="${fill}" stroke="#222" stroke-width="1.5"`)}</svg>`;
}

/**
 * A clickable group's attributes: focusable, a button for assistive technology, named.
 * @param {string} key
 * @param {string} label
 */
export function pickAttrs(key, label) {
  return `class="legal" data-pick="${esc(key)}" tabindex="0" role="button" aria-label="${esc(label)}"`;
}

/**
 * A board's outer element: a named group (not an image: it holds the buttons of the viewer's
 * moves, which an image's children could not be).
 * @param {string} viewBox @param {string} className @param {string} label
 */
export function boardSvg(viewBox, className, label) {
  return `<svg viewBox="${viewBox}" class="board ${className}" role="group" aria-label="${esc(label)}">`;
}

/**
 * A die's face (drawn inside an element that names the dice).
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
  return `<g class="die"><rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${size / 6}" fill="${fill}" stroke="#333" stroke-width="1.5"/>${pips}</g>`;
}
