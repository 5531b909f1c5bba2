// @ts-check
/**
 * Luddo's reference web client: one page, hash routes, everything through the public API. This
 * is the router and the boot; each page is a module of pages/.
 *
 *   #/               the lobby (sign up first), live from GET /v1/lobby/events
 *   #/new            create a table
 *   #/t/{id}         a table: the waiting room, the game, the end (fairness check)
 *   #/invite/{code}  a private table's invite link
 *   #/replay/{id}    a finished game, step by step
 *   #/shame          the hall of shame
 *   #/leaderboard    ratings per game, best first
 *   #/p/{id}         a player's profile, finished games and luck (add as a friend, block, challenge, report)
 *   #/friends        friends, requests, challenges and blocks
 *   #/fairness       every finished table's dice against chance, per game
 *   #/rules          the rules of each game; #/rules/{game} one game's, in the language in use
 */
import { call, keepPlayer, token } from './api.js';
import { startLanguage } from './i18n.js';
import { fairnessPage } from './pages/fairness.js';
import { friendsPage } from './pages/friends.js';
import { invitePage } from './pages/invite.js';
import { leaderboardPage } from './pages/leaderboard.js';
import { lobbyPage } from './pages/lobby.js';
import { newTablePage } from './pages/new-table.js';
import { profilePage } from './pages/profile.js';
import { replayPage } from './pages/replay.js';
import { rulesPage } from './pages/rules.js';
import { shamePage } from './pages/shame.js';
import { tablePage } from './pages/table.js';
import { app, flash, forgetRefusedToken, languageSwitch, leavePage, renderAccount, setRouter } from './ui.js';

/** The pages with an argument (`#/<page>/<arg>`), which no navigation link marks as current. */
const PAGES = {
  t: (/** @type {string} */ id) => tablePage(id, null),
  invite: invitePage,
  replay: replayPage,
  p: profilePage,
};

/** Shows the page of the current address. */
function route() {
  leavePage();
  flash('');
  const hash = location.hash.replace(/^#/, '') || '/';
  const [, page, arg] = hash.split('/');
  const withArg = page in PAGES ? PAGES[/** @type {keyof typeof PAGES} */ (page)] : null;
  document.querySelectorAll('nav a').forEach((a) => a.removeAttribute('aria-current'));
  document.querySelector(`nav a[href="#/${withArg ? '' : page ?? ''}"]`)?.setAttribute('aria-current', 'page');
  if (withArg && arg) withArg(arg);
  else if (page === 'new') newTablePage();
  else if (page === 'friends') friendsPage();
  else if (page === 'shame') shamePage();
  else if (page === 'leaderboard') leaderboardPage();
  else if (page === 'fairness') fairnessPage();
  else if (page === 'rules') rulesPage(arg);
  else lobbyPage();
  app.focus({ preventScroll: true });
}

await startLanguage();
setRouter(route);
window.addEventListener('hashchange', route);
languageSwitch();
renderAccount();
route();
// A token the server no longer knows (revoked, expired, another server's) is forgotten: the
// viewer signs up again instead of every request and socket being refused. A known one tells
// the player's id (for the link to the profile) and the name as the server keeps it.
if (token()) {
  call('GET', '/v1/players/me')
    .then((me) => {
      if (!token()) return;
      keepPlayer(me);
      renderAccount();
    })
    .catch((error) => {
      if (forgetRefusedToken(error)) route();
    });
}
