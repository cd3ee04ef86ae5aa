//! The text position of Cooperative Chess 2 (docs/games/cooperative2.md):
//! a FEN (its side to move is the colour whose turn it is, its en passant
//! square the one open to that colour this turn), then `key: value` lines,
//! cards in short notation (`9h`, `10s`, `qh`):
//!
//! ```text
//! rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1
//! step: play
//! line: 2s 3h 9s
//! white hand: 8d 5h
//! black hand: 8s 4d
//! draw pile: 2c 3c ...
//! discard:
//! ```
//!
//! * `step:` `play` (step 1 is still to come), `move` (the card is
//!   played, no move yet) or `capture` (a move made; only captures may
//!   follow). Default `play`, or `move` in the solitaire.
//! * `line:` the face-up line from the end by the draw pile.
//! * `white hand:`, `black hand:` (two seats only), at most two cards each, no king.
//! * `draw pile:` top card first. `discard:` the discard pile.
//! * `double step:` the square behind a pawn the side to move advanced two
//!   squares this turn (the other colour's en passant square next turn),
//!   while that pawn still stands just beyond it.
//!
//! The cards are the 32 piece cards, each once, and for every type and
//! colour the pieces on the board are as many as its cards outside the
//! discard pile (a captured piece's card is discarded; a promotion swaps a
//! pawn's card for the new piece's). Blank lines are ignored.

use chesskit_core::cards::{piece_deck, Card};
use chesskit_core::chess::fen::{parse_square, split_text_position, text_position_fen, Validation};
use chesskit_core::chess::{Color, Piece, Position, Rank, Role, Square};

use super::{colour_word, index, piece_words, Cooperative2Game, Step, HAND};

/// Everything a position holds.
pub struct Parts {
    pub pos: Position,
    pub hands: [Vec<Card>; 2],
    pub pile: Vec<Card>,
    pub line: Vec<Card>,
    pub discard: Vec<Card>,
    pub step: Step,
    pub double_step: Option<Square>,
}

const KEYS: [&str; 7] = ["step", "line", "white hand", "black hand", "draw pile", "discard", "double step"];

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

pub fn write(game: &Cooperative2Game) -> String {
    let mut pos = game.pos.clone();
    pos.set_ep_square(game.turn_ep);
    // The square as held, whether or not a pawn can take on it yet: one
    // may come alongside later in the turn.
    let markers = chesskit_core::chess::fen::Markers::new();
    let mut out = text_position_fen(&pos, &markers, chesskit_core::chess::fen::CastlingNotation::XFen);
    out.push('\n');
    let step = match game.step {
        Step::Play => "play",
        Step::Move => "move",
        Step::Capture => "capture",
    };
    out.push_str(&format!("step: {step}\n"));
    out.push_str(&format!("line: {}\n", cards_text(&game.line)));
    if !game.solitaire {
        out.push_str(&format!("white hand: {}\n", cards_text(&game.hands[0])));
        out.push_str(&format!("black hand: {}\n", cards_text(&game.hands[1])));
    }
    let top_first: Vec<Card> = game.pile.iter().rev().copied().collect();
    out.push_str(&format!("draw pile: {}\n", cards_text(&top_first)));
    out.push_str(&format!("discard: {}\n", cards_text(&game.discard)));
    if let Some(square) = game.double_step {
        out.push_str(&format!("double step: {square}\n"));
    }
    out
}

fn read_cards(key: &str, value: &str) -> Result<Vec<Card>, String> {
    value.split_whitespace().map(|w| w.parse::<Card>().map_err(|e| format!("{key}: {e}"))).collect()
}

/// Read a position, or say what is wrong with it.
pub fn read(text: &str, solitaire: bool) -> Result<Parts, String> {
    let (fen_line, lines) = split_text_position(text)?;
    let validation = Validation { one_king_each: true, opponent_not_in_check: false, pawns_off_back_ranks: true };
    let (pos, markers) = crate::chess::parse_fen_with_turn_ep(fen_line, validation)?;
    if let Some((sq, _)) = markers.iter().next() {
        return Err(format!("unexpected marker on {sq}: this game has no {{...}} markers"));
    }
    let fields = lines.fields(&KEYS)?;
    let cards = |key: &str| read_cards(key, fields.get(key).copied().unwrap_or(""));
    if solitaire {
        for key in ["white hand", "black hand"] {
            if fields.get(key).is_some_and(|v| !v.is_empty()) {
                return Err(format!("the solitaire has no hands, but the position gives a {key:?}"));
            }
        }
    }
    let step = match fields.get("step").copied() {
        None => {
            if solitaire {
                Step::Move
            } else {
                Step::Play
            }
        }
        Some("play") if solitaire => {
            return Err("the solitaire has no step `play`: its card is drawn to the line".to_string())
        }
        Some("play") => Step::Play,
        Some("move") => Step::Move,
        Some("capture") => Step::Capture,
        Some(other) => return Err(format!("step: expected play, move or capture, not {other:?}")),
    };
    let mut pile = cards("draw pile")?;
    pile.reverse();
    let parts = Parts {
        pos,
        hands: [cards("white hand")?, cards("black hand")?],
        pile,
        line: cards("line")?,
        discard: cards("discard")?,
        step,
        double_step: match fields.get("double step") {
            None => None,
            Some(v) => Some(parse_square(v).ok_or_else(|| format!("double step: {v:?} is not a square"))?),
        },
    };
    check_cards(&parts)?;
    check_pieces_match_cards(&parts)?;
    check_turn(&parts, solitaire)?;
    Ok(parts)
}

/// The 32 piece cards, each once; hands of at most two cards and no king.
fn check_cards(parts: &Parts) -> Result<(), String> {
    let mut seen: Vec<Card> = Vec::new();
    let all = parts.line.iter().chain(&parts.hands[0]).chain(&parts.hands[1]).chain(&parts.pile).chain(&parts.discard);
    for &card in all {
        if card.piece().is_none() {
            return Err(format!("{card} is not one of the 32 piece cards of Appendix A"));
        }
        if seen.contains(&card) {
            return Err(format!("{card} appears twice; each of the 32 cards is used once"));
        }
        seen.push(card);
    }
    let missing: Vec<String> = piece_deck().into_iter().filter(|c| !seen.contains(c)).map(|c| c.to_string()).collect();
    if !missing.is_empty() {
        return Err(format!(
            "cards missing: {} (the line, hands, draw pile and discard pile hold all 32 piece cards)",
            missing.join(" ")
        ));
    }
    for (colour, hand) in Color::ALL.into_iter().zip(&parts.hands) {
        if hand.len() > HAND {
            return Err(format!(
                "the {} hand holds {} cards; a hand holds at most {HAND}",
                colour_word(colour),
                hand.len()
            ));
        }
        if let Some(king) = hand.iter().find(|c| c.piece().is_some_and(|p| p.role == Role::King)) {
            return Err(format!(
                "{king} is a king card in the {} hand; king cards go to the line on sight",
                colour_word(colour)
            ));
        }
    }
    Ok(())
}

/// A captured piece's card is in the discard pile and the pieces still on
/// the board have theirs outside it: per type and colour the counts agree.
fn check_pieces_match_cards(parts: &Parts) -> Result<(), String> {
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece { color, role };
            let on_board = parts.pos.board().by_piece(piece).count();
            let cards = piece_deck().into_iter().filter(|c| c.piece() == Some(piece)).count();
            let discarded = parts.discard.iter().filter(|c| c.piece() == Some(piece)).count();
            if on_board != cards - discarded {
                return Err(format!(
                    "{on_board} {}s on the board, but {} of their cards outside the discard pile",
                    piece_words(piece),
                    cards - discarded
                ));
            }
        }
    }
    Ok(())
}

/// The side to move can take its step: a card to play at step `play`, and a
/// double step of its own pawn.
fn check_turn(parts: &Parts, solitaire: bool) -> Result<(), String> {
    let us = parts.pos.turn();
    if !solitaire && parts.step == Step::Play && parts.hands[index(us)].is_empty() {
        return Err(format!("step play, but the {} hand is empty", colour_word(us)));
    }
    if let Some(square) = parts.double_step {
        let behind_rank = us.fold_wb(Rank::Third, Rank::Sixth);
        let pawn = square.offset(us.fold_wb(8, -8));
        if square.rank() != behind_rank || pawn.and_then(|p| parts.pos.board().piece_at(p)) != Some(Role::Pawn.of(us)) {
            return Err(format!("double step: no {} pawn stands just beyond {square}", colour_word(us)));
        }
        if parts.step == Step::Play {
            return Err("double step: at step play no move has been made this turn".to_string());
        }
    }
    Ok(())
}
