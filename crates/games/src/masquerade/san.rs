//! Standard algebraic notation for Masquerade Chess. The protocol accepts
//! SAN in chess games ("SAN such as Nf3 is accepted in chess games and
//! answered as g1f3", docs/protocol.md); here it names a move without
//! capturing (`Nf3`, `e4`, `O-O`) or a capture attempt (`Nxc3`, `exd5`,
//! `bxa8=Q`), read against the moves and attempts on offer, since a
//! Masquerade piece may attempt captures its own type could not make.

use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::parse_square;
use chesskit_core::chess::{File, Move, Rank, Role, Square};

/// What a SAN text says about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum San {
    Castle { king_side: bool },
    Piece { role: Role, file: Option<File>, rank: Option<Rank>, to: Square, promotion: Option<Role>, capture: bool },
}

impl San {
    /// Read `text` as SAN: `Nf3`, `Nbd2`, `R1a3`, `Qh4e1`, `exd5`, `e8=Q`,
    /// `O-O`, `0-0-0`; check and annotation signs (`+ # ! ?`) are ignored.
    pub fn read(text: &str) -> Option<San> {
        let clean = text.trim().trim_end_matches(['+', '#', '!', '?']).replace('0', "O");
        match clean.as_str() {
            "O-O" => return Some(San::Castle { king_side: true }),
            "O-O-O" => return Some(San::Castle { king_side: false }),
            _ => {}
        }
        let capture = clean.contains(['x', ':']);
        let mut chars: Vec<char> = clean.chars().filter(|c| !matches!(c, 'x' | ':' | '-')).collect();
        let role = match chars.first().copied() {
            Some(c) if "NBRQK".contains(c) => {
                chars.remove(0);
                Role::from_char(c)?
            }
            _ => Role::Pawn,
        };
        let promotion = match chars.last().copied() {
            Some(c) if role == Role::Pawn && "NBRQnbrq".contains(c) && chars.len() > 2 => {
                chars.pop();
                if chars.last() == Some(&'=') {
                    chars.pop();
                }
                Some(Role::from_char(c.to_ascii_lowercase())?)
            }
            _ => None,
        };
        if !(2..=4).contains(&chars.len()) {
            return None;
        }
        let dest: String = chars[chars.len() - 2..].iter().collect();
        let to = parse_square(&dest)?;
        let (mut file, mut rank) = (None, None);
        for &c in &chars[..chars.len() - 2] {
            match (File::from_char(c), Rank::from_char(c)) {
                (Some(f), _) if file.is_none() => file = Some(f),
                (_, Some(r)) if rank.is_none() => rank = Some(r),
                _ => return None,
            }
        }
        Some(San::Piece { role, file, rank, to, promotion, capture })
    }

    /// Whether move `m` fits the text (a capture sign, if written, is
    /// checked by the caller, who knows the attempts from the moves).
    pub fn matches(&self, m: Move) -> bool {
        match (*self, m) {
            (San::Castle { king_side }, Move::Castle { king, rook }) => (rook.file() > king.file()) == king_side,
            (San::Piece { role, file, rank, to, promotion, .. }, m) if !m.is_castle() => m.from().is_some_and(|from| {
                m.role() == role
                    && m.to() == to
                    && m.promotion() == promotion
                    && file.is_none_or(|f| f == from.file())
                    && rank.is_none_or(|r| r == from.rank())
            }),
            _ => false,
        }
    }

    /// The piece the text moves, in words: `knight`, `pawn`, `king`.
    pub fn piece_name(&self) -> &'static str {
        match self {
            San::Castle { .. } => "king",
            San::Piece { role, .. } => role_name(*role),
        }
    }

    /// Whether the text carries a capture sign.
    pub fn says_capture(&self) -> bool {
        matches!(self, San::Piece { capture: true, .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_reads_moves_attempts_promotions_and_castling() {
        let knight = San::read("Nf3").unwrap();
        assert_eq!(
            knight,
            San::Piece { role: Role::Knight, file: None, rank: None, to: Square::F3, promotion: None, capture: false }
        );
        assert!(San::read("Nxc3+").unwrap().says_capture());
        assert_eq!(
            San::read("Nbd2").unwrap(),
            San::Piece {
                role: Role::Knight,
                file: Some(File::B),
                rank: None,
                to: Square::D2,
                promotion: None,
                capture: false
            }
        );
        assert_eq!(
            San::read("bxa8=Q").unwrap(),
            San::Piece {
                role: Role::Pawn,
                file: Some(File::B),
                rank: None,
                to: Square::A8,
                promotion: Some(Role::Queen),
                capture: true
            }
        );
        assert_eq!(San::read("0-0-0").unwrap(), San::Castle { king_side: false });
        for bad in ["", "Nz9", "Xe4", "Nbcd2", "hello"] {
            assert_eq!(San::read(bad), None, "{bad}");
        }
    }
}
