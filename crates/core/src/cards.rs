//! The Appendix A deck: which playing card stands for which piece or
//! checker, the gaps of the card layouts, a short card notation, and
//! shuffling and dealing from the game's seeded generator.
//!
//! Black suits (spades, clubs) are black pieces, red suits (hearts,
//! diamonds) white pieces. Pawns are the 2 to 5, knights the 8s, bishops
//! the 9s, rooks the 10s; the one queen and king of each colour are the
//! spade and heart ones. Checkers are the 6s (and the 7s where a game needs
//! more).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Piece, Role};

use crate::rng::GameRng;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    Spades,
    Hearts,
    Diamonds,
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub fn letter(self) -> char {
        match self {
            Suit::Spades => 's',
            Suit::Hearts => 'h',
            Suit::Diamonds => 'd',
            Suit::Clubs => 'c',
        }
    }

    /// The colour of the pieces this suit stands for.
    pub const fn colour(self) -> Color {
        match self {
            Suit::Spades | Suit::Clubs => Color::Black,
            Suit::Hearts | Suit::Diamonds => Color::White,
        }
    }

    fn from_char(c: char) -> Option<Suit> {
        match c.to_ascii_lowercase() {
            's' | '♠' | '♤' => Some(Suit::Spades),
            'h' | '♥' | '♡' => Some(Suit::Hearts),
            'd' | '♦' | '♢' => Some(Suit::Diamonds),
            'c' | '♣' | '♧' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

/// A playing card. Rank 1 is the ace, 11 to 13 the jack, queen and king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Card {
    pub rank: u8,
    pub suit: Suit,
}

/// What a card stands for in Chess Kit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Meaning {
    Piece(Piece),
    /// A checker of this colour (the 6s, and 7s where a game needs more).
    Checker(Color),
}

impl Card {
    pub const fn new(rank: u8, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// The piece or checker this card stands for, if any.
    pub const fn meaning(self) -> Option<Meaning> {
        let colour = self.suit.colour();
        let queen_or_king_suit = matches!(self.suit, Suit::Spades | Suit::Hearts);
        let role = match self.rank {
            2..=5 => Role::Pawn,
            6 | 7 => return Some(Meaning::Checker(colour)),
            8 => Role::Knight,
            9 => Role::Bishop,
            10 => Role::Rook,
            12 if queen_or_king_suit => Role::Queen,
            13 if queen_or_king_suit => Role::King,
            _ => return None,
        };
        Some(Meaning::Piece(role.of(colour)))
    }

    /// The piece this card stands for, if it stands for one.
    pub const fn piece(self) -> Option<Piece> {
        match self.meaning() {
            Some(Meaning::Piece(piece)) => Some(piece),
            Some(Meaning::Checker(_)) | None => None,
        }
    }

    /// The card for a piece (the lowest-numbered one, in suit order), for
    /// showing a piece as a card.
    pub fn for_piece(piece: Piece) -> Card {
        piece_deck().into_iter().find(|c| c.piece() == Some(piece)).expect("every piece has a card")
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = match self.rank {
            1 => "a".to_string(),
            11 => "j".to_string(),
            12 => "q".to_string(),
            13 => "k".to_string(),
            n => n.to_string(),
        };
        write!(f, "{rank}{}", self.suit.letter())
    }
}

impl FromStr for Card {
    type Err = String;

    /// Short card notation: rank then suit, `9h`, `10s`, `qh`, `as`.
    fn from_str(text: &str) -> Result<Card, String> {
        let text = text.trim();
        let bad = || {
            format!("bad card {text:?}: expected a rank (a, 2-10, j, q, k) then a suit (s, h, d, c), like 9h or 10s")
        };
        let last = text.chars().last().ok_or_else(bad)?;
        let suit = Suit::from_char(last).ok_or_else(bad)?;
        let rank_text = text[..text.len() - last.len_utf8()].to_ascii_lowercase();
        let rank = match rank_text.as_str() {
            "a" | "1" => 1,
            "j" => 11,
            "q" => 12,
            "k" => 13,
            n => n.parse().ok().filter(|r| (2..=10).contains(r)).ok_or_else(bad)?,
        };
        Ok(Card { rank, suit })
    }
}

/// How many empty squares the card layouts leave before a piece.
pub fn gap(role: Role) -> usize {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 5,
        Role::King => 6,
    }
}

/// The 32 cards that stand for the pieces of a chess set.
pub fn piece_deck() -> Vec<Card> {
    let mut deck = Vec::with_capacity(32);
    for suit in Suit::ALL {
        for rank in [2, 3, 4, 5, 8, 9, 10] {
            deck.push(Card::new(rank, suit));
        }
    }
    deck.push(Card::new(12, Suit::Spades));
    deck.push(Card::new(12, Suit::Hearts));
    deck.push(Card::new(13, Suit::Spades));
    deck.push(Card::new(13, Suit::Hearts));
    deck
}

/// The 16 cards of the pieces other than pawns (Chess Golf).
pub fn officer_deck() -> Vec<Card> {
    piece_deck().into_iter().filter(|c| c.piece().is_some_and(|p| p.role != Role::Pawn)).collect()
}

/// The checker cards: the four 6s, and the four 7s as well when `with_sevens`.
pub fn checker_cards(with_sevens: bool) -> Vec<Card> {
    let ranks: &[u8] = if with_sevens { &[6, 7] } else { &[6] };
    ranks.iter().flat_map(|&rank| Suit::ALL.map(|suit| Card::new(rank, suit))).collect()
}

/// A draw pile, top card last, dealt from a seeded generator.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    cards: Vec<Card>,
}

/// Written out for `clone_from`: a game's copies the search rewrites per
/// child (crates/core/src/search_node.rs) then reuse the pile's allocation.
impl Clone for Deck {
    fn clone(&self) -> Deck {
        Deck { cards: self.cards.clone() }
    }

    fn clone_from(&mut self, source: &Deck) {
        self.cards.clone_from(&source.cards);
    }
}

impl Deck {
    pub fn new(cards: Vec<Card>) -> Deck {
        Deck { cards }
    }

    pub fn shuffled(mut cards: Vec<Card>, rng: &mut GameRng) -> Deck {
        rng.shuffle(&mut cards);
        Deck { cards }
    }

    pub fn shuffle(&mut self, rng: &mut GameRng) {
        rng.shuffle(&mut self.cards);
    }

    /// Draw the top card.
    pub fn draw(&mut self) -> Option<Card> {
        self.cards.pop()
    }

    /// Deal `n` cards, fewer if the pile runs out.
    pub fn deal(&mut self, n: usize) -> Vec<Card> {
        let keep = self.cards.len().saturating_sub(n);
        let mut dealt = self.cards.split_off(keep);
        dealt.reverse();
        dealt
    }

    pub fn put_bottom(&mut self, cards: impl IntoIterator<Item = Card>) {
        let mut under: Vec<Card> = cards.into_iter().collect();
        under.reverse();
        under.append(&mut self.cards);
        self.cards = under;
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The cards in the pile, bottom first.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_a_meanings() {
        let piece = |s: &str| s.parse::<Card>().unwrap().piece();
        assert_eq!(piece("2s"), Some(Piece { color: Color::Black, role: Role::Pawn }));
        assert_eq!(piece("5d"), Some(Piece { color: Color::White, role: Role::Pawn }));
        assert_eq!(piece("8c"), Some(Piece { color: Color::Black, role: Role::Knight }));
        assert_eq!(piece("9h"), Some(Piece { color: Color::White, role: Role::Bishop }));
        assert_eq!(piece("10d"), Some(Piece { color: Color::White, role: Role::Rook }));
        assert_eq!(piece("qh"), Some(Piece { color: Color::White, role: Role::Queen }));
        assert_eq!(piece("ks"), Some(Piece { color: Color::Black, role: Role::King }));
        assert_eq!(piece("qc"), None, "only the spade and heart queens are pieces");
        assert_eq!("6h".parse::<Card>().unwrap().meaning(), Some(Meaning::Checker(Color::White)));
        assert_eq!("as".parse::<Card>().unwrap().meaning(), None);
    }

    #[test]
    fn the_piece_deck_is_a_chess_set() {
        let deck = piece_deck();
        assert_eq!(deck.len(), 32);
        for color in Color::ALL {
            let count = |role: Role| deck.iter().filter(|c| c.piece() == Some(role.of(color))).count();
            assert_eq!(
                [
                    count(Role::Pawn),
                    count(Role::Knight),
                    count(Role::Bishop),
                    count(Role::Rook),
                    count(Role::Queen),
                    count(Role::King)
                ],
                [8, 2, 2, 2, 1, 1]
            );
        }
        assert_eq!(officer_deck().len(), 16);
        assert_eq!(checker_cards(false).len(), 4);
    }

    #[test]
    fn gaps_of_appendix_a() {
        assert_eq!(
            [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King].map(gap),
            [0, 1, 2, 3, 5, 6]
        );
    }

    #[test]
    fn notation_round_trips_and_rejects_nonsense() {
        for card in piece_deck().into_iter().chain(checker_cards(true)) {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
        for bad in ["", "x", "11s", "9x", "10"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
        assert_eq!("10♠".parse::<Card>(), Ok(Card::new(10, Suit::Spades)));
    }

    #[test]
    fn dealing_is_seeded() {
        let a = Deck::shuffled(piece_deck(), &mut GameRng::from_seed(3)).deal(5);
        let b = Deck::shuffled(piece_deck(), &mut GameRng::from_seed(3)).deal(5);
        assert_eq!(a, b);
        assert_eq!(a.len(), 5);
    }
}
