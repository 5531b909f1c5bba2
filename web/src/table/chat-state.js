// @ts-check
/**
 * A table's chat as one viewer sees it (docs/social.md, "Table chat and quick emotes"): the
 * messages by number (each kept once, however often a reconnect sends it again; one a moderator
 * hid gone; a muted player's left out), the host's settings when the viewer may know them, and
 * the players the viewer muted. Like table/state.js it touches no DOM (table/chat.js draws it),
 * so node's tests drive it alone (web/test/chat-state.test.mjs).
 */

/**
 * @typedef {import('../social.js').ChatMessage} ChatMessage
 * @typedef {import('../social.js').ChatSettings} ChatSettings
 */

/** The quick emotes, the codes the server takes (docs/social.md); `emote-<code>` says each. */
export const EMOTES = /** @type {const} */ (['hello', 'good_luck', 'well_played', 'good_game', 'thanks', 'oops', 'wow', 'sorry', 'hurry_up', 'nice_roll']);

/** The longest message the server takes, in characters. */
export const MAX_TEXT = 200;

export class ChatState {
  constructor() {
    /** @type {Map<number, ChatMessage>} the messages received, by their number */
    this.messages = new Map();
    /** @type {ChatSettings | null} the host's settings; null while unknown (a spectator is not told) */
    this.settings = null;
    /** @type {Set<string>} the players whose messages the viewer muted */
    this.muted = new Set();
    /** The highest message number received, for `?after=` once the socket has ended. */
    this.latest = 0;
  }

  /** Takes a message; answers whether it is new (not one a reconnect sent again). @param {ChatMessage} message */
  add(message) {
    this.latest = Math.max(this.latest, message.n);
    if (this.messages.has(message.n)) return false;
    this.messages.set(message.n, message);
    return true;
  }

  /** A moderator hid message `n`: it goes. @param {number} n */
  hide(n) {
    return this.messages.delete(n);
  }

  /** The messages to show, oldest first, without the muted players'. */
  shown() {
    return [...this.messages.values()].filter((m) => !this.muted.has(m.player.id)).sort((a, b) => a.n - b.n);
  }
}

