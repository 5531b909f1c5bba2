// @ts-check
/**
 * Uckers in the browser: the Ludo family's square board, four colours in two partnerships
 * (yellow & green, red & blue), blobs ringed; a seat of a two-player game plays two colours.
 */
import { drawLudoFamily } from '../boards/ludo-family.js';
import { COLOURS } from '../boards/svg.js';

/**
 * @typedef {import('../boards/svg.js').BoardContext} BoardContext
 * @typedef {import('../boards/ludo-family.js').Piece} Piece
 * @typedef {import('../../types/api.gen.js').UckersAction} UckersAction
 */

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
function draw(state, before, ctx) {
  const legal = /** @type {UckersAction[]} */ (ctx.legal);
  /** @type {Piece[]} */
  const pieces = [];
  UCKERS_COLOURS.forEach((colour, c) => {
    const seat = c % state.seats;
    state.board.pieces[c].forEach((/** @type {any} */ piece, /** @type {number} */ index) => {
      const id = { colour, index };
      const actions =
        ctx.seat === null
          ? []
          : legal.filter((a) => (a.type === 'move' ? samePiece(a.steps[0]?.piece, id) : 'piece' in a && samePiece(a.piece, id)));
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

/** A piece as the actions name it. @param {any} piece */
const piece = (piece) => `${piece.colour} ${piece.index + 1}`;

/** @type {import('../boards/svg.js').GameView} */
export default {
  draw,
  colour: (_state, seat) => COLOURS[UCKERS_COLOURS[seat]] ?? '#999',
  positions: (state) => JSON.stringify(state.board.pieces.map((/** @type {any[]} */ c) => c.map((p) => p.progress))),
  dice: (state) => state.phase?.dice ?? null,
  label(action) {
    switch (action.type) {
      case 'move':
        return `Move ${action.steps.map((/** @type {any} */ s) => `${piece(s.piece)} by ${s.die}`).join(', then ')}`;
      case 'total':
        return `Move ${piece(action.piece)} by the total`;
      case 'challenge':
        return `Challenge the blob on square ${action.target} with ${piece(action.piece)}`;
      case 'suck_back':
        return `Suck back ${piece(action.target)} with ${piece(action.piece)}`;
      case 'blow_back':
        return `Blow back from ${piece(action.piece)}`;
      case 'call_snake_eyes':
        return 'Call snake eyes';
      case 'stand_up':
        return 'Stand-up finish';
      case 'up_board':
        return 'Up-board (resign)';
      default:
        return undefined;
    }
  },
  onBoard: ['move', 'total', 'challenge', 'suck_back', 'blow_back'],
  dangerous: ['up_board'],
};
