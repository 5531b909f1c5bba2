// @ts-check
/**
 * Uckers in the browser: the Ludo family's square board, four colours in two partnerships
 * (yellow & green, red & blue), blobs ringed; a seat of a two-player game plays two colours.
 */
import { drawLudoFamily, spotName, whereIs } from '../boards/ludo-family.js';
import { COLOURS, SHAPES } from '../boards/svg.js';
import { number, t } from '../i18n.js';

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
        label: t('piece', { colour, number: number(index + 1) }),
        team: c % 2 === 0 ? 'yellow_green' : 'red_blue',
        actions,
        owner: ctx.names[seat] ?? t('seat-number', { seat: seat + 1 }),
      });
    });
  });
  return drawLudoFamily({ arms: 4, colours: UCKERS_COLOURS, pieces, title: t('board-uckers'), legend: t('board-uckers-legend') }, ctx);
}

/** A piece as the actions and events name it. @param {any} piece */
const piece = (piece) => t('piece', { colour: piece.colour, number: number(piece.index + 1) });

/** The seat that plays `colour` at a table of `seats`. @param {string} colour @param {number} seats */
const seatOf = (colour, seats) => UCKERS_COLOURS.indexOf(colour) % seats;

/** @type {import('../boards/svg.js').GameView} */
export default {
  draw,
  look(_state, seat, seats) {
    // A seat of a two-player game plays two colours (yellow and green, or red and blue): its
    // swatch is its first.
    const colour = UCKERS_COLOURS[seat % Math.max(seats, 1)] ?? 'yellow';
    return { fill: COLOURS[colour] ?? '#999', shape: SHAPES[colour] ?? 'circle', colour };
  },
  positions: (state) => JSON.stringify(state.board.pieces.map((/** @type {any[]} */ c) => c.map((p) => p.progress))),
  dice: (state) => state.phase?.dice ?? null,
  label(action) {
    switch (action.type) {
      case 'move':
        return t('action-uckers-move', { steps: action.steps.map((/** @type {any} */ s) => t('action-uckers-step', { piece: piece(s.piece), die: s.die })).join(t('action-uckers-then')) });
      case 'total':
        return t('action-uckers-total', { piece: piece(action.piece) });
      case 'challenge':
        return t('action-uckers-challenge', { square: action.target, piece: piece(action.piece) });
      case 'suck_back':
        return t('action-uckers-suck-back', { target: piece(action.target), piece: piece(action.piece) });
      case 'blow_back':
        return t('action-uckers-blow-back', { piece: piece(action.piece) });
      case 'call_snake_eyes':
        return t('action-uckers-snake-eyes');
      case 'stand_up':
        return t('action-uckers-stand-up');
      case 'up_board':
        return t('action-uckers-up-board');
      default:
        return undefined;
    }
  },
  event(event, state, who) {
    const seats = state.seats;
    const whereOf = (/** @type {any} */ p, /** @type {number} */ progress) => spotName(progress, UCKERS_COLOURS.indexOf(p.colour), 4);
    switch (event.type) {
      case 'entered':
        return t('said-uckers-entered', { who: who(seatOf(event.piece.colour, seats)), piece: piece(event.piece), square: event.square });
      case 'moved':
        return t('said-uckers-moved', { who: who(seatOf(event.piece.colour, seats)), piece: piece(event.piece), from: whereOf(event.piece, event.from), to: whereOf(event.piece, event.to) });
      case 'captured':
        return t('said-uckers-captured', { who: who(event.seat), piece: piece(event.piece), by: piece(event.by) });
      case 'blob_captured':
        return t('said-uckers-blob-captured', { piece: piece(event.piece), count: event.captured.length });
      case 'piece_home':
        return t('said-piece-home-named', { who: who(event.seat), piece: piece(event.piece) });
      case 'up_board':
        return t('said-uckers-up-board', { who: who(event.seat) });
      case 'challenge_declared':
        return t('said-uckers-challenge', { piece: piece(event.piece), square: event.target });
      default:
        return undefined;
    }
  },
  where(state, seat) {
    return UCKERS_COLOURS.filter((colour) => seatOf(colour, state.seats) === seat)
      .flatMap((colour) =>
        state.board.pieces[UCKERS_COLOURS.indexOf(colour)].map((/** @type {any} */ p, /** @type {number} */ i) =>
          t('piece-where-short', { piece: piece({ colour, index: i }), where: whereIs(p.progress, UCKERS_COLOURS.indexOf(colour), 4) }),
        ),
      )
      .join('; ');
  },
  score(state) {
    return UCKERS_COLOURS.map((colour, c) =>
      t('score-colour-home', { colour: t('colour-name', { colour }), count: state.board.pieces[c].filter((/** @type {any} */ p) => p.progress === 56).length }),
    ).join('; ');
  },
  onBoard: ['move', 'total', 'challenge', 'suck_back', 'blow_back'],
  dangerous: ['up_board'],
};
