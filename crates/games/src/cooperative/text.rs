//! The text position of Cooperative Chess (docs/games/cooperative.md): a
//! FEN (X-FEN castling; the side to move is the player whose turn it is;
//! the en passant square is the one that player may take this turn), then
//! `key: value` lines for the step of the turn, the hands, the draw pile
//! and the three face-up stacks.
//!
//! ```text
//! rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1
//! phase: move
//! white hand: 10h 3c qs
//! black hand: 8s 9c ks
//! draw pile: 2h 3h
//! white discards: 4d 5h
//! black discards:
//! captured:
//! ```

use std::collections::{BTreeMap, BTreeSet};

use chesskit_core::cards::{piece_deck, Card, Deck};
use chesskit_core::chess::fen::{self, parse_square, split_text_position, CastlingNotation, Validation};
use chesskit_core::chess::{Color, Role, Square};
use chesskit_core::game::GameError;

use super::{colour_word, index, CooperativeGame, Phase, HAND_SIZE};

const KEYS: [&str; 9] = [
    "phase",
    "white hand",
    "black hand",
    "draw pile",
    "white discards",
    "black discards",
    "captured",
    "next en passant",
    "wild",
];

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
}

pub fn write(game: &CooperativeGame) -> String {
    let mut pos = game.pos.clone();
    pos.set_turn(game.mover);
    // The square as held while its pawn stands beyond it, whether or not a
    // pawn can take on it yet: one may come alongside with step 1.
    pos.set_ep_square(game.ep_now.filter(|&ep| {
        let pawn = ep.offset(game.mover.fold_wb(-8, 8)).and_then(|sq| pos.board().piece_at(sq));
        pawn == Some(Role::Pawn.of(game.mover.other()))
    }));
    let piece = game.piece.map_or(String::new(), |sq| format!(" {sq}"));
    let phase = match game.phase {
        Phase::Move => "move".to_string(),
        Phase::Play => format!("play{piece}"),
        Phase::Capture => format!("capture{piece}"),
    };
    let fen_line = fen::text_position_fen(&pos, &fen::Markers::new(), CastlingNotation::XFen);
    let mut lines = vec![fen_line, format!("phase: {phase}")];
    lines.push(format!("white hand: {}", cards_text(&game.hands[0])));
    lines.push(format!("black hand: {}", cards_text(&game.hands[1])));
    lines.push(format!("draw pile: {}", cards_text(&game.deck)));
    lines.push(format!("white discards: {}", cards_text(&game.discards[0])));
    lines.push(format!("black discards: {}", cards_text(&game.discards[1])));
    lines.push(format!("captured: {}", cards_text(&game.captured)));
    if let Some(sq) = game.ep_next {
        lines.push(format!("next en passant: {sq}"));
    }
    if game.wild_next {
        lines.push("wild: yes".to_string());
    }
    lines.iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n")
}

fn bad(message: impl Into<String>) -> GameError {
    GameError::new(format!("bad Cooperative Chess position: {}", message.into()))
}

fn parse_cards(key: &str, value: &str, seen: &mut BTreeSet<Card>) -> Result<Vec<Card>, GameError> {
    let mut cards = Vec::new();
    for word in value.split_whitespace() {
        let card: Card = word.parse().map_err(|e: String| bad(format!("{key}: {e}")))?;
        if card.piece().is_none() {
            return Err(bad(format!("{key}: the {card} is not one of the 32 cards of Appendix A")));
        }
        if !seen.insert(card) {
            return Err(bad(format!("the {card} appears twice")));
        }
        cards.push(card);
    }
    Ok(cards)
}

fn parse_phase(value: &str, game: &CooperativeGame) -> Result<(Phase, Option<Square>), GameError> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let (phase, square) = match words.as_slice() {
        ["move"] => (Phase::Move, None),
        ["play", sq] => (Phase::Play, Some(*sq)),
        ["capture"] => (Phase::Capture, None),
        ["capture", sq] => (Phase::Capture, Some(*sq)),
        ["play"] => return Err(bad("phase: play names the square of the piece that moved in step 1, as in `play e4`")),
        _ => return Err(bad(format!("phase: expected move, play SQUARE, capture or capture SQUARE, not {value:?}"))),
    };
    let piece = match square {
        None => None,
        Some(text) => {
            let sq = parse_square(text).ok_or_else(|| bad(format!("phase: {text:?} is not a square like e4")))?;
            if game.pos.board().color_at(sq) != Some(game.mover) {
                return Err(bad(format!(
                    "phase: {sq} holds no {} piece to make this turn's moves",
                    colour_word(game.mover)
                )));
            }
            Some(sq)
        }
    };
    Ok((phase, piece))
}

/// "Shuffles the 32 cards, deals 3 to each player": a position that
/// lists cards accounts for all 32, each once; "draw a card to bring your
/// hand back to 3": a hand holds at most 3, and while the draw pile lasts
/// each player holds 3 but the one who has played this turn's card (2).
fn check_cards(game: &CooperativeGame, seen: &BTreeSet<Card>) -> Result<(), GameError> {
    let deck: BTreeSet<Card> = piece_deck().into_iter().collect();
    let missing: Vec<String> = deck.difference(seen).map(Card::to_string).collect();
    if !missing.is_empty() {
        return Err(bad(format!(
            "the cards do not add up to the 32-card deck: {} missing ({}); every card is in a hand, the draw pile, \
             a discard stack or the captured cards",
            missing.len(),
            missing.join(" ")
        )));
    }
    for color in Color::ALL {
        let held = game.hands[index(color)].len();
        let played = color == game.mover && game.phase == Phase::Capture;
        let full = if played { HAND_SIZE - 1 } else { HAND_SIZE };
        let name = colour_word(color);
        if held > full || (!game.deck.is_empty() && held < full) {
            return Err(bad(format!(
                "{name} hand: {held} cards, but {name} holds {full}{}",
                if game.deck.is_empty() { " at most" } else { " while the draw pile lasts" }
            )));
        }
    }
    Ok(())
}

pub fn read(text: &str) -> Result<CooperativeGame, GameError> {
    let (fen_line, key_lines) = split_text_position(text).map_err(bad)?;
    let validation = Validation { one_king_each: true, opponent_not_in_check: false, pawns_off_back_ranks: true };
    let (mut pos, markers) = crate::chess::parse_fen_with_turn_ep(fen_line, validation).map_err(bad)?;
    if let Some(sq) = markers.keys().next() {
        return Err(bad(format!("unexpected marker on {sq}: Cooperative Chess has nothing on the squares but pieces")));
    }
    let fields: BTreeMap<&str, &str> = key_lines.fields(&KEYS).map_err(bad)?;
    let mover = pos.turn();
    // The FEN reader checks that a pawn has just passed the square.
    let ep_now = pos.ep_square();
    pos.set_ep_square(None);
    let mut seen = BTreeSet::new();
    let mut cards = |key: &str| fields.get(key).map(|value| parse_cards(key, value, &mut seen)).transpose();
    let hands = [cards("white hand")?.unwrap_or_default(), cards("black hand")?.unwrap_or_default()];
    let deck = Deck::new(cards("draw pile")?.unwrap_or_default());
    let discards = [cards("white discards")?.unwrap_or_default(), cards("black discards")?.unwrap_or_default()];
    let captured = cards("captured")?.unwrap_or_default();
    let mut game = CooperativeGame::from_parts(pos, mover, Phase::Move, hands, deck);
    game.discards = discards.map(Into::into);
    game.captured = captured.into();
    game.ep_now = ep_now;
    if let Some(value) = fields.get("phase") {
        (game.phase, game.piece) = parse_phase(value, &game)?;
    }
    if game.phase == Phase::Play && game.piece.is_none() {
        return Err(bad("phase: play names the square of the piece that moved in step 1"));
    }
    if game.phase == Phase::Capture && game.discards[index(mover)].is_empty() {
        return Err(bad(format!(
            "phase: capture, but the {} discard stack is empty: the card of step 2 is played first",
            colour_word(mover)
        )));
    }
    if let Some(value) = fields.get("next en passant") {
        let sq = parse_square(value).ok_or_else(|| bad(format!("next en passant: {value:?} is not a square")))?;
        let behind = mover.fold_wb(shakmaty::Rank::Third, shakmaty::Rank::Sixth);
        let landed = Square::from_coords(sq.file(), mover.fold_wb(shakmaty::Rank::Fourth, shakmaty::Rank::Fifth));
        if game.phase == Phase::Move || sq.rank() != behind || game.piece != Some(landed) {
            return Err(bad(format!(
                "next en passant: {sq} is not behind this turn's piece after a double step of step 1"
            )));
        }
        game.ep_next = Some(sq);
    }
    if let Some(value) = fields.get("wild") {
        game.wild_next = match *value {
            "yes" => true,
            "no" => false,
            _ => return Err(bad(format!("wild: expected yes or no, not {value:?}"))),
        };
        if game.wild_next && (game.phase != Phase::Capture || game.piece.is_none()) {
            return Err(bad("wild: a double colour match happens in a capture, so it needs `phase: capture SQUARE`"));
        }
    }
    let card_lines = ["white hand", "black hand", "draw pile", "white discards", "black discards", "captured"];
    if card_lines.iter().any(|key| fields.contains_key(key)) {
        check_cards(&game, &seen)?;
    }
    Ok(game)
}
