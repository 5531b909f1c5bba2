// @ts-check
/**
 * Fresh dice (docs/fairness.md, issue #35): the player's dice chains, kept in localStorage so a
 * reload (or a crash) continues the chain where it stood.
 *
 * A chain is 32 random bytes `h_0`, `h_{i+1} = SHA-256(h_i)`, and the seat commits
 * `head = h_n` (n = 4096) when it sits down at a fresh-dice table. Its j-th roll sends
 * `h_{n-1-j}`: the server learns a link only with the request that rolls, and cannot have made
 * it up (its SHA-256 is the link before). Chains are stored by their head (a seat view's
 * `dice_chain` finds its own), with the table they were made for, and forgotten after a month.
 */

/** Links per chain: one per roll, more than any game needs (the contract's n). */
export const CHAIN_LENGTH = 4096;
const STORE = 'luddo-dice-chains';
/** A chain left this long is forgotten (its table is over by then). */
const KEEP_MS = 30 * 24 * 3600 * 1000;

/** @param {ArrayBuffer | Uint8Array} bytes */
function hex(bytes) {
  return [...(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {string} text */
function bytesOf(text) {
  return Uint8Array.from(text.match(/../g) ?? [], (b) => parseInt(b, 16));
}

/** @typedef {{ secret: string, length: number, table: string, at: number }} Kept */

/** @returns {Record<string, Kept>} */
function kept() {
  try {
    return JSON.parse(localStorage.getItem(STORE) ?? '{}') ?? {};
  } catch {
    return {};
  }
}

/** @param {Record<string, Kept>} chains */
function keep(chains) {
  const now = Date.now();
  const fresh = Object.fromEntries(Object.entries(chains).filter(([, c]) => now - c.at < KEEP_MS));
  try {
    localStorage.setItem(STORE, JSON.stringify(fresh));
  } catch {
    // Storage full or off: the chain lives as long as the page (a reload then rolls by the clock).
  }
}

/** A chain's links, h_0 … h_n, as hex. */
export class DiceChain {
  /** @param {string[]} links */
  constructor(links) {
    this.links = links;
    this.length = links.length - 1;
  }

  /** @param {string} secret @param {number} length */
  static async fromSecret(secret, length) {
    const links = [secret];
    let link = bytesOf(secret);
    for (let i = 0; i < length; i++) {
      link = new Uint8Array(await crypto.subtle.digest('SHA-256', link));
      links.push(hex(link));
    }
    return new DiceChain(links);
  }

  get head() {
    return /** @type {string} */ (this.links[this.length]);
  }

  /** The reveal after `reveals` earlier ones; null once the chain is used up. @param {number} reveals */
  reveal(reveals) {
    return this.links[this.length - 1 - reveals] ?? null;
  }

  /** How many reveals came before `reveal` (-1: not of this chain). @param {string} reveal */
  before(reveal) {
    const index = this.links.indexOf(reveal);
    return index < 0 || index >= this.length ? -1 : this.length - 1 - index;
  }
}

/**
 * A new chain for `tableId`, stored; its head is what the seating request sends (`dice_chain`).
 * @param {string} tableId
 */
export async function newChain(tableId) {
  const secret = hex(crypto.getRandomValues(new Uint8Array(32)));
  const chain = await DiceChain.fromSecret(secret, CHAIN_LENGTH);
  const chains = kept();
  chains[chain.head] = { secret, length: CHAIN_LENGTH, table: tableId, at: Date.now() };
  keep(chains);
  return chain;
}

/**
 * The stored chain whose head is `head` (a seat's `dice_chain`), or null if this browser has none.
 * @param {string | null | undefined} head
 */
export async function storedChain(head) {
  const found = head ? kept()[head] : undefined;
  if (!found) return null;
  const chain = await DiceChain.fromSecret(found.secret, found.length);
  return chain.head === head ? chain : null;
}

/** The table a stored chain was made for moved on (a rematch): the head is kept under it. @param {string} head @param {string} tableId */
export function chainMoved(head, tableId) {
  const chains = kept();
  const found = chains[head];
  if (found) {
    found.table = tableId;
    keep(chains);
  }
}

/**
 * One seat's rolls at a fresh-dice table: the chain and how many links are used up (the seat
 * view's `reveals`, then every logged entry of the seat that carries a reveal).
 */
export class SeatDice {
  /** @param {DiceChain} chain @param {number} reveals */
  constructor(chain, reveals) {
    this.chain = chain;
    this.used = reveals;
  }

  /** The reveal the next action sends (the server takes it only with one that draws dice). */
  next() {
    return this.chain.reveal(this.used);
  }

  /** A logged reveal of this seat moves the count on (idempotent: a log replayed counts once). @param {unknown} reveal */
  observe(reveal) {
    if (typeof reveal !== 'string') return;
    const before = this.chain.before(reveal);
    if (before >= 0 && before + 1 > this.used) this.used = before + 1;
  }
}
