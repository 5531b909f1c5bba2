// @ts-check
/**
 * What a table says in words, for the live region a screen reader reads out: every entry of the
 * log as it arrives (each throw and move of anyone, captures, the turn passing, the end), and the
 * answers to the single-key queries (T whose turn, D the dice, C my clock, P where my pieces are,
 * S the score, M my moves, ? the list). The events every game shares are said here; a game's own
 * (a move, a capture, a ladder) by its module's `event`. Nothing here touches the DOM.
 */
import { number, t } from '../i18n.js';
import { actionLabel, diceShown, seatNames, seatWho, secondsLeft } from './render.js';

/**
 * @typedef {import('../api.js').Entry} Entry
 * @typedef {import('../games.js').GameView} GameView
 * @typedef {import('./state.js').TableState} TableState
 */

/** The single-key queries, in the order `?` lists them. */
export const QUERY_KEYS = ['t', 'd', 'c', 'p', 's', 'm', '?'];

/**
 * One entry in words: its events in order, or what the table did; '' when there is nothing to
 * say. `s` is the state before the entry is applied (a player who leaves is still named); the
 * entry's own state, when it has one, places the pieces.
 * @param {Entry} entry @param {TableState} s @param {GameView} view
 */
export function announcement(entry, s, view) {
  const state = entry.state ?? s.state;
  const who = (/** @type {number} */ seat) => seatWho(s.table, view, state, seat);
  const names = seatNames(s.table);
  const a = entry.action;
  /** @type {string[]} */
  const said = [];
  if (entry.actor === 'timeout' && entry.seat !== null && entry.seat !== undefined) said.push(t('said-timed-out', { who: who(entry.seat) }));
  switch (a.type) {
    case 'seat_taken':
      said.push(t('said-seat-taken', { name: a.name }));
      break;
    case 'seat_left':
      said.push(t('said-seat-left', { name: names[a.seat] ?? '' }));
      break;
    case 'bot_seated':
      said.push(t('said-bot-seated', { seat: a.seat + 1 }));
      break;
    case 'start':
      said.push(t('said-start'));
      break;
    case 'takeover':
      if (entry.seat !== null && entry.seat !== undefined) said.push(t('said-takeover', { who: who(entry.seat) }));
      break;
    case 'reclaim':
      if (entry.seat !== null && entry.seat !== undefined) said.push(t('said-reclaim', { who: who(entry.seat) }));
      break;
    case 'closed':
      said.push(t('said-closed'));
      break;
    default:
      break;
  }
  for (const event of entry.events) {
    const sentence = eventSentence(event, state, who, view);
    if (sentence) said.push(sentence);
  }
  return said.join(' ');
}

/**
 * One event in words: the game's own sentence, else the shared one, else nothing.
 * @param {any} event @param {any} state @param {(seat: number) => string} who @param {GameView} view
 */
function eventSentence(event, state, who, view) {
  const own = state ? view.event(event, state, who) : undefined;
  if (own !== undefined) return own;
  switch (event.type) {
    case 'opening_rolled':
      return t('said-opening-rolled', { who: who(event.seat), dice: event.dice.map((/** @type {number} */ d) => number(d)).join(', ') });
    case 'opening_tie':
      return t('said-opening-tie', { who: event.seats.map(who).join(', ') });
    case 'first_to_play':
      return t('said-first-to-play', { who: who(event.seat) });
    case 'rolled':
      return t('said-rolled', { who: who(event.seat), dice: event.dice.map((/** @type {number} */ d) => number(d)).join(t('said-and')), count: event.dice.length });
    case 'extra_roll':
      return t('said-extra-roll', { who: who(event.seat) });
    case 'turn_passed':
      return t('said-turn-passed', { who: who(event.seat) });
    case 'seat_finished':
      return t('said-seat-finished', { who: who(event.seat), place: event.place });
    case 'game_over': {
      const places = /** @type {(number | null)[]} */ (event.places ?? []);
      const winners = places.map((place, seat) => (place === 1 ? seat : -1)).filter((seat) => seat >= 0);
      return winners.length ? t('said-game-over', { who: winners.map(who).join(t('said-and')), count: winners.length }) : t('said-game-over-nobody');
    }
    default:
      return undefined;
  }
}

/**
 * The answer to a single-key query, or null for a key that asks nothing.
 * @param {string} key @param {TableState} s @param {GameView} view @param {number} now
 */
export function query(key, s, view, now) {
  const me = s.mySeat();
  const names = seatNames(s.table);
  const playing = s.table.status === 'playing' && !s.finished && s.state;
  switch (key.toLowerCase()) {
    case 't': {
      if (!playing || s.toAct === null || s.toAct === undefined) return s.finished ? t('query-game-over') : t('query-not-started');
      const left = secondsLeft(s, now);
      const whose = s.toAct === me ? t('turn-yours') : t('turn-theirs', { name: seatWho(s.table, view, s.state, s.toAct) });
      return left === null ? whose : `${whose}. ${t('query-seconds-left', { seconds: left })}`;
    }
    case 'd': {
      const shown = diceShown(s, view);
      if (!shown.dice.length) return t('query-no-dice');
      const dice = shown.dice.map((d) => number(d)).join(t('said-and'));
      return shown.seat === null ? t('query-dice', { dice }) : t('said-rolled', { who: seatWho(s.table, view, s.state, shown.seat), dice, count: shown.dice.length });
    }
    case 'c': {
      if (me === null) return t('query-not-seated');
      if (!playing) return s.finished ? t('query-game-over') : t('query-not-started');
      if (s.toAct !== me) return t('query-not-your-turn', { name: names[s.toAct ?? 0] ?? '' });
      const left = secondsLeft(s, now);
      return left === null ? t('turn-yours') : t('query-my-clock', { seconds: left });
    }
    case 'p':
      if (me === null) return t('query-not-seated');
      if (!s.state) return t('query-not-started');
      return view.where(s.state, me, names);
    case 's':
      if (!s.state) return t('query-not-started');
      return view.score(s.state, names);
    case 'm': {
      if (me === null) return t('query-not-seated');
      const legal = s.myLegal();
      if (!legal.length) return t('query-no-moves');
      return t('query-moves', { moves: legal.map((a) => actionLabel(a, view)).join('; '), count: legal.length });
    }
    case '?':
      return t('query-help');
    default:
      return null;
  }
}
