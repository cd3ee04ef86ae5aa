//! `chesskit cards`: the Appendix A deck: what each card stands for, the
//! gaps of the card layouts, and seeded shuffles and deals.

use chesskit_core::cards::{checker_cards, gap, officer_deck, piece_deck, Card, Deck, Meaning};
use chesskit_core::chess::diagram::{role_name, symbol};
use chesskit_core::chess::{Color, Role};
use chesskit_core::rng::GameRng;

/// Which cards to use.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum DeckKind {
    /// The 32 piece cards of a chess set.
    Pieces,
    /// The 16 piece cards without pawns (Chess Golf).
    Officers,
    /// The 32 piece cards and the four 6s as checkers (Booster Chess).
    Booster,
}

fn deck_of(kind: DeckKind) -> Vec<Card> {
    match kind {
        DeckKind::Pieces => piece_deck(),
        DeckKind::Officers => officer_deck(),
        DeckKind::Booster => piece_deck().into_iter().chain(checker_cards(false)).collect(),
    }
}

fn describe(card: Card) -> String {
    match card.meaning() {
        Some(Meaning::Piece(piece)) => {
            format!("{} {}", symbol(piece), colour_word(piece.color)) + " " + role_name(piece.role)
        }
        Some(Meaning::Checker(colour)) => format!("{} checker", colour_word(colour)),
        None => "no piece".to_string(),
    }
}

fn colour_word(colour: Color) -> &'static str {
    colour.fold_wb("white", "black")
}

/// The Appendix A table: ranks by piece, suits by colour, and each gap.
pub fn table() -> String {
    let mut out = String::from("Appendix A: black suits (s, c) are black pieces, red suits (h, d) white pieces.\n\n");
    out.push_str("piece   cards                    gap\n");
    let rows: [(Role, &str); 6] = [
        (Role::Pawn, "2 3 4 5 of every suit"),
        (Role::Knight, "8s 8c / 8h 8d"),
        (Role::Bishop, "9s 9c / 9h 9d"),
        (Role::Rook, "10s 10c / 10h 10d"),
        (Role::Queen, "qs / qh"),
        (Role::King, "ks / kh"),
    ];
    for (role, cards) in rows {
        out.push_str(&format!("{:<7} {cards:<24} {}\n", role_name(role), gap(role)));
    }
    out.push_str(&format!("{:<7} {:<24} -\n", "checker", "6s 6c / 6h 6d (7s too)"));
    out
}

/// Shuffle `kind` with `seed` and deal `count` cards (all when `None`).
pub fn deal(kind: DeckKind, seed: u64, count: Option<usize>) -> Result<String, String> {
    let cards = deck_of(kind);
    let size = cards.len();
    if count.is_some_and(|n| n > size) {
        let name = match kind {
            DeckKind::Pieces => "pieces",
            DeckKind::Officers => "officers",
            DeckKind::Booster => "booster",
        };
        return Err(format!("cannot deal {} cards: the {name} deck has {size}", count.unwrap_or(0)));
    }
    let mut deck = Deck::shuffled(cards, &mut GameRng::from_seed(seed));
    let cards = deck.deal(count.unwrap_or(size));
    Ok(cards.iter().map(|&c| format!("{:<4} {}\n", c.to_string(), describe(c))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_piece_and_gap() {
        let t = table();
        assert!(t.contains("king    ks / kh                  6"));
        assert!(t.contains("pawn    2 3 4 5 of every suit    0"));
    }

    #[test]
    fn deals_are_seeded_and_named() {
        assert_eq!(deal(DeckKind::Officers, 4, Some(3)).unwrap(), deal(DeckKind::Officers, 4, Some(3)).unwrap());
        assert_eq!(deal(DeckKind::Officers, 4, None).unwrap().lines().count(), 16);
        assert_eq!(deal(DeckKind::Pieces, 4, Some(33)).unwrap_err(), "cannot deal 33 cards: the pieces deck has 32");
        assert!(deal(DeckKind::Booster, 1, None).unwrap().contains("checker"));
    }
}
