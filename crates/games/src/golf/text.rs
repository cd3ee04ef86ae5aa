//! The puzzle text format: 8 board lines, rank 8 first, one square per
//! character (`.` for an empty square, spaces between squares optional,
//! a digit for that many empty squares), then `key: value` lines:
//!
//! * `chosen: Kb` the chosen cards as piece letters (required, 2 or more);
//! * `capturer: h5` and `remaining: b` for a puzzle part-way through (the
//!   piece that captured first, and the cards it still has to capture).
//!
//! Blank lines and lines starting with `#` are ignored.
//!
//! ```text
//! . . B . . . R .
//! . . . . . k . .
//! . r . n . N . .
//! . r . . b . . .
//! R . . . . . q .
//! . B . n . N . .
//! b . . . . . . K
//! . . . . . Q . .
//! chosen: Kb
//! ```

use shakmaty::{Color, File, Rank, Square};

use super::rules::{golf_piece, piece_name, Board, Cards, Puzzle, ROLES};

/// Read one board line (rank `rank`) into `board`.
fn parse_rank(line: &str, rank: Rank, line_no: usize, board: &mut Board) -> Result<(), String> {
    let mut file = 0u32;
    let where_ = |file: u32| {
        format!("line {line_no} (rank {}, square {})", rank.char(), Square::from_coords(File::new(file), rank))
    };
    for c in line.chars().filter(|c| !c.is_whitespace()) {
        if let Some(run) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
            file += run;
            if file > 8 {
                return Err(format!("line {line_no} (rank {}): more than 8 squares", rank.char()));
            }
            continue;
        }
        if file >= 8 {
            return Err(format!("line {line_no} (rank {}): more than 8 squares", rank.char()));
        }
        if c != '.' && c != '-' {
            let piece = golf_piece(c).map_err(|e| format!("{}: {e}", where_(file)))?;
            board.put(Square::from_coords(File::new(file), rank), piece);
        }
        file += 1;
    }
    if file != 8 {
        return Err(format!("line {line_no} (rank {}): {file} squares, expected 8", rank.char()));
    }
    Ok(())
}

/// Read the 8 board lines (line number, text), rank 8 first.
pub fn parse_board(lines: &[(usize, &str)]) -> Result<Board, String> {
    let mut board = Board::empty();
    if let Some(&(line_no, _)) = lines.get(8) {
        return Err(format!("line {line_no}: a 9th board line; a puzzle has exactly 8 board lines, rank 8 first"));
    }
    if lines.len() != 8 {
        return Err(format!("the puzzle has {} board lines; it needs exactly 8, rank 8 first", lines.len()));
    }
    for (i, &(line_no, line)) in lines.iter().enumerate() {
        parse_rank(line, Rank::new(7 - i as u32), line_no, &mut board)?;
    }
    Ok(board)
}

/// Numbered board lines: (line number, text).
pub type BoardLines<'a> = Vec<(usize, &'a str)>;

/// Numbered `key: value` lines: (line number, lower-case key, value).
pub type KeyLines<'a> = Vec<(usize, &'a str, &'a str)>;

/// Split a text into board lines and `key: value` lines (with their line
/// numbers), skipping blank lines and `#` comments.
pub fn split_lines(text: &str) -> (BoardLines<'_>, KeyLines<'_>) {
    let mut board = Vec::new();
    let mut keys = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(':') {
            Some((key, value)) => keys.push((i + 1, key.trim(), value.trim())),
            None => board.push((i + 1, line)),
        }
    }
    (board, keys)
}

/// Read a puzzle in the text format. Errors name the line.
pub fn parse_puzzle(text: &str) -> Result<Puzzle, String> {
    let (board_lines, keys) = split_lines(text);
    let mut chosen: Option<(usize, Cards)> = None;
    let mut capturer: Option<(usize, Square)> = None;
    let mut remaining: Option<(usize, Cards)> = None;
    for (line_no, key, value) in keys {
        match key.to_ascii_lowercase().as_str() {
            "chosen" => {
                let cards = value.parse::<Cards>().map_err(|e| format!("line {line_no} (chosen): {e}"))?;
                chosen = Some((line_no, cards));
            }
            "capturer" => {
                let sq = value
                    .parse::<Square>()
                    .map_err(|_| format!("line {line_no} (capturer): {value:?} is not a square; write it like h5"))?;
                capturer = Some((line_no, sq));
            }
            "remaining" => {
                let cards = value.parse::<Cards>().map_err(|e| format!("line {line_no} (remaining): {e}"))?;
                remaining = Some((line_no, cards));
            }
            _ => {
                return Err(format!(
                    "line {line_no}: unknown key {key:?} (a puzzle has 8 board lines, then chosen:, and optionally capturer: and remaining:)"
                ))
            }
        }
    }
    let board = parse_board(&board_lines)?;
    let Some((chosen_line, chosen)) = chosen else {
        return Err("the puzzle has no chosen: line (the chosen cards, such as chosen: Kb)".to_string());
    };
    if chosen.len() < 2 {
        return Err(format!("line {chosen_line} (chosen): at least 2 cards must be chosen, found {}", chosen.len()));
    }
    match (capturer, remaining) {
        (None, None) => {
            check_cards_on_board(&board, chosen, chosen_line, "chosen card")?;
            Ok(Puzzle::new(board, chosen))
        }
        (Some((line, sq)), Some((_, remaining))) => {
            let piece =
                board.piece_at(sq).ok_or_else(|| format!("line {line} (capturer): there is no piece on {sq}"))?;
            let mut left = chosen;
            if !left.remove(piece) {
                return Err(format!("line {line} (capturer): the {} on {sq} is not a chosen piece", piece_name(piece)));
            }
            for card in remaining.pieces() {
                if !left.remove(card) {
                    return Err(format!(
                        "remaining: {} is not among the chosen cards still to capture",
                        piece_name(card)
                    ));
                }
            }
            check_cards_on_board(&board, remaining, chosen_line, "card still to capture")?;
            Ok(Puzzle::resume(board, chosen, sq, remaining))
        }
        (Some((line, _)), None) | (None, Some((line, _))) => {
            Err(format!("line {line}: capturer: and remaining: go together (a puzzle after its first capture)"))
        }
    }
}

/// Every card must have its own piece on the board.
fn check_cards_on_board(board: &Board, cards: Cards, line: usize, what: &str) -> Result<(), String> {
    for piece in cards.kinds() {
        let wanted = cards.count(piece);
        let present = board.by_piece(piece).count() as u32;
        if present == 0 {
            return Err(format!(
                "line {line}: {what} {} ({}) has no piece on the board",
                piece.char(),
                piece_name(piece)
            ));
        }
        if present < wanted {
            return Err(format!(
                "line {line}: {what} {} ({}) is chosen {wanted} times but the board has only {present}",
                piece.char(),
                piece_name(piece)
            ));
        }
    }
    Ok(())
}

/// The board lines, rank 8 first, squares separated by spaces.
pub fn board_text(board: &Board) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let cells: Vec<String> = (0..8)
            .map(|file| {
                let sq = Square::from_coords(File::new(file), Rank::new(rank));
                board.piece_at(sq).map_or('.', |p| p.char()).to_string()
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// A puzzle in the text format, read back by [`parse_puzzle`].
pub fn puzzle_text(puzzle: &Puzzle) -> String {
    let mut out = board_text(&puzzle.board);
    out.push_str(&format!("chosen: {}\n", puzzle.chosen));
    if let Some(sq) = puzzle.capturer() {
        out.push_str(&format!("capturer: {sq}\nremaining: {}\n", puzzle.remaining()));
    }
    out
}

/// Count the pieces of each kind, for messages: "KQRRBBNN kqrrbbnn".
pub fn census(board: &Board) -> String {
    let mut out = String::new();
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            let piece = shakmaty::Piece { color, role };
            for _ in 0..board.by_piece(piece).count() {
                out.push(piece.char());
            }
        }
        out.push(' ');
    }
    out.trim_end().to_string()
}
