// @ts-check
/**
 * A table as one viewer sees it: the table's view, the latest game state and legal actions, each
 * seat's presence, the connection, and what the viewer is doing (an action on its way, a choice
 * or a backgammon play being built). Every message of the table's socket goes through `apply`
 * (an entry, a presence or a reply), which changes the state and says what the page must do
 * next (draw, now or soon; fetch the table again; flash a refusal). Nothing here touches the DOM:
 * the page draws from the state (table/render.js) after each change, and node's tests drive it
 * alone (web/test/table-state.test.mjs).
 */
import { has, t } from '../i18n.js';

/**
 * @typedef {import('../api.js').Table} Table
 * @typedef {import('../api.js').Entry} Entry
 * @typedef {import('../api.js').Action} Action
 * @typedef {import('../api.js').SeatPresence} SeatPresence
 * @typedef {import('../api.js').PresenceMessage} PresenceMessage
 * @typedef {import('../api.js').Reply} Reply
 * @typedef {'connected' | 'reconnecting' | 'ended'} Connection
 */

/**
 * What the page does after a change: draw (`now`: at the next frame, the viewer's turn or an
 * answer to the viewer; `soon`: within 150 ms, so a burst of bots' entries is drawn a few times
 * a second), fetch the table's view again (the seats or the status changed), show a message.
 * @typedef {{ draw: 'now' | 'soon' | null, refresh: boolean, flash: string | null }} Effect
 */

/** The entries after which the table's view (seats, status, outcome) is fetched again. */
const CHANGES_THE_TABLE = ['seat_taken', 'seat_left', 'bot_seated', 'settings_changed', 'start', 'finish'];

/** How many of the latest entries are kept (for the log and the last throw). */
const RECENT = 50;

export class TableState {
  /**
   * @param {Table} table the table's view, as `GET /v1/tables/{id}` answered
   * @param {string | null} myId the viewer's player id (null: not signed in)
   * @param {(state: any) => string} positions where the pieces stand (the game's own): a change marks the last move
   */
  constructor(table, myId, positions) {
    this.table = table;
    this.myId = myId;
    this.positions = positions;
    /** @type {Entry[]} the latest entries, oldest first */
    this.recent = [];
    /** The seq of the latest entry received. */
    this.lastSeq = 0;
    /** The seq of the latest entry drawn: what the viewer sees and chooses from. */
    this.shownSeq = 0;
    /** @type {any} the game state after the latest entry that had one */
    this.state = table.play?.state ?? null;
    /** @type {any} the state before the last move, to mark it */
    this.previous = null;
    /** @type {Action[][]} */
    this.legalBySeat = [];
    /** @type {number | null} */
    this.toAct = table.play?.to_act ?? null;
    /** @type {string | null} */
    this.deadline = table.play?.deadline ?? null;
    /** @type {SeatPresence[]} */
    this.presence = [...(table.play?.presence ?? [])];
    /** How many presence messages have arrived, and that count when each seat's last one did. */
    this.presenceCount = 0;
    /** @type {number[]} */
    this.presenceAt = [];
    /** @type {Connection} */
    this.connection = 'reconnecting';
    this.finished = table.status === 'finished';
    /** Why the table's socket ended, when the server said. */
    this.closedNotice = '';
    /** An action of the viewer is on its way: nothing more may be sent until it is answered. */
    this.busy = false;
    /** @type {Action[] | null} the choices a click on the board left open */
    this.choices = null;
    /** A backgammon play being built on the board: its moves so far and the point picked up. */
    this.selection = { moves: /** @type {{ from: number, to: number }[]} */ ([]), from: /** @type {number | null} */ (null) };
    /** The fairness check's verdict (HTML), kept across redraws. */
    this.verdict = '';
    /**
     * The entries up to this seq were played before the page opened: they are drawn, not
     * announced (a reader hears what happens from now on, not the whole log again).
     */
    this.announcedUpTo = table.play?.seq ?? 0;
    /** @type {number[]} the seats whose players asked for a rematch, as far as the viewer knows */
    this.rematchAsked = [];
    /** @type {number[]} the seats still to ask, after the viewer asked */
    this.rematchWaiting = [];
  }

  /**
   * The server's answer to the viewer's rematch request (`POST /v1/tables/{id}/rematch`): who
   * asked, who is awaited, and the new table once every player asked.
   * @param {{ accepted: number[], waiting_for: number[], table_id?: string }} answer
   */
  rematchAnswered(answer) {
    this.rematchAsked = [...answer.accepted];
    this.rematchWaiting = [...answer.waiting_for];
    if (answer.table_id) this.table = { ...this.table, rematch_id: answer.table_id };
  }

  /** Whether the viewer is to act now (a player's turn, the game on). */
  myTurn() {
    const seat = this.mySeat();
    return seat !== null && !this.finished && this.state !== null && this.toAct === seat;
  }

  /** The viewer's seat, or null (a spectator). */
  mySeat() {
    const seat = this.table.seats.find((s) => s.player?.id === this.myId);
    return seat ? seat.seat : null;
  }

  /** What the viewer may do now (nothing while an action is on its way or after the end). */
  myLegal() {
    const seat = this.mySeat();
    return seat !== null && !this.busy && !this.finished ? this.legalBySeat[seat] ?? [] : [];
  }

  /**
   * One message of the table's socket.
   * @param {Entry | PresenceMessage | Reply} message
   * @returns {Effect}
   */
  apply(message) {
    switch (message.type) {
      case 'entry':
        return this.applyEntry(message);
      case 'presence':
        this.presence[message.seat] = message.presence;
        this.presenceAt[message.seat] = this.presenceCount;
        this.presenceCount += 1;
        return { draw: 'now', refresh: false, flash: null };
      case 'reply':
        if (message.ok) return { draw: null, refresh: false, flash: null };
        this.busy = false;
        return {
          draw: 'now',
          refresh: false,
          // A stale seq only means the table moved on: the page shows the new state.
          flash: message.error?.code === 'stale_seq' ? null : refusal(message.error),
        };
    }
  }

  /**
   * An entry of the log: the new state and legal actions, and the seats' bookkeeping the entry
   * implies (a bot took a seat or gave it back, a seat timed out or played).
   * @param {Entry} entry
   * @returns {Effect}
   */
  applyEntry(entry) {
    this.lastSeq = entry.seq;
    this.recent.push(entry);
    if (this.recent.length > RECENT) this.recent = this.recent.slice(-RECENT);
    const action = entry.action;
    if (entry.state !== undefined) {
      if (this.state && this.positions(this.state) !== this.positions(entry.state)) this.previous = this.state;
      this.state = entry.state;
      this.legalBySeat = entry.legal_actions_by_seat;
      this.toAct = entry.to_act;
      this.deadline = entry.deadline;
      this.busy = false;
      this.clearChoice();
    }
    // The lobby's entries change the seats at once (the table fetched again confirms them), so
    // that what follows names the seats' players.
    if (action.type === 'seat_taken') this.changeSeat(action.seat, { player: { id: action.player_id, name: action.name }, controller: 'human' });
    if (action.type === 'seat_left') this.changeSeat(action.seat, { player: null, controller: null });
    if (action.type === 'bot_seated') this.changeSeat(action.seat, { player: null, controller: 'bot' });
    if (action.type === 'takeover') this.changePresence(action.seat, { controller: 'bot' });
    if (action.type === 'reclaim') this.changePresence(action.seat, { controller: 'human', timeouts: 0 });
    const seat = entry.seat;
    if (entry.actor === 'timeout' && seat !== null) this.changePresence(seat, { timeouts: (this.presence[seat]?.timeouts ?? 0) + 1 });
    if (entry.actor === 'human' && seat !== null) this.changePresence(seat, { timeouts: 0 });
    if (action.type === 'finish') this.finished = true;
    if (action.type === 'closed') {
      this.closedNotice = 'closed: everyone left';
      this.table = { ...this.table, status: /** @type {const} */ ('closed') };
    }
    const me = this.mySeat();
    const urgent = entry.state === undefined || action.type === 'finish' || (me !== null && (entry.legal_actions_by_seat[me]?.length ?? 0) > 0);
    return { draw: urgent ? 'now' : 'soon', refresh: CHANGES_THE_TABLE.includes(action.type), flash: null };
  }

  /** A seat of the table's view, changed. @param {number} seat @param {Partial<Table['seats'][number]>} change */
  changeSeat(seat, change) {
    this.table = { ...this.table, seats: this.table.seats.map((s) => (s.seat === seat ? { ...s, ...change } : s)) };
  }

  /** A known seat's presence, changed. @param {number} seat @param {Partial<SeatPresence>} change */
  changePresence(seat, change) {
    const known = this.presence[seat];
    if (known) this.presence[seat] = { ...known, ...change };
  }

  /**
   * The table's view fetched again. A presence message that arrived after the request was sent
   * wins over the answer's presence.
   * @param {Table} table
   * @param {number} asked `presenceCount` when the request was sent
   */
  refreshed(table, asked) {
    this.table = table;
    if (table.play) {
      this.presence = table.play.presence.map((p, seat) => ((this.presenceAt[seat] ?? -1) >= asked && this.presence[seat] ? this.presence[seat] : p));
    }
    this.finished = table.status === 'finished';
  }

  /**
   * The socket's status changed.
   * @param {Connection} status
   * @param {string} [detail] why it ended
   * @returns {Effect}
   */
  connectionChanged(status, detail) {
    this.connection = status;
    // An action sent as the socket dropped may be lost: the viewer may act again (a repeat is
    // refused by its stale seq, never applied twice).
    if (status === 'connected') this.busy = false;
    if (detail) this.closedNotice = detail;
    const flash = status === 'ended' && !this.finished ? detail ?? 'the table is closed' : null;
    return { draw: 'now', refresh: false, flash };
  }

  /**
   * The viewer sends an action: nothing more until it is answered. Returns the seq of the entry
   * whose legal actions the viewer chose from (if the table has moved on since it was drawn, the
   * server refuses the action as stale and the page shows the new state), or null while busy.
   */
  startAction() {
    if (this.busy) return null;
    this.busy = true;
    this.clearChoice();
    return this.shownSeq;
  }

  /** The action could not be sent (the socket is reconnecting): the viewer acts again later. */
  actionNotSent() {
    this.busy = false;
  }

  /** Forgets the choices and the play being built. */
  clearChoice() {
    this.choices = null;
    this.selection.moves = [];
    this.selection.from = null;
  }
}

/**
 * A refusal the socket answered, as the viewer reads it: the problem's message in the language
 * in use (by its stable code), else the server's English detail with the code.
 * @param {{ code?: string, detail?: string } | undefined} error
 */
function refusal(error) {
  const code = error?.code ?? '';
  return has(`problem-${code}`) ? t(`problem-${code}`) : `${error?.detail ?? code} (${code})`;
}
