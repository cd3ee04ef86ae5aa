//! The board, the checkers under the pieces, and the moves they allow.
//!
//! "Chess pieces move normally, unless they are stacked on checkers": a
//! piece on its owner's checkers is boosted (after its regular move it may
//! step like a king, spending one checker per step); a piece on the
//! opponent's checkers is hobbled (pawns cannot move, other pieces move like
//! pawns, never two squares).

use chesskit_core::chess::{Bitboard, Board, Color, Move, Position, Rank, Role, Square};
use shakmaty::attacks;

/// The checkers under each square: white and black counts. Opposite
/// checkers cancel at once, so at most one colour is ever above zero.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stacks {
    white: [u8; 64],
    black: [u8; 64],
}

impl Default for Stacks {
    fn default() -> Stacks {
        Stacks { white: [0; 64], black: [0; 64] }
    }
}

impl Stacks {
    /// The checkers of `color` under `sq`.
    pub fn get(&self, sq: Square, color: Color) -> u32 {
        u32::from(color.fold_wb(self.white, self.black)[sq as usize])
    }

    fn slot(&mut self, sq: Square, color: Color) -> &mut u8 {
        match color {
            Color::White => &mut self.white[sq as usize],
            Color::Black => &mut self.black[sq as usize],
        }
    }

    /// Add `n` checkers of `color` under `sq`, then cancel pairs: "remove
    /// one checker of each colour and return them to their owners". Returns
    /// how many pairs were cancelled (each side gets that many back).
    pub fn add(&mut self, sq: Square, color: Color, n: u32) -> u32 {
        let slot = self.slot(sq, color);
        *slot = slot.saturating_add(n.min(255) as u8);
        let pairs = self.white[sq as usize].min(self.black[sq as usize]);
        self.white[sq as usize] -= pairs;
        self.black[sq as usize] -= pairs;
        u32::from(pairs)
    }

    /// Take every checker off `sq`: (white, black).
    pub fn take(&mut self, sq: Square) -> (u32, u32) {
        let taken = (u32::from(self.white[sq as usize]), u32::from(self.black[sq as usize]));
        self.white[sq as usize] = 0;
        self.black[sq as usize] = 0;
        taken
    }

    /// Remove `n` checkers of `color` from `sq`.
    pub fn remove(&mut self, sq: Square, color: Color, n: u32) {
        let slot = self.slot(sq, color);
        *slot = slot.saturating_sub(n.min(255) as u8);
    }

    /// Checkers of `color` on the board.
    pub fn on_board(&self, color: Color) -> u32 {
        color.fold_wb(self.white, self.black).iter().map(|&n| u32::from(n)).sum()
    }

    /// Squares with any checker.
    pub fn loaded(&self) -> Bitboard {
        Square::ALL.into_iter().filter(|&sq| self.white[sq as usize] + self.black[sq as usize] > 0).collect()
    }
}

/// "Your piece on your checker is boosted": how many booster moves the
/// piece on `sq` has (its owner's checkers under it).
pub fn boosts(board: &Board, stacks: &Stacks, sq: Square) -> u32 {
    board.color_at(sq).map_or(0, |c| stacks.get(sq, c))
}

/// "Your piece on your opponent's checker is hobbled."
pub fn hobbled(board: &Board, stacks: &Stacks, sq: Square) -> bool {
    board.color_at(sq).is_some_and(|c| stacks.get(sq, c.other()) > 0)
}

/// The far rank, where a hobble checker leaves: for White rank 8, for
/// Black rank 1 (RULINGS).
pub fn far_rank(color: Color) -> Rank {
    color.fold_wb(Rank::Eighth, Rank::First)
}

/// The regular moves of `color`'s pieces, ignoring the king's safety and
/// castling: orthodox moves for plain and boosted pieces, pawn moves
/// without the double step for hobbled pieces, none for hobbled pawns.
pub fn regular_moves(pos: &Position, stacks: &Stacks, color: Color) -> Vec<Move> {
    let mut side = pos.clone();
    if side.turn() != color {
        side.set_turn(color);
        side.set_ep_square(None);
    }
    let board = side.board();
    let mut moves: Vec<Move> = side
        .pseudo_legal_moves()
        .into_iter()
        .filter(|m| !m.is_castle())
        .filter(|m| m.from().is_some_and(|from| !hobbled(board, stacks, from)))
        .collect();
    for from in board.by_color(color) & !board.pawns() {
        if hobbled(board, stacks, from) {
            moves.extend(hobbled_moves(board, from, color));
        }
    }
    moves
}

/// "Other pieces move like pawns": one square forward to an empty square,
/// or one square diagonally forward onto an enemy piece. "Hobbled pieces do
/// not move two spaces on their first move"; they do not promote (they are
/// not pawns) and take no pawn en passant (RULINGS, ours).
pub fn hobbled_moves(board: &Board, from: Square, color: Color) -> Vec<Move> {
    let role = board.role_at(from).expect("a piece stands there");
    let mut moves = Vec::new();
    if let Some(to) = from.offset(color.fold_wb(8, -8)) {
        if !board.occupied().contains(to) {
            moves.push(Move::Normal { role, from, capture: None, to, promotion: None });
        }
    }
    for to in attacks::pawn_attacks(color, from) & board.by_color(color.other()) {
        moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
    }
    moves
}

/// The squares a piece on `from` threatens in its regular move alone: its
/// capture squares (pawns: the diagonals, hobbled pieces: the forward
/// diagonals), plus every square it can move to.
fn regular_reach(pos: &Position, stacks: &Stacks, from: Square, color: Color, moves: &[Move]) -> Vec<(Square, u32)> {
    let board = pos.board();
    let own = boosts(board, stacks, from);
    let mut reach: Vec<(Square, u32)> = moves
        .iter()
        .filter(|m| m.from() == Some(from))
        .map(|m| {
            let to = m.to();
            // A capture keeps the captured piece's checkers: its owner's
            // checkers cancel ours, ours add.
            let gained_own = stacks.get(to, color);
            let gained_opp = stacks.get(to, color.other());
            let opp_here = stacks.get(from, color.other());
            let total_own = own + gained_own;
            let total_opp = opp_here + gained_opp;
            (to, total_own.saturating_sub(total_opp))
        })
        .collect();
    let pawnlike = board.role_at(from) == Some(Role::Pawn) || hobbled(board, stacks, from);
    if pawnlike {
        for to in attacks::pawn_attacks(color, from) {
            if !reach.iter().any(|(s, _)| *s == to) && board.color_at(to) != Some(color) {
                if board.role_at(from) == Some(Role::Pawn) && hobbled(board, stacks, from) {
                    continue;
                }
                reach.push((to, own));
            }
        }
    }
    reach
}

/// Whether `color` attacks `target` in Booster Chess's sense (RULINGS,
/// ours): some piece of `color` could capture there in its next turn, by
/// its regular move or by booster king steps after it, spending the
/// checkers it would have after the regular move (its own, plus those of
/// a piece it captured, less the cancelled ones). Booster steps go through
/// any square not held by `color`'s own pieces.
pub fn attacked(pos: &Position, stacks: &Stacks, target: Square, color: Color) -> bool {
    let board = pos.board();
    let own = board.by_color(color);
    // The regular captures: orthodox for plain and boosted pieces, like a
    // pawn for hobbled ones (a hobbled pawn does not move at all).
    let loaded = stacks.loaded();
    let hobbled_own: Bitboard = (own & loaded).into_iter().filter(|&sq| stacks.get(sq, color.other()) > 0).collect();
    if !(pos.attackers_to(target, color, board.occupied()) & !hobbled_own).is_empty() {
        return true;
    }
    if (hobbled_own & !board.pawns()).into_iter().any(|sq| attacks::pawn_attacks(color, sq).contains(target)) {
        return true;
    }
    // The booster steps: only pieces boosted now, or able to become boosted
    // by capturing a piece that carries `color`'s checkers, can reach further.
    let gains: Bitboard =
        (board.by_color(color.other()) & loaded).into_iter().filter(|&sq| stacks.get(sq, color) > 0).collect();
    let walkers: Bitboard = own
        .into_iter()
        .filter(|&sq| {
            boosts(board, stacks, sq) > 0
                || (!gains.is_empty()
                    && (if hobbled_own.contains(sq) { attacks::pawn_attacks(color, sq) } else { pos.attacks_from(sq) })
                        .intersects(gains))
        })
        .collect();
    if walkers.is_empty() {
        return false;
    }
    let moves = regular_moves(pos, stacks, color);
    for from in walkers {
        for (to, steps) in regular_reach(pos, stacks, from, color, &moves) {
            if to == target {
                return true;
            }
            if steps == 0 {
                continue;
            }
            // Breadth-first king steps from `to`, up to `steps` of them.
            let blocked = own & !Bitboard::from_square(from);
            let mut frontier = Bitboard::from_square(to);
            let mut seen = frontier;
            for _ in 0..steps {
                let mut next = Bitboard::EMPTY;
                for sq in frontier {
                    next |= attacks::king_attacks(sq) & !blocked & !seen;
                }
                if next.contains(target) {
                    return true;
                }
                // A step that captures a piece may go on; the king would
                // already be taken, so only the empty squares and enemy
                // pieces matter.
                seen |= next;
                frontier = next;
            }
        }
    }
    false
}
