// @ts-check
/**
 * A table's chat state (src/table/chat-state.js) without a browser: a message sent again after a
 * reconnect is kept once, in number order; a hidden one goes; a muted player's are not shown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatState, EMOTES } from '../src/table/chat-state.js';

/** @param {number} n @param {string} player @returns {import('../src/social.js').ChatMessage} */
const message = (n, player, text = `message ${n}`) => ({ n, player: { id: player, name: player }, seat: 0, text, at: '2026-01-01T00:00:00Z' });

test('a message sent again after a reconnect (chat_since) is kept once, and the messages show in number order', () => {
  const chat = new ChatState();
  assert.equal(chat.add(message(2, 'ann')), true);
  assert.equal(chat.add(message(1, 'bob')), true);
  assert.equal(chat.add(message(2, 'ann')), false, 'the same number again is no new message');
  assert.deepEqual(chat.shown().map((m) => m.n), [1, 2]);
  assert.equal(chat.latest, 2);
});

test('a message a moderator hid (chat_hidden) is no longer shown', () => {
  const chat = new ChatState();
  chat.add(message(1, 'ann'));
  chat.add(message(2, 'bob'));
  assert.equal(chat.hide(1), true);
  assert.equal(chat.hide(7), false, 'an unknown number changes nothing');
  assert.deepEqual(chat.shown().map((m) => m.n), [2]);
});

test("a muted player's messages are not shown, and show again once unmuted", () => {
  const chat = new ChatState();
  chat.add(message(1, 'ann'));
  chat.add(message(2, 'bob'));
  chat.muted.add('bob');
  assert.deepEqual(chat.shown().map((m) => m.n), [1]);
  chat.muted.delete('bob');
  assert.deepEqual(chat.shown().map((m) => m.n), [1, 2]);
});

test('the quick emotes are the ten codes of docs/social.md', () => {
  assert.deepEqual([...EMOTES], ['hello', 'good_luck', 'well_played', 'good_game', 'thanks', 'oops', 'wow', 'sorry', 'hurry_up', 'nice_roll']);
});
