// @ts-check
/**
 * `#/t/{id}`: a table, from its waiting room to its end and its rematch. The page wires the
 * table's socket to its state (table/state.js: every message goes through `apply`) and draws the
 * state after each change (table/render.js, and the game's board from games/<game>.js); a click
 * changes the state or sends an action, then draws again. Each entry is said in words in the
 * live region (table/announce.js) as it arrives, the turn alerts (table/alerts.js) follow every
 * change and clock tick, and single keys answer queries there. The chat (table/chat.js) follows
 * the same socket's `chat` and `chat_hidden` messages, and after the finish (when the socket has
 * ended) asks `GET …/chat?after=` now and then, as long as the server keeps it open.
 */
import { ApiError, TableFeed, call, token } from '../api.js';
import { SeatDice, chainMoved, newChain, storedChain } from '../dice.js';
import { diceOf } from '../fairness.js';
import { games, label, view } from '../games.js';
import { has, number, t } from '../i18n.js';
import { TurnAlert, loadSettings, saveSettings } from '../table/alerts.js';
import { QUERY_KEYS, announcement, query } from '../table/announce.js';
import * as chatView from '../table/chat.js';
import { attempt, reportDialog } from '../social.js';
import * as render from '../table/render.js';
import { TableState } from '../table/state.js';
import { app, byId, checkFairness, esc, flash, forgetRefusedToken, message, onLeave, stillShown } from '../ui.js';

/**
 * @typedef {import('../api.js').Table} Table
 * @typedef {import('../api.js').Action} Action
 * @typedef {import('../table/state.js').Effect} Effect
 */

/** How many announcements the live region keeps (the older ones are removed). */
const ANNOUNCEMENTS_KEPT = 12;

/** How often a finished table's chat is asked for new messages (its socket has ended), and for how long (docs/social.md: an hour after the finish). */
const CHAT_POLL_MS = 3000;
const CHAT_OPEN_FOR_MS = 60 * 60_000;

/** How often a finished table is asked whether its rematch opened, and for how long. */
const REMATCH_POLL_MS = 1500;
const REMATCH_POLL_FOR_MS = 15 * 60_000;

/** The page's frame, its texts in the language in use. */
function skeleton() {
  const e = (/** @type {string} */ id) => esc(t(id));
  return `<section class="table-page">
    <div class="table-head"><h1 id="table-title"></h1><span id="connection" class="tag"></span></div>
    <div class="table-grid">
      <div class="board-wrap"><div id="dice" class="dice"></div>
        <div id="board" aria-describedby="board-text"></div></div>
      <aside class="side" aria-label="${e('side-label')}">
        <div id="turn" class="turn"></div>
        <div id="announcer" class="announcer" aria-live="polite" aria-label="${e('announcer-label')}"></div>
        <ul id="seats" class="seats" aria-label="${e('seats-label')}"></ul>
        <div id="room"></div>
        <div id="controls" role="region" aria-label="${e('controls-label')}"></div>
        <div id="hint" hidden></div>
        <div id="end"></div>
        <p id="fresh-dice" class="hint"></p>
        <section id="chat" class="chat" aria-labelledby="chat-title"><h2 id="chat-title" class="log-title">${e('chat-title')}</h2>
          <ol id="chat-messages" class="chat-log" tabindex="0" aria-labelledby="chat-title"></ol>
          <div id="chat-controls"></div></section>
        <details><summary>${e('board-as-text')}</summary><ul id="board-text"></ul></details>
        <details id="table-settings"><summary>${e('settings-title')}</summary>
          <label><input type="checkbox" id="set-sound"> ${e('settings-sound')}</label>
          <label><input type="checkbox" id="set-notify"> ${e('settings-notify')}</label>
          <label><input type="checkbox" id="set-keys"> ${e('settings-keys')}</label>
          <p class="hint">${e('settings-keys-list')}</p>
        </details>
        <h2 class="log-title" id="log-title">${e('log-title')}</h2><ol id="log" class="log" tabindex="0" aria-labelledby="log-title"></ol>
      </aside>
    </div></section>`;
}

/**
 * @param {string} id
 * @param {string | null} inviteCode
 */
export async function tablePage(id, inviteCode) {
  const shown = stillShown();
  app.innerHTML = `<p>${esc(t('table-loading'))}</p>`;
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

  /**
   * The viewer's dice chain at a fresh-dice table (dice.js): null when the table is not one, the
   * viewer has no seat, or the seat's chain was made in another browser (its rolls then wait
   * for the clock, which rolls from the server's own source).
   * @type {SeatDice | null}
   */
  let seatDice = null;
  /** @type {Promise<void> | null} */
  let settingUpDice = null;
  /** Finds the seat's chain, or commits a new one while the table is open and the seat has none. */
  const setUpDice = () =>
    (settingUpDice ??= (async () => {
      const seat = s.mySeat();
      const mine = seat === null ? undefined : s.table.seats[seat];
      if (!mine || !s.table.fresh_dice) {
        seatDice = null;
        return;
      }
      if (seatDice && seatDice.chain.head === mine.dice_chain) return;
      if (!mine.dice_chain && s.table.status === 'open') {
        const chain = await newChain(id);
        s.refreshed(await call('PATCH', `/v1/tables/${id}/seats/me`, { dice_chain: chain.head }), s.presenceCount);
        seatDice = new SeatDice(chain, 0);
        return;
      }
      const chain = await storedChain(mine.dice_chain);
      seatDice = chain ? new SeatDice(chain, mine.reveals ?? 0) : null;
    })()
      .catch((error) => flash(message(error)))
      .finally(() => (settingUpDice = null)));
  await setUpDice();

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
      await setUpDice();
    } catch (error) {
      flash(message(error));
    } finally {
      refreshing = false;
      draw();
      alertTurn();
      followRematch();
      if (refreshAgain && live) {
        refreshAgain = false;
        refreshTable();
      }
    }
  };

  app.innerHTML = skeleton();
  const settings = loadSettings();
  const alerts = new TurnAlert(settings);
  /** Motion only for those who did not ask their system for less. */
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

  /** Says `text` in the live region: a new line, the oldest dropped beyond the few kept. @param {string} text */
  const announce = (text) => {
    if (!text || !live) return;
    const region = byId('announcer');
    const line = document.createElement('p');
    line.textContent = text;
    region.append(line);
    while (region.childElementCount > ANNOUNCEMENTS_KEPT) region.firstElementChild?.remove();
  };

  /** @param {Action} action */
  const act = (action) => {
    const seen = s.startAction();
    if (seen === null) return;
    draw();
    if (!feed.act(action, seen, seatDice?.next())) {
      // The socket is reconnecting: nothing was sent; the viewer acts again once it is back.
      s.actionNotSent();
      draw();
    }
  };

  /** The board's markup shown, the positions last glided to, the throw last rolled (-1: none yet). */
  let shownBoard = '';
  /** @type {string | null} */
  let glidedFor = null;
  let rolledFor = -1;
  let shownDice = '';

  const drawBoardArea = () => {
    const board = byId('board');
    if (!s.state) {
      board.innerHTML = `<p class="hint">${esc(t('board-later'))}</p>`;
      shownBoard = '';
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
    // The same markup is not put in again (a focused piece keeps its focus, a glide goes on).
    if (drawing.svg !== shownBoard) {
      const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.pick ?? null;
      board.innerHTML = drawing.svg;
      shownBoard = drawing.svg;
      if (focused) /** @type {HTMLElement | null} */ (board.querySelector(`[data-pick="${CSS.escape(focused)}"]`))?.focus();
    }
    board.querySelectorAll('[data-pick]').forEach((el) => {
      const pick = drawing.picks.get(/** @type {HTMLElement} */ (el).dataset.pick ?? '');
      if (!pick) return;
      /** @type {HTMLElement} */ (el).onclick = pick;
      /** @type {HTMLElement} */ (el).onkeydown = (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          pick();
        }
      };
    });
    const positions = game.positions(s.state);
    if (positions !== glidedFor) {
      if (glidedFor !== null && s.previous && !reduceMotion.matches) glide(board, drawing.glides);
      glidedFor = positions;
    }
    byId('board-text').innerHTML = drawing.text.map((line) => `<li>${esc(line)}</li>`).join('');
    const shown = render.diceShown(s, game);
    const dice = render.diceHtml(shown, s, game);
    if (dice !== shownDice) {
      byId('dice').innerHTML = dice;
      shownDice = dice;
      if (shown.seq !== rolledFor && rolledFor !== -1 && !reduceMotion.matches) {
        byId('dice').querySelector('.dice-faces')?.animate(
          [{ transform: 'rotate(-200deg) scale(0.6)', opacity: 0.4 }, { transform: 'rotate(15deg) scale(1.08)', opacity: 1, offset: 0.7 }, { transform: 'none' }],
          { duration: 450, easing: 'ease-out' },
        );
      }
      rolledFor = shown.seq;
    }
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
      const chain = s.table.fresh_dice ? await newChain(id) : null;
      await call('POST', `/v1/tables/${id}/join`, { ...(inviteCode ? { invite_code: inviteCode } : {}), ...(chain ? { dice_chain: chain.head } : {}) });
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

  /** The hint asked for at this table (docs/analysis.md), with the entry it was asked at: shown until the next entry. @type {{ seq: number, html: string } | null} */
  let hint = null;
  /** A button for a hint on the viewer's turn at a backgammon table whose `hints` option is on. */
  const drawHint = () => {
    const panel = byId('hint');
    const options = /** @type {{ hints?: boolean }} */ (s.table.options ?? {});
    // Hidden when empty, so that the side panel's gap does not count it (a table fits 1280×900).
    panel.hidden = s.table.game !== 'backgammon' || !options.hints || !s.myTurn();
    if (panel.hidden) {
      panel.innerHTML = '';
      return;
    }
    panel.innerHTML = `<button type="button" id="ask-hint">${esc(t('hint-ask'))}</button><div id="hint-answer" aria-live="polite">${hint && hint.seq === s.lastSeq ? hint.html : ''}</div>`;
    byId('ask-hint').onclick = async () => {
      const seq = s.lastSeq;
      try {
        hint = { seq, html: hintHtml(await call('POST', '/v1/backgammon/hint', { table_id: id })) };
      } catch (error) {
        hint = { seq, html: `<p class="error">${esc(message(error))}</p>` };
      }
      if (live) draw();
    };
  };

  const drawEnd = () => {
    byId('end').innerHTML = render.endHtml(s);
    on('rematch', async () => {
      // The rematch inherits fresh dice: the seat it gives commits a new chain.
      const chain = s.table.fresh_dice ? await newChain('') : null;
      const answer = await call('POST', `/v1/tables/${id}/rematch`, chain ? { dice_chain: chain.head } : undefined);
      if (chain && answer.table_id) chainMoved(chain.head, answer.table_id);
      s.rematchAnswered(answer);
      announce(answer.table_id ? t('rematch-opened') : t('rematch-asked'));
      draw();
      followRematch();
    });
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

  /** The turn alerts follow the table (called at each change and each clock tick, hidden or not). */
  const alertTurn = () => {
    if (!live) return;
    const mine = s.myTurn();
    if (mine && !alerts.wasMyTurn) announce(t('said-your-turn'));
    alerts.update(mine, render.secondsLeft(s, Date.now()), s.deadline);
  };

  /**
   * Once the game is over: asks now and then where the rematch stands (GET …/rematch), shows and
   * announces another player's request as it comes, and goes to the rematch once it opened.
   */
  let rematchTimer = 0;
  const rematchPath = `/v1/tables/${id}/rematch${inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : ''}`;
  const followRematch = () => {
    if (!live || !s.finished) return;
    if (s.table.rematch_id) {
      location.hash = `#/t/${s.table.rematch_id}`;
      return;
    }
    if (rematchTimer || Date.now() - openedAt > REMATCH_POLL_FOR_MS) return;
    rematchTimer = window.setTimeout(async () => {
      rematchTimer = 0;
      try {
        const answer = await call('GET', rematchPath);
        if (!live) return;
        const before = s.rematchAsked.join();
        const asking = answer.accepted.filter((/** @type {number} */ seat) => !s.rematchAsked.includes(seat) && seat !== s.mySeat());
        s.rematchAnswered(answer);
        if (asking.length) {
          const names = asking.map((/** @type {number} */ seat) => s.table.seats[seat]?.player?.name ?? '').join(', ');
          announce(t('rematch-wanted', { names, count: asking.length }));
        }
        if (before !== s.rematchAsked.join()) draw();
      } catch {
        // Asked again at the next tick.
      }
      followRematch();
    }, REMATCH_POLL_MS);
  };
  const openedAt = Date.now();

  const draw = () => {
    if (!live) return;
    s.shownSeq = s.lastSeq;
    byId('table-title').textContent = render.title(s.table, has(`game-${s.table.game}`) ? t(`game-${s.table.game}`) : label(list, s.table.game));
    const conn = byId('connection');
    conn.textContent = render.connectionText(s);
    conn.className = `tag ${s.finished ? 'done' : s.connection === 'connected' ? 'ok' : 'off'}`;
    conn.dataset.status = s.finished ? 'finished' : s.connection;
    drawTurn();
    byId('fresh-dice').textContent = t(s.table.fresh_dice ? 'table-fresh-dice-on' : 'table-fresh-dice-off');
    byId('seats').innerHTML = render.seatsHtml(s, game);
    drawRoom();
    drawBoardArea();
    drawControls();
    drawHint();
    drawEnd();
    byId('log').innerHTML = render.logHtml(s, game);
    if (!chatLoaded && s.mySeat() !== null) loadChat();
    drawChatControls();
    followChat();
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
    alertTurn();
  };

  const chat = new chatView.ChatState();
  /** Messages sent before the page opened are shown, not said again (as the log's entries). */
  const chatOpenedAt = Date.now();
  /** The chat's messages drawn again (the list only: a message being typed keeps its box). */
  const drawChatMessages = () => {
    if (!live) return;
    const list = byId('chat-messages');
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.innerHTML = chatView.messagesHtml(chat, s.myId);
    if (atEnd) list.scrollTop = list.scrollHeight;
    list.querySelectorAll('[data-report-n]').forEach((el) => {
      const message = chat.messages.get(Number(/** @type {HTMLElement} */ (el).dataset.reportN));
      if (message) /** @type {HTMLElement} */ (el).onclick = () => reportDialog(message.player, { tableId: id, n: message.n });
    });
    app.dataset.chat = String(chat.latest);
  };
  /** @param {import('../social.js').ChatMessage} message */
  const chatArrived = (message) => {
    if (!chat.add(message)) return;
    drawChatMessages();
    if (message.player.id !== s.myId && !chat.muted.has(message.player.id) && Date.parse(message.at) >= chatOpenedAt - 1000) announce(chatView.said(message));
  };
  /** The seated human players (for the mute and report buttons). */
  const chatPlayers = () => /** @type {import('../social.js').PlayerRef[]} */ (s.table.seats.flatMap((seat) => (seat.player ? [seat.player] : [])));
  /** What the controls were drawn for: drawn again only when it changes (a box being typed in stays). */
  let chatControlsFor = '';
  const drawChatControls = () => {
    if (!live) return;
    const viewer = { seated: s.mySeat() !== null, host: s.myId !== null && s.table.host_id === s.myId, me: s.myId, players: chatPlayers() };
    const key = JSON.stringify([viewer, chat.settings, [...chat.muted]]);
    if (key === chatControlsFor) return;
    chatControlsFor = key;
    const box = /** @type {HTMLInputElement | null} */ (document.getElementById('chat-input'));
    const typed = box?.value ?? '';
    const focused = document.activeElement?.id ?? null;
    const controls = byId('chat-controls');
    controls.innerHTML = chatView.controlsHtml(chat, viewer);
    const input = /** @type {HTMLInputElement | null} */ (document.getElementById('chat-input'));
    if (input) input.value = typed;
    if (focused) document.getElementById(focused)?.focus();
    /** @param {{ text: string } | { emote: string }} body */
    const post = async (body) => {
      try {
        chatArrived(await call('POST', `/v1/tables/${id}/chat`, body));
        return true;
      } catch (error) {
        flash(message(error));
        // The host may have turned free text off since the settings were read.
        if (error instanceof ApiError && error.code === 'chat_text_off') loadChat();
        return false;
      }
    };
    controls.querySelectorAll('[data-emote]').forEach((el) => {
      /** @type {HTMLElement} */ (el).onclick = () => post({ emote: /** @type {string} */ (/** @type {HTMLElement} */ (el).dataset.emote) });
    });
    const form = /** @type {HTMLFormElement | null} */ (document.getElementById('chat-form'));
    if (form && input)
      form.onsubmit = async (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if (await post({ text })) input.value = '';
      };
    /** A host's switch: PATCH …/chat with the one setting. @param {string} box @param {'text' | 'spectators'} name */
    const setting = (box, name) => {
      const el = /** @type {HTMLInputElement | null} */ (document.getElementById(box));
      if (el)
        el.onchange = async () => {
          try {
            chat.settings = await call('PATCH', `/v1/tables/${id}/chat`, { [name]: el.checked });
          } catch (error) {
            flash(message(error));
          }
          drawChatControls();
        };
    };
    setting('chat-text-on', 'text');
    setting('chat-spectators', 'spectators');
    controls.querySelectorAll('[data-mute]').forEach((el) => {
      const player = /** @type {string} */ (/** @type {HTMLElement} */ (el).dataset.mute);
      /** @type {HTMLElement} */ (el).onclick = async () => {
        const muting = !chat.muted.has(player);
        if (!(await attempt(() => call(muting ? 'PUT' : 'DELETE', `/v1/players/me/mutes/${player}`)))) return;
        if (muting) chat.muted.add(player);
        else chat.muted.delete(player);
        announce(t(muting ? 'chat-muted' : 'chat-unmuted'));
        drawChatControls();
        drawChatMessages();
      };
    });
    controls.querySelectorAll('[data-report-player]').forEach((el) => {
      const player = chatPlayers().find((p) => p.id === /** @type {HTMLElement} */ (el).dataset.reportPlayer);
      if (player) /** @type {HTMLElement} */ (el).onclick = () => reportDialog(player, { tableId: id });
    });
  };
  /**
   * The chat's settings and the viewer's mutes, for a seated viewer (a spectator is sent the
   * messages on the socket when the host lets spectators read, and is told nothing else).
   */
  let chatLoaded = false;
  const loadChat = async () => {
    if (s.mySeat() === null) return;
    chatLoaded = true;
    try {
      const [answer, mutes] = await Promise.all([call('GET', `/v1/tables/${id}/chat?limit=1`), call('GET', '/v1/players/me/mutes')]);
      chat.settings = answer.settings;
      /** @type {{ player: import('../social.js').PlayerRef }[]} */
      const listed = mutes.muted ?? mutes.mutes ?? [];
      chat.muted = new Set(listed.map((m) => m.player.id));
    } catch (error) {
      flash(message(error));
    }
    drawChatControls();
    drawChatMessages();
  };
  /** After the finish the socket has ended: a seated viewer asks for new messages now and then. */
  let chatTimer = 0;
  const followChat = () => {
    if (!live || !s.finished || s.mySeat() === null || chatTimer) return;
    const finishedAt = Date.parse(s.table.finished_at ?? '') || openedAt;
    if (Date.now() - finishedAt > CHAT_OPEN_FOR_MS) return;
    chatTimer = window.setTimeout(async () => {
      chatTimer = 0;
      try {
        const answer = await call('GET', `/v1/tables/${id}/chat?after=${chat.latest}`);
        for (const m of answer.messages) chatArrived(m);
      } catch {
        // Asked again at the next tick.
      }
      followChat();
    }, CHAT_POLL_MS);
  };

  const feed = new TableFeed(id, 0, {
    onEntry: (entry) => {
      const said = entry.seq > s.announcedUpTo ? announcement(entry, s, game) : '';
      const mine = entry.seat !== null && entry.seat === s.mySeat();
      if (mine && entry.reveal !== undefined) seatDice?.observe(entry.reveal);
      // The viewer asked to act, and the clock rolled for the seat instead (with the server's
      // own dice): the request may have been withheld. Said, not hidden.
      const withheld = mine && s.busy && seatDice !== null && entry.actor === 'timeout' && entry.events.some((e) => diceOf(e).length > 0);
      const effect = s.apply(entry);
      if (withheld) {
        flash(t('table-fresh-dice-timeout-roll'));
        announce(t('table-fresh-dice-timeout-roll'));
      }
      if (entry.seq > s.announcedUpTo) {
        s.announcedUpTo = entry.seq;
        announce(said);
      }
      follow(effect);
    },
    onPresence: (presence) => follow(s.apply(presence)),
    onReply: (reply) => follow(s.apply(reply)),
    onStatus: (status, detail) => follow(s.connectionChanged(status, detail)),
    onChat: (message) => chatArrived(message),
    onChatHidden: (n) => {
      if (chat.hide(n)) drawChatMessages();
    },
  });
  const clock = setInterval(() => {
    drawTurn();
    alertTurn();
  }, 500);

  // The settings: sound, notifications, single-key queries.
  const sound = /** @type {HTMLInputElement} */ (byId('set-sound'));
  const notify = /** @type {HTMLInputElement} */ (byId('set-notify'));
  const keys = /** @type {HTMLInputElement} */ (byId('set-keys'));
  sound.checked = settings.sound;
  notify.checked = settings.notify;
  keys.checked = settings.keys;
  sound.onchange = () => alerts.setSound(sound.checked);
  notify.onchange = async () => {
    notify.checked = await alerts.setNotify(notify.checked);
  };
  keys.onchange = () => {
    settings.keys = keys.checked;
    saveSettings(settings);
  };
  /** A single key answers a query in the live region, unless turned off or typed into a field. @param {KeyboardEvent} event */
  const onKey = (event) => {
    alerts.unlock();
    if (!settings.keys || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.closest('input, textarea, select, [contenteditable]')) return;
    if (!QUERY_KEYS.includes(event.key.toLowerCase())) return;
    const answer = query(event.key, s, game, Date.now());
    if (answer === null) return;
    event.preventDefault();
    announce(answer);
  };
  app.addEventListener('keydown', onKey);
  const unlock = () => alerts.unlock();
  app.addEventListener('pointerdown', unlock);
  // For the browser tests and the curious: drop the socket as a network failure would.
  /** @type {any} */ (window).luddoDropSocket = () => feed.drop();
  onLeave(() => {
    live = false;
    feed.stop();
    clearInterval(clock);
    clearTimeout(rematchTimer);
    clearTimeout(chatTimer);
    alerts.stop();
    app.removeEventListener('keydown', onKey);
    app.removeEventListener('pointerdown', unlock);
  });
  draw();
  drawChatMessages();
  followRematch();
}

/**
 * Glides each piece that moved along its path (the Web Animations API: the page is drawn where
 * the pieces are, and each moved piece starts from its first point).
 * @param {HTMLElement} board @param {Map<string, { x: number, y: number }[]>} glides
 */
function glide(board, glides) {
  for (const [key, path] of glides) {
    const piece = board.querySelector(`[data-piece="${CSS.escape(key)}"]`);
    if (!piece || path.length < 2) continue;
    const end = path[path.length - 1];
    const frames = path.map((p) => ({ transform: `translate(${(p.x - end.x).toFixed(1)}px, ${(p.y - end.y).toFixed(1)}px)` }));
    piece.animate(frames, { duration: Math.min(900, 120 * (path.length - 1) + 150), easing: 'ease-in-out' });
  }
}

/**
 * A hint's answer in words: the best plays with their equity, or the cube decision.
 * @param {import('../../types/api.gen.js').AnalysisHint} answer
 */
function hintHtml(answer) {
  const equity = (/** @type {number} */ x) => number(x, { maximumFractionDigits: 3, minimumFractionDigits: 3, signDisplay: 'always' });
  if (answer.cube) {
    const c = answer.cube;
    return `<p id="hint-cube">${esc(t('hint-cube', { double: t(`review-action-${c.double}`), response: t(`review-action-${c.response}`), equity: equity(c.equities.no_double) }))}</p>`;
  }
  return `<ol id="hint-plays">${answer.plays
    .slice(0, 3)
    .map((p) => `<li>${esc(t('hint-play', { play: p.play, equity: equity(p.cubeful_equity) }))}</li>`)
    .join('')}</ol>`;
}
