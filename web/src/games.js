// @ts-check
/**
 * The games, as the server's registry lists them (`GET /v1/games`: names, labels, seat counts,
 * clocks, each game's options schema with its defaults and private-only options), and each game's
 * own code in the browser, `games/<game>.js` (its board, colours, positions and action labels),
 * loaded when a page first needs it. Nothing here names a game: a game the server adds shows in
 * every list and form with its options, and needs only its `games/<game>.js`.
 */
import { call } from './api.js';
import { esc } from './ui.js';

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

/** A game's name for people. @param {GameInfo[]} list @param {string} game */
export function label(list, game) {
  return list.find((g) => g.game === game)?.label ?? game;
}

/** `<option>`s of every game. @param {GameInfo[]} list */
export function gameOptions(list) {
  return list.map((g) => `<option value="${g.game}">${esc(g.label)}</option>`).join('');
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
 * @typedef {{ type?: string, $ref?: string, oneOf?: { const?: unknown }[], enum?: unknown[], items?: Schema,
 *   minimum?: number, maximum?: number, description?: string, properties?: Record<string, Schema>,
 *   $defs?: Record<string, Schema> }} Schema
 */

/** A property's schema with its `$ref` followed. @param {Schema} root @param {Schema} schema @returns {Schema} */
function resolve(root, schema) {
  const name = schema.$ref?.replace('#/$defs/', '');
  return name && root.$defs?.[name] ? { ...root.$defs[name], ...schema, $ref: undefined } : schema;
}

/** The values a property may take when they are a closed list of strings. @param {Schema} schema */
function choices(schema) {
  const values = schema.enum ?? schema.oneOf?.map((s) => s.const);
  return values?.every((v) => typeof v === 'string') ? /** @type {string[]} */ (values) : null;
}

/** @param {string} name */
const words = (name) => name.replaceAll('_', ' ');

/**
 * A form's fields for a game's options, built from its schema: a checkbox per flag, a list per
 * closed set of values, a number per integer, a comma-separated list per list of integers, each
 * showing the default. An option with no such field (a whole board) keeps its default and is
 * told as a hint.
 * @param {GameInfo} info
 */
export function optionsForm(info) {
  const root = /** @type {Schema} */ (info.options_schema);
  const defaults = /** @type {Record<string, unknown>} */ (info.default_options);
  const privateOnly = new Set(info.private_only_options);
  const fields = Object.entries(root.properties ?? {}).map(([name, raw]) => {
    const schema = resolve(root, raw);
    const value = defaults[name];
    const title = schema.description ? ` title="${esc(schema.description)}"` : '';
    const text = `${words(name)}${privateOnly.has(name) ? ' (private tables only)' : ''}`;
    const listed = choices(schema);
    if (schema.type === 'boolean') return `<label${title}><input type="checkbox" name="${name}"${value ? ' checked' : ''}> ${text}</label>`;
    if (listed) return `<label${title}>${text} <select name="${name}">${listed.map((v) => `<option value="${esc(v)}"${v === value ? ' selected' : ''}>${esc(words(v))}</option>`).join('')}</select></label>`;
    if (schema.type === 'integer') {
      const bounds = `${schema.minimum === undefined ? '' : ` min="${schema.minimum}"`}${schema.maximum === undefined ? '' : ` max="${schema.maximum}"`}`;
      return `<label${title}>${text} <input type="number" name="${name}"${bounds} value="${value}"></label>`;
    }
    if (schema.type === 'array' && schema.items?.type === 'integer') return `<label${title}>${text} <input name="${name}" value="${esc(/** @type {number[]} */ (value).join(', '))}" pattern="\\d+(\\s*,\\s*\\d+)*"></label>`;
    return `<p class="hint">${esc(schema.description?.split('\n')[0] ?? words(name))}</p>`;
  });
  if (privateOnly.size) fields.push('<p class="hint">Some house rules are for private tables only.</p>');
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
    if (field instanceof HTMLInputElement && field.type === 'checkbox') options[name] = field.checked;
    else if (schema.type === 'integer') options[name] = Number(field.value);
    else if (schema.type === 'array') options[name] = field.value.split(',').map(Number);
    else options[name] = field.value;
  }
  return options;
}
