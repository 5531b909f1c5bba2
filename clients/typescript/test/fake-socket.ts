/**
 * A scripted fake WebSocket for the helpers' tests: each connection runs the next script, given
 * the URL it was opened with; a connection with no script left is refused with 404.
 */
import type { MinimalWebSocket } from '../src/reconnect.js';

/** What one connection does, given the URL it was opened with. */
export type Script = (socket: FakeSocket, url: URL) => void;

export class FakeSocket implements MinimalWebSocket {
  static scripts: Script[] = [];
  static urls: URL[] = [];
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  sent: string[] = [];

  constructor(url: string) {
    const parsed = new URL(url);
    FakeSocket.urls.push(parsed);
    const script = FakeSocket.scripts.shift();
    setImmediate(() => (script ? script(this, parsed) : this.refuse(404)));
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  /** A game entry, with the state after it (a Snakes-like one: each seat's square). */
  entry(seq: number): void {
    const state = { squares: [seq, null], places: [null, null], options: {} };
    const message = { type: 'entry', seq, seat: 0, actor: 'human', action: { type: 'roll' }, events: [], to_act: 0, deadline: null, legal_actions_by_seat: [[{ type: 'roll' }], []], state, at: '' };
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** An entry of the table before its start (`seat_taken`, `bot_seated`, `closed`, …): no state. */
  lobby(seq: number, action: object): void {
    const message = { type: 'entry', seq, seat: null, actor: 'server', action, events: [], to_act: null, deadline: null, legal_actions_by_seat: [], at: '' };
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** The start entry: the opening's events, and the first state. */
  start(seq: number): void {
    const message = { type: 'entry', seq, seat: null, actor: 'server', action: { type: 'start', client_seeds: ['', ''], client_seed: 'c' }, events: [], to_act: 0, deadline: null, legal_actions_by_seat: [[{ type: 'roll' }], []], state: { squares: [null, null], places: [null, null], options: {} }, at: '' };
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** The table's last entry. */
  finish(seq: number): void {
    const message = { type: 'entry', seq, seat: null, actor: 'server', action: { type: 'finish', outcome: { places: [1, 2], points: null, shame: [] }, seed: 's' }, events: [], to_act: null, deadline: null, legal_actions_by_seat: [], state: { squares: [100, 7], places: [1, 2], options: {} }, at: '' };
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** Any server message, as JSON text. */
  json(message: object): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  refuse(status: number): void {
    this.onerror?.({ message: `Unexpected server response: ${status}` });
    this.drop(1006);
  }
  drop(code: number): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(code = 1000): void {
    setImmediate(() => this.drop(code));
  }
}

export function fresh(scripts: Script[]): void {
  FakeSocket.scripts = scripts;
  FakeSocket.urls = [];
}
