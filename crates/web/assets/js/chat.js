// The chat beside the board: every `chat` event of the game (read by everyone), and for a seat
// a field that sends `{"type": "chat", "text"}` with the seat's token. The server keeps the
// messages as events: the page reads them once from the event list, then from the socket.

import { api, el, colourName, seatColour } from './api.js';

const $ = (selector) => document.getElementById(selector);

/** The chat of game `id`: `add` takes each event as it comes, `render` draws the panel. */
export class Chat {
  constructor(id) {
    this.id = id;
    this.messages = new Map(); // seq -> {color, text}
    this.loaded = false; // messages from then on arrive live, and may be unread
    this.unread = 0; // the other side's live messages since the chat was last in view
    this.inView = false;
  }

  /** Reads the messages sent before the page was opened. */
  async load() {
    try {
      const { events } = await api(`/api/games/${encodeURIComponent(this.id)}/events`);
      for (const stored of events) this.add(stored);
    } catch {
      // the live messages still arrive over the socket
    }
    this.loaded = true;
  }

  /** Takes a stored event (`{seq, event}`); only chat events count. */
  add(stored) {
    if (!stored || !stored.event || stored.event.type !== 'chat') return;
    const fresh = !this.messages.has(stored.seq);
    this.messages.set(stored.seq, stored.event);
    // a message from the other side, live, while the chat is out of sight, is unread
    const mine = !!this.seat && stored.event.color === seatColour(this.seat, this.game);
    if (fresh && this.loaded && !mine && !this.inView) this.unread += 1;
    this.render();
  }

  /** Draws the messages, naming each speaker by colour and account (`Black (ann)`); the field
   * only for a seat. */
  render(game, seat) {
    if (game) this.game = game;
    if (seat !== undefined) this.seat = seat;
    const names = (this.game && this.game.players) || {};
    const lines = [...this.messages.entries()].sort(([a], [b]) => a - b).map(([seq, m]) => {
      const account = names[m.color] && names[m.color].account;
      return el('li', { 'data-seq': seq, class: `chat-${m.color}` },
        el('strong', {}, `${colourName(m.color)}${account ? ` (${account})` : ''}: `), m.text);
    });
    const log = $('chat-log');
    log.replaceChildren(...lines);
    log.scrollTop = log.scrollHeight;
    $('chat-empty').hidden = lines.length > 0;
    $('chat-form').hidden = !this.seat;
    $('chat-spectator').hidden = !!this.seat;
    $('chat-unread').hidden = this.unread === 0;
    $('chat-unread').textContent = `${this.unread} new`;
  }

  /** Wires the field: Enter or "Send" sends; the server's refusal shows under it. */
  wire() {
    // seen: the chat scrolled into view (or jumped to) reads every message
    new IntersectionObserver(([entry]) => {
      this.inView = entry.isIntersecting;
      if (this.inView && this.unread) {
        this.unread = 0;
        this.render();
      }
    }).observe($('chat-log').closest('section'));
    $('chat-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const text = $('chat-input').value;
      if (!text.trim() || !this.seat) return;
      try {
        await api(`/api/games/${encodeURIComponent(this.id)}/actions`, { method: 'POST', body: { type: 'chat', text }, token: this.seat.token });
        $('chat-input').value = '';
        $('chat-message').textContent = '';
      } catch (error) {
        $('chat-message').textContent = error.message;
      }
    });
  }
}
