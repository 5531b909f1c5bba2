/**
 * The Luddo TypeScript SDK: the HTTP client generated from the server's OpenAPI spec
 * (`src/generated/`, by `npm run generate`), each game's own types (`games.ts`) and a WebSocket
 * helper that follows a table (`socket.ts`).
 */
import { createClient, createConfig, type Client } from './generated/client/index.js';

export * from './generated/index.js';
export * from './games.js';
export * from './socket.js';
export type { Client };

/**
 * A client for one server and, optionally, one player: pass it as `client` to the generated
 * functions (`createTable({client, body})`). The token goes out as `Authorization: Bearer` on
 * the operations the spec marks as authenticated.
 */
export function luddoClient(baseUrl: string, token?: string): Client {
  return createClient(createConfig({ baseUrl, ...(token === undefined ? {} : { auth: () => token }) }));
}
