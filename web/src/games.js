// @ts-check
/**
 * The games, as the server's registry lists them (`GET /v1/games`: names, labels, seat counts,
 * clocks, each game's options schema with its defaults and private-only options), and each game's
 * own code in the browser, `games/<game>.js` (its board, colours, positions and action labels),
 * loaded when a page first needs it. Nothing here names a game: a game the server adds shows in
 * every list and form with its options, and needs only its `games/<game>.js`.
 */
import { call } from './api.js';
import { has, t, tAttribute } from './i18n.js';
import { esc, flash, message } from './ui.js';

/**
 * @typedef {import('./api.js').Game} Game
 * @typedef {import('./api.js').GameInfo} GameInfo
 * @typedef {import('./boards/svg.js').GameView} GameView
 */


/** @type {Promise<GameInfo[]> | null} */
let registry = null;

/** Every game of the server, in its registry's order (fetched once per page load). */
export function games() {
  registry ??= call('GET', '/v1/games').then((/** @type {{ games: GameInfo[] }} */ body) => body.games);
  registry.catch(() => {
    registry = null;
  });
  return registry;
}

/**
 * The games for a page being drawn: `null` (with the error flashed) when they could not be
 * fetched, or when the page is no longer shown once they arrive.
 * @param {() => boolean} shown the page's `stillShown()`
 * @returns {Promise<GameInfo[] | null>}
 */
export async function gamesFor(shown) {
  try {
    const list = await games();
    return shown() ? list : null;
  } catch (error) {
    flash(message(error));
    return null;
  }
}

/**
 * A game's name for people, in the language in use (`game-<game>` messages); the registry's
 * English label for a game no message names yet.
 * @param {GameInfo[]} list
 * @param {string} game
 */
export function label(list, game) {
  return has(`game-${game}`) ? t(`game-${game}`) : list.find((g) => g.game === game)?.label ?? game;
}

/** `<option>`s of every game. @param {GameInfo[]} list */
export function gameOptions(list) {
  return list.map((g) => `<option value="${g.game}">${esc(label(list, g.game))}</option>`).join('');
}

/** @type {Map<string, Promise<GameView>>} */
const views = new Map();

/** A game's own code in the browser: `games/<game>.js`. @param {string} game */
export function view(game) {
  let loaded = views.get(game);
  if (!loaded) {
    loaded = import(`./games/${game}.js`).then((module) => /** @type {GameView} */ (module.default));
    views.set(game, loaded);
  }
  return loaded;
}

/**
 * @typedef {{ type?: string, $ref?: string, oneOf?: { const?: unknown, default?: unknown, title?: string }[], enum?: unknown[],
 *   items?: Schema, minimum?: number, maximum?: number, title?: string, description?: string,
 *   properties?: Record<string, Schema>, $defs?: Record<string, Schema> }} Schema
 * @typedef {{ value: unknown, text: string }} Choice
 */

/** A property's schema with its `$ref` followed. @param {Schema} root @param {Schema} schema @returns {Schema} */
function resolve(root, schema) {
  const name = schema.$ref?.replace('#/$defs/', '');
  return name && root.$defs?.[name] ? { ...root.$defs[name], ...schema, $ref: undefined } : schema;
}

/** @param {string} name */
const words = (name) => name.replaceAll('_', ' ');

/** A value as a `<select>`'s option holds it: a string as itself, anything else as JSON. @param {unknown} value */
const encode = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The values a property may take when they are a closed list: strings (`enum`, or `oneOf` of
 * `const`s), or any values each titled (`oneOf` of `const`s with a `title`), each with its words.
 * @param {Schema} schema
 * @returns {Choice[] | null}
 */
function choices(schema) {
  if (schema.enum?.every((v) => typeof v === 'string')) return schema.enum.map((v) => ({ value: v, text: words(v) }));
  const branches = schema.oneOf;
  // A branch is one value: its `const`, or, where several spellings mean one choice (a set in
  // either order), the `default` it is written as.
  const value = (/** @type {{ const?: unknown, default?: unknown }} */ s) => ('const' in s ? s.const : s.default);
  if (!branches?.every((s) => value(s) !== undefined && (typeof value(s) === 'string' || s.title))) return null;
  return branches.map((s) => ({ value: value(s), text: s.title ?? words(/** @type {string} */ (value(s))) }));
}

/**
 * An option's words in the language in use: the message `option-<game>-<name>` (its value the
 * label, its `.description` the explanation), else the schema's English `title` and
 * `description` (a game or an option no message names yet).
 * @param {string} game
 * @param {string} name
 * @param {Schema} schema
 */
function optionWords(game, name, schema) {
  const id = `option-${game}-${name}`;
  return {
    title: has(id) ? t(id) : schema.title ?? words(name),
    description: has(id, 'description') ? tAttribute(id, 'description') : schema.description,
  };
}

/**
 * A choice's words: the message `option-<game>-<name>-<value>` (the value's letters and digits,
 * `[1, 6]` as `1-6`), else the schema's.
 * @param {string} game
 * @param {string} name
 * @param {Choice} choice
 */
function choiceWords(game, name, choice) {
  const id = `option-${game}-${name}-${encode(choice.value).replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
  return has(id) ? t(id) : choice.text;
}

/**
 * A form's fields for a game's options, built from its schema: a checkbox per flag, a list per
 * closed set of values, a number per integer, a comma-separated list per list of integers, each
 * showing the default, labelled with the option's title (its name where it has none) and
 * explained by its description on hover, in the language in use (`optionWords`). An option with
 * no such field (a whole board) keeps its default and is told as a hint.
 * @param {GameInfo} info
 */
export function optionsForm(info) {
  const root = /** @type {Schema} */ (info.options_schema);
  const defaults = /** @type {Record<string, unknown>} */ (info.default_options);
  const privateOnly = new Set(info.private_only_options);
  const fields = Object.entries(root.properties ?? {}).map(([name, raw]) => {
    const schema = resolve(root, raw);
    const value = defaults[name];
    const said = optionWords(info.game, name, schema);
    const tooltip = said.description ? ` title="${esc(said.description)}"` : '';
    const text = esc(privateOnly.has(name) ? t('option-private-only', { option: said.title }) : said.title);
    const listed = choices(schema);
    if (schema.type === 'boolean') return `<label${tooltip}><input type="checkbox" name="${name}"${value ? ' checked' : ''}> ${text}</label>`;
    if (listed) {
      const options = listed.map((c) => `<option value="${esc(encode(c.value))}"${encode(c.value) === encode(value) ? ' selected' : ''}>${esc(choiceWords(info.game, name, c))}</option>`);
      return `<label${tooltip}>${text} <select name="${name}">${options.join('')}</select></label>`;
    }
    if (schema.type === 'integer') {
      const bounds = `${schema.minimum === undefined ? '' : ` min="${schema.minimum}"`}${schema.maximum === undefined ? '' : ` max="${schema.maximum}"`}`;
      return `<label${tooltip}>${text} <input type="number" name="${name}"${bounds} value="${value}"></label>`;
    }
    if (schema.type === 'array' && schema.items?.type === 'integer') return `<label${tooltip}>${text} <input name="${name}" value="${esc(/** @type {number[]} */ (value).join(', '))}" pattern="\\d+(\\s*,\\s*\\d+)*"></label>`;
    return `<p class="hint">${esc(said.description?.split('\n')[0] ?? said.title)}</p>`;
  });
  if (privateOnly.size) fields.push(`<p class="hint">${esc(t('options-private-hint'))}</p>`);
  return fields.join('\n');
}

/**
 * The options the form's fields say (those `optionsForm` drew; the others keep their default).
 * @param {HTMLFormElement} form
 * @param {GameInfo} info
 */
export function readOptions(form, info) {
  const root = /** @type {Schema} */ (info.options_schema);
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const [name, raw] of Object.entries(root.properties ?? {})) {
    const field = form.elements.namedItem(name);
    if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) continue;
    const schema = resolve(root, raw);
    const listed = choices(schema);
    if (field instanceof HTMLInputElement && field.type === 'checkbox') options[name] = field.checked;
    else if (listed) options[name] = listed.find((c) => encode(c.value) === field.value)?.value;
    else if (schema.type === 'integer') options[name] = Number(field.value);
    else if (schema.type === 'array') options[name] = field.value.split(',').map(Number);
    else options[name] = field.value;
  }
  return options;
}
