// @ts-check
/**
 * A table's chat as one viewer sees it (docs/social.md, "Table chat and quick emotes"): the
 * messages by number (each kept once, however often a reconnect sends it; a hidden one gone; a
 * muted player's left out), the host's settings when the viewer may know them, and the players
 * the viewer muted; and the chat panel's parts drawn from it. Like table/state.js it touches no
 * DOM: pages/table.js wires the socket and the buttons to it.
 *
 * Every text a player wrote goes through `esc`: a message is shown as text, never as HTML.
 */
import { has, t } from '../i18n.js';
import { EMOTES } from '../social.js';
import { esc, nameOf } from '../ui.js';

/**
 * @typedef {import('../social.js').ChatMessage} ChatMessage
 * @typedef {import('../social.js').ChatSettings} ChatSettings
 * @typedef {import('../social.js').PlayerRef} PlayerRef
 */

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

/** A quick emote's words in the language in use (its code for one this client does not know). @param {string} code */
export function emoteText(code) {
  return has(`emote-${code}`) ? t(`emote-${code}`) : code;
}

/** A message's words, for the live region: "Ann: good luck!". @param {ChatMessage} message */
export function said(message) {
  return t('chat-said', { name: message.player.name, text: message.emote !== undefined ? emoteText(message.emote) : message.text ?? '' });
}

/**
 * The messages as list items (HTML), each with its *Report* button unless it is the viewer's.
 * @param {ChatState} chat
 * @param {string | null} me the viewer's player id
 */
export function messagesHtml(chat, me) {
  const shown = chat.shown();
  if (!shown.length) return `<li class="hint chat-empty">${esc(t('chat-none'))}</li>`;
  return shown
    .map((m) => {
      const words = m.emote !== undefined ? `<span class="chat-emote">${esc(emoteText(m.emote))}</span>` : `<span class="chat-text">${esc(m.text ?? '')}</span>`;
      const report =
        me && m.player.id !== me
          ? ` <button type="button" class="chat-report icon-button" data-report-n="${m.n}" aria-label="${esc(t('chat-report-message', { name: m.player.name }))}" title="${esc(t('chat-report-message', { name: m.player.name }))}">⚑</button>`
          : '';
      return `<li data-n="${m.n}"${m.player.id === me ? ' class="mine"' : ''}><span class="chat-who">${nameOf(m.player.name)}</span>: ${words}${report}</li>`;
    })
    .join('');
}

/**
 * The chat's controls (HTML): for a seated viewer the quick emotes and the text box (disabled,
 * with a note, while the host has free text off), the host's two switches, and per other player
 * *Mute* / *Unmute* and *Report*; for anyone else a note on who reads the chat.
 * @param {ChatState} chat
 * @param {{ seated: boolean, host: boolean, me: string | null, players: PlayerRef[] }} viewer
 */
export function controlsHtml(chat, viewer) {
  if (!viewer.seated) return `<p class="hint" id="chat-spectating">${esc(t('chat-spectator'))}</p>`;
  const textOn = chat.settings?.text !== false;
  const switches = viewer.host && chat.settings
    ? `<fieldset class="chat-switches"><legend>${esc(t('chat-host-settings'))}</legend>
        <label><input type="checkbox" id="chat-text-on"${chat.settings.text ? ' checked' : ''}> ${esc(t('chat-text-on'))}</label>
        <label><input type="checkbox" id="chat-spectators"${chat.settings.spectators ? ' checked' : ''}> ${esc(t('chat-spectators'))}</label></fieldset>`
    : '';
  const emotes = `<div class="chat-emotes" role="group" aria-label="${esc(t('chat-emotes'))}">${EMOTES.map((code) => `<button type="button" data-emote="${code}">${esc(emoteText(code))}</button>`).join('')}</div>`;
  const form = `<form id="chat-form" class="chat-form"><label for="chat-input" class="sr-only">${esc(t('chat-input'))}</label>
      <input id="chat-input" maxlength="${MAX_TEXT}" autocomplete="off"${textOn ? '' : ' disabled aria-describedby="chat-text-off"'} placeholder="${esc(t('chat-placeholder'))}">
      <button type="submit" id="chat-send"${textOn ? '' : ' disabled'}>${esc(t('chat-send'))}</button></form>
      ${textOn ? '' : `<p class="hint" id="chat-text-off">${esc(t('chat-text-off'))}</p>`}`;
  const others = viewer.players.filter((p) => p.id !== viewer.me);
  const players = others.length
    ? `<ul class="chat-players plain" aria-label="${esc(t('chat-players'))}">${others
        .map((p) => {
          const muted = chat.muted.has(p.id);
          return `<li>${nameOf(p.name)} <button type="button" data-mute="${esc(p.id)}">${esc(t(muted ? 'chat-unmute' : 'chat-mute'))}</button>
            <button type="button" data-report-player="${esc(p.id)}" aria-label="${esc(t('chat-report-player', { name: p.name }))}">${esc(t('chat-report'))}</button></li>`;
        })
        .join('')}</ul>`
    : '';
  return `${switches}${emotes}${form}${players}`;
}
