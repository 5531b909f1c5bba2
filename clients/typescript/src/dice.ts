/**
 * Fresh dice (issue #35): a seat's hash chain, and the bookkeeping that commits one when the SDK
 * takes a seat at a fresh-dice table and reveals its next link with each roll.
 *
 * A chain is 32 random bytes `s`: `h_0 = s`, `h_{i+1} = SHA-256(h_i)` over the raw bytes, and
 * the seat commits `head = hex(h_n)` before the start. Its j-th roll reveals `hex(h_{n-1-j})`, so
 * the server learns each link only with the request that rolls, and it cannot have chosen the
 * link: its SHA-256 is the link before, down to the head it was given before the start. The dice
 * of such a roll mix the reveal into the recipe (verify.ts), so nobody, the operator included,
 * can predict them before the request.
 *
 * Everything here is WebCrypto (`crypto.subtle`, `crypto.getRandomValues`): Node 20+ and
 * browsers alike.
 */

/** The links of the chains this SDK makes: one per roll, more than any game needs. */
export const CHAIN_LENGTH = 4096;

/** Lower-case hex of bytes. */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return [...(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The bytes of an even-length hex string (throws on anything else). */
export function fromHex(text: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) throw new RangeError(`not lower-case hex: ${JSON.stringify(text)}`);
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** SHA-256 of raw bytes, as lower-case hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/** Whether `text` is a chain head or a reveal as the server takes them: 64 lower-case hex. */
export function isLink(text: unknown): text is string {
  return typeof text === 'string' && /^[0-9a-f]{64}$/.test(text);
}

/** One seat's hash chain: keep `secret` (and `length`) to continue it after a restart. */
export class HashChain {
  private constructor(
    /** `h_0`, hex: whoever holds it can compute every link, so it stays with the player. */
    readonly secret: string,
    readonly length: number,
    /** `h_0` … `h_n`, hex. */
    private readonly links: string[],
  ) {}

  /** A new chain from 32 fresh random bytes. */
  static async create(length: number = CHAIN_LENGTH): Promise<HashChain> {
    return HashChain.fromSecret(toHex(crypto.getRandomValues(new Uint8Array(32))), length);
  }

  /** The chain of a kept secret (as `create` made it: `chain.secret`, `chain.length`). */
  static async fromSecret(secret: string, length: number = CHAIN_LENGTH): Promise<HashChain> {
    if (!isLink(secret)) throw new RangeError('a chain secret is 64 lower-case hex characters');
    if (!Number.isInteger(length) || length < 1) throw new RangeError('a chain has at least one link');
    const links = [secret];
    let link = fromHex(secret);
    for (let i = 0; i < length; i++) {
      link = new Uint8Array(await crypto.subtle.digest('SHA-256', link as Uint8Array<ArrayBuffer>));
      links.push(toHex(link));
    }
    return new HashChain(secret, length, links);
  }

  /** `hex(h_n)`: what the seat commits (`dice_chain`). */
  get head(): string {
    return this.links[this.length] as string;
  }

  /**
   * The reveal due after `reveals` earlier ones (the seat view's `reveals`): `hex(h_{n-1-reveals})`.
   * Throws when the chain is used up (after `length` rolls).
   */
  reveal(reveals: number): string {
    const index = this.length - 1 - reveals;
    if (!Number.isInteger(reveals) || reveals < 0 || index < 0) throw new RangeError(`the chain has no reveal number ${reveals}`);
    return this.links[index] as string;
  }

  /** How many reveals `reveal` stands after (the next one's number), or undefined if not of this chain. */
  revealsBefore(reveal: string): number | undefined {
    const index = this.links.indexOf(reveal);
    return index < 0 || index >= this.length ? undefined : this.length - 1 - index;
  }

  toJSON(): { secret: string; length: number } {
    return { secret: this.secret, length: this.length };
  }
}

/** A table view's fields fresh dice reads (the generated `Table` has them once the server does). */
interface TableLike {
  id?: string;
  fresh_dice?: boolean;
  visibility?: string;
  seats?: Array<{ seat: number; dice_chain?: string | null; reveals?: number }>;
}

/** The events that show dice thrown (as verify.ts reads them). */
const THROWS = ['opening_rolled', 'rolled', 'opening_throw', 'opening_roll', 'dice_rolled'];

function drewDice(events: unknown): boolean {
  return Array.isArray(events) && events.some((e) => typeof e === 'object' && e !== null && THROWS.includes((e as { type?: string }).type ?? ''));
}

/**
 * The chains of one player, one per table, kept in memory; `store` lets an application keep
 * them (a chain must outlive a restart, or the seat can no longer roll: the server then waits
 * for the clock). Give it to `luddoClient(baseUrl, token, { freshDice })`, and to
 * `followTable({ freshDice })`, and it does the rest:
 *
 * - creating a public table (`fresh_dice` defaults to true there), or one with `fresh_dice:
 *   true`, quick play, joining a table whose `fresh_dice` is on and a rematch of one: the body
 *   gets a new chain's head as `dice_chain` (unless it has one);
 * - each action posted at such a table carries the next `reveal` (the server consumes it only
 *   with an action that draws dice; the count follows the server's reply, and the seat view's
 *   `reveals` after a 422 `reveal_mismatch`, once).
 */
export class DiceChains {
  private readonly chains = new Map<string, HashChain>();
  /** Reveals used per table. */
  private readonly used = new Map<string, number>();
  /** Chains committed with a rematch request, by the finished table, until the rematch's table exists. */
  private readonly pending = new Map<string, HashChain>();

  constructor(
    private readonly store?: {
      load(tableId: string): { secret: string; length: number; reveals: number } | undefined;
      save(tableId: string, chain: { secret: string; length: number; reveals: number }): void;
    },
  ) {}

  /** The chain committed at `tableId`, if any (loaded from the store once). */
  async chain(tableId: string): Promise<HashChain | undefined> {
    const known = this.chains.get(tableId);
    if (known) return known;
    const kept = this.store?.load(tableId);
    if (!kept) return undefined;
    const chain = await HashChain.fromSecret(kept.secret, kept.length);
    this.chains.set(tableId, chain);
    this.used.set(tableId, kept.reveals);
    return chain;
  }

  /** Keeps `chain` as this player's at `tableId`, `reveals` links already revealed. */
  adopt(tableId: string, chain: HashChain, reveals = 0): void {
    this.chains.set(tableId, chain);
    this.used.set(tableId, reveals);
    this.store?.save(tableId, { ...chain.toJSON(), reveals });
  }

  /** The reveal the next roll at `tableId` sends (undefined: no chain here). */
  async next(tableId: string): Promise<string | undefined> {
    const chain = await this.chain(tableId);
    return chain?.reveal(this.used.get(tableId) ?? 0);
  }

  /** Notes that `reveal` was consumed at `tableId` (a log entry carries it); idempotent. */
  observe(tableId: string, reveal: unknown): void {
    const chain = this.chains.get(tableId);
    if (!chain || typeof reveal !== 'string') return;
    const before = chain.revealsBefore(reveal);
    if (before !== undefined && before + 1 > (this.used.get(tableId) ?? 0)) this.setUsed(tableId, chain, before + 1);
  }

  /** Takes the count from a table view: the seat whose `dice_chain` is this chain's head. */
  sync(table: TableLike): void {
    const chain = table.id === undefined ? undefined : this.chains.get(table.id);
    if (!chain || table.id === undefined) return;
    const seat = table.seats?.find((s) => s.dice_chain === chain.head);
    if (seat && typeof seat.reveals === 'number') this.setUsed(table.id, chain, seat.reveals);
  }

  private setUsed(tableId: string, chain: HashChain, reveals: number): void {
    this.used.set(tableId, reveals);
    this.store?.save(tableId, { ...chain.toJSON(), reveals });
  }

  /**
   * A `fetch` for the generated client that does the above around `inner` (what `luddoClient`
   * installs when given `freshDice`).
   */
  fetcher(inner: typeof fetch = (input, init) => globalThis.fetch(input, init)): typeof fetch {
    return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const url = new URL(request.url);
      const path = url.pathname;
      const rematch = /\/v1\/tables\/([^/]+)\/rematch$/.exec(path)?.[1];
      if (request.method !== 'POST') {
        const response = await inner(request);
        if (rematch !== undefined && response.ok) await this.rematched(rematch, response);
        return response;
      }
      const seating = await this.seatingRequest(request, path, inner);
      if (seating) {
        const response = await inner(seating.request);
        if (response.ok && rematch !== undefined) {
          this.pending.set(rematch, seating.chain);
          await this.rematched(rematch, response);
        } else if (response.ok) {
          const table = (await response.clone().json().catch(() => undefined)) as TableLike | undefined;
          if (typeof table?.id === 'string') this.adopt(table.id, seating.chain, 0);
        }
        return response;
      }
      const action = /^(.*)\/v1\/tables\/([^/]+)\/actions$/.exec(path);
      if (!action) return inner(request);
      const tableId = decodeURIComponent(action[2] as string);
      if (!(await this.chain(tableId))) return inner(request);
      const body = (await request.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined;
      if (!body || body.reveal !== undefined) return inner(request);
      const send = async (): Promise<{ response: Response; reveal: string }> => {
        const reveal = (await this.next(tableId)) as string;
        return { response: await inner(rebuild(request, { ...body, reveal })), reveal };
      };
      let { response, reveal } = await send();
      if (response.status === 422) {
        const problem = (await response.clone().json().catch(() => undefined)) as { code?: string } | undefined;
        if (problem?.code === 'reveal_mismatch') {
          const view = await inner(new Request(new URL(`${action[1]}/v1/tables/${action[2]}`, url), { headers: request.headers }));
          if (view.ok) this.sync((await view.json()) as TableLike);
          ({ response, reveal } = await send());
        }
      }
      if (response.ok) {
        const ok = (await response.clone().json().catch(() => undefined)) as { events?: unknown } | undefined;
        if (drewDice(ok?.events)) this.observe(tableId, reveal);
      }
      return response;
    };
  }

  /** Once a rematch's table exists (`table_id`), the chain its request committed is that table's. */
  private async rematched(from: string, response: Response): Promise<void> {
    const chain = this.pending.get(from);
    const answer = (await response.clone().json().catch(() => undefined)) as { table_id?: unknown } | undefined;
    if (chain && typeof answer?.table_id === 'string') {
      this.pending.delete(from);
      this.adopt(answer.table_id, chain, 0);
    }
  }

  /** A seating request rewritten with a new chain's head, when the table takes one. */
  private async seatingRequest(
    request: Request,
    path: string,
    inner: typeof fetch,
  ): Promise<{ request: Request; chain: HashChain } | undefined> {
    const match = /^(.*)\/v1\/(?:(quick-play)|tables(?:\/([^/]+)\/(join|rematch))?)$/.exec(path);
    if (!match) return undefined;
    const text = await request.clone().text();
    let body: Record<string, unknown> = {};
    if (text !== '') {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    }
    if (body.dice_chain !== undefined) return undefined;
    let fresh: boolean;
    if (match[2]) fresh = true; // quick-play tables are public
    else if (!match[3]) fresh = typeof body.fresh_dice === 'boolean' ? body.fresh_dice : body.visibility !== 'private';
    else {
      const view = await inner(new Request(new URL(`${match[1]}/v1/tables/${match[3]}`, request.url), { headers: request.headers }));
      fresh = view.ok && ((await view.json()) as TableLike).fresh_dice === true;
    }
    if (!fresh) return undefined;
    const chain = await HashChain.create();
    return { request: rebuild(request, { ...body, dice_chain: chain.head }), chain };
  }
}

/** `request` with a new JSON body. */
function rebuild(request: Request, body: unknown): Request {
  const headers = new Headers(request.headers);
  headers.set('Content-Type', 'application/json');
  return new Request(request.url, { method: request.method, headers, body: JSON.stringify(body), signal: request.signal });
}
