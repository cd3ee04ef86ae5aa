// Playing cards in short notation (`9h`, `10s`, `qh`, `as`) as faces to show.

export interface CardFace {
  rank: string;
  suit: string;
  red: boolean;
  /** The whole face as text, e.g. "9♥". */
  text: string;
}

const SUITS: Record<string, [string, boolean]> = {
  h: ['♥', true],
  d: ['♦', true],
  s: ['♠', false],
  c: ['♣', false],
};

/** The face of a card; an unknown notation (a joker, a custom card) is shown as written. */
export function cardFace(card: string): CardFace {
  const m = /^(10|[2-9akqjt])([hdsc])$/i.exec(card.trim());
  if (!m) return { rank: card, suit: '', red: false, text: card };
  const rank = m[1].toLowerCase() === 't' ? '10' : m[1].toUpperCase();
  const [suit, red] = SUITS[m[2].toLowerCase()];
  return { rank, suit, red, text: rank + suit };
}
