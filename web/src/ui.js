// @ts-check
/**
 * What every page shares: the `#app` element, the page shown now (its cleanup and a test of
 * whether it is still shown), the flash line, a problem's message, the account bar, the language
 * switch, players' names, the sign-up form and the fairness check's verdict. The router (app.js) registers itself here so that a page can ask to be routed
 * again without importing it.
 */
import { ApiError, NetworkError, call, forgetToken, gameRecord, keepToken, storedId, storedName, token } from './api.js';
import { verify } from './fairness.js';
import { LANGUAGES, PSEUDO, has, language, setLanguage, t } from './i18n.js';

/** The element every page draws into. */
export const app = /** @type {HTMLElement} */ (document.getElementById('app'));

/** The page shown now: what it must stop when another is shown, and how many pages came before. */
const shown = {
  cleanup: () => {},
  generation: 0,
  route: () => {},
  /** @type {(() => void) | null} the page's own redraw in another language (`onLanguageChange`) */
  relanguage: /** @type {(() => void) | null} */ (null),
};

/** Stops the page shown (its sockets, timers) and starts counting a new one. */
export function leavePage() {
  shown.cleanup();
  shown.cleanup = () => {};
  shown.relanguage = null;
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
  return `${nameOf(player.name)} ${discriminator(player.id)}`;
}

/**
 * A name as players gave it (HTML), isolated from the text around it: a name in another script
 * or direction (Arabic, Hebrew) does not reorder the sentence it stands in.
 * @param {string} name
 * @param {string} [id] the element's id
 */
export function nameOf(name, id) {
  return `<bdi class="player-name"${id ? ` id="${id}"` : ''}>${esc(name)}</bdi>`;
}

/** The short tag from a player's id that tells apart players of one name (HTML). @param {string} id */
export function discriminator(id) {
  return `<span class="discriminator">#${esc(id.slice(0, 4))}</span>`;
}

/**
 * A message as HTML: its text escaped, with each of `parts` (already HTML: a name with its tag, a
 * link) put in where the message places `{ $part }`, so that a language may order them as it
 * needs. Other arguments go in as `t` puts them.
 * @param {string} id
 * @param {Record<string, string>} parts HTML
 * @param {Record<string, string | number>} [args]
 */
export function tHtml(id, parts, args = {}) {
  const names = Object.keys(parts);
  /** A mark no message holds, put where a part goes. @param {number} i */
  const mark = (i) => `\u0001${i}\u0001`;
  let text = esc(t(id, { ...args, ...Object.fromEntries(names.map((name, i) => [name, mark(i)])) }));
  names.forEach((name, i) => {
    text = text.replace(mark(i), parts[name]);
  });
  return text;
}

/**
 * What went wrong, for people, in the language in use: a problem of the server by its stable
 * `code` (`problem-<code>` messages); the server's English `detail` only for a code this client
 * does not know yet.
 * @param {unknown} error
 */
export function message(error) {
  if (error instanceof ApiError) {
    if (has(`problem-${error.code}`)) return t(`problem-${error.code}`);
    return error.detail ?? t('failure-http', { status: error.status });
  }
  if (error instanceof NetworkError) return t('failure-network');
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

/**
 * The account bar: the signed-in name with its tag, a link to the player's own profile, and
 * *Sign out*; or "Not signed in".
 */
export function renderAccount() {
  const account = byId('account');
  const name = storedName();
  const id = storedId();
  if (token() && name) {
    // The id is learnt at sign-up, or from GET /v1/players/me at boot for a token kept before.
    const who = `<strong>${nameOf(name, 'me-name')}</strong>${id ? ` ${discriminator(id)}` : ''}`;
    const linked = id ? `<a id="me-profile" href="#/p/${esc(id)}" title="${esc(t('account-profile'))}">${who}</a>` : who;
    account.innerHTML = `<span>${tHtml('account-signed-in', { name: linked })}</span> <button id="sign-out" type="button">${esc(t('account-sign-out'))}</button>`;
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
    account.innerHTML = `<span>${esc(t('account-not-signed-in'))}</span>`;
  }
}

/**
 * The language switch in the header: the four languages, each named in itself (the
 * pseudolocale listed only while in use). A choice is remembered in this browser and redraws the
 * page in place: the header's fixed texts, the account bar, and the page shown (its own redraw
 * if it registered one with `onLanguageChange`, else the router again).
 */
export function languageSwitch() {
  const select = /** @type {HTMLSelectElement} */ (byId('language'));
  const offered = language() === PSEUDO ? { ...LANGUAGES, [PSEUDO]: 'Ƥšéúđóĺóçàĺé' } : LANGUAGES;
  select.innerHTML = Object.entries(offered)
    .map(([code, name]) => `<option value="${code}" lang="${code}"${code === language() ? ' selected' : ''}>${esc(name)}</option>`)
    .join('');
  select.onchange = async () => {
    await setLanguage(select.value);
    // A `?lang=` in the address would win over the choice at the next load: it goes.
    const url = new URL(location.href);
    if (url.searchParams.has('lang')) {
      url.searchParams.delete('lang');
      history.replaceState(history.state, '', url);
    }
    renderAccount();
    const redraw = shown.relanguage;
    if (redraw) redraw();
    else route();
  };
}

/**
 * How the page shown redraws itself in another language without being left (a live table keeps
 * its socket); a page that registers none is shown again by the router.
 * @param {() => void} redraw
 */
export function onLanguageChange(redraw) {
  shown.relanguage = redraw;
}

/** The sign-up form; `then` runs after a successful sign-up. @param {() => void} then */
export function signUpForm(then) {
  return {
    html: `<section class="card" aria-labelledby="signup-title"><h2 id="signup-title">${esc(t('signup-title'))}</h2>
      <form id="signup"><label>${esc(t('signup-name'))} <input id="signup-name" name="name" required maxlength="40" autocomplete="nickname"></label>
      <button type="submit">${esc(t('signup-submit'))}</button></form>
      <p class="hint">${esc(t('signup-hint'))}</p></section>`,
    bind() {
      const form = /** @type {HTMLFormElement} */ (byId('signup'));
      form.onsubmit = async (event) => {
        event.preventDefault();
        const name = /** @type {HTMLInputElement} */ (byId('signup-name')).value.trim();
        try {
          const player = await call('POST', '/v1/players', { name });
          keepToken(player.token, player);
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
  show(esc(t('fairness-checking')));
  try {
    const record = await gameRecord(tableId);
    const verdict = await verify(record.table, record.entries);
    if (verdict.verified) {
      show(tHtml('fairness-verified', { verdict: `<strong class="verified">${esc(t('fairness-verdict-ok'))}</strong>` }, { dice: verdict.dice, entries: verdict.entries }));
    } else {
      show(tHtml('fairness-refuted', { verdict: `<strong class="error">${esc(t('fairness-verdict-not'))}</strong>`, reason: esc(t(verdict.failure, verdict.args)) }));
    }
  } catch (error) {
    show(`<span class="error">${esc(message(error))}</span>`);
  }
}
