// The table chat: what the players say aloud, read by everyone at the table
// and by spectators (a chat line is public: "the other team is listening").

import { viewerSeat } from './boardmodel.ts';
import { h } from './dom.ts';
import type { ChatLine, View } from './types.ts';
import { seatName } from './view.ts';

/** The longest line the server takes (core's MAX_CHAT_CHARS). */
export const MAX_CHAT_CHARS = 300;

/**
 * The chat panel. One element lives for the whole game, so a line being
 * typed survives the redraw that every update of the game makes.
 */
export class ChatBox {
  readonly element: HTMLElement;
  private readonly lines: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly input: HTMLInputElement;
  private readonly button: HTMLButtonElement;
  /** Why the seat may not talk now, shown under the greyed box. */
  private readonly closed: HTMLElement;
  private shownLines = -1;

  /** `say` sends the action text and resolves to whether the server took it. */
  constructor(say: (action: string) => Promise<boolean>) {
    this.lines = h('ol.chat-lines', { 'aria-live': 'polite' });
    this.input = h('input.chat-input', {
      type: 'text',
      name: 'chat',
      maxlength: MAX_CHAT_CHARS,
      placeholder: 'Say something to the table',
      'aria-label': 'Say something to the table',
      autocomplete: 'off',
    });
    this.button = h('button.secondary', { type: 'submit' }, 'Say');
    this.closed = h('p.chat-closed', { role: 'status' });
    this.form = h(
      'form.chat-form',
      {
        onsubmit: async (e: Event) => {
          e.preventDefault();
          const text = this.input.value.trim();
          if (!text) return;
          if (await say(`say ${text}`)) this.input.value = '';
        },
      },
      this.input,
      this.button,
    );
    this.element = h('section.chat', {}, h('h3', {}, 'Table talk'), this.lines, this.form, this.closed);
  }

  /**
   * Show `view`'s chat; the form only to a seat (spectators read). While the
   * rules keep the seat silent (`chat_closed`: a secret choice under way),
   * the box is greyed and says why, so nobody types a line the server refuses.
   */
  update(view: View, disabled: boolean): HTMLElement {
    const chat = view.chat ?? [];
    if (chat.length !== this.shownLines) {
      this.lines.replaceChildren(...(chat.length ? chat.map(line => chatRow(view, line)) : [h('li.chat-empty', {}, 'Nothing said yet.')]));
      this.lines.scrollTop = this.lines.scrollHeight;
      this.shownLines = chat.length;
    }
    const seated = viewerSeat(view) !== null;
    const closed = seated ? view.chat_closed : undefined;
    this.form.hidden = !seated;
    this.input.disabled = disabled || closed !== undefined;
    this.button.disabled = closed !== undefined;
    this.input.placeholder = closed === undefined ? 'Say something to the table' : 'No talking now';
    this.closed.hidden = closed === undefined;
    this.closed.textContent = closed ?? '';
    return this.element;
  }
}

/** One line: who said it, and what. */
export function chatRow(view: View, line: ChatLine): HTMLElement {
  return h('li.chat-line', { 'data-seat': line.seat }, h('span.who', {}, `${seatName(view, line.seat)}:`), ' ', h('span.said', {}, line.text));
}
