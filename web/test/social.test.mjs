// @ts-check
/**
 * Players together (docs/social.md, issue #37), in Chromium, two players in two browser
 * contexts: they become friends on the friends page (a request, accepted live on the other's
 * page), one challenges the other from it, the other accepts from the lobby (the challenge
 * arrives on the lobby stream) and both land on the table; there they exchange a quick emote and
 * a message (shown as text, never as HTML, and said in the live region), and one reports the
 * other's message. Then the friends page, the challenge dialog and the report dialog pass
 * axe-core's WCAG 2.2 A/AA check; and the host's chat switches: with free text off the box is
 * disabled with a note (a message refused, an emote still sent), and a spectator reads the chat
 * (its backlog and live) once the host lets spectators read; a message sent while a socket is
 * down comes after its reconnect, once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, axeViolations, newPage, screenshot, signUp, useBrowser } from './support/browser.mjs';

useBrowser();

/** The page's player id, as the client keeps it. @param {import('playwright-core').Page} page */
const idOf = async (page) => /** @type {string} */ (await page.evaluate(() => localStorage.getItem('luddo.player')));

/** Text that would run script if it were ever put in as HTML. */
const HOSTILE = '<img src=x onerror="window.pwned = true">';

test('two players become friends, one challenges, the other accepts from the lobby, they chat, one reports the other', async () => {
  const ann = await newPage();
  const bob = await newPage();
  await signUp(ann.page, 'Ann');
  await signUp(bob.page, 'Bob');
  const bobId = await idOf(bob.page);
  const annId = await idOf(ann.page);

  // Friends: Ann asks by Bob's id; Bob's friends page shows the request live and accepts it.
  await bob.page.click('nav a[href="#/friends"]');
  await bob.page.waitForSelector('#friends-incoming');
  await ann.page.click('nav a[href="#/friends"]');
  await ann.page.waitForSelector('#friends-rows');
  await ann.page.fill('#add-friend-id', bobId);
  await ann.page.click('#add-friend-submit');
  await ann.page.waitForSelector(`#friends-outgoing [data-request="${bobId}"]`);
  assert.equal(await ann.page.textContent('#flash'), 'Request sent to Bob.');
  await bob.page.click(`#friends-incoming [data-accept-friend="${annId}"]`);
  await bob.page.waitForSelector(`#friends-rows tr[data-friend="${annId}"]`);
  await ann.page.waitForSelector(`#friends-rows tr[data-friend="${bobId}"]`, { timeout: 10_000 });
  assert.match((await ann.page.textContent(`#friends-rows tr[data-friend="${bobId}"]`)) ?? '', /Bob.*online/s, 'Bob is online (his lobby stream is open)');
  await screenshot(ann.page, 'friends');

  // A challenge: Bob waits in the lobby; Ann challenges him from her friends page.
  await bob.page.click('nav a[href="#/"]');
  await bob.page.waitForSelector('#lobby-rows');
  await ann.page.click(`#friends-rows [data-challenge-friend="${bobId}"]`);
  await ann.page.waitForSelector('#challenge-dialog[open] #ch-seats option', { state: 'attached' });
  await ann.page.selectOption('#ch-game', 'snakes');
  await ann.page.waitForSelector('#ch-seats option[value="2"]', { state: 'attached' });
  await ann.page.selectOption('#ch-seats', '2');
  await ann.page.click('#challenge-dialog-submit');
  await ann.page.waitForSelector('#challenge-dialog', { state: 'detached' });
  await ann.page.waitForSelector('#challenges-outgoing [data-withdraw]');
  // Bob's lobby shows it live, with who sent it; he accepts and lands on the table.
  await bob.page.waitForSelector('#lobby-offers:not([hidden]) #lobby-challenges [data-accept]', { timeout: 10_000 });
  assert.match((await bob.page.textContent('#lobby-challenges')) ?? '', /Ann .* challenges you/);
  await bob.page.waitForFunction(() => document.getElementById('lobby-said')?.textContent === 'Ann challenges you.');
  await bob.page.click('#lobby-challenges [data-accept]');
  await bob.page.waitForURL(/#\/t\//);
  const table = bob.page.url().split('#/t/')[1];
  // Ann is told, and opens the table she hosts.
  await ann.page.waitForSelector(`#challenges-accepted a[href="#/t/${table}"]`, { timeout: 10_000 });
  await ann.page.click(`#challenges-accepted a[href="#/t/${table}"]`);
  for (const { page } of [ann, bob]) {
    await page.waitForSelector('#app[data-status="playing"]', { timeout: 10_000 });
    await page.waitForSelector('#chat-controls [data-emote]');
  }

  // Chat: Ann sends a quick emote, Bob a message that would be HTML; each sees the other's.
  await bob.page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.said = [];
    new MutationObserver((changes) => {
      for (const change of changes) change.addedNodes.forEach((node) => w.said.push(node.textContent));
    }).observe(/** @type {HTMLElement} */ (document.getElementById('announcer')), { childList: true });
  });
  await ann.page.click('#chat-controls [data-emote="good_luck"]');
  await bob.page.waitForSelector('#chat-messages .chat-emote:text("Good luck!")', { timeout: 10_000 });
  await bob.page.waitForFunction(() => /** @type {any} */ (window).said.includes('Ann: Good luck!'));
  await bob.page.fill('#chat-input', HOSTILE);
  await bob.page.click('#chat-send');
  await ann.page.waitForSelector('#chat-messages .chat-text', { timeout: 10_000 });
  assert.equal(await ann.page.textContent('#chat-messages .chat-text'), HOSTILE, 'the message shows as the text it is');
  assert.equal(await ann.page.locator('#chat-messages img').count(), 0, 'no element was made of it');
  assert.equal(await ann.page.evaluate(() => /** @type {any} */ (window).pwned), undefined, 'no script of it ran');
  assert.equal(await bob.page.inputValue('#chat-input'), '', 'the box is emptied once sent');
  await screenshot(ann.page, 'chat');

  // A report: Ann reports Bob's message, with a reason.
  await ann.page.click('#chat-messages [data-report-n]');
  await ann.page.waitForSelector('#report-dialog[open]');
  assert.deepEqual(await axeViolations(ann.page), [], 'the report dialog');
  await ann.page.fill('#report-reason', 'Tries to put HTML in the chat.');
  const [sent] = await Promise.all([
    ann.page.waitForResponse((r) => r.url().endsWith('/v1/reports') && r.request().method() === 'POST'),
    ann.page.click('#report-dialog-submit'),
  ]);
  assert.equal(sent.status(), 201);
  const body = sent.request().postDataJSON();
  assert.equal(body.player_id, bobId);
  assert.equal(body.table_id, table);
  assert.equal(typeof body.message, 'number');
  await ann.page.waitForSelector('#report-dialog', { state: 'detached' });
  assert.equal(await ann.page.textContent('#flash'), 'Thank you: the moderators will look at it.');

  for (const { context, errors } of [ann, bob]) {
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the friends page and the challenge dialog: one <h1>, no accessibility violation; a block lists the player, unblocked with one click', async () => {
  const { context, page, errors } = await newPage();
  const other = await newPage();
  await signUp(other.page, 'Blocked one');
  const otherId = await idOf(other.page);
  await signUp(page, 'Blocker');
  // A profile's Block button, then the friends page lists the player.
  await page.goto(`${BASE}/#/p/${otherId}`);
  await page.click('#profile-block');
  await page.waitForSelector('#flash:not([hidden])');
  assert.equal(await page.textContent('#flash'), 'Blocked one is blocked.');
  await page.click('nav a[href="#/friends"]');
  await page.waitForSelector(`#blocked [data-blocked="${otherId}"]`);
  assert.equal(await page.locator('h1').count(), 1, 'one <h1>');
  assert.deepEqual(await axeViolations(page), [], 'the friends page');
  // The profile's Challenge button opens the dialog (a challenge to a blocked player is refused
  // by the server, not by the page).
  await page.goto(`${BASE}/#/p/${otherId}`);
  await page.click('#profile-challenge');
  await page.waitForSelector('#challenge-dialog[open] #ch-seats option', { state: 'attached' });
  assert.deepEqual(await axeViolations(page), [], 'the challenge dialog');
  await page.click('#challenge-dialog-cancel');
  await page.click('nav a[href="#/friends"]');
  await page.click(`#blocked [data-unblock="${otherId}"]`);
  await page.waitForSelector(`#blocked [data-blocked="${otherId}"]`, { state: 'detached' });
  assert.deepEqual(errors, []);
  await context.close();
  await other.context.close();
});

test("the host's switches: free text off disables the box with a note and emotes still go; spectators read once allowed; a reconnect misses no message", async () => {
  const host = await newPage();
  const guest = await newPage();
  await signUp(host.page, 'Host');
  await signUp(guest.page, 'Guest');
  await host.page.goto(`${BASE}/#/new`);
  await host.page.selectOption('#c-game', 'snakes');
  await host.page.selectOption('#c-seats', '3');
  await host.page.click('#c-submit');
  await host.page.waitForURL(/#\/t\//);
  const url = host.page.url();
  await guest.page.goto(url);
  await guest.page.click('#join');
  await guest.page.waitForSelector('#chat-input');
  // Free text off: the host's box too; the guest, whose page read the settings before, is
  // refused once and then shown the note.
  await host.page.uncheck('#chat-text-on');
  await host.page.waitForSelector('#chat-text-off');
  assert.ok(await host.page.isDisabled('#chat-input'));
  await guest.page.fill('#chat-input', 'anyone there?');
  await guest.page.click('#chat-send');
  await guest.page.waitForSelector('#chat-text-off');
  assert.ok(await guest.page.isDisabled('#chat-input'));
  await guest.page.click('#chat-controls [data-emote="wow"]');
  await host.page.waitForSelector('#chat-messages .chat-emote:text("Wow!")', { timeout: 10_000 });
  assert.doesNotMatch((await host.page.textContent('#chat-messages')) ?? '', /anyone there/, 'the refused message was not stored');
  // Spectators: allowed by the host, a visitor reads the messages so far and the next one.
  await host.page.check('#chat-spectators');
  await host.page.waitForSelector('#chat-spectators:checked');
  const spectator = await newPage();
  await spectator.page.goto(url);
  await spectator.page.waitForSelector('#chat-spectating');
  await spectator.page.waitForSelector('#chat-messages .chat-emote:text("Wow!")', { timeout: 10_000 });
  await host.page.click('#chat-controls [data-emote="hello"]');
  await spectator.page.waitForSelector('#chat-messages .chat-emote:text("Hello!")', { timeout: 10_000 });
  assert.equal(await spectator.page.locator('#chat-input, #chat-controls [data-emote]').count(), 0, 'a spectator reads and does not write');
  // A message sent while the host's socket is down comes after the reconnect (`chat_since`), once.
  const before = await host.page.locator('#chat-messages li').count();
  await host.page.evaluate(() => /** @type {any} */ (window).luddoDropSocket());
  await guest.page.click('#chat-controls [data-emote="thanks"]');
  await host.page.waitForSelector('#chat-messages .chat-emote:text("Thanks!")', { timeout: 10_000 });
  await host.page.waitForTimeout(500);
  assert.equal(await host.page.locator('#chat-messages li').count(), before + 1, 'each message once');
  assert.deepEqual(host.errors, []);
  // The guest's refused message (403 chat_text_off) is the one console error.
  assert.deepEqual(guest.errors, ['console: Failed to load resource: the server responded with a status of 403 (Forbidden)']);
  assert.deepEqual(spectator.errors, []);
  for (const { context } of [host, guest, spectator]) await context.close();
});

/**
 * A call of the API with the page's token (to set the scene quickly).
 * @param {import('playwright-core').Page} page @param {string} method @param {string} path @param {unknown} [body]
 */
function api(page, method, path, body) {
  return page.evaluate(
    async ([method, path, body]) => {
      const headers = { authorization: `Bearer ${localStorage.getItem('luddo.token')}`, 'content-type': 'application/json' };
      const response = await fetch(/** @type {string} */ (path), { method: /** @type {string} */ (method), headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return response.status === 204 ? null : response.json();
    },
    [method, path, body],
  );
}

test('a challenge to two friends at once: the seat counts follow the players ticked, a game without room for them is refused in the dialog', async () => {
  const ann = await newPage();
  const bob = await newPage();
  const cyd = await newPage();
  await signUp(bob.page, 'Bob');
  await signUp(cyd.page, 'Cyd');
  await signUp(ann.page, 'Ann');
  const [annId, bobId, cydId] = await Promise.all([ann, bob, cyd].map(({ page }) => idOf(page)));
  for (const friend of [bob, cyd]) {
    await api(ann.page, 'POST', '/v1/players/me/friends', { player_id: await idOf(friend.page) });
    await api(friend.page, 'POST', '/v1/players/me/friends', { player_id: annId });
  }
  await ann.page.click('nav a[href="#/friends"]');
  await ann.page.waitForSelector(`#friends-rows tr[data-friend="${cydId}"]`);
  await ann.page.click(`#friends-rows [data-challenge-friend="${bobId}"]`);
  await ann.page.waitForSelector('#challenge-dialog[open] #ch-seats option', { state: 'attached' });
  await ann.page.selectOption('#ch-game', 'backgammon');
  await ann.page.check(`#ch-also [data-also="${cydId}"]`);
  // Backgammon seats two: no room for three.
  await ann.page.waitForSelector('#ch-no-room:not([hidden])');
  assert.ok(await ann.page.isDisabled('#challenge-dialog-submit'));
  await ann.page.selectOption('#ch-game', 'luddo');
  await ann.page.waitForSelector('#ch-no-room', { state: 'hidden' });
  const counts = await ann.page.$$eval('#ch-seats option', (options) => options.map((o) => Number(/** @type {HTMLOptionElement} */ (o).value)));
  assert.ok(counts.length > 0 && counts.every((n) => n >= 3), `seats for the three: ${counts}`);
  assert.match((await ann.page.textContent('#ch-to')) ?? '', /Bob.*Cyd/);
  await ann.page.click('#challenge-dialog-submit');
  await ann.page.waitForSelector('#challenge-dialog', { state: 'detached' });
  const sent = await api(ann.page, 'GET', '/v1/challenges');
  assert.equal(sent.outgoing.length, 1);
  assert.deepEqual(sent.outgoing[0].to.map((/** @type {any} */ i) => i.player.id).sort(), [bobId, cydId].sort());
  assert.ok(sent.outgoing[0].table.seat_count >= 3);
  for (const { context, errors } of [ann, bob, cyd]) {
    assert.deepEqual(errors, []);
    await context.close();
  }
});
