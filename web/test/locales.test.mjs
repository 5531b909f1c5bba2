// The client's message files (web/src/locales/) and the Fluent library it runs (web/src/vendor/):
// no browser needed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FluentResource } from '@fluent/bundle';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const locales = join(web, 'src/locales');
const LANGUAGES = ['en', 'de', 'hu', 'hi'];

/**
 * Each message of one `.ftl` file: id → the attribute names, and the variables its value and
 * attributes use (`{ $count }`).
 * @param {string} file
 */
function messagesOf(file) {
  const text = readFileSync(file, 'utf8');
  const resource = new FluentResource(text);
  /** @type {Map<string, { attributes: string[], variables: Set<string> }>} */
  const messages = new Map();
  for (const message of resource.body) {
    const variables = new Set();
    /** @param {any} node */
    const walk = (node) => {
      if (node === null || typeof node !== 'object') return;
      if (node.type === 'var') variables.add(node.name);
      for (const value of Object.values(node)) walk(value);
    };
    walk(message);
    assert.ok(!messages.has(message.id), `${file}: ${message.id} twice`);
    messages.set(message.id, { attributes: Object.keys(message.attributes).sort(), variables });
  }
  // A line the parser skipped (a syntax error) leaves its message out: every non-comment,
  // non-continuation line that starts an entry must have been read.
  const starts = text.split('\n').filter((line) => /^-?[a-zA-Z][\w-]*\s*=/.test(line)).length;
  assert.equal(messages.size, starts, `${file}: a message did not parse`);
  return messages;
}

test('every language has every message of English, with the same attributes and no other variables', () => {
  const areas = readdirSync(join(locales, 'en')).filter((name) => name.endsWith('.ftl'));
  assert.ok(areas.length > 0);
  for (const language of LANGUAGES) {
    assert.deepEqual(
      readdirSync(join(locales, language)).filter((name) => name.endsWith('.ftl')).sort(),
      [...areas].sort(),
      `${language}: the same files as en`,
    );
    for (const area of areas) {
      const english = messagesOf(join(locales, 'en', area));
      const translated = messagesOf(join(locales, language, area));
      assert.deepEqual([...translated.keys()].sort(), [...english.keys()].sort(), `${language}/${area}: the same ids`);
      for (const [id, { attributes, variables }] of translated) {
        const source = /** @type {{ attributes: string[], variables: Set<string> }} */ (english.get(id));
        assert.deepEqual(attributes, source.attributes, `${language}/${area}: ${id}'s attributes`);
        for (const variable of variables) {
          assert.ok(source.variables.has(variable), `${language}/${area}: ${id} uses $${variable}, which English does not pass`);
        }
      }
    }
  }
});

test('the vendored Fluent library is the pinned package byte for byte', () => {
  const vendored = join(web, 'src/vendor/fluent-bundle');
  const shipped = join(web, 'node_modules/@fluent/bundle/esm');
  const files = readdirSync(shipped).filter((name) => name.endsWith('.js') || name.endsWith('.d.ts'));
  assert.deepEqual(
    readdirSync(vendored).filter((name) => name !== 'NOTICE.txt').sort(),
    files.sort(),
  );
  for (const file of files) {
    assert.ok(readFileSync(join(vendored, file)).equals(readFileSync(join(shipped, file))), file);
  }
});
