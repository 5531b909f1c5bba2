// @ts-check
/**
 * The fairness check in the browser, as docs/fairness.md describes it and `luddo verify`
 * (src/verify.rs) does it: SHA-256 of the revealed server seed against the commitment, the
 * seats' seeds against the table's client seed, each seat's reveals against its committed dice
 * chain (fresh dice: SHA-256 of each is the link before, from the head the start lists; a
 * player's roll at a chained seat must carry one), and every die of the log recomputed with
 * HMAC-SHA256 (WebCrypto), the entry's reveal mixed in where it has one. Nothing here trusts the
 * server beyond the log it sent.
 */

/**
 * @typedef {import('./api.js').Table} Table
 * The fields of a logged action or event the check reads, whatever the game (and records written
 * before a field was renamed: `opening_roll`'s `value`, `die`).
 * @typedef {{ type: string, [field: string]: any }} Logged
 * @typedef {{ seq: number, seat?: number | null, actor?: string, reveal?: string, action: Logged, events: Logged[] }} Entry
 */

/** The events that show dice thrown, old spellings included (src/verify.rs). */
const THROWS = ['opening_rolled', 'rolled', 'opening_throw', 'opening_roll', 'dice_rolled'];

const encoder = new TextEncoder();

/** @param {ArrayBuffer} buffer */
function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {string} text */
function bytesOfHex(text) {
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** @param {BufferSource} bytes */
async function sha256(bytes) {
  return hex(await crypto.subtle.digest('SHA-256', bytes));
}

/**
 * The dice an event shows thrown, in order (null for a seat out of an old `opening_roll`).
 * @param {Logged} event
 * @returns {number[]}
 */
export function diceOf(event) {
  if (!THROWS.includes(event.type)) return [];
  if (Array.isArray(event.dice)) return /** @type {number[]} */ (event.dice.filter((/** @type {unknown} */ d) => typeof d === 'number'));
  if (typeof event.value === 'number') return [event.value];
  if (typeof event.die === 'number') return [event.die];
  return [];
}

/**
 * The check's answer. A failure says why twice: `reason` in English (as `luddo verify` words
 * it), and `failure` with `args`, the message the page shows in its language.
 * @typedef {{ verified: true, dice: number, entries: number, reveals: number }
 *   | { verified: false, reason: string, failure: string, args?: Record<string, string | number> }} Verdict
 */

/**
 * Checks a finished table's log.
 * @param {Table} table
 * @param {Entry[]} entries
 * @returns {Promise<Verdict>}
 */
export async function verify(table, entries) {
  const finish = entries.find((e) => e.action.type === 'finish');
  const seed = finish?.action.seed ?? table.seed;
  if (typeof seed !== 'string') return { verified: false, reason: 'the game is not over: no seed revealed yet', failure: 'fairness-no-seed' };
  const seedBytes = bytesOfHex(seed);
  const commitment = await sha256(seedBytes);
  if (commitment !== table.seed_commitment) {
    const args = { computed: commitment, commitment: table.seed_commitment };
    return { verified: false, reason: `SHA-256 of the revealed seed is ${commitment}, not the commitment ${table.seed_commitment}`, failure: 'fairness-commitment', args };
  }
  const start = entries.find((e) => e.action.type === 'start');
  if (!start) return { verified: false, reason: 'the log has no start', failure: 'fairness-no-start' };
  const clientSeed = start.action.client_seed ?? table.client_seed;
  if (Array.isArray(start.action.client_seeds)) {
    const seeds = /** @type {string[]} */ (start.action.client_seeds);
    const combined = await sha256(encoder.encode(seeds.join('\n')));
    if (combined !== clientSeed) {
      return { verified: false, reason: `the seats' seeds combine to ${combined}, not ${clientSeed}`, failure: 'fairness-seeds-combine', args: { combined, expected: clientSeed } };
    }
    const shown = table.seats.map((s) => s.client_seed);
    if (shown.join('\n') !== seeds.join('\n')) return { verified: false, reason: "the start's seeds are not the seats' seeds", failure: 'fairness-seats-seeds' };
  }
  if (clientSeed !== table.client_seed) return { verified: false, reason: "the start's client seed is not the table's", failure: 'fairness-client-seed' };
  // Each seat's last link: the head the start committed, then each reveal in turn.
  /** @type {(string | null)[]} */
  const heads = Array.isArray(start.action.dice_chains) ? start.action.dice_chains : [];
  for (const [seat, head] of heads.entries()) {
    const shown = table.seats[seat]?.dice_chain;
    if (shown !== undefined && shown !== head) {
      return { verified: false, reason: `seat ${seat} shows the chain ${shown}, the start committed ${head}`, failure: 'fairness-chain-shown', args: { seat } };
    }
  }
  const last = heads.map((h) => (typeof h === 'string' ? h : null));
  const key = await crypto.subtle.importKey('raw', seedBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  let k = 0;
  let reveals = 0;
  for (const entry of entries) {
    const seat = typeof entry.seat === 'number' ? entry.seat : null;
    const reveal = entry.reveal;
    if (reveal !== undefined) {
      const link = seat === null ? null : last[seat] ?? null;
      const hash = typeof reveal === 'string' && /^[0-9a-f]{64}$/.test(reveal) ? await sha256(bytesOfHex(reveal)) : null;
      if (seat === null || link === null || hash !== link) {
        const args = { seq: entry.seq, seat: seat ?? '?' };
        return { verified: false, reason: `seq ${entry.seq}: seat ${seat}'s reveal does not hash to its last link (out of order, a link skipped, or no chain)`, failure: 'fairness-chain', args };
      }
      last[seat] = reveal;
      reveals += 1;
    }
    let drew = false;
    for (const [index, event] of entry.events.entries()) {
      for (const die of diceOf(event)) {
        drew = true;
        const expected = await recipe(key, clientSeed, k, reveal);
        if (die !== expected) {
          const args = { seq: entry.seq, index, event: event.type, k, die, expected };
          return { verified: false, reason: `seq ${entry.seq}, event ${index} (${event.type}): die #${k} is ${die}, the recipe gives ${expected}`, failure: 'fairness-die', args };
        }
        k += 1;
      }
    }
    if (drew && reveal === undefined && entry.actor === 'human' && seat !== null && last[seat]) {
      return { verified: false, reason: `seq ${entry.seq}: seat ${seat}'s player rolled without a reveal: the server's own dice where the player's were due`, failure: 'fairness-reveal-missing', args: { seq: entry.seq, seat } };
    }
  }
  return { verified: true, dice: k, entries: entries.length, reveals };
}

/**
 * Die number `k`: 1 + b mod 6 for the first byte b < 252 of HMAC-SHA256(seed, client_seed ":" k),
 * then ":" reveal when the entry that drew it consumed a link of its seat's chain, with ":" r
 * appended for r = 1, 2, … should every byte be 252 or more.
 * @param {CryptoKey} key
 * @param {string} clientSeed
 * @param {number} k
 * @param {string} [reveal]
 */
export async function recipe(key, clientSeed, k, reveal) {
  const base = `${clientSeed}:${k}${reveal === undefined ? '' : `:${reveal}`}`;
  for (let r = 0; ; r++) {
    const message = `${base}${r ? `:${r}` : ''}`;
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
    const byte = mac.find((b) => b < 252);
    if (byte !== undefined) return 1 + (byte % 6);
  }
}
