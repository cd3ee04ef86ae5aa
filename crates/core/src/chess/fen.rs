//! FEN, X-FEN and Shredder-FEN in and out, with Chess Kit's extension: a
//! piece letter may be followed by `{...}` holding a game's markers for that
//! square (`P{z}` is a zombie pawn), and an empty square may carry markers
//! as `.{...}` inside a rank.

use std::collections::BTreeMap;

use shakmaty::{Bitboard, Board, Color, File, Piece, Rank, Role, Square};

use super::position::{Geometry, Position};

/// Markers read from a board field: square -> the text inside `{...}`.
pub type Markers = BTreeMap<Square, String>;

/// How castling rights are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingNotation {
    /// `KQkq` for the outermost rooks, file letters otherwise (X-FEN). This
    /// is plain FEN for orthodox positions.
    XFen,
    /// File letters always: `HAha`.
    Shredder,
}

/// What a position must satisfy to be accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Validation {
    /// Exactly one king of each colour.
    pub one_king_each: bool,
    /// The side not to move may not be in check.
    pub opponent_not_in_check: bool,
    /// No pawns on the first or last rank of the board.
    pub pawns_off_back_ranks: bool,
}

impl Validation {
    pub const ORTHODOX: Validation =
        Validation { one_king_each: true, opponent_not_in_check: true, pawns_off_back_ranks: true };
    /// Only the syntax is checked.
    pub const NONE: Validation =
        Validation { one_king_each: false, opponent_not_in_check: false, pawns_off_back_ranks: false };
}

/// Parse a FEN (or X-FEN, or Shredder-FEN) under the orthodox geometry and checks.
pub fn parse_fen(text: &str) -> Result<Position, String> {
    let (pos, markers) = parse_fen_with(text, Geometry::ORTHODOX, Validation::ORTHODOX)?;
    if let Some((sq, _)) = markers.iter().next() {
        return Err(format!("unexpected marker on {sq}: plain FEN has no {{...}} markers"));
    }
    Ok(pos)
}

/// Parse a FEN with markers under a geometry and a validation level. The
/// turn, castling, en passant and clock fields may be left out (defaults:
/// White to move, no castling, no en passant, clocks 0 and 1).
pub fn parse_fen_with(text: &str, geometry: Geometry, validation: Validation) -> Result<(Position, Markers), String> {
    let mut fields = text.split_whitespace();
    let board_field = fields.next().ok_or("empty FEN: expected the board field")?;
    let (board, markers) = parse_board(board_field)?;
    let turn = match fields.next() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => return Err(format!("bad side to move {other:?}: expected w or b")),
    };
    let castling = match fields.next() {
        None => Bitboard::EMPTY,
        Some(field) => parse_castling(field, &board)?,
    };
    let ep_square = match fields.next() {
        None | Some("-") => None,
        Some(field) => {
            let sq = parse_square(field).ok_or_else(|| format!("bad en passant square {field:?}"))?;
            if sq.rank() != turn.fold_wb(Rank::Sixth, Rank::Third) {
                return Err(format!(
                    "bad en passant square {field}: must be on the {} rank",
                    turn.fold_wb("6th", "3rd")
                ));
            }
            Some(sq)
        }
    };
    let halfmoves = parse_counter(fields.next(), 0, "halfmove clock")?;
    let fullmoves = parse_counter(fields.next(), 1, "fullmove number")?;
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected text after the FEN: {extra:?}"));
    }
    let pos = Position::from_parts(board, turn, castling, ep_square, halfmoves, fullmoves.max(1), geometry);
    validate(&pos, validation)?;
    Ok((pos, markers))
}

fn parse_counter(field: Option<&str>, default: u32, what: &str) -> Result<u32, String> {
    match field {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| format!("bad {what} {text:?}: expected a number")),
    }
}

/// Parse a square name such as `e4`.
pub fn parse_square(text: &str) -> Option<Square> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = File::from_char(bytes[0] as char)?;
    let rank = Rank::from_char(bytes[1] as char)?;
    Some(Square::from_coords(file, rank))
}

/// Parse the board field: eight ranks, rank 8 first, with optional markers.
pub fn parse_board(field: &str) -> Result<(Board, Markers), String> {
    let ranks: Vec<&str> = split_ranks(field);
    if ranks.len() != 8 {
        return Err(format!("bad board {field:?}: expected 8 ranks separated by '/', found {}", ranks.len()));
    }
    let mut board = Board::empty();
    let mut markers = Markers::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u32);
        let mut file = 0u32;
        let mut chars = rank_text.chars().peekable();
        let mut last_square: Option<Square> = None;
        while let Some(c) = chars.next() {
            if c == '{' {
                let sq =
                    last_square.ok_or_else(|| format!("marker with no piece before it on rank {}", rank.char()))?;
                let mut inside = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(ch) => inside.push(ch),
                        None => return Err(format!("unclosed '{{' on rank {}", rank.char())),
                    }
                }
                markers.insert(sq, inside);
                continue;
            }
            if file >= 8 {
                return Err(format!("rank {} of {field:?} has more than 8 squares", rank.char()));
            }
            if let Some(n) = c.to_digit(10) {
                if n == 0 || n == 9 {
                    return Err(format!("bad empty-square count {c} on rank {}", rank.char()));
                }
                file += n;
                last_square = None;
            } else if c == '.' {
                last_square = Some(Square::from_coords(File::new(file), rank));
                file += 1;
            } else {
                let piece =
                    Piece::from_char(c).ok_or_else(|| format!("unknown piece letter {c:?} on rank {}", rank.char()))?;
                let sq = Square::from_coords(File::new(file), rank);
                board.set_piece_at(sq, piece);
                last_square = Some(sq);
                file += 1;
            }
        }
        if file != 8 {
            return Err(format!("rank {} of {field:?} has {file} squares, expected 8", rank.char()));
        }
    }
    Ok((board, markers))
}

/// Split on '/' outside of `{...}`.
fn split_ranks(field: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in field.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            '/' if depth == 0 => {
                parts.push(&field[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&field[start..]);
    parts
}

fn parse_castling(field: &str, board: &Board) -> Result<Bitboard, String> {
    let mut rooks = Bitboard::EMPTY;
    if field == "-" {
        return Ok(rooks);
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back = color.backrank();
        let our_rooks = board.by_piece(color.rook()) & Bitboard::from_rank(back);
        let king = board.king_of(color).filter(|k| k.rank() == back);
        let rook = match c.to_ascii_lowercase() {
            'k' => king.and_then(|k| our_rooks.into_iter().rfind(|r| r.file() > k.file())),
            'q' => king.and_then(|k| our_rooks.into_iter().find(|r| r.file() < k.file())),
            f @ 'a'..='h' => {
                let sq = Square::from_coords(File::from_char(f).expect("a to h"), back);
                our_rooks.contains(sq).then_some(sq)
            }
            _ => return Err(format!("bad castling field {field:?}: unexpected {c:?}")),
        };
        let rook =
            rook.ok_or_else(|| format!("castling right {c:?} names no rook beside the king on the back rank"))?;
        rooks.add(rook);
    }
    Ok(rooks)
}

fn validate(pos: &Position, v: Validation) -> Result<(), String> {
    let board = pos.board();
    if (board.occupied() & !pos.mask()).any() {
        return Err("a piece stands outside the board in play".to_string());
    }
    if v.one_king_each {
        for color in Color::ALL {
            let n = (board.kings() & board.by_color(color)).count();
            if n != 1 {
                return Err(format!("{} must have exactly one king, found {n}", color_name(color)));
            }
        }
    }
    if v.pawns_off_back_ranks {
        // The board's own first and last ranks: 2 and 7 on the Los Alamos board.
        let geometry = pos.geometry();
        let back_ranks = Color::ALL
            .into_iter()
            .filter_map(|color| geometry.back_rank(color))
            .fold(Bitboard::EMPTY, |ranks, rank| ranks | Bitboard::from_rank(rank));
        if let Some(square) = (board.pawns() & back_ranks).first() {
            return Err(format!("a pawn stands on the first or last rank of the board ({square})"));
        }
    }
    if !pos.castling_rights_valid() {
        return Err("castling rights name rooks that cannot castle".to_string());
    }
    if let Some(ep) = pos.ep_square() {
        let us = pos.turn();
        let pushed = ep.offset(us.fold_wb(-8, 8));
        let origin = ep.offset(us.fold_wb(8, -8));
        let pawn_there = pushed.is_some_and(|sq| board.piece_at(sq) == Some(us.other().pawn()));
        let empty = !board.occupied().contains(ep) && origin.is_some_and(|sq| !board.occupied().contains(sq));
        if !pawn_there || !empty {
            return Err(format!("en passant square {ep} does not follow a pawn's double step"));
        }
    }
    if v.opponent_not_in_check {
        let them = pos.turn().other();
        if let Some(king) = pos.king_of(them) {
            if pos.is_attacked(king, pos.turn()) {
                return Err(format!("the side not to move ({}) is in check", color_name(them)));
            }
        }
    }
    Ok(())
}

pub fn color_name(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}

/// The board field of a FEN, with optional markers appended to squares.
pub fn board_fen(board: &Board, markers: &Markers) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(File::new(file), Rank::new(rank));
            let marker = markers.get(&sq);
            match (board.piece_at(sq), marker) {
                (None, None) => empty += 1,
                (piece, marker) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(piece.map_or('.', Piece::char));
                    if let Some(m) = marker {
                        out.push('{');
                        out.push_str(m);
                        out.push('}');
                    }
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The castling field in the given notation.
pub fn castling_field(pos: &Position, notation: CastlingNotation) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        let rights = pos.castling_rooks() & Bitboard::from_rank(color.backrank());
        let our_rooks = pos.board().by_piece(color.rook()) & Bitboard::from_rank(color.backrank());
        let king = pos.king_of(color);
        let mut letters: Vec<char> = Vec::new();
        // King side first, as FEN writes K before Q.
        for rook in rights.into_iter().rev() {
            let letter = match (notation, king) {
                (CastlingNotation::XFen, Some(k)) if rook.file() > k.file() => {
                    let outermost = our_rooks.into_iter().rfind(|r| r.file() > k.file()) == Some(rook);
                    if outermost {
                        'k'
                    } else {
                        rook.file().char()
                    }
                }
                (CastlingNotation::XFen, Some(k)) if rook.file() < k.file() => {
                    let outermost = our_rooks.into_iter().find(|r| r.file() < k.file()) == Some(rook);
                    if outermost {
                        'q'
                    } else {
                        rook.file().char()
                    }
                }
                _ => rook.file().char(),
            };
            letters.push(letter);
        }
        for c in letters {
            out.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
        }
    }
    if out.is_empty() {
        "-".to_string()
    } else {
        out
    }
}

/// The full FEN of a position.
pub fn to_fen(pos: &Position, notation: CastlingNotation) -> String {
    to_fen_with_markers(pos, &Markers::new(), notation)
}

/// The full FEN with markers in the board field.
pub fn to_fen_with_markers(pos: &Position, markers: &Markers, notation: CastlingNotation) -> String {
    fen_fields(pos, markers, notation, pos.legal_ep_square())
}

/// The FEN line of a game's text position: markers in the board field and
/// the en passant square as the position holds it, since a game with its
/// own capture rules (a mirror, checkers, zombies) judges that square
/// itself rather than by orthodox legality.
pub fn text_position_fen(pos: &Position, markers: &Markers, notation: CastlingNotation) -> String {
    fen_fields(pos, markers, notation, pos.ep_square())
}

fn fen_fields(pos: &Position, markers: &Markers, notation: CastlingNotation, ep: Option<Square>) -> String {
    format!(
        "{} {} {} {} {} {}",
        board_fen(pos.board(), markers),
        pos.turn().fold_wb('w', 'b'),
        castling_field(pos, notation),
        ep.map_or("-".to_string(), |sq| sq.to_string()),
        pos.halfmoves(),
        pos.fullmoves()
    )
}

/// A game's text position split in two: the FEN on its first non-blank
/// line, and the `key: value` lines after it (a turn in progress, secrets,
/// supplies), which [`KeyLines::fields`] reads once the FEN is read, so
/// that a bad FEN is reported first.
pub fn split_text_position(text: &str) -> Result<(&str, KeyLines<'_>), String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let fen_line = lines.next().ok_or("empty position: expected a FEN")?;
    Ok((fen_line, KeyLines { lines: lines.collect() }))
}

/// The `key: value` lines of a text position, after its FEN line.
pub struct KeyLines<'a> {
    lines: Vec<&'a str>,
}

impl<'a> KeyLines<'a> {
    /// Each value by its key, both trimmed. A line with no colon, a key the
    /// game does not know (`known`) and a key given twice are refused: a
    /// mistyped or doubled line would otherwise be silently ignored.
    pub fn fields(self, known: &[&str]) -> Result<BTreeMap<&'a str, &'a str>, String> {
        let mut fields = BTreeMap::new();
        for line in self.lines {
            let (key, value) =
                line.split_once(':').ok_or_else(|| format!("expected a `key: value` line, not {line:?}"))?;
            let key = key.trim();
            if !known.contains(&key) {
                return Err(format!("unknown line {key:?} (known: {})", known.join(", ")));
            }
            if fields.insert(key, value.trim()).is_some() {
                return Err(format!("the line {key:?} appears twice"));
            }
        }
        Ok(fields)
    }
}

/// The role named by a letter, either case.
pub fn role_from_letter(c: char) -> Option<Role> {
    Role::from_char(c.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn round_trips_the_start_position() {
        let pos = parse_fen(START).unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(to_fen(&pos, CastlingNotation::XFen), START);
        assert_eq!(
            to_fen(&pos, CastlingNotation::Shredder),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn reads_shredder_and_x_fen_castling() {
        let shredder = parse_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1").unwrap();
        let xfen = parse_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1").unwrap();
        assert_eq!(shredder, xfen);
        assert_eq!(to_fen(&xfen, CastlingNotation::XFen).split(' ').nth(2), Some("KQkq"));
    }

    #[test]
    fn x_fen_names_an_inner_rook_by_its_file() {
        // Two rooks on the h side: the inner one (f1) has the right.
        let pos = parse_fen("4k3/8/8/8/8/8/8/4KR1R w F - 0 1").unwrap();
        assert_eq!(castling_field(&pos, CastlingNotation::XFen), "F");
    }

    #[test]
    fn markers_round_trip() {
        let (pos, markers) =
            parse_fen_with("4k3/8/2P{z}5/8/8/8/8/4K3 w - - 0 1", Geometry::ORTHODOX, Validation::ORTHODOX).unwrap();
        assert_eq!(markers.get(&Square::C6).map(String::as_str), Some("z"));
        assert_eq!(board_fen(pos.board(), &markers), "4k3/8/2P{z}5/8/8/8/8/4K3");
    }

    #[test]
    fn bad_fens_name_the_problem() {
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "expected 8 ranks"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter 'X'"),
            ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad empty-square count"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "bad side to move"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1", "exactly one king"),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right"),
            ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant square"),
            ("4k3/8/8/8/8/8/8/4K2R w - - x 1", "halfmove clock"),
            ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "is in check"),
        ];
        for (fen, expected) in cases {
            let err = parse_fen(fen).unwrap_err();
            assert!(err.contains(expected), "{fen}: {err}");
        }
    }

    #[test]
    fn text_position_splits_the_fen_from_its_key_lines() {
        let text = "\n  4k3/8/8/8/8/8/8/4K3 w - - 0 1 \nphase:  checker \n\nnext en passant: e3\n";
        let (fen, lines) = split_text_position(text).unwrap();
        assert_eq!(fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let fields = lines.fields(&["phase", "next en passant"]).unwrap();
        assert_eq!(fields.get("phase"), Some(&"checker"));
        assert_eq!(fields.get("next en passant"), Some(&"e3"));
        assert_eq!(fields.len(), 2);
    }

    #[test]
    fn text_position_refuses_blank_text_and_bad_key_lines() {
        assert_eq!(split_text_position(" \n\n").err().unwrap(), "empty position: expected a FEN");
        let cases = [
            ("8/8/8/8/8/8/8/8\nphase checker", "expected a `key: value` line, not \"phase checker\""),
            ("8/8/8/8/8/8/8/8\ncolour: red", "unknown line \"colour\" (known: phase, piece)"),
            ("8/8/8/8/8/8/8/8\nphase: checker\nphase: checker", "the line \"phase\" appears twice"),
        ];
        for (text, expected) in cases {
            let (_, lines) = split_text_position(text).unwrap();
            assert_eq!(lines.fields(&["phase", "piece"]).unwrap_err(), expected, "{text}");
        }
    }

    #[test]
    fn text_position_fen_keeps_the_en_passant_square_the_game_holds() {
        let (mut pos, _) =
            parse_fen_with("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", Geometry::ORTHODOX, Validation::ORTHODOX).unwrap();
        pos.set_ep_square(Some(Square::E3));
        let mut markers = Markers::new();
        markers.insert(Square::E4, "m".to_string());
        assert_eq!(text_position_fen(&pos, &markers, CastlingNotation::XFen), "4k3/8/8/8/4P{m}3/8/8/4K3 b - e3 0 1");
        assert_eq!(to_fen_with_markers(&pos, &markers, CastlingNotation::XFen), "4k3/8/8/8/4P{m}3/8/8/4K3 b - - 0 1");
    }
}
