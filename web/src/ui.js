// @ts-check
/**
 * What every page shares: the `#app` element, the page shown now (its cleanup and a test of
 * whether it is still shown), the flash line, the account bar, the sign-up form and the fairness
 * check's verdict. The router (app.js) registers itself here so that a page can ask to be routed
 * again without importing it.
 */
import { ApiError, call, forgetToken, gameRecord, keepToken, storedName, token } from './api.js';
import { verify } from './fairness.js';

/** The element every page draws into. */
export const app = /** @type {HTMLElement} */ (document.getElementById('app'));

/** The page shown now: what it must stop when another is shown, and how many pages came before. */
const shown = { cleanup: () => {}, generation: 0, route: () => {} };

/** Stops the page shown (its sockets, timers) and starts counting a new one. */
export function leavePage() {
  shown.cleanup();
  shown.cleanup = () => {};
  shown.generation += 1;
}

/** What the page shown now must stop when another is shown. @param {() => void} cleanup */
export function onLeave(cleanup) {
  shown.cleanup = cleanup;
}

/** A test of whether the page shown now is still the one shown when this was called. */
export function stillShown() {
  const mine = shown.generation;
  return () => mine === shown.generation;
}

/** The router, registered by app.js. @param {() => void} route */
export function setRouter(route) {
  shown.route = route;
}

/** Shows the page of the current address again (after signing in or out). */
export function route() {
  shown.route();
}

/** @param {string} id */
export function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/** @param {string} text */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A player's name as every page shows it (HTML): the name, then a short tag from the player's id,
 * because names may repeat (docs/web-client.md, "Names"): `Ann #3f2a`.
 * @param {{ id: string, name: string }} player
 */
export function playerName(player) {
  return `${esc(player.name)} <span class="discriminator">#${esc(player.id.slice(0, 4))}</span>`;
}

/** @param {unknown} error */
export function message(error) {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/** @param {string} text */
export function flash(text) {
  const box = byId('flash');
  box.textContent = text;
  box.hidden = !text;
}

/** Forgets a token the server refuses (answered 401): the viewer signs up again. @param {unknown} error */
export function forgetRefusedToken(error) {
  if (!(error instanceof ApiError && error.status === 401)) return false;
  forgetToken();
  renderAccount();
  return true;
}

/** The account bar: the signed-in name and *Sign out*, or "Not signed in". */
export function renderAccount() {
  const account = byId('account');
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
export function signUpForm(then) {
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

/**
 * Fetches the table's record and checks every die (fairness.js); shows the verdict with `show`.
 * @param {string} tableId
 * @param {(html: string) => void} show
 */
export async function checkFairness(tableId, show) {
  show('Checking…');
  try {
    const record = await gameRecord(tableId);
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
