/**
 * The fairness check `luddo verify` does (src/verify.rs, docs/fairness.md), in the SDK: given a
 * finished table's JSON record (`GET /v1/tables/{id}/record?format=json`: the table view and
 * every log entry), it trusts nothing the server says beyond the log and checks
 *
 * 1. the revealed server seed (the `finish` entry's `seed`) hashes to the `seed_commitment`
 *    published at the creation;
 * 2. the table's client seed combines the seats' seeds the `start` entry lists (SHA-256 of them
 *    joined by newlines), which are those the seats show;
 * 3. each seat's reveals (entries' `reveal`, in log order) form its hash chain down from the
 *    head the `start` entry lists (`dice_chains`): SHA-256 of each is the link before, so a
 *    reveal out of order or a skipped link fails;
 * 4. an entry a `human` played at a seat with a chain that drew dice carries a reveal (else the
 *    server used its own source where the player's was due);
 * 5. every die the log shows is die number 0, 1, 2, … of the recipe: the first byte below 252 of
 *    HMAC-SHA256(server seed, client_seed ":" k [":" reveal] [":" r]), as 1 + byte mod 6.
 *
 * The answer is typed: `verified: true` with counts, or the first mismatch (`check`, `reason`,
 * and the entry's `seq` where there is one).
 */
import { fromHex, sha256Hex } from './dice.js';

/** The events that show dice thrown, old spellings included (src/verify.rs). */
const THROWS = ['opening_rolled', 'rolled', 'opening_throw', 'opening_roll', 'dice_rolled'];

const encoder = new TextEncoder();

/** A logged action or event, as far as the check reads it. */
interface Logged {
  type: string;
  [field: string]: unknown;
}

/** A log entry as the record holds it (the events WebSocket's `entry` message). */
export interface RecordEntry {
  seq: number;
  seat?: number | null;
  actor?: string;
  action: Logged;
  events: Logged[];
  /** The link of the seat's chain this entry consumed (fresh dice). */
  reveal?: string;
  [field: string]: unknown;
}

/** A table's JSON record (docs/records.md), as far as the check reads it. */
export interface TableRecord {
  format?: string;
  version?: number;
  table: {
    seed?: string | null;
    seed_commitment: string;
    client_seed: string;
    seats: Array<{ seat?: number; client_seed?: string; dice_chain?: string | null; [field: string]: unknown }>;
    [field: string]: unknown;
  };
  entries: RecordEntry[];
}

/** Which check failed. */
export type VerifyCheck = 'seed' | 'commitment' | 'start' | 'client_seed' | 'chain' | 'reveal_missing' | 'die';

/** What `verify` found: every check passed, or the first that failed. */
export type VerifyResult =
  | {
      verified: true;
      /** Dice recomputed. */
      dice: number;
      /** Of them, drawn with a player's reveal. */
      freshDice: number;
      /** Reveals checked against their chains. */
      reveals: number;
      entries: number;
    }
  | {
      verified: false;
      check: VerifyCheck;
      /** In English, as `luddo verify` words it. */
      reason: string;
      /** The entry where it failed, when one did. */
      seq?: number;
    };

/** The dice an event shows thrown, in order (a `null` in an old `opening_roll` is skipped). */
export function diceOf(event: Logged): number[] {
  if (!THROWS.includes(event.type)) return [];
  if (Array.isArray(event.dice)) return event.dice.filter((d): d is number => typeof d === 'number');
  if (typeof event.value === 'number') return [event.value];
  if (typeof event.die === 'number') return [event.die];
  return [];
}

/**
 * Die number `k`: 1 + b mod 6 for the first byte b < 252 of HMAC-SHA256(server seed,
 * `client_seed ":" k`, then `":" reveal` when the entry consumed one), with `":" r` appended for
 * r = 1, 2, … should every byte be 252 or more.
 */
export async function recipe(key: SeedKey, clientSeed: string, k: number, reveal?: string): Promise<number> {
  const base = `${clientSeed}:${k}${reveal === undefined ? '' : `:${reveal}`}`;
  for (let r = 0; ; r++) {
    const message = r === 0 ? base : `${base}:${r}`;
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key.hmac as CryptoKey, encoder.encode(message)));
    const byte = mac.find((b) => b < 252);
    if (byte !== undefined) return 1 + (byte % 6);
  }
}

/**
 * A server seed made ready for `recipe`: an opaque WebCrypto HMAC key (opaque so that the
 * package's types need no DOM library, whose `CryptoKey` a Node project may not have).
 */
export interface SeedKey {
  readonly hmac: unknown;
}

/** The HMAC key of a server seed (hex). */
export async function seedKey(seed: string): Promise<SeedKey> {
  return { hmac: await crypto.subtle.importKey('raw', fromHex(seed) as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']) };
}

/** Checks a finished table's record; see the module's documentation. */
export async function verify(record: TableRecord): Promise<VerifyResult> {
  const { table, entries } = record;
  const fail = (check: VerifyCheck, reason: string, seq?: number): VerifyResult =>
    seq === undefined ? { verified: false, check, reason } : { verified: false, check, reason, seq };

  const finish = entries.find((e) => e.actor === 'server' && e.action.type === 'finish') ?? entries.find((e) => e.action.type === 'finish');
  const seed = (finish?.action.seed as string | undefined) ?? table.seed ?? undefined;
  if (typeof seed !== 'string' || !/^(?:[0-9a-f]{2})+$/.test(seed)) return fail('seed', 'the game is not over: no seed revealed yet');
  const commitment = await sha256Hex(fromHex(seed));
  if (commitment !== table.seed_commitment) {
    return fail('commitment', `SHA-256 of the revealed seed is ${commitment}, not the commitment ${table.seed_commitment}`);
  }

  const start = entries.find((e) => e.action.type === 'start');
  if (!start) return fail('start', 'the log has no start');
  const clientSeed = (start.action.client_seed as string | undefined) ?? table.client_seed;
  if (Array.isArray(start.action.client_seeds)) {
    const seeds = start.action.client_seeds as string[];
    const combined = await sha256Hex(encoder.encode(seeds.join('\n')));
    if (combined !== clientSeed) return fail('client_seed', `the seats' seeds combine to ${combined}, not ${clientSeed}`, start.seq);
    if (table.seats.map((s) => s.client_seed).join('\n') !== seeds.join('\n')) {
      return fail('client_seed', "the start's seeds are not the seats' seeds", start.seq);
    }
  }
  if (clientSeed !== table.client_seed) return fail('client_seed', "the start's client seed is not the table's", start.seq);

  // Each seat's last link: its committed head, then each reveal in turn.
  const heads = Array.isArray(start.action.dice_chains) ? (start.action.dice_chains as Array<string | null>) : [];
  for (const [seat, head] of heads.entries()) {
    const shown = table.seats[seat]?.dice_chain;
    if (shown !== undefined && shown !== head) return fail('chain', `seat ${seat}'s chain is ${String(shown)}, the start committed ${String(head)}`, start.seq);
  }
  const last: Array<string | null> = heads.map((h) => (typeof h === 'string' ? h : null));

  const key = await seedKey(seed);
  let k = 0;
  let fresh = 0;
  let reveals = 0;
  for (const entry of entries) {
    const seat = typeof entry.seat === 'number' ? entry.seat : undefined;
    const reveal = entry.reveal;
    if (reveal !== undefined) {
      if (seat === undefined || !last[seat]) return fail('chain', `seq ${entry.seq}: a reveal from a seat without a chain`, entry.seq);
      if (typeof reveal !== 'string' || !/^[0-9a-f]{64}$/.test(reveal)) return fail('chain', `seq ${entry.seq}: the reveal is not 64 hex characters`, entry.seq);
      const hash = await sha256Hex(fromHex(reveal));
      if (hash !== last[seat]) {
        return fail('chain', `seq ${entry.seq}: SHA-256 of seat ${seat}'s reveal is ${hash}, not its last link ${last[seat]} (out of order or a link skipped)`, entry.seq);
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
          return fail('die', `seq ${entry.seq}, event ${index} (${event.type}): die #${k} is ${die}, the recipe gives ${expected}`, entry.seq);
        }
        if (reveal !== undefined) fresh += 1;
        k += 1;
      }
    }
    if (drew && reveal === undefined && entry.actor === 'human' && seat !== undefined && last[seat]) {
      return fail('reveal_missing', `seq ${entry.seq}: seat ${seat}'s player rolled without a reveal: the server's own dice where the player's were due`, entry.seq);
    }
  }
  return { verified: true, dice: k, freshDice: fresh, reveals, entries: entries.length };
}
