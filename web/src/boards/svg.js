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

/** @typedef {{ svg: string, text: string[], picks: Map<string, () => void> }} Drawing */

/**
 * What a game's `games/<game>.js` exports (as its default): what only that game knows.
 * @typedef {object} GameView
 * @property {(state: any, before: any, ctx: BoardContext) => Drawing} draw the board from a state
 *   (and the one before, to mark the last move), the viewer's legal actions clickable
 * @property {(state: any, seat: number) => string} colour a seat's swatch (`state`: null before the start)
 * @property {(state: any) => string} positions where the pieces stand: a change marks the last move
 * @property {(state: any) => number[] | null} dice the dice the state itself shows, if any
 * @property {(action: any) => string | undefined} label a short text for the game's own actions
 * @property {string[]} onBoard the action types played by clicking the board
 * @property {string[]} dangerous the action types that give the game away (red, never preselected)
 * @property {string} [clickHint] how the board is clicked, after "Click a highlighted piece"
 * @property {(seats: number) => string} [seatNote] what a seat count implies (another board)
 * @property {{ format: 'mat', label: string }} [record] the record in another program's format
 *   (`GET /v1/tables/{id}/record?format=…`), offered beside the JSON record
 */

export const COLOURS = /** @type {Record<string, string>} */ ({
  yellow: '#f2c200',
  red: '#d8342c',
  green: '#2e9e44',
  blue: '#2d6fd6',
  purple: '#8b4fc7',
  orange: '#f08a24',
});

/** Seat colours of the games whose seats have no colour of their own (snakes). */
export const SEAT_COLOURS = ['#f2c200', '#d8342c', '#2e9e44', '#2d6fd6'];

/**
 * A clickable group's attributes: focusable, a button for assistive technology, named.
 * @param {string} key
 * @param {string} label
 */
export function pickAttrs(key, label) {
  return `class="legal" data-pick="${esc(key)}" tabindex="0" role="button" aria-label="${esc(label)}"`;
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
