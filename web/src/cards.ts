// Playing cards in short notation (`9h`, `10s`, `qh`, `as`) as faces to show.

import { h } from './dom.ts';

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

/**
 * A card code as the games write one in words: 2 to 10, q or k, then a suit
 * letter, in lower case, standing alone ("the 9h", "(8h)", "draws 10h qs").
 * Strict on purpose: the Appendix A deck plays no aces or jacks, so "as"
 * stays a word, and squares (c6) and moves (h2h4, Qh5) never match.
 */
const CARD_CODE = /(?<![\p{L}\p{N}])(?:10|[2-9qk])[hdsc](?![\p{L}\p{N}])/gu;

/** The card codes in `text`, in order. */
export function cardCodesIn(text: string): string[] {
  return text.match(CARD_CODE) ?? [];
}

/** The piece a card stands for, in words ("white knight"), for its title. */
const PIECE_WORDS: Record<string, string> = {
  '♙': 'white pawn', '♘': 'white knight', '♗': 'white bishop', '♖': 'white rook', '♕': 'white queen', '♔': 'white king', '○': 'white checker',
  '♟': 'black pawn', '♞': 'black knight', '♝': 'black bishop', '♜': 'black rook', '♛': 'black queen', '♚': 'black king', '●': 'black checker',
};

/**
 * A small card face for a card named in words: its rank and suit symbol in
 * the suit's colour, and the piece it stands for drawn beside it by the
 * style sheet (so the text reads "9♥" for copying and screen readers).
 */
export function cardChip(code: string): HTMLElement {
  const face = cardFace(code);
  const piece = cardPiece(code);
  return h(
    'span.card-chip',
    {
      class: face.red ? 'red' : 'black',
      'data-card': code,
      'data-piece': piece,
      title: piece ? `${face.text}: ${PIECE_WORDS[piece]}` : face.text,
    },
    face.text,
  );
}

/** `text` with each card code in it drawn as a card face. */
export function withCardFaces(text: string): (Node | string)[] {
  const nodes: (Node | string)[] = [];
  let from = 0;
  for (const m of text.matchAll(CARD_CODE)) {
    if (m.index > from) nodes.push(text.slice(from, m.index));
    nodes.push(cardChip(m[0]));
    from = m.index + m[0].length;
  }
  if (from < text.length) nodes.push(text.slice(from));
  return nodes;
}
