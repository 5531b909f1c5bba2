// @ts-check
/**
 * A table's state (src/table/state.js) without a browser: what each message of the table's
 * socket changes (the game state and legal actions, the seats' presence as the log implies it,
 * the viewer's action on its way) and what it asks of the page (draw now or soon, fetch the
 * table again, flash a refusal).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TableState } from '../src/table/state.js';

/**
 * @typedef {import('../src/api.js').Table} Table
 * @typedef {import('../src/api.js').Entry} Entry
 * @typedef {import('../src/api.js').SeatPresence} SeatPresence
 */

const ME = 'player-me';
const OTHER = 'player-other';

/** @param {number} seat @param {Partial<SeatPresence>} [change] @returns {SeatPresence} */
function presence(seat, change = {}) {
  return { seat, controller: 'human', connected: true, timeouts: 0, ...change };
}

/** A playing table of two seats, the viewer at seat 0. @returns {Table} */
function table() {
  return /** @type {Table} */ ({
    id: 't1',
    game: 'snakes',
    status: 'playing',
    visibility: 'public',
    party: false,
    host_id: ME,
    turn_seconds: 60,
    seats: [
      { seat: 0, player: { id: ME, name: 'Me' }, controller: 'human', client_seed: '' },
      { seat: 1, player: { id: OTHER, name: 'Other' }, controller: 'human', client_seed: '' },
    ],
    play: { seq: 1, state: { squares: [null, null] }, to_act: 0, presence: [presence(0), presence(1)] },
  });
}

/** The game's positions: the snakes' squares. @param {any} state */
const positions = (state) => JSON.stringify(state.squares);

/** @param {{ seq: number, action: any, [field: string]: any }} fields @returns {Entry} */
function entry(fields) {
  return /** @type {Entry} */ ({ type: 'entry', seat: null, actor: 'server', events: [], to_act: null, deadline: null, legal_actions_by_seat: [], at: '', ...fields });
}

/** A move of `seat` to the squares given, leaving `legal` to each seat. @param {number} seq @param {number} seat @param {(number | null)[]} squares @param {any[][]} [legal] */
function move(seq, seat, squares, legal = [[], []]) {
  return entry({ seq, seat, actor: 'human', action: { type: 'roll' }, state: /** @type {any} */ ({ squares }), to_act: 1 - seat, deadline: '2030-01-01T00:00:00Z', legal_actions_by_seat: legal });
}

test('an entry with a state brings the state, the legal actions and whose turn; the last position is kept to mark the move', () => {
  const s = new TableState(table(), ME, positions);
  const effect = s.apply(move(2, 1, [null, 4], [[{ type: 'roll' }], []]));
  assert.deepEqual(s.state, { squares: [null, 4] });
  assert.deepEqual(s.previous, { squares: [null, null] });
  assert.deepEqual(s.myLegal(), [{ type: 'roll' }]);
  assert.equal(s.toAct, 0);
  assert.equal(s.lastSeq, 2);
  assert.deepEqual(effect, { draw: 'now', refresh: false, flash: null }, "the viewer's turn is drawn at once");
  // The same position again (a roll that moved nothing) keeps the move marked.
  s.apply(move(3, 0, [null, 4]));
  assert.deepEqual(s.previous, { squares: [null, null] });
});

test("other seats' entries with nothing for the viewer are drawn soon, not at once", () => {
  const s = new TableState(table(), ME, positions);
  assert.equal(s.apply(move(2, 1, [null, 4], [[], [{ type: 'roll' }]])).draw, 'soon');
});

test('a takeover hands the seat to a bot, a reclaim gives it back with no timeouts', () => {
  const s = new TableState(table(), ME, positions);
  s.apply(entry({ seq: 2, seat: 0, actor: 'timeout', action: { type: 'roll' } }));
  s.apply(entry({ seq: 3, seat: 0, actor: 'timeout', action: { type: 'roll' } }));
  assert.equal(s.presence[0].timeouts, 2, 'each timeout is counted');
  s.apply(entry({ seq: 4, action: { type: 'takeover', seat: 0, reason: 'timeouts' } }));
  assert.equal(s.presence[0].controller, 'bot');
  s.apply(entry({ seq: 5, action: { type: 'reclaim', seat: 0 } }));
  assert.deepEqual(s.presence[0], presence(0), 'human again, timeouts forgotten');
  s.apply(entry({ seq: 6, seat: 1, actor: 'timeout', action: { type: 'roll' } }));
  s.apply(entry({ seq: 7, seat: 1, actor: 'human', action: { type: 'roll' } }));
  assert.equal(s.presence[1].timeouts, 0, "a seat's own move forgets its timeouts");
});

test('the entries that change the seats or the status ask for the table again; finish and closed end it', () => {
  const s = new TableState(table(), ME, positions);
  const taken = s.apply(entry({ seq: 2, action: { type: 'seat_taken', seat: 1, player_id: OTHER, name: 'Other' } }));
  assert.deepEqual(taken, { draw: 'now', refresh: true, flash: null });
  assert.equal(s.apply(entry({ seq: 3, action: { type: 'finish' }, state: /** @type {any} */ ({ squares: [100, 4] }) })).refresh, true);
  assert.equal(s.finished, true);
  assert.deepEqual(s.myLegal(), [], 'nothing to do once the game is over');
  const closing = new TableState(table(), ME, positions);
  closing.apply(entry({ seq: 2, action: { type: 'closed' } }));
  assert.equal(closing.table.status, 'closed');
  assert.equal(closing.closedNotice, 'closed: everyone left');
});

test('a presence message replaces the seat\'s presence; a table fetched before it does not undo it', () => {
  const s = new TableState(table(), ME, positions);
  const asked = s.presenceCount;
  s.apply({ type: 'presence', seat: 1, presence: presence(1, { connected: false }) });
  const fetched = table();
  s.refreshed(fetched, asked);
  assert.equal(s.presence[1].connected, false, 'the message is newer than the request');
  s.refreshed(table(), s.presenceCount);
  assert.equal(s.presence[1].connected, true, 'a request sent after it wins');
});

test("the viewer's action: one at a time, with the seq drawn; a refusal frees it and is shown unless stale", () => {
  const s = new TableState(table(), ME, positions);
  s.apply(move(2, 1, [null, 4], [[{ type: 'roll' }], []]));
  s.shownSeq = s.lastSeq;
  assert.equal(s.startAction(), 2);
  assert.equal(s.startAction(), null, 'nothing more while one is on its way');
  assert.deepEqual(s.myLegal(), []);
  assert.deepEqual(s.apply({ type: 'reply', id: 'a1', ok: true, seq: 3 }), { draw: null, refresh: false, flash: null });
  assert.equal(s.busy, true, 'an accepted action waits for its entry');
  const refused = s.apply({ type: 'reply', id: 'a2', ok: false, error: { code: 'not_your_turn', detail: 'not your turn', status: 409 } });
  assert.equal(s.busy, false);
  assert.equal(refused.flash, 'not your turn (not_your_turn)');
  s.startAction();
  assert.equal(s.apply({ type: 'reply', id: 'a3', ok: false, error: { code: 'stale_seq', detail: 'stale', status: 409 } }).flash, null);
  s.startAction();
  s.connectionChanged('reconnecting');
  assert.equal(s.busy, true);
  s.connectionChanged('connected');
  assert.equal(s.busy, false, 'an action lost with the socket may be sent again');
});

test('a socket that ends before the game does says why', () => {
  const s = new TableState(table(), null, positions);
  assert.equal(s.mySeat(), null, 'a spectator has no seat');
  assert.equal(s.connectionChanged('ended', 'this table is private').flash, 'this table is private');
  assert.equal(s.closedNotice, 'this table is private');
});

test('the log keeps the latest fifty entries', () => {
  const s = new TableState(table(), ME, positions);
  for (let seq = 2; seq < 80; seq++) s.apply(entry({ seq, seat: 1, actor: 'bot', action: { type: 'roll' } }));
  assert.equal(s.recent.length, 50);
  assert.equal(s.recent[0].seq, 30);
});
