// @ts-check
/**
 * The luck and fairness ledger as the profile (Luck) and the fairness page (`#/fairness`) show
 * it (docs/luck.md): per game, the faces thrown as a histogram against the count a fair die
 * expects, the sixes' and doubles' rates against 1/6, each test's p-value in plain words, and
 * backgammon luck. The plots are inline SVG with a text equivalent (`role="img"`, a label
 * that says what the bars say).
 */
import { label } from './games.js';
import { number, t } from './i18n.js';
import { esc } from './ui.js';

const percent = (/** @type {number} */ x) => number(x, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const plain = (/** @type {number} */ x, digits = 3) => number(x, { maximumFractionDigits: digits });

/**
 * A p-value in plain words: within chance, unusual, or rare.
 * @param {{ p_value: number } | undefined} test
 */
function verdict(test) {
  if (!test) return '';
  const p = test.p_value < 0.0001 ? '< 0.0001' : plain(test.p_value, 4);
  const id = test.p_value >= 0.05 ? 'luck-p-fair' : test.p_value >= 0.01 ? 'luck-p-unusual' : 'luck-p-rare';
  return t(id, { p });
}

/**
 * The faces' histogram: one bar a face, the expected count a dashed line.
 * @param {number[]} faces
 * @param {string} id
 */
function histogram(faces, id) {
  const total = faces.reduce((a, b) => a + b, 0);
  const expected = total / 6;
  const top = Math.max(expected, ...faces) || 1;
  const [w, h, pad] = [240, 120, 16];
  const bar = (w - 2 * pad) / 6;
  const y = (/** @type {number} */ v) => h - pad - (v / top) * (h - 2 * pad);
  const bars = faces
    .map((n, i) => `<rect x="${pad + i * bar + 3}" y="${y(n)}" width="${bar - 6}" height="${h - pad - y(n)}" fill="#1f5fbf"></rect><text x="${pad + i * bar + bar / 2}" y="${h - 3}" text-anchor="middle" font-size="11">${i + 1}</text>`)
    .join('');
  const counts = faces.map((n, i) => t('luck-face-count', { face: i + 1, count: number(n) })).join(', ');
  const name = `${t('luck-faces-caption', { expected: plain(expected, 1) })}: ${counts}`;
  return `<svg id="${esc(id)}" class="luck-plot" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(name)}">${bars}<line x1="${pad}" x2="${w - pad}" y1="${y(expected)}" y2="${y(expected)}" stroke="#b45309" stroke-width="2" stroke-dasharray="5 3"></line></svg>`;
}

/**
 * A rate against 1/6: a bar and a tick at 1/6.
 * @param {number} rate
 * @param {string} name
 */
function rateBar(rate, name) {
  const w = 240;
  const x = (/** @type {number} */ r) => 4 + Math.min(r * 3, 1) * (w - 8);
  return `<svg class="luck-rate" viewBox="0 0 ${w} 18" width="${w}" height="18" role="img" aria-label="${esc(name)}"><rect x="4" y="4" width="${x(rate) - 4}" height="10" fill="#1f5fbf"></rect><line x1="${x(1 / 6)}" x2="${x(1 / 6)}" y1="0" y2="18" stroke="#b45309" stroke-width="2"></line></svg>`;
}

/**
 * One game's ledger: its counts, plots and tests.
 * @param {any[]} list the games (`GET /v1/games`)
 * @param {any} g one entry of `games` (`GameLedger`)
 * @param {string} prefix ids' prefix
 */
function gameBlock(list, g, prefix) {
  const parts = [`<h3>${esc(label(list, g.game))}</h3>`, `<p>${esc(t('luck-dice', { dice: number(g.dice), tables: number(g.tables) }))}</p>`];
  parts.push(histogram(g.faces, `${prefix}-${g.game}-faces`));
  if (g.faces_test) parts.push(`<p>${esc(t('luck-faces-test'))} ${esc(verdict(g.faces_test))}</p>`);
  if (g.sixes_rate !== undefined) {
    const text = t('luck-sixes', { rate: percent(g.sixes_rate), fair: percent(1 / 6) });
    parts.push(`<p>${esc(text)} ${esc(verdict(g.sixes_test))}</p>${rateBar(g.sixes_rate, text)}`);
  }
  if (g.doubles_rate !== undefined) {
    const text = t('luck-doubles', { rate: percent(g.doubles_rate), fair: percent(1 / 6) });
    parts.push(`<p>${esc(text)} ${esc(verdict(g.doubles_test))}</p>${rateBar(g.doubles_rate, text)}`);
  }
  if (g.luck) {
    const signed = (/** @type {number} */ x) => number(x, { maximumFractionDigits: 3, signDisplay: 'exceptZero' });
    parts.push(`<p class="luck-backgammon">${esc(t('luck-backgammon', { total: signed(g.luck.total), rolls: number(g.luck.rolls), per_table: signed(g.luck.per_table) }))}</p><p class="hint">${esc(t('luck-backgammon-hint'))}</p>`);
  }
  return `<div class="luck-game" data-game="${esc(g.game)}">${parts.join('')}</div>`;
}

/**
 * The ledger of every game in `games`, or a line saying nothing is counted yet.
 * @param {any[]} list the games (`GET /v1/games`)
 * @param {any[]} games `games` of `GET /v1/fairness` or `GET /v1/players/{id}/luck`
 * @param {string} prefix ids' prefix
 */
export function ledgerHtml(list, games, prefix) {
  if (!games.length) return `<p>${esc(t('luck-none'))}</p>`;
  return `${games.map((g) => gameBlock(list, g, prefix)).join('')}<p class="hint">${esc(t('luck-p-hint'))}</p>`;
}
