//! The text position: a first line with the board as in FEN (rank 8
//! first) and the colour whose turn it is (`w` or `b`), then `key: value`
//! lines, cards in short notation (`9h`, `10s`, `qh`), piles top card first:
//!
//! * `white holds:` the deck White holds and flips from (black cards);
//! * `black holds:` the deck Black holds (white cards);
//! * `flipped:` the card flipped this turn, whose piece is still to be added
//!   (`-` or absent: none; with cards left in the mover's deck the turn has
//!   not started and the top card is flipped at once);
//! * `moved:` squares of the mover's pieces that have moved this turn;
//! * `stayed:` squares of the mover's pieces declared unable to move;
//! * `captured:` the pieces White and Black have captured, two numbers;
//! * `set aside:` cards whose piece found the top row full.
//!
//! Blank lines and `#` comments are ignored. The book's order example,
//! White to move with the black rook flipped:
//!
//! ```text
//! 4P3/4B3/r3P3/1n2b3/8/8/8/8 w
//! white holds: 2s 3s
//! black holds: 2h 3h 4h
//! flipped: 10s
//! ```

use std::collections::BTreeMap;

use chesskit_core::cards::Card;
use shakmaty::{Bitboard, Board, Color, Square};

/// A position read from text, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Parts {
    pub board: Board,
    pub turn: Color,
    /// The piles held by White and Black, top card first.
    pub holds: [Vec<Card>; 2],
    pub flipped: Option<Card>,
    pub moved: Bitboard,
    pub stayed: Bitboard,
    pub captured: [u32; 2],
    pub set_aside: Vec<Card>,
}

const KEYS: [&str; 7] = ["white holds", "black holds", "flipped", "moved", "stayed", "captured", "set aside"];

/// Write a position in the text format.
pub fn write(parts: &Parts) -> String {
    let cards = |cards: &[Card]| cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
    let squares = |b: Bitboard| b.into_iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ");
    let mut out = format!("{} {}\n", parts.board.board_fen(), parts.turn.char());
    out.push_str(&format!("white holds: {}\n", cards(&parts.holds[0])));
    out.push_str(&format!("black holds: {}\n", cards(&parts.holds[1])));
    if let Some(card) = parts.flipped {
        out.push_str(&format!("flipped: {card}\n"));
    }
    if parts.moved.any() {
        out.push_str(&format!("moved: {}\n", squares(parts.moved)));
    }
    if parts.stayed.any() {
        out.push_str(&format!("stayed: {}\n", squares(parts.stayed)));
    }
    out.push_str(&format!("captured: {} {}\n", parts.captured[0], parts.captured[1]));
    if !parts.set_aside.is_empty() {
        out.push_str(&format!("set aside: {}\n", cards(&parts.set_aside)));
    }
    out
}

/// Read a position, or say which line is wrong and why.
pub fn read(text: &str) -> Result<Parts, String> {
    let mut first = None;
    let mut keys: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if first.is_none() {
            first = Some((line_no, line));
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("line {line_no}: expected `key: value` (keys: {})", KEYS.join(", ")))?;
        let key = key.trim().to_ascii_lowercase();
        if !KEYS.contains(&key.as_str()) {
            return Err(format!("line {line_no}: unknown key {key:?} (known: {})", KEYS.join(", ")));
        }
        if keys.insert(key.clone(), (line_no, value.trim().to_string())).is_some() {
            return Err(format!("line {line_no}: {key:?} given twice"));
        }
    }
    let (line_no, first) = first.ok_or("the position is empty: expected a board in FEN and w or b")?;
    let (board, turn) = read_first_line(line_no, first)?;
    let cards = |key: &str| -> Result<Vec<Card>, String> {
        match keys.get(key) {
            None => Ok(Vec::new()),
            Some((_, value)) if value == "-" => Ok(Vec::new()),
            Some((line_no, value)) => value
                .split_whitespace()
                .map(|w| w.parse::<Card>().map_err(|e| format!("line {line_no} ({key}): {e}")))
                .collect(),
        }
    };
    let squares = |key: &str| -> Result<Bitboard, String> {
        let Some((line_no, value)) = keys.get(key) else { return Ok(Bitboard::EMPTY) };
        let mut set = Bitboard::EMPTY;
        for word in value.split_whitespace().filter(|w| *w != "-") {
            let square: Square =
                word.parse().map_err(|_| format!("line {line_no} ({key}): {word:?} is not a square like e4"))?;
            set.add(square);
        }
        Ok(set)
    };
    let flipped = match cards("flipped")?.as_slice() {
        [] => None,
        [card] => Some(*card),
        _ => return Err(format!("line {}: flipped is one card", keys["flipped"].0)),
    };
    let captured = match keys.get("captured") {
        None => [0, 0],
        Some((line_no, value)) => {
            let numbers: Vec<u32> = value
                .split_whitespace()
                .map(|w| w.parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("line {line_no}: captured is two counts, White's then Black's, like `1 0`"))?;
            match numbers.as_slice() {
                [white, black] => [*white, *black],
                _ => return Err(format!("line {line_no}: captured is two counts, White's then Black's, like `1 0`")),
            }
        }
    };
    Ok(Parts {
        board,
        turn,
        holds: [cards("white holds")?, cards("black holds")?],
        flipped,
        moved: squares("moved")?,
        stayed: squares("stayed")?,
        captured,
        set_aside: cards("set aside")?,
    })
}

fn read_first_line(line_no: usize, line: &str) -> Result<(Board, Color), String> {
    let mut words = line.split_whitespace();
    let fen = words.next().unwrap_or_default();
    let board: Board =
        fen.parse().map_err(|e| format!("line {line_no}: {fen:?} is not a board in FEN (rank 8 first): {e}"))?;
    let turn = match words.next() {
        Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => return Err(format!("line {line_no}: the turn is w or b, not {other:?}")),
        None => return Err(format!("line {line_no}: after the board, say whose turn it is: w or b")),
    };
    if let Some(extra) = words.next() {
        return Err(format!("line {line_no}: unexpected {extra:?} after the turn"));
    }
    Ok((board, turn))
}
