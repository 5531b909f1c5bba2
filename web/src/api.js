// @ts-check
/**
 * The server's API as the web client uses it: JSON over HTTP with the bearer token kept in
 * localStorage, a table's WebSocket that resumes with `since` after a drop (the same promise as
 * the TypeScript SDK's `followTable`, clients/typescript/src/socket.ts), and the lobby stream.
 */

/**
 * The API's types, from the TypeScript SDK's generation of the spec (web/types/api.gen.d.ts).
 * @typedef {import('../types/api.gen.js').Game} Game
 * @typedef {import('../types/api.gen.js').GameInfo} GameInfo
 * @typedef {import('../types/api.gen.js').Table} Table
 * @typedef {import('../types/api.gen.js').EntryMessage} Entry
 * @typedef {Entry['action']} Action
 * @typedef {import('../types/api.gen.js').SeatPresence} SeatPresence
 * @typedef {import('../types/api.gen.js').PresenceMessage} PresenceMessage
 * @typedef {import('../types/api.gen.js').ReplyMessage} Reply
 * @typedef {import('../types/api.gen.js').Problem} Problem
 * @typedef {import('../types/api.gen.js').AnalysisDecision} ReviewDecision
 * @typedef {import('../types/api.gen.js').AnalysisSeatReview} SeatReview
 */

import { t } from './i18n.js';

const TOKEN_KEY = 'luddo.token';
const NAME_KEY = 'luddo.name';
const ID_KEY = 'luddo.player';

/** The signed-in player's token, if any. */
export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

/** The signed-in player's name, as given at sign-up. */
export function storedName() {
  return localStorage.getItem(NAME_KEY);
}

/** The signed-in player's id (for the link to its profile), once known. */
export function storedId() {
  return localStorage.getItem(ID_KEY);
}

/** @param {string} value @param {{ id: string, name: string }} player */
export function keepToken(value, player) {
  localStorage.setItem(TOKEN_KEY, value);
  keepPlayer(player);
}

/** The signed-in player's name and id, as the server says them. @param {{ id: string, name: string }} player */
export function keepPlayer(player) {
  localStorage.setItem(NAME_KEY, player.name);
  localStorage.setItem(ID_KEY, player.id);
}

export function forgetToken() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(NAME_KEY);
  localStorage.removeItem(ID_KEY);
}

/**
 * An answer of the server that is not a success: its problem+json. The page shows it by its
 * `code` (ui.js `message`); `detail` is the server's English, for a code the client does not know.
 */
export class ApiError extends Error {
  /** @param {number} status @param {Partial<Problem>} problem */
  constructor(status, problem) {
    super(problem.detail ?? `HTTP ${status}`);
    this.status = status;
    this.code = problem.code ?? 'unknown';
    this.detail = problem.detail ?? null;
  }
}

/** A request that got no answer at all: the server or the network is down. */
export class NetworkError extends Error {}

/**
 * One call of the HTTP API.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function call(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  const bearer = token();
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  /** @type {Response} */
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  }
  if (response.status === 204) return null;
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, json ?? {});
  return json;
}

/** @param {string} path */
function socketUrl(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return url;
}

/**
 * @typedef {object} FeedHandlers
 * @property {(entry: Entry) => void} onEntry every log entry once, in order
 * @property {(message: PresenceMessage) => void} onPresence
 * @property {(reply: Reply) => void} onReply
 * @property {(status: 'connected' | 'reconnecting' | 'ended', detail?: string) => void} onStatus
 * @property {(message: import('./social.js').ChatMessage) => void} [onChat] a chat message (docs/social.md), maybe again after a reconnect
 * @property {(n: number) => void} [onChatHidden] a moderator hid message `n`
 */

/**
 * Follows a table's log over its WebSocket: every entry after `since`, then live ones; after a
 * drop it reconnects with `since` = the last `seq` received (back-off up to 5 s), so no entry is
 * missed or repeated. It ends after `finish` (or a `closed` entry), or when the server refuses
 * the viewer (1008: a private table).
 */
export class TableFeed {
  /**
   * @param {string} tableId
   * @param {number} since
   * @param {FeedHandlers} handlers
   */
  constructor(tableId, since, handlers) {
    this.tableId = tableId;
    this.since = since;
    this.handlers = handlers;
    this.failures = 0;
    this.stopped = false;
    this.reclaimNext = false;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.nextId = 1;
    /**
     * The number of the latest chat message received, sent as `chat_since` when the socket
     * opens again, so that only the newer ones come. Before any (0) it is not sent: the server
     * then sends the last 50, which are all there are or more than a drop can have missed (a
     * message received twice is shown once, table/chat-state.js).
     */
    this.chatSince = 0;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const url = socketUrl(`/v1/tables/${this.tableId}/events`);
    url.searchParams.set('since', String(this.since));
    const bearer = token();
    if (bearer) url.searchParams.set('token', bearer);
    if (this.reclaimNext) url.searchParams.set('reclaim', 'true');
    this.reclaimNext = false;
    if (this.chatSince > 0) url.searchParams.set('chat_since', String(this.chatSince));
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      this.handlers.onStatus('connected');
    };
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data));
      if (data.type === 'entry') {
        if (data.seq <= this.since) return;
        this.since = data.seq;
        this.handlers.onEntry(data);
        const kind = data.action.type;
        if (kind === 'finish' || kind === 'closed') this.stop();
      } else if (data.type === 'presence') {
        this.handlers.onPresence(data);
      } else if (data.type === 'reply') {
        this.handlers.onReply(data);
      } else if (data.type === 'chat') {
        this.chatSince = Math.max(this.chatSince, data.message.n);
        this.handlers.onChat?.(data.message);
      } else if (data.type === 'chat_hidden') {
        this.handlers.onChatHidden?.(data.n);
      }
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (event.code === 1008) {
        this.stopped = true;
        this.handlers.onStatus('ended', t('feed-private'));
        return;
      }
      this.failures += 1;
      this.handlers.onStatus('reconnecting');
      const wait = Math.min(5000, 250 * 2 ** Math.min(this.failures, 5)) * (0.5 + Math.random() / 2);
      setTimeout(() => this.connect(), wait);
    };
  }

  /**
   * Sends an action on the socket (the reply comes to `onReply`); false when not connected. At a
   * fresh-dice table `reveal` is the seat's next chain link (dice.js): the server consumes it
   * only with an action that draws dice.
   * @param {Action} action
   * @param {number} seq
   * @param {string | null} [reveal]
   */
  act(action, seq, reveal = null) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify({ type: 'action', id: `a${this.nextId++}`, seq, action, ...(reveal ? { reveal } : {}) }));
    return true;
  }

  /** Drops the connection as a network failure would: the feed reconnects with `since`. */
  drop() {
    this.socket?.close(4000, 'dropped by the client');
  }

  /** Reconnects with `reclaim=true`: the seat is taken back from its bot. */
  reconnectReclaiming() {
    this.reclaimNext = true;
    this.drop();
  }

  stop() {
    this.stopped = true;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'done');
  }
}

/**
 * Follows the lobby (`GET /v1/lobby/events`): a snapshot of the open public tables, then each
 * change; keeps per table the message with the higher `seq`. Reconnects (a fresh snapshot).
 * The messages sent to the signed-in player alone (docs/social.md: `challenge`, `rematch`,
 * `friend`) go to `onPersonal`.
 */
export class LobbyFeed {
  /**
   * @param {(tables: Map<string, { seq: number, table: Table }>) => void} onChange
   * @param {(message: import('./social.js').PersonalMessage) => void} [onPersonal]
   */
  constructor(onChange, onPersonal = () => {}) {
    this.onChange = onChange;
    this.onPersonal = onPersonal;
    /** @type {Map<string, { seq: number, table: Table }>} */
    this.tables = new Map();
    /** @type {Map<string, number>} removed tables, by the seq of their removal */
    this.removed = new Map();
    this.stopped = false;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const url = socketUrl('/v1/lobby/events');
    url.searchParams.set('limit', '100');
    const bearer = token();
    if (bearer) url.searchParams.set('token', bearer);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data));
      if (data.type === 'snapshot') {
        this.tables.clear();
        this.removed.clear();
        for (const item of data.tables) this.tables.set(item.table.id, item);
      } else if (data.type === 'table') {
        const known = this.tables.get(data.table.id);
        const gone = this.removed.get(data.table.id) ?? -1;
        if ((!known || known.seq < data.seq) && gone < data.seq) this.tables.set(data.table.id, data);
      } else if (data.type === 'removed') {
        const known = this.tables.get(data.table_id);
        if (!known || known.seq <= data.seq) this.tables.delete(data.table_id);
        this.removed.set(data.table_id, data.seq);
      } else {
        if (data.type === 'challenge' || data.type === 'rematch' || data.type === 'friend') this.onPersonal(data);
        return;
      }
      this.onChange(this.tables);
    };
    socket.onclose = () => {
      if (this.socket !== socket || this.stopped) return;
      setTimeout(() => this.connect(), 1000);
    };
  }

  stop() {
    this.stopped = true;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'done');
  }
}

/**
 * A table's JSON record (docs/records.md): the table as a stranger sees it and its whole log
 * (every entry as the WebSocket sends it), for the replay and the fairness check.
 * @param {string} tableId
 * @returns {Promise<{ format: 'luddo-record', version: number, table: Table, entries: Entry[] }>}
 */
export function gameRecord(tableId) {
  return call('GET', `/v1/tables/${tableId}/record?format=json`);
}

/**
 * A finished backgammon table's review (docs/analysis.md), every page of its decisions: `null`
 * while the server is still computing it (202).
 * @param {string} tableId
 * @returns {Promise<{ search: string, seats: SeatReview[], decisions: ReviewDecision[] } | null>}
 */
export async function tableAnalysis(tableId) {
  /** @type {ReviewDecision[]} */
  const decisions = [];
  let cursor = '';
  for (;;) {
    const page = await call('GET', `/v1/tables/${tableId}/analysis?limit=100&cursor=${encodeURIComponent(cursor)}`);
    if (page.status !== 'done') return null;
    decisions.push(...page.decisions);
    if (!page.next_cursor) return { search: page.search, seats: page.seats, decisions };
    cursor = page.next_cursor;
  }
}

/**
 * Saves a table's record as a file: its JSON record, or (`mat`) a backgammon match as GNU
 * Backgammon's `.mat`. Fetched with the bearer token (a private table's record is its players'),
 * then handed to the browser as a download.
 * @param {string} tableId
 * @param {'json' | 'mat'} format
 */
export async function downloadRecord(tableId, format) {
  /** @type {Record<string, string>} */
  const headers = {};
  const bearer = token();
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const response = await fetch(`/v1/tables/${tableId}/record?format=${format}`, { headers });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = `luddo-${tableId}.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
