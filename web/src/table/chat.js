// @ts-check
/**
 * The table's chat panel drawn from its state (table/chat-state.js): the messages, each with its
 * *Report* button; the quick emotes, the text box, the host's switches, and *Mute* and *Report*
 * per player. pages/table.js wires the socket and the buttons to it.
 *
 * Every text a player wrote goes through `esc`: a message is shown as text, never as HTML.
 */
import { has, t } from '../i18n.js';
import { esc, nameOf } from '../ui.js';
import { ChatState, EMOTES, MAX_TEXT } from './chat-state.js';

export { ChatState };

/**
 * @typedef {import('../social.js').ChatMessage} ChatMessage
 * @typedef {import('../social.js').PlayerRef} PlayerRef
 */

/** The report button's icon: a flag, drawn (the button is named by its label). */
const FLAG = '<svg width="12" height="14" viewBox="0 0 12 14" aria-hidden="true" focusable="false"><path d="M1 0v14M1 1h9l-2 3 2 3H1" fill="none" stroke="currentColor" stroke-width="1.6"/></svg>';

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
          ? ` <button type="button" class="chat-report icon-button" data-report-n="${m.n}" aria-label="${esc(t('chat-report-message', { name: m.player.name }))}" title="${esc(t('chat-report-message', { name: m.player.name }))}">${FLAG}</button>`
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
