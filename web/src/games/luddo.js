// @ts-check
/**
 * Luddo in the browser: its pieces on the Ludo family's board (square for 2–4 seats, hexagonal
 * for 5–6), each seat in its arm's colour and shape. Classic Ludo (games/ludo.js) is drawn the
 * same way.
 */
import { drawLudoFamily, spotName, whereIs } from '../boards/ludo-family.js';
import { COLOURS, SHAPES } from '../boards/svg.js';
import { number, t } from '../i18n.js';

/**
 * @typedef {import('../boards/svg.js').BoardContext} BoardContext
 * @typedef {import('../boards/ludo-family.js').Piece} Piece
 * @typedef {import('../../types/api.gen.js').LuddoAction} LuddoAction
 */

const SQUARE_ARMS = ['yellow', 'red', 'green', 'blue'];
const HEX_ARMS = ['yellow', 'red', 'green', 'blue', 'purple', 'orange'];

/**
 * The arms `seats` players sit on, in seat order (src/rules/ludo/board.rs `arms_for`): two face
 * each other, more fill the board in turn; five or six play on the hexagonal board.
 * @param {number} seats
 */
function armsFor(seats) {
  return seats === 2 ? [0, 2] : Array.from({ length: seats }, (_, i) => i);
}

/** The colour of `seat` at a table of `seats` before the game's state says it. @param {number} seat @param {number} seats */
function colourBefore(seat, seats) {
  return (seats >= 5 ? HEX_ARMS : SQUARE_ARMS)[armsFor(seats)[seat] ?? seat] ?? 'yellow';
}

/**
 * The board of Luddo or classic Ludo.
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
        label: t('piece', { colour: seat.colour, number: number(index + 1) }),
        team: null,
        actions,
        owner: ctx.names[s] ?? t('seat-number', { seat: s + 1 }),
      });
    });
  });
  const title = t('board-ludo', { game: state.rules?.game ?? 'luddo', shape: arms === 6 ? 'hex' : 'square', players: state.seats.length });
  const colours = arms === 6 ? HEX_ARMS : SQUARE_ARMS;
  return drawLudoFamily({ arms, colours, pieces, title, legend: title }, ctx);
}

/** @type {import('../boards/svg.js').GameView} */
export default {
  draw,
  look(state, seat, seats) {
    const colour = state?.seats[seat]?.colour ?? colourBefore(seat, seats);
    return { fill: COLOURS[colour] ?? '#999', shape: SHAPES[colour] ?? 'circle', colour };
  },
  positions: (state) => JSON.stringify(state.seats.map((/** @type {any} */ s) => s.pieces)),
  // A throw still to play is the state's own; otherwise the log's last throw is shown.
  dice: (state) => state.phase?.dice ?? (state.pending?.length ? state.rolled : null),
  label: (action) => (action.type === 'move' ? t('action-move-piece', { number: number(action.piece + 1) }) : undefined),
  event(event, state, who) {
    const arms = state.board === 'hex' ? 6 : 4;
    const arm = (/** @type {number} */ seat) => state.seats[seat]?.arm ?? 0;
    switch (event.type) {
      case 'moved':
        return t('said-moved', {
          who: who(event.seat),
          number: number(event.piece + 1),
          from: spotName(event.from ?? null, arm(event.seat), arms),
          to: spotName(event.to, arm(event.seat), arms),
        });
      case 'captured':
        return event.pieces
          .map((/** @type {any} */ p) => t('said-captured', { who: who(event.seat), owner: who(p.seat), number: number(p.piece + 1) }))
          .join(' ');
      case 'piece_home':
        return t('said-piece-home', { who: who(event.seat), number: number(event.piece + 1) });
      case 'three_sixes':
        return t('said-three-sixes', { who: who(event.seat) });
      case 'numbers_forfeited':
        return t('said-numbers-forfeited', { who: who(event.seat), numbers: event.numbers.map((/** @type {number} */ d) => number(d)).join(', ') });
      default:
        return undefined;
    }
  },
  where(state, seat) {
    const arms = state.board === 'hex' ? 6 : 4;
    const mine = state.seats[seat];
    return mine.pieces
      .map((/** @type {number | null} */ p, /** @type {number} */ i) => t('piece-at', { number: number(i + 1), where: whereIs(p, mine.arm, arms) }))
      .join('; ');
  },
  score(state, names) {
    const home = state.home;
    return state.seats
      .map((/** @type {any} */ s, /** @type {number} */ i) =>
        t('score-pieces-home', { who: names[i] ?? t('seat-number', { seat: i + 1 }), count: s.pieces.filter((/** @type {number | null} */ p) => p === home).length }),
      )
      .join('; ');
  },
  onBoard: ['move'],
  dangerous: [],
  seatNote: (seats) => (seats >= 5 ? t('seat-note-hex') : ''),
};
