// The fonts the client serves (web/src/fonts/): no browser needed. The rules pages' test
// (rules.test.mjs) checks that a browser really renders Hindi in them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');

test('the vendored Devanagari font is the pinned package byte for byte, with its licence', () => {
  const vendored = join(web, 'src/fonts');
  const shipped = join(web, 'node_modules/@fontsource/noto-sans-devanagari');
  const fonts = ['noto-sans-devanagari-devanagari-400-normal.woff2', 'noto-sans-devanagari-devanagari-700-normal.woff2'];
  assert.deepEqual(readdirSync(vendored).sort(), ['OFL.txt', ...fonts].sort());
  for (const font of fonts) {
    assert.ok(readFileSync(join(vendored, font)).equals(readFileSync(join(shipped, 'files', font))), font);
  }
  assert.ok(readFileSync(join(vendored, 'OFL.txt')).equals(readFileSync(join(shipped, 'LICENSE'))), 'OFL.txt is the package\'s LICENSE');
  assert.match(readFileSync(join(vendored, 'OFL.txt'), 'utf8'), /SIL OPEN FONT LICENSE Version 1\.1/);
});

test('the stylesheet loads both weights for Devanagari only, and puts the font first in the body\'s stack', () => {
  const css = readFileSync(join(web, 'src/style.css'), 'utf8');
  const faces = [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map((m) => m[1]).filter((face) => face.includes('Noto Sans Devanagari'));
  assert.deepEqual(faces.map((face) => face.match(/font-weight:\s*(\d+)/)?.[1]).sort(), ['400', '700']);
  for (const face of faces) {
    const src = face.match(/url\(([^)]+)\)/)?.[1] ?? '';
    assert.ok(readdirSync(join(web, 'src/fonts')).includes(src.replace(/^fonts\//, '')), `${src} is vendored`);
    assert.match(face, /unicode-range:\s*U\+0900-097F, U\+1CD0-1CF9, U\+200C-200D, U\+20A8, U\+20B9, U\+25CC, U\+A830-A839, U\+A8E0-A8FF;/);
  }
  assert.match(css, /body\s*{[^}]*font:[^;]*"Noto Sans Devanagari", system-ui/);
});
