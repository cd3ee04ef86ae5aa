//! Move notation: UCI (with both castling styles), SAN and long algebraic.

use shakmaty::{CastlingSide, Move, Role, Square};

use super::fen::{parse_square, role_from_letter};
use super::position::Position;

/// How castling is written in UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingStyle {
    /// The king moves two squares: `e1g1`.
    Standard,
    /// The king takes its own rook: `e1h1`, the only unambiguous form in Chess960.
    KingTakesRook,
}

/// The UCI text of a move.
pub fn to_uci(m: Move, style: CastlingStyle) -> String {
    match m {
        Move::Normal { from, to, promotion, .. } => {
            let mut s = format!("{from}{to}");
            if let Some(role) = promotion {
                s.push(role.char());
            }
            s
        }
        Move::EnPassant { from, to } => format!("{from}{to}"),
        Move::Castle { king, rook } => match style {
            CastlingStyle::KingTakesRook => format!("{king}{rook}"),
            CastlingStyle::Standard => {
                let side = CastlingSide::from_king_side(rook.file() > king.file());
                let to = Square::from_coords(side.king_to_file(), king.rank());
                format!("{king}{to}")
            }
        },
        Move::Put { role, to } => format!("{}@{to}", role.upper_char()),
    }
}

/// The parts of a UCI move text: from, to and an optional promotion role.
pub fn parse_uci_parts(text: &str) -> Option<(Square, Square, Option<Role>)> {
    let text = text.trim();
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return None;
    }
    let from = parse_square(&text[0..2])?;
    let to = parse_square(&text[2..4])?;
    let promotion = match text.len() {
        5 => Some(role_from_letter(text.as_bytes()[4] as char)?),
        _ => None,
    };
    Some((from, to, promotion))
}

/// Find the move among `candidates` written as UCI `text`, in either castling style.
pub fn find_uci(candidates: &[Move], text: &str) -> Option<Move> {
    let (from, to, promotion) = parse_uci_parts(&text.trim().to_ascii_lowercase())?;
    UciAction { from, to, promotion }.resolve(candidates)
}

/// The squares and promotion of `m` written in UCI in `style`: what
/// [`to_uci`] spells, without the text; None for a drop, which has no
/// square to come from (UCI writes it `Q@e4`) and so no [`UciAction`].
#[inline]
fn uci_parts(m: Move, style: CastlingStyle) -> Option<(Square, Square, Option<Role>)> {
    match m {
        Move::Normal { from, to, promotion, .. } => Some((from, to, promotion)),
        Move::EnPassant { from, to } => Some((from, to, None)),
        Move::Castle { king, rook } => match style {
            CastlingStyle::KingTakesRook => Some((king, rook, None)),
            CastlingStyle::Standard => {
                let side = CastlingSide::from_king_side(rook.file() > king.file());
                Some((king, Square::from_coords(side.king_to_file(), king.rank()), None))
            }
        },
        Move::Put { .. } => None,
    }
}

/// A move as typed in UCI: from, to and an optional promotion. It is the
/// action of chess-like games; the game resolves it against its legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UciAction {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

impl UciAction {
    /// The action text of a move in the given castling style.
    /// Read from the move's squares, not its text: a search converts
    /// every legal move of every node it visits (inlined into that loop).
    #[inline]
    pub fn from_move(m: Move, style: CastlingStyle) -> UciAction {
        let (from, to, promotion) = uci_parts(m, style).expect("a drop has no from-to UCI action");
        UciAction { from, to, promotion }
    }

    /// The move among `candidates` this action names, in either castling
    /// style, compared square by square (a search resolves an action at
    /// every node it applies).
    pub fn resolve(&self, candidates: &[Move]) -> Option<Move> {
        candidates.iter().copied().find(|&m| self.names(m))
    }

    /// Whether this action names `m`, in either castling style.
    pub fn names(&self, m: Move) -> bool {
        let parts = Some((self.from, self.to, self.promotion));
        uci_parts(m, CastlingStyle::Standard) == parts || uci_parts(m, CastlingStyle::KingTakesRook) == parts
    }
}

impl std::fmt::Display for UciAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl std::str::FromStr for UciAction {
    type Err = String;

    fn from_str(text: &str) -> Result<UciAction, String> {
        let (from, to, promotion) =
            parse_uci_parts(text).ok_or_else(|| format!("expected a move like e2e4 or e7e8q, not {text:?}"))?;
        Ok(UciAction { from, to, promotion })
    }
}

impl crate::game::GameAction for UciAction {
    fn info(&self) -> crate::view::ActionInfo {
        crate::view::ActionInfo {
            text: self.to_string(),
            from: Some(self.from.to_string()),
            to: Some(self.to.to_string()),
            promotion: self.promotion.map(|r| r.char().to_string()),
            ..Default::default()
        }
    }
}

/// The SAN of a legal move, with `+` or `#`.
pub fn to_san(pos: &Position, m: Move) -> String {
    let mut san = san_without_suffix(pos, m);
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_checkmate() {
        san.push('#');
    } else if after.is_check() {
        san.push('+');
    }
    san
}

fn san_without_suffix(pos: &Position, m: Move) -> String {
    match m {
        Move::Castle { king, rook } => if rook.file() > king.file() { "O-O" } else { "O-O-O" }.to_string(),
        Move::Put { role, to } => format!("{}@{to}", role.upper_char()),
        Move::EnPassant { from, to } => format!("{}x{to}", from.file().char()),
        Move::Normal { role: Role::Pawn, from, capture, to, promotion } => {
            let mut s = String::new();
            if capture.is_some() {
                s.push(from.file().char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = promotion {
                s.push('=');
                s.push(p.upper_char());
            }
            s
        }
        Move::Normal { role, from, capture, to, .. } => {
            let mut s = String::new();
            s.push(role.upper_char());
            s.push_str(&disambiguation(pos, role, from, to));
            if capture.is_some() {
                s.push('x');
            }
            s.push_str(&to.to_string());
            s
        }
    }
}

/// The file, rank or square needed to tell `from` apart from other pieces of
/// the same role that may also legally reach `to`.
fn disambiguation(pos: &Position, role: Role, from: Square, to: Square) -> String {
    let rivals: Vec<Square> = pos
        .legal_moves()
        .iter()
        .filter_map(|m| match *m {
            Move::Normal { role: r, from: f, to: t, .. } if r == role && t == to && f != from => Some(f),
            _ => None,
        })
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|r| r.file() != from.file()) {
        from.file().char().to_string()
    } else if rivals.iter().all(|r| r.rank() != from.rank()) {
        from.rank().char().to_string()
    } else {
        from.to_string()
    }
}

/// Find the legal move written in SAN (suffixes `+ # ! ?` are ignored;
/// `0-0` is accepted for `O-O`; over-specified moves such as `Ng1f3` are read).
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, String> {
    parse_san_among(&pos.legal_moves(), text)
}

/// Find the move written in SAN among `candidates`: for the variants whose
/// legal moves are not orthodox chess's (kings that may stand in check).
pub fn parse_san_among(candidates: &[Move], text: &str) -> Result<Move, String> {
    let pattern = SanPattern::parse(text).ok_or_else(|| format!("cannot read {text:?} as a chess move"))?;
    let matches: Vec<Move> = candidates.iter().copied().filter(|&m| pattern.matches(m)).collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => Err(format!("{text:?} is not a legal move here")),
        _ => Err(format!("{text:?} is ambiguous")),
    }
}

/// What a SAN text says about a move.
enum SanPattern {
    Castle {
        king_side: bool,
    },
    Piece {
        role: Role,
        file: Option<shakmaty::File>,
        rank: Option<shakmaty::Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

impl SanPattern {
    fn parse(text: &str) -> Option<SanPattern> {
        let clean: String = text.trim().trim_end_matches(['+', '#', '!', '?']).replace('0', "O");
        match clean.as_str() {
            "O-O" => return Some(SanPattern::Castle { king_side: true }),
            "O-O-O" => return Some(SanPattern::Castle { king_side: false }),
            _ => {}
        }
        let mut chars: Vec<char> = clean.chars().filter(|c| !matches!(c, 'x' | ':' | '-')).collect();
        let role = match chars.first() {
            Some(&c) if "NBRQK".contains(c) => {
                chars.remove(0);
                role_from_letter(c)?
            }
            _ => Role::Pawn,
        };
        let promotion = match chars.last() {
            Some(&c) if c.is_ascii_alphabetic() && "nbrqkNBRQK".contains(c) && role == Role::Pawn => {
                chars.pop();
                if chars.last() == Some(&'=') {
                    chars.pop();
                }
                Some(role_from_letter(c)?)
            }
            _ => None,
        };
        if chars.len() < 2 || chars.len() > 4 {
            return None;
        }
        let dest: String = chars[chars.len() - 2..].iter().collect();
        let to = parse_square(&dest)?;
        let mut file = None;
        let mut rank = None;
        for &c in &chars[..chars.len() - 2] {
            if let Some(f) = shakmaty::File::from_char(c) {
                file = Some(f);
            } else if let Some(r) = shakmaty::Rank::from_char(c) {
                rank = Some(r);
            } else {
                return None;
            }
        }
        Some(SanPattern::Piece { role, file, rank, to, promotion })
    }

    fn matches(&self, m: Move) -> bool {
        match (self, m) {
            (SanPattern::Castle { king_side }, Move::Castle { king, rook }) => {
                (rook.file() > king.file()) == *king_side
            }
            (SanPattern::Piece { role, file, rank, to, promotion }, m) if !m.is_castle() => {
                let Some(from) = m.from() else { return false };
                m.role() == *role
                    && m.to() == *to
                    && m.promotion() == *promotion
                    && file.is_none_or(|f| f == from.file())
                    && rank.is_none_or(|r| r == from.rank())
            }
            _ => false,
        }
    }
}

/// A move in long algebraic notation, which needs no legality to be
/// unambiguous: `e2-e4`, `Ng1-f3`, `e5xd6`, `e7-e8=Q`, `O-O`, `P@e2`. The
/// variants whose legality is not chess's write their moves this way.
pub fn long_algebraic(m: Move) -> String {
    match m {
        Move::Castle { king, rook } => if rook.file() > king.file() { "O-O" } else { "O-O-O" }.to_string(),
        Move::EnPassant { from, to } => format!("{from}x{to}"),
        Move::Normal { role, from, capture, to, promotion } => format!(
            "{}{from}{}{to}{}",
            if role == Role::Pawn { String::new() } else { role.upper_char().to_string() },
            if capture.is_some() { 'x' } else { '-' },
            promotion.map_or(String::new(), |p| format!("={}", p.upper_char()))
        ),
        Move::Put { role, to } => format!("{}@{to}", role.upper_char()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::parse_fen;

    #[test]
    fn san_round_trips_every_legal_move_of_kiwipete() {
        let pos = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        for &m in pos.legal_moves().iter() {
            let san = to_san(&pos, m);
            assert_eq!(parse_san(&pos, &san), Ok(m), "{san}");
        }
    }

    #[test]
    fn san_disambiguates_and_marks_mate() {
        let pos = parse_fen("6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1").unwrap();
        let m = parse_san(&pos, "Rad1").unwrap();
        assert_eq!(to_san(&pos, m), "Rad1");
        let m = parse_san(&pos, "Re8").unwrap();
        assert_eq!(to_san(&pos, m), "Re8#");
        assert!(parse_san(&pos, "Rd1").unwrap_err().contains("ambiguous"));
    }

    #[test]
    fn uci_castling_in_both_styles() {
        let pos = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let legal = pos.legal_moves();
        let short = find_uci(&legal, "e1g1").unwrap();
        assert_eq!(find_uci(&legal, "e1h1"), Some(short));
        assert_eq!(to_uci(short, CastlingStyle::KingTakesRook), "e1h1");
    }

    /// The action read from a move's squares is the one its UCI text
    /// names, and resolves back to the move: promotions, en passant and
    /// castling in both styles included.
    #[test]
    fn a_uci_action_from_a_move_reads_as_its_text_and_resolves_to_it() {
        let positions = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        for fen in positions {
            let pos = parse_fen(fen).unwrap();
            let legal = pos.legal_moves();
            for &m in legal.iter() {
                for style in [CastlingStyle::Standard, CastlingStyle::KingTakesRook] {
                    let action = UciAction::from_move(m, style);
                    assert_eq!(action.to_string(), to_uci(m, style), "{fen}");
                    assert_eq!(action.resolve(&legal), Some(m), "{fen} {action}");
                    assert_eq!(find_uci(&legal, &to_uci(m, style).to_uppercase()), Some(m), "{fen} {action}");
                }
            }
        }
        let pos = parse_fen(positions[0]).unwrap();
        assert_eq!(find_uci(&pos.legal_moves(), "e2e5"), None, "no such move");
        assert_eq!(find_uci(&pos.legal_moves(), "nonsense"), None);
    }

    #[test]
    fn long_algebraic_names_every_kind_of_move() {
        let moves = [
            (
                Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None },
                "e2-e4",
            ),
            (
                Move::Normal {
                    role: Role::Knight,
                    from: Square::G1,
                    capture: Some(Role::Pawn),
                    to: Square::F3,
                    promotion: None,
                },
                "Ng1xf3",
            ),
            (
                Move::Normal {
                    role: Role::Pawn,
                    from: Square::E7,
                    capture: None,
                    to: Square::E8,
                    promotion: Some(Role::Queen),
                },
                "e7-e8=Q",
            ),
            (Move::EnPassant { from: Square::E5, to: Square::D6 }, "e5xd6"),
            (Move::Castle { king: Square::E1, rook: Square::H1 }, "O-O"),
            (Move::Castle { king: Square::B8, rook: Square::A8 }, "O-O-O"),
            (Move::Put { role: Role::Pawn, to: Square::E2 }, "P@e2"),
        ];
        for (m, text) in moves {
            assert_eq!(long_algebraic(m), text);
        }
    }
}
