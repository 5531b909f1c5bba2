// @ts-check
/**
 * The turn alerts (web/src/table/alerts.js) without a browser: the title when the turn comes and
 * when 5 s are left (once a turn), put back when the turn is over; the notification only when
 * turned on and the page is hidden; the settings' defaults. The English messages are read from
 * web/src/locales as the client reads them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = join(dirname(fileURLToPath(import.meta.url)), '../src');

/** What the alerts and the messages need of a browser. */
const page = { title: 'Luddo', visibilityState: 'visible', documentElement: { lang: '' }, querySelectorAll: () => [] };
/** @type {Map<string, string>} */
const stored = new Map();
/** @type {string[]} */
const notified = [];
Object.assign(globalThis, {
  document: page,
  location: { search: '' },
  localStorage: { getItem: (/** @type {string} */ k) => stored.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => stored.set(k, v) },
  fetch: async (/** @type {string} */ url) => ({ ok: true, status: 200, text: async () => readFileSync(join(src, url.replace(/^\/web\//, '')), 'utf8') }),
  window: globalThis,
  Notification: class {
    static permission = 'granted';
    /** @param {string} title */
    constructor(title) {
      notified.push(title);
    }
  },
});
Object.defineProperty(globalThis, 'navigator', { value: { languages: ['en'], language: 'en' }, configurable: true });

const { startLanguage } = await import('../src/i18n.js');
const { TurnAlert, loadSettings } = await import('../src/table/alerts.js');
await startLanguage();

test('sound and notifications are off and the single keys on until the player says otherwise', () => {
  assert.deepEqual(loadSettings(), { sound: false, notify: false, keys: true });
  stored.set('luddo.table-settings', JSON.stringify({ sound: true, notify: true, keys: false }));
  assert.deepEqual(loadSettings(), { sound: true, notify: true, keys: false });
  stored.set('luddo.table-settings', 'not json');
  assert.deepEqual(loadSettings(), { sound: false, notify: false, keys: true });
});

test('the title tells the turn and the last 5 s, once each, and is put back after the turn', () => {
  page.title = 'Luddo';
  const alert = new TurnAlert({ sound: false, notify: false, keys: true });
  alert.update(false, 30, 'd0');
  assert.equal(page.title, 'Luddo', 'not the viewer’s turn: nothing');
  alert.update(true, 15, 'd1');
  assert.equal(page.title, '● Your turn — Luddo');
  alert.update(true, 6, 'd1');
  assert.equal(page.title, '● Your turn — Luddo');
  alert.update(true, 5, 'd1');
  assert.equal(page.title, '● 5 s left — Luddo');
  page.title = 'changed';
  alert.update(true, 4, 'd1');
  assert.equal(page.title, 'changed', 'the 5 s alert comes once a turn');
  alert.update(false, 30, 'd2');
  assert.equal(page.title, 'Luddo', 'the turn is over: the title is put back');
  alert.update(true, 3, 'd3');
  assert.equal(page.title, '● Your turn — Luddo', 'a turn that begins with 5 s or less says so once');
  alert.update(true, 2, 'd3');
  assert.equal(page.title, '● Your turn — Luddo');
  alert.stop();
  assert.equal(page.title, 'Luddo');
});

test('a notification shows only when turned on and the page is hidden', () => {
  page.title = 'Luddo';
  notified.length = 0;
  const off = new TurnAlert({ sound: false, notify: false, keys: true });
  page.visibilityState = 'hidden';
  off.update(true, 20, 'd1');
  assert.deepEqual(notified, [], 'turned off');
  off.stop();
  const on = new TurnAlert({ sound: false, notify: true, keys: true });
  page.visibilityState = 'visible';
  on.update(true, 20, 'd1');
  assert.deepEqual(notified, [], 'the page is seen');
  on.update(false, 20, 'd2');
  page.visibilityState = 'hidden';
  on.update(true, 20, 'd3');
  on.update(true, 5, 'd3');
  assert.deepEqual(notified, ['Your turn', '5 s left']);
  on.stop();
});
