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

const WHITE_PIECES: Record<string, string> = { p: '♙', n: '♘', b: '♗', r: '♖', q: '♕', k: '♔', c: '○' };
const BLACK_PIECES: Record<string, string> = { p: '♟', n: '♞', b: '♝', r: '♜', q: '♛', k: '♚', c: '●' };

/**
 * What an Appendix A card stands for, as a glyph drawn on its face: 2 to 5
 * pawns, 6 and 7 checkers, 8 knights, 9 bishops, 10 rooks, the queen and king
 * of spades and hearts; red suits white, black suits black. Other cards stand
 * for nothing.
 */
export function cardPiece(card: string): string | undefined {
  const face = cardFace(card);
  if (!face.suit) return undefined;
  const royal = face.suit === '♠' || face.suit === '♥';
  const role = (
    { '2': 'p', '3': 'p', '4': 'p', '5': 'p', '6': 'c', '7': 'c', '8': 'n', '9': 'b', '10': 'r' } as Record<string, string>
  )[face.rank] ?? (royal && face.rank === 'Q' ? 'q' : royal && face.rank === 'K' ? 'k' : undefined);
  if (!role) return undefined;
  return (face.red ? WHITE_PIECES : BLACK_PIECES)[role];
}
