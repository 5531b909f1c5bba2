// @ts-check
/**
 * Luddo in the browser: its pieces on the Ludo family's board (square for 2–4 seats, hexagonal
 * for 5–6), each seat in its arm's colour. Classic Ludo (games/ludo.js) is drawn the same way.
 */
import { drawLudoFamily } from '../boards/ludo-family.js';
import { COLOURS, SEAT_COLOURS } from '../boards/svg.js';

/**
 * @typedef {import('../boards/svg.js').BoardContext} BoardContext
 * @typedef {import('../boards/ludo-family.js').Piece} Piece
 * @typedef {import('../../types/api.gen.js').LuddoAction} LuddoAction
 */

const SQUARE_ARMS = ['yellow', 'red', 'green', 'blue'];
const HEX_ARMS = ['yellow', 'red', 'green', 'blue', 'purple', 'orange'];

/**
 * The board of Luddo or classic Ludo. and classic Ludo.
 * @param {any} state
 * @param {any} before the state before the last entry, if any
 * @param {BoardContext} ctx
 */
function draw(state, before, ctx) {
  const arms = state.board === 'hex' ? 6 : 4;
  const legal = /** @type {LuddoAction[]} */ (ctx.legal);
  /** @type {Piece[]} */
  const pieces = [];
  state.seats.forEach((/** @type {any} */ seat, /** @type {number} */ s) => {
    seat.pieces.forEach((/** @type {number | null} */ progress, /** @type {number} */ index) => {
      const actions = ctx.seat === s ? legal.filter((a) => a.type === 'move' && a.piece === index) : [];
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

/** @type {import('../boards/svg.js').GameView} */
export default {
  draw,
  colour: (state, seat) => (state ? COLOURS[state.seats[seat]?.colour] ?? '#999' : SEAT_COLOURS[seat % SEAT_COLOURS.length]),
  positions: (state) => JSON.stringify(state.seats.map((/** @type {any} */ s) => s.pieces)),
  // A throw still to play is the state's own; otherwise the log's last throw is shown.
  dice: (state) => state.phase?.dice ?? (state.pending?.length ? state.rolled : null),
  label: (action) => (action.type === 'move' ? `Move piece ${action.piece + 1}` : undefined),
  onBoard: ['move'],
  dangerous: [],
  seatNote: (seats) => (seats >= 5 ? ' (hexagonal board)' : ''),
};
