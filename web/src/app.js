// @ts-check
/**
 * Luddo's reference web client: one page, hash routes, everything through the public API.
 *
 *   #/               the lobby (sign up first), live from GET /v1/lobby/events
 *   #/new            create a table
 *   #/t/{id}         a table: the waiting room, the game, the end (fairness check)
 *   #/invite/{code}  a private table's invite link
 *   #/replay/{id}    a finished game, step by step
 *   #/shame          the hall of shame
 *   #/leaderboard    ratings per game, best first
 *   #/p/{id}         a player's profile and finished games
 */
import { ApiError, LobbyFeed, TableFeed, call, downloadRecord, forgetToken, gameRecord, keepToken, storedName, token } from './api.js';
import { COLOURS, SEAT_COLOURS, dieFace, drawBoard, esc } from './boards.js';
import { verify } from './fairness.js';

/** @typedef {import('./api.js').Table} Table @typedef {import('./api.js').Entry} Entry
 * @typedef {import('./api.js').Action} Action @typedef {import('./api.js').SeatPresence} SeatPresence
 * @typedef {import('./api.js').Game} Game */

const GAMES = /** @type {const} */ ({
  luddo: { name: 'Luddo', seats: [2, 3, 4, 5, 6] },
  ludo: { name: 'Ludo', seats: [2, 3, 4, 5, 6] },
  uckers: { name: 'Uckers', seats: [2, 4] },
  snakes: { name: 'Snakes and Ladders', seats: [2, 3, 4] },
  backgammon: { name: 'Backgammon', seats: [2] },
});

const app = /** @type {HTMLElement} */ (document.getElementById('app'));
const account = /** @type {HTMLElement} */ (document.getElementById('account'));
/** What the current page must stop when another is shown (sockets, timers). */
let cleanup = () => {};
/** Counts the pages shown: an answer that arrives after its page was left is dropped. */
let generation = 0;
/** A test of whether the page shown now is still the one shown when this was called. */
function stillShown() {
  const mine = generation;
  return () => mine === generation;
}

/** @param {string} id */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/** @param {unknown} error */
function message(error) {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/** @param {string} text */
function flash(text) {
  const box = byId('flash');
  box.textContent = text;
  box.hidden = !text;
}

function renderAccount() {
  const name = storedName();
  if (token() && name) {
    account.innerHTML = `<span>Signed in as <strong id="me-name">${esc(name)}</strong></span> <button id="sign-out" type="button">Sign out</button>`;
    byId('sign-out').onclick = async () => {
      try {
        await call('POST', '/v1/players/me/logout');
      } catch {
        // The token may already be revoked: forgetting it is all that is left to do.
      }
      forgetToken();
      renderAccount();
      route();
    };
  } else {
    account.innerHTML = '<span>Not signed in</span>';
  }
}

/** The sign-up form; `then` runs after a successful sign-up. @param {() => void} then */
function signUpForm(then) {
  return {
    html: `<section class="card" aria-labelledby="signup-title"><h2 id="signup-title">Sign up to play</h2>
      <form id="signup"><label>Your name <input id="signup-name" name="name" required maxlength="40" autocomplete="nickname"></label>
      <button type="submit">Sign up</button></form>
      <p class="hint">No password: your token stays in this browser (localStorage). Anyone may watch public tables without signing up.</p></section>`,
    bind() {
      const form = /** @type {HTMLFormElement} */ (byId('signup'));
      form.onsubmit = async (event) => {
        event.preventDefault();
        const name = /** @type {HTMLInputElement} */ (byId('signup-name')).value.trim();
        try {
          const player = await call('POST', '/v1/players', { name });
          keepToken(player.token, player.name);
          renderAccount();
          then();
        } catch (error) {
          flash(message(error));
        }
      };
    },
  };
}

/** @param {Table} table */
function seatsSummary(table) {
  const taken = table.seats.filter((s) => s.player || s.controller === 'bot').length;
  return `${taken}/${table.seats.length}`;
}

// ---------------------------------------------------------------------------------------------
// The lobby.

function lobbyPage() {
  const signUp = token() ? null : signUpForm(() => route());
  app.innerHTML = `${signUp ? signUp.html : ''}
    ${token() ? `<section class="card" aria-labelledby="play-now-title">
      <h2 id="play-now-title">Play now</h2>
      <form id="play-now" class="filters">
        <label>Game <select id="q-game">${Object.entries(GAMES).map(([k, g]) => `<option value="${k}">${g.name}</option>`).join('')}</select></label>
        <label>Players <select id="q-seats"></select></label>
        <label><input type="checkbox" id="q-bots" checked> bots after 30 s</label>
        <button type="submit" id="play-now-go">Play now</button>
      </form>
      <p class="hint">A seat at the oldest table waiting for the same game, or a new one; it starts when full.</p>
    </section>` : ''}
    <section class="card" aria-labelledby="lobby-title">
      <h2 id="lobby-title">Open tables <span class="live" id="lobby-live">live</span></h2>
      <div class="filters" role="group" aria-label="Filters">
        <label>Game <select id="f-game"><option value="">any</option>${Object.entries(GAMES).map(([k, g]) => `<option value="${k}">${g.name}</option>`).join('')}</select></label>
        <label>Party <select id="f-party"><option value="">any</option><option value="yes">party only</option><option value="no">no party</option></select></label>
        <label><input type="checkbox" id="f-free"> with free seats</label>
      </div>
      <table class="list"><thead><tr><th>Game</th><th>Host</th><th>Seats</th><th>Clock</th><th></th></tr></thead><tbody id="lobby-rows"><tr><td colspan="5">Loading…</td></tr></tbody></table>
      <p><a href="#/new" class="button" id="new-table">Create a table</a></p>
    </section>
    <section class="card" aria-labelledby="finished-title"><h2 id="finished-title">Finished games</h2><ul id="finished" class="plain"></ul></section>`;
  signUp?.bind();
  if (token()) bindPlayNow();
  /** @type {Map<string, { seq: number, table: Table }>} */
  let tables = new Map();
  const draw = () => {
    const game = /** @type {HTMLSelectElement} */ (byId('f-game')).value;
    const party = /** @type {HTMLSelectElement} */ (byId('f-party')).value;
    const free = /** @type {HTMLInputElement} */ (byId('f-free')).checked;
    const rows = [...tables.values()]
      .map((t) => t.table)
      .filter((t) => (!game || t.game === game) && (!party || t.party === (party === 'yes')) && (!free || t.seats.some((s) => !s.player && s.controller !== 'bot')))
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    byId('lobby-rows').innerHTML = rows.length
      ? rows
          .map((t) => {
            const host = t.seats.find((s) => s.player?.id === t.host_id)?.player?.name ?? '—';
            const open = t.status === 'open';
            return `<tr data-table="${t.id}"><td>${GAMES[t.game]?.name ?? t.game}${t.party ? ' <span class="tag">party</span>' : ''}</td><td>${esc(host)}</td><td>${seatsSummary(t)}</td><td>${t.turn_seconds} s</td>
              <td><a class="button" href="#/t/${t.id}">${open ? 'Open' : 'Watch'}</a></td></tr>`;
          })
          .join('')
      : '<tr><td colspan="5">No open table matches. Create one!</td></tr>';
  };
  for (const id of ['f-game', 'f-party', 'f-free']) byId(id).onchange = draw;
  const feed = new LobbyFeed((next) => {
    tables = next;
    draw();
  });
  const shown = stillShown();
  call('GET', '/v1/tables?status=finished&limit=10')
    .then((page) => {
      if (!shown()) return;
      byId('finished').innerHTML =
        page.tables.map((/** @type {Table} */ t) => `<li><a href="#/replay/${t.id}">${GAMES[t.game]?.name ?? t.game}: ${t.seats.map((s) => esc(s.player?.name ?? 'bot')).join(', ')}</a> <span class="hint">${new Date(t.finished_at ?? t.created_at).toLocaleString()}</span></li>`).join('') ||
        '<li>None yet.</li>';
    })
    .catch((error) => flash(message(error)));
  cleanup = () => feed.stop();
}

/** The lobby's "Play now" form: quick play, then the table. */
function bindPlayNow() {
  const game = /** @type {HTMLSelectElement} */ (byId('q-game'));
  const seats = /** @type {HTMLSelectElement} */ (byId('q-seats'));
  const fill = () => {
    const counts = GAMES[/** @type {Game} */ (game.value)].seats;
    seats.innerHTML = counts.map((n) => `<option value="${n}"${n === Math.min(4, counts[counts.length - 1]) ? ' selected' : ''}>${n}</option>`).join('');
  };
  game.onchange = fill;
  fill();
  /** @type {HTMLFormElement} */ (byId('play-now')).onsubmit = async (event) => {
    event.preventDefault();
    /** @type {Record<string, any>} */
    const body = { game: game.value, seats: Number(seats.value) };
    if (/** @type {HTMLInputElement} */ (byId('q-bots')).checked) body.bots_after_seconds = 30;
    try {
      const table = await call('POST', '/v1/quick-play', body);
      location.hash = `#/t/${table.id}`;
    } catch (error) {
      flash(message(error));
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Creating a table.

/** The options form of each game. @param {string} game */
function optionsForm(game) {
  switch (game) {
    case 'luddo':
      return '<label><input type="checkbox" name="home_bonus" checked> a piece home earns an extra roll</label>';
    case 'ludo':
      return `<label>Enter on <select name="enter_on"><option value="6">a 6</option><option value="1,6">a 1 or a 6</option></select></label>
        <label><input type="checkbox" name="play_for_places" checked> play on for places</label>`;
    case 'uckers':
      return `<label>Snake eyes <select name="snake_eyes"><option value="navy">navy</option><option value="wafu">wafu</option><option value="off">off</option></select></label>
        ${['mixed_blob_stacking', 'superblobs', 'stand_up_finish', 'suck_back', 'blow_back'].map((o) => `<label><input type="checkbox" name="${o}"> ${o.replaceAll('_', ' ')}</label>`).join('')}
        <p class="hint">Some house rules are for private tables only.</p>`;
    case 'snakes':
      return '<p class="hint">The classic board.</p>';
    case 'backgammon':
      return `<label>Match to <input type="number" name="match_to" min="0" max="25" value="0"> (0: one money game)</label>
        <label><input type="checkbox" name="cube" checked> doubling cube</label>
        <label><input type="checkbox" name="crawford" checked> Crawford rule</label>
        <label><input type="checkbox" name="jacoby"> Jacoby rule</label>
        <label><input type="checkbox" name="beavers"> beavers</label>`;
    default:
      return '';
  }
}

/** @param {HTMLFormElement} form @param {string} game */
function readOptions(form, game) {
  /** @param {string} name */
  const checked = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).checked;
  /** @param {string} name */
  const value = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
  switch (game) {
    case 'luddo':
      return { home_bonus: checked('home_bonus') };
    case 'ludo':
      return { enter_on: value('enter_on').split(',').map(Number), play_for_places: checked('play_for_places') };
    case 'uckers':
      return Object.fromEntries([['snake_eyes', value('snake_eyes')], ...['mixed_blob_stacking', 'superblobs', 'stand_up_finish', 'suck_back', 'blow_back'].map((o) => [o, checked(o)])]);
    case 'backgammon':
      return { match_to: Number(value('match_to')), cube: checked('cube'), crawford: checked('crawford'), jacoby: checked('jacoby'), beavers: checked('beavers') };
    default:
      return {};
  }
}

function newTablePage() {
  if (!token()) {
    const signUp = signUpForm(() => newTablePage());
    app.innerHTML = signUp.html;
    signUp.bind();
    return;
  }
  app.innerHTML = `<section class="card" aria-labelledby="new-title"><h2 id="new-title">Create a table</h2>
    <form id="create">
      <label>Game <select id="c-game" name="game">${Object.entries(GAMES).map(([k, g]) => `<option value="${k}">${g.name}</option>`).join('')}</select></label>
      <label>Seats <select id="c-seats" name="seat_count"></select></label>
      <fieldset><legend>Options</legend><div id="c-options"></div></fieldset>
      <label><input type="checkbox" id="c-private" name="private"> private (joined with the invite link)</label>
      <label><input type="checkbox" id="c-party" name="party"> party table (30 s clock)</label>
      <label>Your dice seed (optional) <input id="c-seed" name="client_seed" maxlength="64"></label>
      <button type="submit" id="c-submit">Create</button>
    </form></section>`;
  const form = /** @type {HTMLFormElement} */ (byId('create'));
  const gameSelect = /** @type {HTMLSelectElement} */ (byId('c-game'));
  const refresh = () => {
    const game = /** @type {keyof typeof GAMES} */ (gameSelect.value);
    byId('c-seats').innerHTML = GAMES[game].seats.map((n) => `<option value="${n}">${n}${n >= 5 ? ' (hexagonal board)' : ''}</option>`).join('');
    byId('c-options').innerHTML = optionsForm(game);
  };
  gameSelect.onchange = refresh;
  refresh();
  form.onsubmit = async (event) => {
    event.preventDefault();
    const game = gameSelect.value;
    /** @type {Record<string, unknown>} */
    const body = {
      game,
      seat_count: Number(/** @type {HTMLSelectElement} */ (byId('c-seats')).value),
      options: readOptions(form, game),
      visibility: /** @type {HTMLInputElement} */ (byId('c-private')).checked ? 'private' : 'public',
      party: /** @type {HTMLInputElement} */ (byId('c-party')).checked,
    };
    const seed = /** @type {HTMLInputElement} */ (byId('c-seed')).value;
    if (seed) body.client_seed = seed;
    try {
      const table = await call('POST', '/v1/tables', body);
      location.hash = `#/t/${table.id}`;
    } catch (error) {
      flash(message(error));
    }
  };
  cleanup = () => {};
}

// ---------------------------------------------------------------------------------------------
// A table.

/** A short text for an action. @param {Action} action */
export function actionLabel(action) {
  /** @param {any} piece */
  const piece = (piece) => `${piece.colour} ${piece.index + 1}`;
  /** @param {number} p */
  const point = (p) => (p === 25 ? 'bar' : p === 0 ? 'off' : String(p));
  switch (action.type) {
    case 'roll':
      return 'Roll';
    case 'move':
      if (Array.isArray(action.steps)) return `Move ${action.steps.map((/** @type {any} */ s) => `${piece(s.piece)} by ${s.die}`).join(', then ')}`;
      return `Move piece ${action.piece + 1}`;
    case 'total':
      return `Move ${piece(action.piece)} by the total`;
    case 'challenge':
      return `Challenge the blob on square ${action.target} with ${piece(action.piece)}`;
    case 'suck_back':
      return `Suck back ${piece(action.target)} with ${piece(action.piece)}`;
    case 'blow_back':
      return `Blow back from ${piece(action.piece)}`;
    case 'pass':
      return 'Pass';
    case 'call_snake_eyes':
      return 'Call snake eyes';
    case 'stand_up':
      return 'Stand-up finish';
    case 'up_board':
      return 'Up-board (resign)';
    case 'double':
      return 'Double';
    case 'take':
      return 'Take';
    case 'drop':
      return 'Drop (lose the game)';
    case 'beaver':
      return 'Beaver';
    case 'play':
      return `Play ${action.moves.map((/** @type {any} */ m) => `${point(m.from)}/${point(m.to)}`).join(' ') || '(nothing)'}`;
    default:
      return action.type.replaceAll('_', ' ');
  }
}

/** Actions that give the game away: never a default, marked in red. @param {Action} action */
function dangerous(action) {
  return action.type === 'up_board' || action.type === 'drop';
}

/** Actions played by clicking the board (the buttons list them too, folded). @param {Action} action */
function onBoard(action) {
  return ['move', 'total', 'challenge', 'suck_back', 'blow_back', 'play'].includes(action.type);
}

/** One line about a log entry. @param {Entry} entry @param {string[]} names */
function describe(entry, names) {
  const who = entry.seat === null || entry.seat === undefined ? 'Table' : names[entry.seat] ?? `seat ${entry.seat + 1}`;
  const a = entry.action;
  /** @type {string} */
  let what;
  switch (a.type) {
    case 'seat_taken':
      what = `${esc(a.name)} sat down`;
      break;
    case 'seat_left':
      what = 'left the table';
      break;
    case 'bot_seated':
      what = 'a bot sat down';
      break;
    case 'settings_changed':
      what = 'settings changed';
      break;
    case 'start':
      what = 'the game started';
      break;
    case 'finish':
      what = 'the game is over';
      break;
    case 'takeover':
      what = `a bot took the seat (${a.reason})`;
      break;
    case 'reclaim':
      what = 'took the seat back';
      break;
    default:
      what = esc(actionLabel(a));
  }
  const thrown = entry.events.filter((e) => e.type === 'rolled').map((e) => e.dice ?? [e.value ?? e.die]);
  const dice = thrown.length ? ` — threw ${thrown.map((d) => d.join('+')).join(', ')}` : '';
  const by = entry.actor === 'timeout' ? ' <span class="tag warn">timed out</span>' : entry.actor === 'bot' ? ' <span class="tag">bot</span>' : '';
  return `<strong>${esc(who)}</strong>: ${what}${dice}${by}`;
}

/** The names of the seats. @param {Table} table */
function seatNames(table) {
  return table.seats.map((s) => s.player?.name ?? (s.controller === 'bot' ? `Bot ${s.seat + 1}` : `empty seat ${s.seat + 1}`));
}

/** The colour of a seat's swatch. @param {Table} table @param {any} state @param {number} seat */
function seatColour(table, state, seat) {
  if ((table.game === 'luddo' || table.game === 'ludo') && state) return COLOURS[state.seats[seat]?.colour] ?? '#999';
  if (table.game === 'uckers') return COLOURS[['yellow', 'red', 'green', 'blue'][seat]] ?? '#999';
  if (table.game === 'backgammon') return seat === 0 ? '#f7f3e8' : '#2b2b2b';
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** Where the pieces stand, as a string: a change marks the last move. @param {string} game @param {any} state */
function positions(game, state) {
  switch (game) {
    case 'luddo':
    case 'ludo':
      return JSON.stringify(state.seats.map((/** @type {any} */ s) => s.pieces));
    case 'uckers':
      return JSON.stringify(state.board.pieces.map((/** @type {any[]} */ c) => c.map((p) => p.progress)));
    case 'snakes':
      return JSON.stringify(state.squares);
    default:
      return JSON.stringify(state.board);
  }
}

/** The dice to show: the state's own (a throw to play), else the last throw of the log. @param {Table} table @param {any} state @param {Entry[]} recent */
function diceShown(table, state, recent) {
  if (state?.phase?.dice) return state.phase.dice;
  if ((table.game === 'luddo' || table.game === 'ludo') && state?.pending?.length) return state.rolled;
  for (let i = recent.length - 1; i >= 0; i--) {
    const thrown = recent[i].events.filter((e) => e.type === 'rolled');
    if (thrown.length) {
      const last = thrown[thrown.length - 1];
      return last.dice ?? [last.value ?? last.die];
    }
  }
  return [];
}

/**
 * @param {string} id
 * @param {string | null} inviteCode
 */
async function tablePage(id, inviteCode) {
  const shown = stillShown();
  app.innerHTML = '<p>Loading the table…</p>';
  /** @type {Table} */
  let table;
  try {
    table = await call('GET', `/v1/tables/${id}${inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : ''}`);
  } catch (error) {
    app.innerHTML = `<p class="error">${esc(message(error))}</p>`;
    return;
  }
  let me = null;
  if (token()) {
    try {
      me = await call('GET', '/v1/players/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        forgetToken();
        renderAccount();
      }
    }
  }
  if (!shown()) return;
  const myId = me?.id ?? null;
  /** @type {Entry[]} the latest entries, for the log and the last throw */
  let recent = [];
  let lastSeq = 0;
  /** The latest entry drawn: what the viewer sees and chooses from. */
  let shownSeq = 0;
  /** @type {any} */
  let state = table.play?.state ?? null;
  /** @type {any} */
  let previous = null;
  /** @type {Action[][]} */
  let legalBySeat = [];
  /** @type {number | null} */
  let toAct = table.play?.to_act ?? null;
  /** @type {string | null} */
  let deadline = table.play?.deadline ?? null;
  /** @type {SeatPresence[]} */
  let presence = table.play?.presence ?? [];
  /** @type {'connected' | 'reconnecting' | 'ended'} */
  let connection = 'reconnecting';
  let busy = false;
  /** @type {Action[] | null} the choices a click on the board left open */
  let choices = null;
  const selection = { moves: /** @type {{ from: number, to: number }[]} */ ([]), from: /** @type {number | null} */ (null) };
  let finished = table.status === 'finished';
  let refreshing = false;
  let closedNotice = '';
  /** False once another page is shown: late draws (timers, answers) then do nothing. */
  let live = true;
  /** The fairness check's verdict, kept across redraws. */
  let verdict = '';

  const mySeat = () => {
    const seat = table.seats.find((s) => s.player?.id === myId);
    return seat ? seat.seat : null;
  };

  /** How many presence messages had arrived, in all and per seat when each last did. */
  let presenceCount = 0;
  /** @type {number[]} */
  const presenceAt = [];
  /** A refresh was asked for while one was on its way: its answer may predate what asked. */
  let refreshAgain = false;
  const refreshTable = async () => {
    if (refreshing) {
      // The table changed again (a start right after the last seat was taken, say): the answer
      // on its way may not show it, so ask once more when it is in.
      refreshAgain = true;
      return;
    }
    refreshing = true;
    const asked = presenceCount;
    try {
      table = await call('GET', `/v1/tables/${id}${inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : ''}`);
      // A presence message newer than the request wins over the answer's presence.
      if (table.play) presence = table.play.presence.map((p, seat) => ((presenceAt[seat] ?? -1) >= asked && presence[seat] ? presence[seat] : p));
      finished = table.status === 'finished';
    } catch (error) {
      flash(message(error));
    } finally {
      refreshing = false;
      draw();
      if (refreshAgain && live) {
        refreshAgain = false;
        refreshTable();
      }
    }
  };

  app.innerHTML = `<section class="table-page">
    <div class="table-head"><h2 id="table-title"></h2><span id="connection" class="tag"></span></div>
    <div class="table-grid">
      <div class="board-wrap"><div id="dice" class="dice" aria-live="polite"></div>
        <div id="board" aria-describedby="board-text"></div></div>
      <aside class="side">
        <div id="turn" class="turn" aria-live="polite"></div>
        <ul id="seats" class="seats" aria-label="Seats"></ul>
        <div id="room"></div>
        <div id="controls" aria-label="Your moves"></div>
        <div id="end"></div>
        <details><summary>The board as text</summary><ul id="board-text"></ul></details>
        <h3>Log</h3><ol id="log" class="log" aria-live="polite"></ol>
      </aside>
    </div></section>`;

  const act = (/** @type {Action} */ action) => {
    if (busy) return;
    // The seq of the entry whose legal actions the viewer chose from: if the table has moved on
    // since it was drawn, the server refuses the action (stale_seq) and the page shows the new state.
    const seen = shownSeq;
    busy = true;
    choices = null;
    selection.moves = [];
    selection.from = null;
    draw();
    if (!feed.act(action, seen)) {
      // The socket is reconnecting: nothing was sent; the viewer acts again once it is back.
      busy = false;
      draw();
    }
  };

  const drawBoardArea = () => {
    const board = byId('board');
    if (!state) {
      board.innerHTML = '<p class="hint">The board appears when the game starts.</p>';
      byId('board-text').innerHTML = '';
      return;
    }
    const seat = mySeat();
    const legal = seat !== null && !busy && !finished ? legalBySeat[seat] ?? [] : [];
    const drawing = drawBoard(table.game, state, previous, {
      seat,
      legal,
      names: seatNames(table),
      selection,
      redraw: () => draw(),
      choose: (actions) => {
        if (actions.length === 1) act(actions[0]);
        else {
          choices = actions;
          draw();
        }
      },
    });
    board.innerHTML = drawing.svg;
    board.querySelectorAll('[data-pick]').forEach((el) => {
      const pick = drawing.picks.get(/** @type {HTMLElement} */ (el).dataset.pick ?? '');
      if (!pick) return;
      el.addEventListener('click', pick);
      el.addEventListener('keydown', (event) => {
        const key = /** @type {KeyboardEvent} */ (event).key;
        if (key === 'Enter' || key === ' ') {
          event.preventDefault();
          pick();
        }
      });
    });
    byId('board-text').innerHTML = drawing.text.map((t) => `<li>${esc(t)}</li>`).join('');
    const dice = diceShown(table, state, recent);
    byId('dice').innerHTML = dice.length
      ? `<span>Dice:</span> <svg viewBox="0 0 ${dice.length * 44} 40" width="${dice.length * 44}" height="40" role="img" aria-label="dice ${dice.join(' and ')}">${dice.map((/** @type {number} */ d, /** @type {number} */ i) => dieFace(2 + i * 44, 2, 36, d)).join('')}</svg>`
      : '';
  };

  const drawSeats = () => {
    const names = seatNames(table);
    const seat = mySeat();
    byId('seats').innerHTML = table.seats
      .map((s) => {
        const p = presence[s.seat];
        const tags = [];
        if (s.player && s.player.id === table.host_id) tags.push('<span class="tag">host</span>');
        if (s.seat === seat) tags.push('<span class="tag you">you</span>');
        if (p) {
          tags.push(p.connected ? '<span class="tag ok" title="connected">online</span>' : '<span class="tag off" title="not connected">offline</span>');
          if (p.controller === 'bot' && s.player) tags.push(`<span class="tag warn">bot playing for ${esc(s.player.name)}</span>`);
          if (p.timeouts > 0) tags.push(`<span class="tag warn">timed out ×${p.timeouts}</span>`);
        }
        const place = table.play?.outcome?.places?.[s.seat];
        if (finished && place) tags.push(`<span class="tag">place ${place}</span>`);
        const turn = toAct === s.seat && !finished ? ' aria-current="true" class="to-act"' : '';
        return `<li${turn} data-seat="${s.seat}"><span class="swatch" style="background:${seatColour(table, state, s.seat)}"></span> ${esc(names[s.seat])} ${tags.join(' ')}</li>`;
      })
      .join('');
  };

  const drawRoom = () => {
    const room = byId('room');
    const seat = mySeat();
    if (table.status !== 'open') {
      room.innerHTML = '';
      return;
    }
    const parts = [];
    const link = table.invite_code ? `${location.origin}/#/invite/${table.invite_code}` : `${location.origin}/#/t/${table.id}`;
    parts.push(`<p>Waiting for players. ${table.visibility === 'private' ? 'Private table: share the invite link.' : 'Share the link:'}</p>
      <p><input id="invite-link" readonly value="${esc(link)}" aria-label="Link to this table"> <button type="button" id="copy-link">Copy</button></p>`);
    if (!token()) parts.push('<p><a href="#/">Sign up</a> to take a seat.</p>');
    else if (seat === null) parts.push('<button type="button" id="join">Take a seat</button>');
    else {
      parts.push('<button type="button" id="leave">Leave the table</button>');
      if (table.host_id === myId) parts.push(' <button type="button" id="start" class="primary">Start (bots fill the empty seats)</button>');
      else parts.push('<p class="hint">The host starts the game.</p>');
    }
    room.innerHTML = parts.join('');
    const on = (/** @type {string} */ id, /** @type {() => Promise<void>} */ f) => {
      const el = document.getElementById(id);
      if (el)
        el.onclick = () => {
          f().catch((error) => flash(message(error)));
        };
    };
    on('copy-link', async () => {
      /** @type {HTMLInputElement} */ (byId('invite-link')).select();
      await navigator.clipboard?.writeText(link).catch(() => {});
    });
    on('join', async () => {
      await call('POST', `/v1/tables/${id}/join`, inviteCode ? { invite_code: inviteCode } : {});
      await refreshTable();
    });
    on('leave', async () => {
      await call('POST', `/v1/tables/${id}/leave`);
      location.hash = '#/';
    });
    on('start', async () => {
      await call('POST', `/v1/tables/${id}/start`, { fill_with_bots: true });
    });
  };

  const drawControls = () => {
    const controls = byId('controls');
    const seat = mySeat();
    if (finished || table.status !== 'playing') {
      controls.innerHTML = '';
      return;
    }
    if (seat === null) {
      controls.innerHTML = '<p class="hint">You are watching.</p>';
      return;
    }
    const parts = [];
    const mine = presence[seat];
    if (mine && mine.controller === 'bot') {
      parts.push('<p class="warn">A bot is playing your seat.</p><button type="button" id="reclaim" class="primary">Take my seat back</button>');
    }
    const legal = busy ? [] : legalBySeat[seat] ?? [];
    if (choices) {
      parts.push(`<div class="choices" role="group" aria-label="Choose a move">${choices.map((a, i) => `<button type="button" class="choice${dangerous(a) ? ' danger' : ''}" data-choice="${i}">${esc(actionLabel(a))}</button>`).join('')} <button type="button" id="cancel-choice">Cancel</button></div>`);
    }
    const direct = legal.filter((a) => !onBoard(a));
    const boardMoves = legal.filter(onBoard);
    if (direct.length) parts.push(`<div class="actions" role="group" aria-label="Actions">${direct.map((a) => `<button type="button" class="action${dangerous(a) ? ' danger' : ''}" data-action="${legal.indexOf(a)}">${esc(actionLabel(a))}</button>`).join('')}</div>`);
    if (boardMoves.length) {
      parts.push(`<p class="hint">Click a highlighted piece${table.game === 'backgammon' ? ' or point, then where it goes' : ''}, or choose:</p>`);
      if (selection.moves.length || selection.from !== null) parts.push('<button type="button" id="clear-selection">Start the move again</button>');
      parts.push(`<details class="all-moves"><summary>All legal moves (${boardMoves.length})</summary><div class="actions">${boardMoves.map((a) => `<button type="button" class="action" data-action="${legal.indexOf(a)}">${esc(actionLabel(a))}</button>`).join('')}</div></details>`);
    }
    if (!legal.length && !choices && toAct !== seat) parts.push('<p class="hint">Not your turn.</p>');
    // Your turn with nothing listed: the server makes your only move at once (the next entry).
    else if (!legal.length && !choices && !busy && mine?.controller !== 'bot') parts.push('<p class="hint">Your only move is made for you.</p>');
    controls.innerHTML = parts.join('');
    controls.querySelectorAll('[data-action]').forEach((el) => {
      /** @type {HTMLElement} */ (el).onclick = () => act(legal[Number(/** @type {HTMLElement} */ (el).dataset.action)]);
    });
    controls.querySelectorAll('[data-choice]').forEach((el) => {
      /** @type {HTMLElement} */ (el).onclick = () => choices && act(choices[Number(/** @type {HTMLElement} */ (el).dataset.choice)]);
    });
    const cancel = document.getElementById('cancel-choice');
    if (cancel) cancel.onclick = () => { choices = null; draw(); };
    const clear = document.getElementById('clear-selection');
    if (clear) clear.onclick = () => { selection.moves = []; selection.from = null; draw(); };
    const reclaim = document.getElementById('reclaim');
    if (reclaim) reclaim.onclick = () => { call('POST', `/v1/tables/${id}/reclaim`).catch((error) => flash(message(error))); };
  };

  const drawEnd = () => {
    const end = byId('end');
    if (!finished) {
      end.innerHTML = '';
      return;
    }
    const names = seatNames(table);
    const places = table.play?.outcome?.places ?? [];
    const order = table.seats.map((s) => s.seat).sort((a, b) => (places[a] ?? 9) - (places[b] ?? 9));
    end.innerHTML = `<div class="card result"><h3>Game over</h3><ol>${order.map((s) => `<li>${esc(names[s])}${places[s] ? ` — place ${places[s]}` : ''}${table.play?.outcome?.points ? `, ${table.play.outcome.points[s]} points` : ''}</li>`).join('')}</ol>
      <button type="button" id="check-fairness">Check the dice</button> <a class="button" href="#/replay/${id}">Replay</a>
      <p id="fairness" aria-live="polite">${verdict}</p></div>`;
    byId('check-fairness').onclick = () =>
      checkFairness(table, (html) => {
        verdict = html;
        if (live) byId('fairness').innerHTML = html;
      });
  };

  const drawLog = () => {
    const names = seatNames(table);
    byId('log').innerHTML = recent
      .slice(-8)
      .reverse()
      .map((e) => `<li data-seq="${e.seq}">${describe(e, names)}</li>`)
      .join('');
  };

  const drawTurn = () => {
    if (!live) return;
    const names = seatNames(table);
    const turn = byId('turn');
    if (table.status === 'open') turn.textContent = 'Waiting room';
    else if (finished) turn.textContent = 'The game is over';
    else if (toAct === null || toAct === undefined) turn.textContent = '';
    else {
      const left = deadline ? Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000)) : null;
      const whose = toAct === mySeat() ? 'Your turn' : `${names[toAct]}'s turn`;
      turn.innerHTML = `${esc(whose)}${left !== null ? ` · <span id="clock" class="clock${left <= 5 ? ' low' : ''}">${left} s</span>` : ''}`;
    }
  };

  const draw = () => {
    if (!live) return;
    shownSeq = lastSeq;
    const title = `${GAMES[table.game]?.name ?? table.game}${table.visibility === 'private' ? ' · private' : ''}${table.party ? ' · party' : ''} · ${table.turn_seconds} s clock`;
    byId('table-title').textContent = title;
    const conn = byId('connection');
    conn.textContent = closedNotice || (connection === 'connected' ? 'live' : connection === 'ended' ? (finished ? 'finished' : 'closed') : 'reconnecting…');
    conn.className = `tag ${connection === 'connected' ? 'ok' : 'off'}`;
    conn.dataset.status = connection;
    drawTurn();
    drawSeats();
    drawRoom();
    drawBoardArea();
    drawControls();
    drawEnd();
    drawLog();
    app.dataset.seq = String(lastSeq);
    app.dataset.status = table.status;
    // Counts the page's redraws: a test waits for the one its click caused.
    app.dataset.renders = String(Number(app.dataset.renders ?? 0) + 1);
  };

  let scheduled = false;
  /**
   * Draws at the next frame when `urgent` (the viewer's turn, an answer to the viewer), else
   * within 150 ms: a burst of bots' entries is drawn a few times a second, not once each.
   */
  const drawSoon = (urgent = true) => {
    if (scheduled) return;
    scheduled = true;
    const run = () =>
      requestAnimationFrame(() => {
        scheduled = false;
        draw();
      });
    if (urgent) run();
    else setTimeout(run, 150);
  };

  const feed = new TableFeed(id, 0, {
    onEntry(entry) {
      lastSeq = entry.seq;
      recent.push(entry);
      if (recent.length > 50) recent = recent.slice(-50);
      const kind = entry.action.type;
      if (entry.state !== undefined) {
        if (state && positions(table.game, state) !== positions(table.game, entry.state)) previous = state;
        state = entry.state;
        legalBySeat = entry.legal_actions_by_seat;
        toAct = entry.to_act;
        deadline = entry.deadline;
        busy = false;
        choices = null;
        selection.moves = [];
        selection.from = null;
      }
      if (kind === 'takeover' && presence[entry.action.seat]) presence[entry.action.seat].controller = 'bot';
      if (kind === 'reclaim' && presence[entry.action.seat]) {
        presence[entry.action.seat].controller = 'human';
        presence[entry.action.seat].timeouts = 0;
      }
      if (entry.actor === 'timeout' && entry.seat !== null && presence[entry.seat]) presence[entry.seat].timeouts += 1;
      if (entry.actor === 'human' && entry.seat !== null && presence[entry.seat]) presence[entry.seat].timeouts = 0;
      if (['seat_taken', 'seat_left', 'bot_seated', 'settings_changed', 'start', 'finish'].includes(kind)) {
        if (kind === 'finish') finished = true;
        refreshTable();
      }
      if (kind === 'closed') {
        closedNotice = 'closed: everyone left';
        table.status = 'closed';
      }
      const seat = mySeat();
      drawSoon(entry.state === undefined || kind === 'finish' || (seat !== null && (entry.legal_actions_by_seat[seat]?.length ?? 0) > 0));
    },
    onPresence(message) {
      presence[message.seat] = message.presence;
      presenceAt[message.seat] = presenceCount;
      presenceCount += 1;
      drawSoon();
    },
    onReply(reply) {
      if (!reply.ok) {
        busy = false;
        if (reply.error?.code !== 'stale_seq') flash(`${reply.error?.detail ?? 'refused'} (${reply.error?.code})`);
        drawSoon();
      }
    },
    onStatus(status, detail) {
      connection = status;
      // An action sent as the socket dropped may be lost: the viewer may act again (a repeat is
      // refused by its stale seq, never applied twice).
      if (status === 'connected') busy = false;
      if (detail) closedNotice = detail;
      if (status === 'ended' && !finished) flash(detail ?? 'the table is closed');
      drawSoon();
    },
  });
  const clock = setInterval(drawTurn, 500);
  // For the browser tests and the curious: drop the socket as a network failure would.
  /** @type {any} */ (window).luddoDropSocket = () => feed.drop();
  cleanup = () => {
    live = false;
    feed.stop();
    clearInterval(clock);
  };
  draw();
}

/**
 * Fetches the table's record and checks every die (fairness.js); shows the verdict with `show`.
 * @param {Table} table
 * @param {(html: string) => void} show
 */
async function checkFairness(table, show) {
  show('Checking…');
  try {
    const record = await gameRecord(table.id);
    const verdict = await verify(record.table, record.entries);
    if (verdict.verified) {
      show(`<strong class="verified">verified</strong>: the revealed seed matches the commitment, and all ${verdict.dice} dice in ${verdict.entries} log entries match HMAC-SHA256(seed, client seed) recomputed in this browser.`);
    } else {
      show(`<strong class="error">NOT verified</strong>: ${esc(verdict.reason)}`);
    }
  } catch (error) {
    show(`<span class="error">${esc(message(error))}</span>`);
  }
}

// ---------------------------------------------------------------------------------------------
// Invite links, replays, the hall of shame.

/** @param {string} code */
async function invitePage(code) {
  const shown = stillShown();
  try {
    const table = await call('GET', `/v1/invites/${encodeURIComponent(code)}`);
    if (!shown()) return;
    if (!token()) {
      const signUp = signUpForm(() => invitePage(code));
      app.innerHTML = `<p>You are invited to a private ${esc(GAMES[/** @type {Game} */ (table.game)]?.name ?? table.game)} table.</p>${signUp.html}`;
      signUp.bind();
      return;
    }
    const me = await call('GET', '/v1/players/me');
    const seated = table.seats.some((/** @type {any} */ s) => s.player?.id === me.id);
    if (!seated && table.status === 'open') {
      try {
        await call('POST', `/v1/tables/${table.id}/join`, { invite_code: code });
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'already_seated')) throw error;
      }
    }
    await tablePage(table.id, code);
  } catch (error) {
    app.innerHTML = `<p class="error">${esc(message(error))}</p>`;
  }
}

/** @param {string} id */
async function replayPage(id) {
  const shown = stillShown();
  app.innerHTML = '<p>Loading the game…</p>';
  /** @type {Table} */
  let table;
  /** @type {Entry[]} */
  let entries;
  try {
    const record = await gameRecord(id);
    table = record.table;
    if (table.status !== 'finished') {
      app.innerHTML = `<p>This game is not over yet: <a href="#/t/${id}">watch it</a>.</p>`;
      return;
    }
    entries = record.entries;
  } catch (error) {
    if (shown()) app.innerHTML = `<p class="error">${esc(message(error))}</p>`;
    return;
  }
  if (!shown()) return;
  const steps = entries.filter((e) => e.state !== undefined);
  let at = 0;
  const names = seatNames(table);
  app.innerHTML = `<section class="table-page"><h2>Replay: ${esc(GAMES[table.game]?.name ?? table.game)} — ${names.map(esc).join(', ')}</h2>
    <div class="table-grid"><div class="board-wrap"><div id="board"></div></div>
    <aside class="side">
      <div class="replay-controls" role="group" aria-label="Step through the game">
        <button type="button" id="r-first" aria-label="First">⏮</button><button type="button" id="r-prev" aria-label="Previous">◀</button>
        <span id="r-pos" aria-live="polite"></span>
        <button type="button" id="r-next" aria-label="Next">▶</button><button type="button" id="r-last" aria-label="Last">⏭</button>
      </div>
      <input type="range" id="r-range" min="0" max="${steps.length - 1}" value="0" aria-label="Position in the game">
      <p id="r-entry"></p>
      <details><summary>The board as text</summary><ul id="board-text"></ul></details>
      <button type="button" id="check-fairness">Check the dice</button><p id="fairness" aria-live="polite"></p>
      <p><button type="button" id="download-json">Download the record</button>${table.game === 'backgammon' ? ' <button type="button" id="download-mat">Download for GNU Backgammon (.mat)</button>' : ''}</p>
      <p id="download-error" class="error" aria-live="polite"></p>
      <p><a href="#/t/${id}">The table</a></p>
    </aside></div></section>`;
  const show = () => {
    const entry = steps[at];
    const drawing = drawBoard(table.game, entry.state, at > 0 ? steps[at - 1].state : null, {
      seat: null,
      legal: [],
      names,
      selection: { moves: [], from: null },
      redraw: () => {},
      choose: () => {},
    });
    byId('board').innerHTML = drawing.svg;
    byId('board-text').innerHTML = drawing.text.map((t) => `<li>${esc(t)}</li>`).join('');
    byId('r-pos').textContent = `${at + 1} / ${steps.length} (seq ${entry.seq})`;
    byId('r-entry').innerHTML = describe(entry, names);
    /** @type {HTMLInputElement} */ (byId('r-range')).value = String(at);
  };
  const go = (/** @type {number} */ n) => {
    at = Math.max(0, Math.min(steps.length - 1, n));
    show();
  };
  byId('r-first').onclick = () => go(0);
  byId('r-prev').onclick = () => go(at - 1);
  byId('r-next').onclick = () => go(at + 1);
  byId('r-last').onclick = () => go(steps.length - 1);
  byId('r-range').oninput = () => go(Number(/** @type {HTMLInputElement} */ (byId('r-range')).value));
  byId('check-fairness').onclick = () =>
    checkFairness(table, (html) => {
      if (shown()) byId('fairness').innerHTML = html;
    });
  for (const format of /** @type {const} */ (['json', 'mat'])) {
    const button = document.getElementById(`download-${format}`);
    if (button) {
      button.onclick = () =>
        downloadRecord(id, format).catch((error) => {
          if (shown()) byId('download-error').textContent = message(error);
        });
    }
  }
  const keys = (/** @type {KeyboardEvent} */ event) => {
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === 'ArrowRight') go(at + 1);
    if (event.key === 'ArrowLeft') go(at - 1);
  };
  document.addEventListener('keydown', keys);
  cleanup = () => document.removeEventListener('keydown', keys);
  show();
}

async function shamePage() {
  app.innerHTML = '<section class="card"><h2>Hall of shame</h2><p class="hint">Back of the board: every 8-piece dicking and up-boarding in Uckers, newest first.</p><table class="list"><thead><tr><th>When</th><th>Who</th><th>What</th><th>Pieces home</th><th></th></tr></thead><tbody id="shame-rows"><tr><td colspan="5">Loading…</td></tr></tbody></table></section>';
  const shown = stillShown();
  try {
    const page = await call('GET', '/v1/hall-of-shame?limit=50');
    if (!shown()) return;
    byId('shame-rows').innerHTML =
      page.entries
        .map((/** @type {any} */ e) => `<tr><td>${new Date(e.at).toLocaleString()}</td><td>${esc(e.name)}</td><td>${e.kind === 'up_board' ? 'up-boarded' : 'dicked (8 pieces)'}</td><td>${e.pieces_home}</td><td><a href="#/replay/${e.table_id}">replay</a></td></tr>`)
        .join('') || '<tr><td colspan="5">Nobody yet.</td></tr>';
  } catch (error) {
    flash(message(error));
  }
}

async function leaderboardPage() {
  app.innerHTML = `<section class="card" aria-labelledby="board-title"><h2 id="board-title">Leaderboard</h2>
    <p class="hint">Glicko-2 ratings from public games between players (bots are not rated); a provisional rating shows on its player's profile only.</p>
    <label>Game <select id="l-game">${Object.entries(GAMES).map(([k, g]) => `<option value="${k}">${g.name}</option>`).join('')}</select></label>
    <table class="list"><thead><tr><th>#</th><th>Player</th><th>Rating</th><th>± deviation</th><th>Games</th><th>Wins</th></tr></thead><tbody id="board-rows"><tr><td colspan="6">Loading…</td></tr></tbody></table></section>`;
  const select = /** @type {HTMLSelectElement} */ (byId('l-game'));
  const shown = stillShown();
  const load = async () => {
    const game = select.value;
    try {
      const page = await call('GET', `/v1/leaderboards/${game}?limit=50`);
      // A game chosen meanwhile wins: its answer may come before this one.
      if (!shown() || select.value !== game) return;
      byId('board-rows').innerHTML =
        page.players
          .map((/** @type {any} */ r, /** @type {number} */ i) => `<tr><td>${i + 1}</td><td><a href="#/p/${r.player.id}">${esc(r.player.name)}</a></td><td>${r.rating.toFixed(0)}</td><td>${r.deviation.toFixed(0)}</td><td>${r.games}</td><td>${r.wins}</td></tr>`)
          .join('') || '<tr><td colspan="6">No established ratings yet.</td></tr>';
    } catch (error) {
      flash(message(error));
    }
  };
  select.onchange = load;
  await load();
}

/** @param {string} id */
async function profilePage(id) {
  app.innerHTML = '<section class="card"><p>Loading…</p></section>';
  const shown = stillShown();
  try {
    const [p, history] = await Promise.all([call('GET', `/v1/players/${id}`), call('GET', `/v1/players/${id}/games?limit=20`)]);
    if (!shown()) return;
    const ratings =
      p.ratings.map((/** @type {any} */ r) => `<tr><td>${GAMES[/** @type {Game} */ (r.game)]?.name ?? r.game}</td><td title="${r.provisional ? 'provisional: off the leaderboard' : ''}">${r.rating.toFixed(0)}${r.provisional ? '?' : ''}</td><td>${r.deviation.toFixed(0)}</td><td>${r.games}</td><td>${r.wins}</td></tr>`).join('') ||
      '<tr><td colspan="5">Not rated yet.</td></tr>';
    const games =
      history.games
        .map((/** @type {any} */ g) => {
          const change = g.rating_change === undefined ? '' : ` <span class="hint">${g.rating_change >= 0 ? '+' : ''}${g.rating_change.toFixed(1)}</span>`;
          return `<li><a href="#/replay/${g.table_id}">${GAMES[/** @type {Game} */ (g.game)]?.name ?? g.game}</a>: ${g.place === 1 ? 'won' : g.place ? `place ${g.place}` : 'played'}${change} <span class="hint">${new Date(g.finished_at).toLocaleString()}</span></li>`;
        })
        .join('') || '<li>None yet.</li>';
    app.innerHTML = `<section class="card" aria-labelledby="profile-title"><h2 id="profile-title">${esc(p.name)}</h2>
      <p id="profile-summary">${p.games_played} games played, ${p.games_won} won${p.shame ? `, ${p.shame} in the hall of shame` : ''}.</p>
      <table class="list"><thead><tr><th>Game</th><th>Rating</th><th>± deviation</th><th>Games</th><th>Wins</th></tr></thead><tbody id="profile-ratings">${ratings}</tbody></table>
      <h3>Finished games</h3><ul class="plain" id="profile-games">${games}</ul></section>`;
  } catch (error) {
    app.innerHTML = '<section class="card"><p>No such player.</p></section>';
    flash(message(error));
  }
}

// ---------------------------------------------------------------------------------------------

function route() {
  cleanup();
  cleanup = () => {};
  generation += 1;
  flash('');
  const hash = location.hash.replace(/^#/, '') || '/';
  const [, page, arg] = hash.split('/');
  document.querySelectorAll('nav a').forEach((a) => a.removeAttribute('aria-current'));
  const current = document.querySelector(`nav a[href="#/${page === 't' || page === 'replay' || page === 'invite' || page === 'p' ? '' : page ?? ''}"]`);
  current?.setAttribute('aria-current', 'page');
  if (page === 'new') newTablePage();
  else if (page === 't' && arg) tablePage(arg, null);
  else if (page === 'invite' && arg) invitePage(arg);
  else if (page === 'replay' && arg) replayPage(arg);
  else if (page === 'shame') shamePage();
  else if (page === 'leaderboard') leaderboardPage();
  else if (page === 'p' && arg) profilePage(arg);
  else lobbyPage();
  app.focus({ preventScroll: true });
}

window.addEventListener('hashchange', route);
renderAccount();
route();
// A token the server no longer knows (revoked, expired, another server's) is forgotten: the
// viewer signs up again instead of every request and socket being refused.
if (token()) {
  call('GET', '/v1/players/me').catch((error) => {
    if (error instanceof ApiError && error.status === 401) {
      forgetToken();
      renderAccount();
      route();
    }
  });
}
