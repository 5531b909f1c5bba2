// @ts-check
/**
 * `#/t/{id}`: a table, from its waiting room to its end. The page wires the table's socket to
 * its state (table/state.js: every message goes through `apply`) and draws the state after each
 * change (table/render.js, and the game's board from games/<game>.js); a click changes the state
 * or sends an action, then draws again.
 */
import { TableFeed, call, token } from '../api.js';
import { games, label, view } from '../games.js';
import * as render from '../table/render.js';
import { TableState } from '../table/state.js';
import { app, byId, checkFairness, esc, flash, forgetRefusedToken, message, onLeave, stillShown } from '../ui.js';

/**
 * @typedef {import('../api.js').Table} Table
 * @typedef {import('../api.js').Action} Action
 * @typedef {import('../table/state.js').Effect} Effect
 */

const SKELETON = `<section class="table-page">
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

/**
 * @param {string} id
 * @param {string | null} inviteCode
 */
export async function tablePage(id, inviteCode) {
  const shown = stillShown();
  app.innerHTML = '<p>Loading the table…</p>';
  const path = `/v1/tables/${id}${inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : ''}`;
  /** @type {Table} */
  let table;
  try {
    table = await call('GET', path);
  } catch (error) {
    app.innerHTML = `<p class="error">${esc(message(error))}</p>`;
    return;
  }
  let me = null;
  if (token()) {
    try {
      me = await call('GET', '/v1/players/me');
    } catch (error) {
      forgetRefusedToken(error);
    }
  }
  /** @type {[import('../api.js').GameInfo[], import('../games.js').GameView]} */
  let loaded;
  try {
    loaded = await Promise.all([games(), view(table.game)]);
  } catch (error) {
    if (shown()) app.innerHTML = `<p class="error">${esc(message(error))}</p>`;
    return;
  }
  if (!shown()) return;
  const [list, game] = loaded;
  const s = new TableState(table, me?.id ?? null, game.positions);
  /** False once another page is shown: late draws (timers, answers) then do nothing. */
  let live = true;

  /** A refresh is on its way; another was asked for meanwhile (its answer may predate what asked). */
  let refreshing = false;
  let refreshAgain = false;
  const refreshTable = async () => {
    if (refreshing) {
      // The table changed again (a start right after the last seat was taken, say): the answer
      // on its way may not show it, so ask once more when it is in.
      refreshAgain = true;
      return;
    }
    refreshing = true;
    const asked = s.presenceCount;
    try {
      s.refreshed(await call('GET', path), asked);
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

  app.innerHTML = SKELETON;

  /** @param {Action} action */
  const act = (action) => {
    const seen = s.startAction();
    if (seen === null) return;
    draw();
    if (!feed.act(action, seen)) {
      // The socket is reconnecting: nothing was sent; the viewer acts again once it is back.
      s.actionNotSent();
      draw();
    }
  };

  const drawBoardArea = () => {
    const board = byId('board');
    if (!s.state) {
      board.innerHTML = '<p class="hint">The board appears when the game starts.</p>';
      byId('board-text').innerHTML = '';
      return;
    }
    const drawing = game.draw(s.state, s.previous, {
      seat: s.mySeat(),
      legal: s.myLegal(),
      names: render.seatNames(s.table),
      selection: s.selection,
      redraw: () => draw(),
      choose: (actions) => {
        if (actions.length === 1) act(actions[0]);
        else {
          s.choices = actions;
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
    byId('dice').innerHTML = render.diceHtml(render.diceShown(s, game));
  };

  /** Binds a button of the page, if drawn, to a call whose failure is flashed. @param {string} button @param {() => Promise<unknown>} f */
  const on = (button, f) => {
    const el = document.getElementById(button);
    if (el)
      el.onclick = () => {
        f().catch((error) => flash(message(error)));
      };
  };

  const drawRoom = () => {
    byId('room').innerHTML = render.roomHtml(s, location.origin, token() !== null);
    on('copy-link', async () => {
      /** @type {HTMLInputElement} */ (byId('invite-link')).select();
      await navigator.clipboard?.writeText(render.shareLink(s.table, location.origin)).catch(() => {});
    });
    on('join', async () => {
      await call('POST', `/v1/tables/${id}/join`, inviteCode ? { invite_code: inviteCode } : {});
      await refreshTable();
    });
    on('leave', async () => {
      await call('POST', `/v1/tables/${id}/leave`);
      location.hash = '#/';
    });
    on('start', () => call('POST', `/v1/tables/${id}/start`, { fill_with_bots: true }));
  };

  const drawControls = () => {
    const controls = byId('controls');
    controls.innerHTML = render.controlsHtml(s, game);
    const legal = s.myLegal();
    controls.querySelectorAll('[data-action]').forEach((el) => {
      /** @type {HTMLElement} */ (el).onclick = () => act(legal[Number(/** @type {HTMLElement} */ (el).dataset.action)]);
    });
    controls.querySelectorAll('[data-choice]').forEach((el) => {
      /** @type {HTMLElement} */ (el).onclick = () => s.choices && act(s.choices[Number(/** @type {HTMLElement} */ (el).dataset.choice)]);
    });
    const redrawAfter = (/** @type {string} */ button, /** @type {() => void} */ change) => {
      const el = document.getElementById(button);
      if (el)
        el.onclick = () => {
          change();
          draw();
        };
    };
    redrawAfter('cancel-choice', () => (s.choices = null));
    redrawAfter('clear-selection', () => s.clearChoice());
    on('reclaim', () => call('POST', `/v1/tables/${id}/reclaim`));
  };

  const drawEnd = () => {
    byId('end').innerHTML = render.endHtml(s);
    const check = document.getElementById('check-fairness');
    if (check)
      check.onclick = () =>
        checkFairness(id, (html) => {
          s.verdict = html;
          if (live) byId('fairness').innerHTML = html;
        });
  };

  const drawTurn = () => {
    if (live) byId('turn').innerHTML = render.turnHtml(s, Date.now());
  };

  const draw = () => {
    if (!live) return;
    s.shownSeq = s.lastSeq;
    byId('table-title').textContent = render.title(s.table, label(list, s.table.game));
    const conn = byId('connection');
    conn.textContent = render.connectionText(s);
    conn.className = `tag ${s.connection === 'connected' ? 'ok' : 'off'}`;
    conn.dataset.status = s.connection;
    drawTurn();
    byId('seats').innerHTML = render.seatsHtml(s, game);
    drawRoom();
    drawBoardArea();
    drawControls();
    drawEnd();
    byId('log').innerHTML = render.logHtml(s, game);
    app.dataset.seq = String(s.lastSeq);
    app.dataset.status = s.table.status;
    // Counts the page's redraws: a test waits for the one its click caused.
    app.dataset.renders = String(Number(app.dataset.renders ?? 0) + 1);
  };

  let scheduled = false;
  /** Draws at the next frame (`now`) or within 150 ms (`soon`). @param {Effect['draw']} when */
  const drawSoon = (when) => {
    if (scheduled || when === null) return;
    scheduled = true;
    const run = () =>
      requestAnimationFrame(() => {
        scheduled = false;
        draw();
      });
    if (when === 'now') run();
    else setTimeout(run, 150);
  };

  /** What a change of the state asks of the page. @param {Effect} effect */
  const follow = (effect) => {
    if (effect.flash) flash(effect.flash);
    if (effect.refresh) refreshTable();
    drawSoon(effect.draw);
  };

  const feed = new TableFeed(id, 0, {
    onEntry: (entry) => follow(s.apply(entry)),
    onPresence: (presence) => follow(s.apply(presence)),
    onReply: (reply) => follow(s.apply(reply)),
    onStatus: (status, detail) => follow(s.connectionChanged(status, detail)),
  });
  const clock = setInterval(drawTurn, 500);
  // For the browser tests and the curious: drop the socket as a network failure would.
  /** @type {any} */ (window).luddoDropSocket = () => feed.drop();
  onLeave(() => {
    live = false;
    feed.stop();
    clearInterval(clock);
  });
  draw();
}
