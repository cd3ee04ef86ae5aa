//! What the two circles may name, and how a pair of circles becomes a move
//! (new-rules-2025, "Making a Move"): the legal moves of the side to move,
//! indexed by the piece that moves and the square it ends on, and the
//! Manhattan distance the book measures "closest" with.

use chesskit_core::chess::{Bitboard, Move, MoveList, Position, Square};

/// "The number of steps between squares without making any diagonal steps."
pub fn manhattan(a: Square, b: Square) -> u32 {
    a.file().distance(b.file()) + a.rank().distance(b.rank())
}

/// The squares of `set` closest to `square` (all of them when tied); empty
/// only when `set` is.
pub fn nearest(set: Bitboard, square: Square) -> Bitboard {
    let Some(best) = set.into_iter().map(|sq| manhattan(sq, square)).min() else { return Bitboard::EMPTY };
    set.into_iter().filter(|&sq| manhattan(sq, square) == best).collect()
}

/// The legal moves of the side to move, with the squares the chooser and
/// the mover may validly circle.
#[derive(Clone, Debug)]
pub struct Choices {
    moves: MoveList,
    /// "A square that has one of their pieces on it, and that piece must have a legal move."
    pieces: Bitboard,
    /// "A square that at least one piece can legally move to."
    targets: Bitboard,
}

impl Choices {
    /// The choices of the side to move in `pos` (Los Alamos rules: the
    /// position's geometry has no double step, no castling, no bishop
    /// promotion, and the 6x6 mask).
    pub fn new(pos: &Position) -> Choices {
        let mut choices = Choices { moves: MoveList::new(), pieces: Bitboard::EMPTY, targets: Bitboard::EMPTY };
        choices.fill(pos);
        choices
    }

    /// Generate the choices of `pos` in place: the moves straight into
    /// this list.
    fn fill(&mut self, pos: &Position) {
        pos.legal_moves_into(&mut self.moves);
        let mut pieces = Bitboard::EMPTY;
        let mut targets = Bitboard::EMPTY;
        for m in &self.moves {
            match *m {
                // The moves of Los Alamos chess: only these two kinds.
                Move::Normal { from, to, .. } | Move::EnPassant { from, to } => {
                    pieces.add(from);
                    targets.add(to);
                }
                m => {
                    if let Some(from) = m.from() {
                        pieces.add(from);
                    }
                    targets.add(m.to());
                }
            }
        }
        self.pieces = pieces;
        self.targets = targets;
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The squares the chooser may circle.
    pub fn valid_pieces(&self) -> Bitboard {
        self.pieces
    }

    /// The squares the mover may circle.
    pub fn valid_targets(&self) -> Bitboard {
        self.targets
    }

    /// "If either player circles an invalid square, they must circle the
    /// nearest valid square instead": the candidates for the chooser's
    /// circle (just the circle itself when it is valid).
    pub fn piece_candidates(&self, circle: Square) -> Bitboard {
        nearest(self.pieces, circle)
    }

    /// The candidates for the mover's circle, as for the chooser's.
    pub fn target_candidates(&self, circle: Square) -> Bitboard {
        nearest(self.targets, circle)
    }

    /// "If the chosen piece can legally move to the target square": the
    /// moves doing so (more than one only when a pawn may promote to
    /// several pieces).
    pub fn pair(&self, piece: Square, target: Square) -> Vec<Move> {
        self.moves.iter().copied().filter(|m| m.from() == Some(piece) && m.to() == target).collect()
    }

    /// The piece is kept: its legal moves that end "closest to the target square".
    pub fn keeping_piece(&self, piece: Square, target: Square) -> Vec<Move> {
        let of_piece: Vec<Move> = self.moves.iter().copied().filter(|m| m.from() == Some(piece)).collect();
        let best = of_piece.iter().map(|m| manhattan(m.to(), target)).min();
        of_piece.into_iter().filter(|m| Some(manhattan(m.to(), target)) == best).collect()
    }

    /// The target is kept: the legal moves to it by the pieces "closest to
    /// the one they originally chose".
    pub fn keeping_target(&self, piece: Square, target: Square) -> Vec<Move> {
        let to_target: Vec<Move> = self.moves.iter().copied().filter(|m| m.to() == target).collect();
        let distance = |m: &Move| m.from().map_or(u32::MAX, |from| manhattan(from, piece));
        let best = to_target.iter().map(distance).min();
        to_target.into_iter().filter(|m| Some(distance(m)) == best).collect()
    }
}
