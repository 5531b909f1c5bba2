/**
 * The package in a browser project: type-checked with the DOM's types and no Node types at all
 * (tsconfig.browser.json), so the package's declarations need neither Node nor `ws`. Renders
 * the lobby into a list and a table's entries into a log; never run by the check.
 */
import { followLobby, followTable, isLobbyEntry, luddoClient, getTable, type LobbyTable } from '@luddo/client';

export async function showLobby(baseUrl: string, list: HTMLUListElement): Promise<void> {
  const render = (tables: Map<string, LobbyTable>) => {
    list.replaceChildren(
      ...[...tables.values()].map(({ table }) => Object.assign(document.createElement('li'), { textContent: `${table.game} ${table.id}` })),
    );
  };
  const lobby = followLobby({ baseUrl, onReconnect: ({ delayMs }) => console.info(`lobby: reconnecting in ${delayMs} ms`) });
  for await (const message of lobby) if (message.type !== 'pong' && message.type !== 'error') render(lobby.tables);
}

export async function showTable(baseUrl: string, token: string, tableId: string, log: HTMLElement): Promise<void> {
  const { data: table } = await getTable({ client: luddoClient(baseUrl, token), path: { id: tableId }, throwOnError: true });
  if (table.game !== 'backgammon') return;
  for await (const message of followTable({ baseUrl, tableId, game: table.game, token })) {
    if (message.type !== 'entry' || isLobbyEntry(message)) continue;
    log.append(`${message.seq}: ${message.action.type}, ${message.state ? message.state.xgid : ''}\n`);
  }
}
