/**
 * The Luddo TypeScript SDK: the HTTP client generated from the server's OpenAPI spec
 * (`src/generated/`, by `npm run generate`), each game's own types (`games.ts`), and two
 * WebSocket helpers that reconnect by themselves (`reconnect.ts`): one follows a table
 * (`followTable`, socket.ts), one the lobby of public tables (`followLobby`, lobby.ts).
 */
import { createClient, createConfig, type Client } from './generated/client/index.js';
import type { DiceChains } from './dice.js';

export * from './generated/index.js';
export * from './games.js';
export * from './socket.js';
export * from './lobby.js';
export * from './dice.js';
export * from './verify.js';
export {
  backoffDelay,
  CLOSE_TOKEN_ENDED,
  DEFAULT_BACKOFF,
  LuddoSocketError,
  type Backoff,
  type MinimalWebSocket,
  type ReconnectInfo,
  type SocketOptions,
  type WebSocketConstructor,
} from './reconnect.js';
export type { Client };

/**
 * A client for one server and, optionally, one player: pass it as `client` to the generated
 * functions (`createTable({client, body})`). The token goes out as `Authorization: Bearer` on
 * the operations the spec marks as authenticated. With `freshDice` (dice.ts), the client commits a
 * new dice chain whenever it takes a seat at a fresh-dice table and sends the next reveal with
 * each action there.
 */
export function luddoClient(baseUrl: string, token?: string, options: { freshDice?: DiceChains } = {}): Client {
  return createClient(
    createConfig({
      baseUrl,
      ...(token === undefined ? {} : { auth: () => token }),
      ...(options.freshDice === undefined ? {} : { fetch: options.freshDice.fetcher() }),
    }),
  );
}
