//! Which text positions can occur: the right cards in the right hands, one
//! set of pieces per colour, deck sizes that fit the turn.

use chesskit_core::cards::Card;
use shakmaty::Color;

use super::text::Parts;
use super::{cards_of, colour_name, lower_name, piece_name, seat_color, seat_of, DECK, SET};

/// Why `parts` cannot occur, if it cannot.
pub fn check(parts: &Parts) -> Result<(), String> {
    check_cards(parts)?;
    check_pieces(parts)?;
    check_turn_marks(parts)
}

/// Each deck holds only cards of the opponent's colour, every card of the
/// 24 at most once, the flipped card from the mover's deck.
fn check_cards(parts: &Parts) -> Result<(), String> {
    let mut seen: Vec<Card> = Vec::new();
    let all = parts.holds.iter().flatten().chain(parts.flipped.iter()).chain(&parts.set_aside);
    for &card in all {
        if !cards_of(Color::White).contains(&card) && !cards_of(Color::Black).contains(&card) {
            return Err(format!(
                "{card} is not one of the 24 cards (pawns are the 2 to 5 of hearts and spades; knights 8, bishops 9, rooks 10; qh qs kh ks)"
            ));
        }
        if seen.contains(&card) {
            return Err(format!("{card} appears twice"));
        }
        seen.push(card);
    }
    for (seat, pile) in parts.holds.iter().enumerate() {
        let holder = seat_color(seat);
        if let Some(card) = pile.iter().find(|c| c.suit.colour() == holder) {
            return Err(format!(
                "{} holds {card}, a {} card: each player holds the opponent's cards",
                colour_name(holder),
                lower_name(holder)
            ));
        }
    }
    if let Some(card) = parts.flipped.filter(|c| c.suit.colour() == parts.turn) {
        return Err(format!(
            "the flipped card {card} is {}'s own colour: {} flips for the opponent",
            colour_name(parts.turn),
            colour_name(parts.turn)
        ));
    }
    Ok(())
}

/// The pieces of each colour on the board, captured by the opponent, and
/// still in cards make exactly one set.
fn check_pieces(parts: &Parts) -> Result<(), String> {
    for colour in Color::ALL {
        let cards: Vec<Card> = parts.holds[seat_of(!colour)]
            .iter()
            .chain(parts.flipped.iter().filter(|c| c.suit.colour() == colour))
            .chain(parts.set_aside.iter().filter(|c| c.suit.colour() == colour))
            .copied()
            .collect();
        for (role, count) in SET {
            let piece = role.of(colour);
            let on_board = (parts.board.by_piece(piece)).count();
            let in_cards = cards.iter().filter(|c| c.piece() == Some(piece)).count();
            if on_board + in_cards > count {
                return Err(format!(
                    "too many {}s: {on_board} on the board and {in_cards} in cards, but the set has {count}",
                    piece_name(piece)
                ));
            }
        }
        let on_board = parts.board.by_color(colour).count();
        let captured = parts.captured[seat_of(!colour)] as usize;
        if on_board + cards.len() + captured != DECK {
            return Err(format!(
                "{} pieces on the board, {} in cards and {} captured by {} make {}, not the set of 12",
                colour_name(colour),
                on_board,
                cards.len(),
                colour_name(!colour),
                on_board + cards.len() + captured
            ));
        }
    }
    Ok(())
}

/// Deck sizes that fit whose turn it is (White flips first), and moved
/// and stayed squares that hold the mover's pieces.
fn check_turn_marks(parts: &Parts) -> Result<(), String> {
    let (white, black) = (parts.holds[0].len(), parts.holds[1].len());
    // White flips first: White has flipped one card more than Black from
    // its own flip until Black's.
    let white_ahead = (parts.turn == Color::White) == parts.flipped.is_some();
    let expected_white = if white_ahead { black.checked_sub(1) } else { Some(black) };
    if expected_white != Some(white) {
        return Err(format!(
            "White holds {white} cards and Black {black}: with {} to move{} White must hold {}",
            colour_name(parts.turn),
            if parts.flipped.is_some() { " after the flip" } else { " before the flip" },
            match expected_white {
                Some(n) => n.to_string(),
                None => "one card fewer than Black (Black has no last turn)".to_string(),
            }
        ));
    }
    if (parts.moved & parts.stayed).any() {
        return Err("a square is both moved and stayed".into());
    }
    for square in parts.moved | parts.stayed {
        if parts.board.color_at(square) != Some(parts.turn) {
            return Err(format!(
                "{square} is marked moved or stayed but holds none of {}'s pieces",
                colour_name(parts.turn)
            ));
        }
    }
    Ok(())
}
