//! The text position: 8 board lines, rank 8 first, one square per
//! character (`.` for an empty square, spaces optional, a digit for that
//! many empty squares, piece letters as in FEN, white upper case), then
//! `key: value` lines, cards in short notation (`9h`, `10s`, `qh`):
//!
//! * `hand:` the hand, top card first (required; may be empty);
//! * `discard:` the face-up cards: the laid-out cards in the order drawn,
//!   then the added ones (required);
//! * `face down:` the cards spent on orders (optional, default none);
//! * `negative:` the negative cards spent, once the hand is empty (optional).
//!
//! The cards together are the 16 officer cards, each once, and the pieces
//! on the board are those of the face-up cards (an added piece that did not
//! fit is missing). Blank lines and `#` comments are ignored.
//!
//! ```text
//! . . . . . . . .
//! . . . . . . . .
//! . . . . . . . .
//! . . . . . . . .
//! . r . . b . . .
//! . r . n . N . .
//! . . . . . k . .
//! . . B . . . R .
//! hand: 8d qs 10d 9c 9d 8c qh kh
//! discard: 9h 10h ks 10s 8s 8h 10c 9s
//! ```

use std::collections::BTreeMap;

use chesskit_core::cards::{officer_deck, Card};
use shakmaty::{Board, File, Piece, Rank, Role, Square};

use super::rules::officer;
use super::NEGATIVE_CARDS;

/// A position read from text.
#[derive(Clone, Debug, PartialEq)]
pub struct Parts {
    pub board: Board,
    pub hand: Vec<Card>,
    pub discard: Vec<Card>,
    pub face_down: Vec<Card>,
    pub negative: Option<u32>,
}

/// Write a position in the text format.
pub fn write(board: &Board, hand: &[Card], discard: &[Card], face_down: &[Card], negative: Option<u32>) -> String {
    let mut out = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        let squares: Vec<String> = File::ALL
            .into_iter()
            .map(|file| board.piece_at(Square::from_coords(file, rank)).map_or('.', |p| p.char()).to_string())
            .collect();
        out.push_str(&squares.join(" "));
        out.push('\n');
    }
    let cards = |cards: &[Card]| cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
    out.push_str(&format!("hand: {}\n", cards(hand)));
    out.push_str(&format!("discard: {}\n", cards(discard)));
    if !face_down.is_empty() {
        out.push_str(&format!("face down: {}\n", cards(face_down)));
    }
    if let Some(spent) = negative {
        out.push_str(&format!("negative: {spent}\n"));
    }
    out
}

/// Read a position, or say which line is wrong and why.
pub fn read(text: &str) -> Result<Parts, String> {
    let mut board_lines = Vec::new();
    let mut keys: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(':') {
            Some((key, value)) => {
                let key = key.trim().to_ascii_lowercase();
                if !["hand", "discard", "face down", "negative"].contains(&key.as_str()) {
                    return Err(format!(
                        "line {line_no}: unknown key {key:?} (known: hand, discard, face down, negative)"
                    ));
                }
                if keys.insert(key.clone(), (line_no, value.trim().to_string())).is_some() {
                    return Err(format!("line {line_no}: {key:?} given twice"));
                }
            }
            None if keys.is_empty() => board_lines.push((line_no, line)),
            None => return Err(format!("line {line_no}: a board line after the key lines")),
        }
    }
    let board = read_board(&board_lines)?;
    let cards = |key: &str| -> Result<Vec<Card>, String> {
        match keys.get(key) {
            None => Ok(Vec::new()),
            Some((line_no, value)) => value
                .split_whitespace()
                .map(|w| w.parse::<Card>().map_err(|e| format!("line {line_no} ({key}): {e}")))
                .collect(),
        }
    };
    for required in ["hand", "discard"] {
        if !keys.contains_key(required) {
            return Err(format!("the position needs a {required:?} line"));
        }
    }
    let parts = Parts {
        board,
        hand: cards("hand")?,
        discard: cards("discard")?,
        face_down: cards("face down")?,
        negative: match keys.get("negative") {
            None => None,
            Some((line_no, value)) => Some(value.parse::<u32>().map_err(|_| {
                format!("line {line_no}: negative is a count of cards, 0 to {NEGATIVE_CARDS}, not {value:?}")
            })?),
        },
    };
    check(&parts)?;
    Ok(parts)
}

fn read_board(lines: &[(usize, &str)]) -> Result<Board, String> {
    if lines.len() != 8 {
        return Err(format!("the position has {} board lines; it needs exactly 8, rank 8 first", lines.len()));
    }
    let mut board = Board::empty();
    for (i, &(line_no, line)) in lines.iter().enumerate() {
        let rank = Rank::new(7 - i as u32);
        let mut file = 0u32;
        for c in line.chars().filter(|c| !c.is_whitespace()) {
            let run = c.to_digit(10).filter(|d| (1..=8).contains(d)).unwrap_or(1);
            if file + run > 8 {
                return Err(format!("line {line_no} (rank {}): more than 8 squares", rank.char()));
            }
            if c != '.' && !c.is_ascii_digit() {
                let piece = Piece::from_char(c).ok_or_else(|| {
                    format!("line {line_no}: {c:?} is not a piece letter (K Q R B N, black lower case)")
                })?;
                board.set_piece_at(Square::from_coords(File::new(file), rank), piece);
            }
            file += run;
        }
        if file != 8 {
            return Err(format!("line {line_no} (rank {}): {file} squares, expected 8", rank.char()));
        }
    }
    Ok(board)
}

/// A position that cannot occur: wrong cards, pieces without cards, a
/// negative count while cards remain.
fn check(parts: &Parts) -> Result<(), String> {
    if parts.board.by_role(Role::Pawn).any() {
        return Err("the parade has no pawns; the position has one".to_string());
    }
    let all: Vec<&Card> = parts.hand.iter().chain(&parts.discard).chain(&parts.face_down).collect();
    let mut seen = Vec::new();
    for &card in &all {
        officer(*card)?;
        if seen.contains(card) {
            return Err(format!("{card} appears twice; each of the 16 cards is used once"));
        }
        seen.push(*card);
    }
    let missing: Vec<String> =
        officer_deck().into_iter().filter(|c| !seen.contains(c)).map(|c| c.to_string()).collect();
    if !missing.is_empty() {
        return Err(format!(
            "cards missing: {} (hand, discard and face down hold all 16 officer cards)",
            missing.join(" ")
        ));
    }
    if parts.discard.len() < super::PILE {
        return Err(format!(
            "the discard holds the {} laid-out cards at least, not {}",
            super::PILE,
            parts.discard.len()
        ));
    }
    check_pieces_match_cards(parts)?;
    match parts.negative {
        Some(_) if !parts.hand.is_empty() => {
            Err("a negative count starts only when the hand is empty; this hand still has cards".to_string())
        }
        Some(spent) if spent > NEGATIVE_CARDS => {
            Err(format!("at most {NEGATIVE_CARDS} negative cards can be spent, not {spent}"))
        }
        _ => Ok(()),
    }
}

/// Every piece on the board stands for a face-up card (a card whose piece
/// did not fit has none).
fn check_pieces_match_cards(parts: &Parts) -> Result<(), String> {
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
        for color in shakmaty::Color::ALL {
            let piece = Piece { color, role };
            let on_board = parts.board.by_piece(piece).count();
            let cards = parts.discard.iter().filter(|c| c.piece() == Some(piece)).count();
            if on_board > cards {
                return Err(format!(
                    "{on_board} {}s on the board but only {cards} face-up cards for them",
                    super::rules::piece_name(piece)
                ));
            }
        }
    }
    Ok(())
}
