//! The text position of Neighbour Chess Solitaire (docs/games/neighbour.md):
//! the board field of a FEN on the first line, then `key: value` lines for
//! the part of the game, the last piece added and the cards of every pile.
//! Draw piles list their next card first; discard piles in the order the
//! cards were flipped.
//!
//! ```text
//! 8/8/8/8/8/8/8/3R4
//! phase: adding
//! last: d1
//! pieces deck: 8s 9h qs 10c 8h 9s kh ks 10s 8c 10d 9c 9d qh 8d
//! positions deck: 5h 2c 6s 3h 4d 2s 6h 5c 3c 4h 3s 2d 5s 6c 4s 6d 2h 5d 4c
//! pieces discard: 10h
//! positions discard: 3d
//! spent:
//! ```

use std::collections::BTreeSet;

use chesskit_core::cards::{Card, Deck};
use chesskit_core::chess::fen::{board_fen, parse_board, parse_square, split_text_position, Markers};
use chesskit_core::game::GameError;
use shakmaty::{Board, Piece, Role};

use super::rules::{held_square, is_one_group, is_position_card, pieces_deck, positions_deck, target_square};
use super::{NeighbourGame, Phase};

const KEYS: [&str; 7] =
    ["phase", "last", "pieces deck", "positions deck", "pieces discard", "positions discard", "spent"];

fn cards_text(cards: impl IntoIterator<Item = Card>) -> String {
    cards.into_iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

pub fn write(game: &NeighbourGame) -> String {
    let phase = match game.phase {
        Phase::Adding => "adding",
        Phase::Placing => "placing",
        Phase::Moving => "moving",
    };
    let lines = [
        board_fen(&game.board, &Markers::new()),
        format!("phase: {phase}"),
        format!("last: {}", game.last.map_or("-".to_string(), |sq| sq.to_string())),
        format!("pieces deck: {}", cards_text(game.pieces_to_come())),
        format!("positions deck: {}", cards_text(game.positions_to_come())),
        format!("pieces discard: {}", cards_text(game.pieces_discard.iter().copied())),
        format!("positions discard: {}", cards_text(game.positions_discard.iter().copied())),
        format!("spent: {}", cards_text(game.spent.iter().copied())),
    ];
    lines.map(|l| l.trim_end().to_string()).join("\n")
}

fn bad(message: impl Into<String>) -> GameError {
    GameError::new(format!("bad Neighbour Chess Solitaire position: {}", message.into()))
}

/// The cards of one line, each seen once in the whole position.
fn read_cards(key: &str, value: &str, seen: &mut BTreeSet<Card>) -> Result<Vec<Card>, GameError> {
    let mut cards = Vec::new();
    for word in value.split_whitespace() {
        let card: Card = word.parse().map_err(|e: String| bad(format!("{key}: {e}")))?;
        let in_game = pieces_deck().contains(&card) || positions_deck().contains(&card);
        if !in_game {
            return Err(bad(format!("{key}: the {card} is in neither deck (pieces: 8 to 10, the spade and heart queens and kings; positions: 2 to 6)")));
        }
        if !seen.insert(card) {
            return Err(bad(format!("{key}: the {card} appears twice in the position")));
        }
        cards.push(card);
    }
    Ok(cards)
}

fn only(key: &str, cards: &[Card], position_cards: bool) -> Result<(), GameError> {
    match cards.iter().find(|c| is_position_card(**c) != position_cards) {
        Some(card) => Err(bad(format!(
            "{key}: the {card} belongs to the {} deck",
            if position_cards { "pieces" } else { "positions" }
        ))),
        None => Ok(()),
    }
}

fn pieces_of(board: &Board) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = board.occupied().into_iter().filter_map(|sq| board.piece_at(sq)).collect();
    pieces.sort_by_key(|p| (p.color as u8, p.role as u8));
    pieces
}

pub fn read(text: &str) -> Result<NeighbourGame, GameError> {
    let (board_line, lines) = split_text_position(text).map_err(bad)?;
    let (board, markers) = parse_board(board_line).map_err(bad)?;
    if !markers.is_empty() {
        return Err(bad("the board has no markers"));
    }
    if board.by_role(Role::Pawn).any() {
        return Err(bad("there are no pawns in this game"));
    }
    let fields = lines.fields(&KEYS).map_err(bad)?;
    let field = |key: &str| fields.get(key).copied().unwrap_or("");
    let phase = match field("phase") {
        "adding" => Phase::Adding,
        "placing" => Phase::Placing,
        "moving" => Phase::Moving,
        other => return Err(bad(format!("phase: expected adding, placing or moving, not {other:?}"))),
    };
    let last = match field("last") {
        "" | "-" => None,
        sq => Some(parse_square(sq).ok_or_else(|| bad(format!("last: bad square {sq:?}")))?),
    };
    let mut seen = BTreeSet::new();
    let mut read = |key: &str| read_cards(key, field(key), &mut seen);
    let pieces_left = read("pieces deck")?;
    let positions_left = read("positions deck")?;
    let pieces_discard = read("pieces discard")?;
    let positions_discard = read("positions discard")?;
    let spent = read("spent")?;
    only("pieces deck", &pieces_left, false)?;
    only("pieces discard", &pieces_discard, false)?;
    only("positions deck", &positions_left, true)?;
    only("positions discard", &positions_discard, true)?;
    if seen.len() != pieces_deck().len() + positions_deck().len() {
        return Err(bad(format!(
            "the piles hold {} of the 36 cards: every card of both decks must be in a pile",
            seen.len()
        )));
    }
    if pieces_discard.len() != positions_discard.len() {
        return Err(bad(
            "each piece added flips one card of each deck: the discard piles must be as long as each other",
        ));
    }
    check_spent(phase, &spent, &pieces_left)?;
    let game = NeighbourGame {
        board,
        pieces: Deck::new(pieces_left.into_iter().rev().collect()),
        positions: Deck::new(positions_left.into_iter().rev().collect()),
        pieces_discard,
        positions_discard,
        spent,
        last,
        phase,
        last_move: None,
    };
    check_board(&game)?;
    Ok(game)
}

/// Cards are spent only on moves, from the pieces deck while it lasts.
fn check_spent(phase: Phase, spent: &[Card], pieces_left: &[Card]) -> Result<(), GameError> {
    if phase != Phase::Moving && !spent.is_empty() {
        return Err(bad("spent: cards are spent only on moves, after adding stopped"));
    }
    if !pieces_left.is_empty() && spent.iter().any(|c| is_position_card(*c)) {
        return Err(bad("spent: the pieces deck pays for moves while it has cards"));
    }
    Ok(())
}

/// The board holds the pieces of the flipped piece cards (all but the one
/// being placed), and the last piece added stands where the text says.
fn check_board(game: &NeighbourGame) -> Result<(), GameError> {
    let placed_cards = match game.phase {
        Phase::Placing => &game.pieces_discard[..game.pieces_discard.len().saturating_sub(1)],
        _ => &game.pieces_discard[..],
    };
    if game.phase == Phase::Placing && game.pieces_discard.is_empty() {
        return Err(bad("phase: placing needs a flipped piece card"));
    }
    let mut flipped: Vec<Piece> = placed_cards.iter().filter_map(|c| c.piece()).collect();
    flipped.sort_by_key(|p| (p.color as u8, p.role as u8));
    if flipped != pieces_of(&game.board) {
        return Err(bad("the pieces on the board must be those of the flipped piece cards"));
    }
    let occupied = game.board.occupied();
    match (game.phase, game.last) {
        (Phase::Adding | Phase::Placing, None) if occupied.any() => {
            return Err(bad("last: name the square of the last piece added"))
        }
        (Phase::Adding | Phase::Placing, Some(sq)) if !occupied.contains(sq) => {
            return Err(bad(format!("last: there is no piece on {sq}")))
        }
        (Phase::Moving, _) if occupied.is_empty() => return Err(bad("phase: moving needs a piece on the board")),
        _ => {}
    }
    if game.phase == Phase::Placing {
        let target = target_square(
            held_square(game.last),
            *game.positions_discard.last().expect("as long as the pieces discard"),
        );
        if !occupied.contains(target) {
            return Err(bad(format!("phase: placing, but the piece's square {target} is empty")));
        }
        if is_one_group(occupied) {
            return Err(bad("phase: the pieces already form one group, so the game ended before this piece"));
        }
    }
    Ok(())
}
