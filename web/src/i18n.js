// @ts-check
/**
 * The client's languages: every string a player reads comes from `t(id, args)`, whose messages
 * are Fluent files (https://projectfluent.org) under `locales/<language>/<area>.ftl`: plurals
 * and other choices follow CLDR's rules for the language (Fluent asks the browser's
 * `Intl.PluralRules`). The server's problem details stay in English; the client shows each by
 * its stable `code` (`problem-<code>` messages), with the English text when a code is new.
 *
 * The language is the one chosen with the switch (kept in localStorage), else the first of the
 * browser's languages this client speaks, else English. `en-XA` is a pseudolocale for tests:
 * English with every letter accented, so that a string shown without `t` stands out (the
 * browser tests fail on any unaccented word).
 */
import { FluentBundle, FluentResource } from './vendor/fluent-bundle/index.js';

/** The languages this client speaks, each named in itself (for the switch). */
export const LANGUAGES = /** @type {const} */ ({ en: 'English', de: 'Deutsch', hu: 'Magyar', hi: 'हिन्दी' });

/** @typedef {keyof typeof LANGUAGES} Language */

/** The pseudolocale (never offered by the switch; chosen by `?lang=en-XA` or localStorage). */
export const PSEUDO = 'en-XA';

/**
 * The message files of each language, one per part of the client (so that work on one part
 * touches one file): `locales/<language>/<area>.ftl`.
 */
const AREAS = ['common', 'pages', 'problems', 'options', 'rules', 'clock', 'table', 'games', 'social'];

const STORED = 'luddo.language';

/** The language in use and its bundle, with English behind it for a message not yet translated. */
const current = {
  /** @type {string} */ language: 'en',
  /** @type {FluentBundle | null} */ bundle: null,
  /** @type {FluentBundle | null} */ english: null,
};

/** The language in use: `en`, `de`, `hu`, `hi`, or the pseudolocale. */
export function language() {
  return current.language;
}

/**
 * The language to use: `?lang=` in the address, the stored choice, the browser's languages, English.
 * @returns {string}
 */
function chosen() {
  const asked = new URLSearchParams(location.search).get('lang') ?? localStorage.getItem(STORED);
  if (asked && (asked in LANGUAGES || asked === PSEUDO)) return asked;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary in LANGUAGES) return primary;
  }
  return 'en';
}

/**
 * Loads the language to use; the client calls it once before it draws anything. A `?lang=` in
 * the address is remembered as a choice with the switch is (so that it holds on other pages).
 */
export async function startLanguage() {
  const language = chosen();
  if (new URLSearchParams(location.search).get('lang') === language) localStorage.setItem(STORED, language);
  await useLanguage(language);
}

/**
 * Switches to `language` (remembered in this browser) and loads its messages.
 * @param {string} language
 */
export async function setLanguage(language) {
  localStorage.setItem(STORED, language);
  await useLanguage(language);
}

/** @param {string} language */
async function useLanguage(language) {
  const english = current.english ?? (await bundleOf('en', 'en'));
  const bundle = language === 'en' ? english : await bundleOf(language === PSEUDO ? 'en' : language, language);
  Object.assign(current, { language, bundle, english });
  document.documentElement.lang = language;
  translateStatic(document);
}

/**
 * The bundle of `language`'s messages, read from `source`'s files (the pseudolocale reads
 * English's and accents them).
 * @param {string} source
 * @param {string} language
 */
async function bundleOf(source, language) {
  const bundle = new FluentBundle(language === PSEUDO ? 'en' : language, { useIsolating: false });
  const texts = await Promise.all(
    AREAS.map(async (area) => {
      const response = await fetch(`/web/locales/${source}/${area}.ftl`);
      if (!response.ok) throw new Error(`locales/${source}/${area}.ftl: ${response.status}`);
      return response.text();
    }),
  );
  for (const text of texts) {
    const resource = new FluentResource(text);
    if (language === PSEUDO) accentResource(resource);
    const errors = bundle.addResource(resource);
    for (const error of errors) console.error(`locales/${source}:`, error);
  }
  return bundle;
}

/**
 * The message `id` in the language in use, with `args` put in (numbers are plural-selected by
 * the language's CLDR rules); English when the language lacks it, the id itself when English does.
 * @param {string} id
 * @param {Record<string, string | number>} [args]
 */
export function t(id, args) {
  for (const bundle of [current.bundle, current.english]) {
    const found = bundle?.getMessage(id);
    if (bundle && found?.value) return bundle.formatPattern(found.value, args);
  }
  console.error(`no message ${id}`);
  return id;
}

/**
 * Whether the language in use, or English behind it, has the message `id` (with its attribute
 * `attribute`, when one is named).
 * @param {string} id
 * @param {string} [attribute]
 */
export function has(id, attribute) {
  return [current.bundle, current.english].some((bundle) => {
    const found = bundle?.getMessage(id);
    return Boolean(found && (attribute ? found.attributes[attribute] : found.value));
  });
}

/**
 * The attribute `attribute` of message `id` (`.label`, `.title`…), as `t` finds messages.
 * @param {string} id
 * @param {string} attribute
 * @param {Record<string, string | number>} [args]
 */
export function tAttribute(id, attribute, args) {
  for (const bundle of [current.bundle, current.english]) {
    const pattern = bundle?.getMessage(id)?.attributes[attribute];
    if (bundle && pattern) return bundle.formatPattern(pattern, args);
  }
  console.error(`no message ${id}.${attribute}`);
  return id;
}

/**
 * Gives the page's fixed elements their text: an element with `data-l10n="id"` gets the
 * message as its text, one with `data-l10n-label="id"` as its `aria-label`.
 * @param {ParentNode} root
 */
export function translateStatic(root) {
  root.querySelectorAll('[data-l10n]').forEach((element) => {
    element.textContent = t(/** @type {string} */ (element.getAttribute('data-l10n')));
  });
  root.querySelectorAll('[data-l10n-label]').forEach((element) => {
    element.setAttribute('aria-label', t(/** @type {string} */ (element.getAttribute('data-l10n-label'))));
  });
}

/**
 * A number in the language in use (digits and grouping as its speakers write them).
 * @param {number} value
 * @param {Intl.NumberFormatOptions} [options]
 */
export function number(value, options) {
  return new Intl.NumberFormat(current.language === PSEUDO ? 'en' : current.language, options).format(value);
}

/**
 * A moment (an RFC 3339 string or epoch milliseconds) as the language in use writes a date and
 * time; in the pseudolocale, English's with its letters accented (month names, AM/PM).
 * @param {string | number} moment
 */
export function date(moment) {
  const text = new Intl.DateTimeFormat(current.language === PSEUDO ? 'en' : current.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(moment));
  return current.language === PSEUDO ? accent(text) : text;
}

/** The pseudolocale's letters: each ASCII letter as an accented one. */
const ACCENTED = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'àƀçđéƒĝĥíĵķĺɱñóƥʠŕšţúʋŵẋýžÀƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤɊŔŠŢÚṼŴẊÝŽ'][index],
  ]),
);

/** @param {string} text */
function accent(text) {
  return text.replace(/[A-Za-z]/g, (letter) => ACCENTED[letter]);
}

/**
 * Accents every text of a parsed resource's messages in place: the pattern's literal parts
 * (plain strings, the string elements of a complex pattern and its string literals such as
 * `{" and "}`, the variants of a selection included), never the names of variables, terms or
 * functions.
 * @param {FluentResource} resource
 */
function accentResource(resource) {
  /** @param {any} value @returns {any} */
  const pattern = (value) => {
    if (typeof value === 'string') return accent(value);
    return value.map((/** @type {any} */ element) => {
      if (typeof element === 'string') return accent(element);
      if (element.type === 'str') return { ...element, value: accent(element.value) };
      if (element.type === 'select') {
        return { ...element, variants: element.variants.map((/** @type {any} */ v) => ({ ...v, value: pattern(v.value) })) };
      }
      return element;
    });
  };
  for (const message of resource.body) {
    if (message.value !== null) message.value = pattern(message.value);
    for (const name of Object.keys(message.attributes)) message.attributes[name] = pattern(message.attributes[name]);
  }
}
