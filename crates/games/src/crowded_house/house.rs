//! The board of Crowded House: an orthodox position, the seat to move,
//! and the move generator of the book's two rule changes.
//!
//! - "You may only move a piece that either starts or ends on your side of
//!   the board" ([`Half`], [`allowed`]).
//! - "The next player on the attacking team has to be able to make the
//!   capture": a move is illegal when the next player could then capture
//!   the mover's king with a move they are allowed to make
//!   ([`HousePosition::king_capturable`]). So a king may step into check, or
//!   castle out of it, when the next player cannot take it.
//!
//! En passant needs nothing more than the orthodox position: the en
//! passant square lives for exactly one turn, and the next player is always
//! of the other colour.

use shakmaty::attacks;
use shakmaty::{Bitboard, CastlingSide, Color, File, Move, MoveList, Piece, Rank, Role, Square};

use crate::chess::seat_color;
use chesskit_core::chess::Position;
use chesskit_core::game::Seat;
use chesskit_core::search_node::mix64;

/// Sets the seat's part of [`HousePosition::zobrist`] apart from the
/// other parts mixed into a key.
const SEAT_SALT: u64 = 0x5ea7_0f4e_a371_d9c3;

/// The four seats, in the order they play: "Each king-side player takes the
/// first move for their team, then alternates with their partner."
pub const SEAT_NAMES: [&str; 4] = ["King-side White", "King-side Black", "Queen-side White", "Queen-side Black"];

/// A half of the board: "Queen side is files a to d, king side e to h."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Half {
    Queen,
    King,
}

impl Half {
    /// The half `seat` plays: seats 0 and 1 the king side, 2 and 3 the queen side.
    pub fn of_seat(seat: Seat) -> Half {
        if seat % 4 < 2 {
            Half::King
        } else {
            Half::Queen
        }
    }

    /// The squares of this half.
    pub fn squares(self) -> Bitboard {
        let queen_side = Bitboard::from_file(File::A)
            | Bitboard::from_file(File::B)
            | Bitboard::from_file(File::C)
            | Bitboard::from_file(File::D);
        match self {
            Half::Queen => queen_side,
            Half::King => !queen_side,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Half::Queen => "queen",
            Half::King => "king",
        }
    }
}

/// The seat that plays after `seat`.
pub fn next_seat(seat: Seat) -> Seat {
    (seat + 1) % 4
}

/// The squares a move is judged by: where the moving piece starts and ends.
/// Castling is a king move (the king's start and its destination), so the
/// queen-side player may castle long, and only the king-side player short.
pub fn move_squares(m: Move, us: Color) -> (Square, Square) {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            (king, side.king_to(us))
        }
        Move::Put { to, .. } => (to, to),
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
    }
}

/// "You may only move a piece that either starts or ends on your side of the board."
pub fn allowed(m: Move, us: Color, half: Half) -> bool {
    let (from, to) = move_squares(m, us);
    let squares = half.squares();
    squares.contains(from) || squares.contains(to)
}

/// A Crowded House position: the pieces (with castling rights, en passant
/// and clocks) and the seat to move, whose colour is the position's turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HousePosition {
    pos: Position,
    seat: Seat,
}

impl HousePosition {
    /// The orthodox start, king-side White to move.
    pub fn startpos() -> HousePosition {
        HousePosition { pos: Position::startpos(), seat: 0 }
    }

    /// The position's key for the computer's search: the pieces' Zobrist
    /// key ([`Position::zobrist`]) and the seat to move, which the colour
    /// alone does not tell.
    pub fn zobrist(&self) -> u64 {
        self.pos.zobrist() ^ mix64(SEAT_SALT ^ self.seat as u64)
    }

    /// A position with `seat` to move. The caller checks that the seat's
    /// colour is the position's turn.
    pub fn from_parts(pos: Position, seat: Seat) -> HousePosition {
        debug_assert_eq!(seat_color(seat), pos.turn());
        HousePosition { pos, seat: seat % 4 }
    }

    pub fn inner(&self) -> &Position {
        &self.pos
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    pub fn half(&self) -> Half {
        Half::of_seat(self.seat)
    }

    /// The half of the seat that plays next.
    fn next_half(&self) -> Half {
        Half::of_seat(next_seat(self.seat))
    }

    // ------------------------------------------------------------------
    // Who could take the king
    // ------------------------------------------------------------------

    /// The pieces of `attacker`'s colour that could capture on `sq` with
    /// the occupancy `occupied` (pieces on `gone` left out: a piece just
    /// captured), by a move the player of `half` may make: one that starts
    /// or ends on that half.
    fn capturers(&self, sq: Square, attacker: Color, half: Half, occupied: Bitboard, gone: Bitboard) -> Bitboard {
        let attackers = self.pos.attackers_to(sq, attacker, occupied) & !gone;
        let squares = half.squares();
        if squares.contains(sq) {
            attackers
        } else {
            attackers & squares
        }
    }

    /// Whether the seat to move could capture `color`'s king now: what
    /// every move must avoid for the seat that played it. A king attacked
    /// only by pieces the next player may not move is safe for a turn.
    pub fn king_capturable(&self, color: Color) -> bool {
        let Some(king) = self.pos.king_of(color) else { return false };
        if self.turn() == color {
            return false;
        }
        self.capturers(king, self.turn(), self.half(), self.pos.board().occupied(), Bitboard::EMPTY).any()
    }

    /// Whether the mover's king could be taken by the next player if the
    /// mover passed: "in check" for the player to move.
    pub fn in_check(&self) -> bool {
        let Some(king) = self.pos.king_of(self.turn()) else { return false };
        self.capturers(king, self.turn().other(), self.next_half(), self.pos.board().occupied(), Bitboard::EMPTY).any()
    }

    // ------------------------------------------------------------------
    // Moves
    // ------------------------------------------------------------------

    /// The legal moves: the moves the player may make (pieces of their
    /// colour that start or end on their half; a piece off the half goes
    /// only to squares of the half) after which the next player could not
    /// capture the mover's king.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(Bitboard::FULL, &mut moves);
        moves
    }

    /// The legal moves of the piece on `from`: those of
    /// [`HousePosition::legal_moves`] that start there, without generating
    /// the other pieces' (a search applies a move at every node).
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(Bitboard::from_square(from), &mut moves);
        moves
    }

    /// [`HousePosition::legal_moves`] of the pieces on `from_set` into
    /// `moves`, cleared first.
    ///
    /// Judged as orthodox legality is, without playing the moves, but
    /// against the pieces the next player may capture with (those on the
    /// next player's half, or every one when the king stands there): the
    /// king steps only where none of them could then take it; while one
    /// of them could take the king, another piece must capture it or
    /// block its line (none can answer two); and a piece that alone stands
    /// between the king and one of their sliders stays on that line.
    /// Castling is tested square by square, and the rare en passant is
    /// played and tested.
    fn legal_moves_into(&self, from_set: Bitboard, moves: &mut MoveList) {
        moves.clear();
        let us = self.turn();
        let board = self.pos.board();
        let own = board.by_color(us) & from_set;
        let Some(king) = self.pos.king_of(us) else {
            // Nothing to lose: every move the player may make.
            self.gen_allowed(own & !board.kings(), !board.by_color(us), moves);
            self.gen_king(own & board.kings(), |_| true, moves);
            self.gen_en_passant(from_set, moves);
            return;
        };
        let them = us.other();
        let next = self.next_half();
        let occupied = board.occupied();
        let without_king = occupied.without(king);
        if from_set.contains(king) {
            self.gen_king(
                Bitboard::from_square(king),
                |to| self.capturers(to, them, next, without_king, Bitboard::from_square(to)).is_empty(),
                moves,
            );
            self.gen_castles(king, moves);
        }
        self.gen_en_passant(from_set, moves);
        let checkers = self.capturers(king, them, next, occupied, Bitboard::EMPTY);
        if checkers.more_than_one() {
            return;
        }
        let targets = match checkers.single_square() {
            Some(checker) => attacks::between(king, checker) | checkers,
            None => !board.by_color(us),
        };
        let pinned = self.pinned(king) & from_set;
        self.gen_allowed(own & !pinned & !board.kings(), targets, moves);
        for from in pinned {
            self.gen_allowed(Bitboard::from_square(from), targets & attacks::ray(king, from), moves);
        }
    }

    /// Pieces of the mover alone between their king and a slider of the
    /// next player's colour that the next player could capture with.
    fn pinned(&self, king: Square) -> Bitboard {
        let board = self.pos.board();
        let us = self.turn();
        let next = self.next_half().squares();
        let counted = if next.contains(king) { Bitboard::FULL } else { next };
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & board.by_color(us.other())
            & counted;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            if let Some(sq) = (attacks::between(king, sniper) & board.occupied()).single_square() {
                pinned |= Bitboard::from_square(sq) & board.by_color(us);
            }
        }
        pinned
    }

    /// The moves of the pieces (not the king) in `from_set` to squares in
    /// `targets`: "you may only move a piece that either starts or ends on
    /// your side of the board", so a piece off the half only to the half.
    fn gen_allowed(&self, from_set: Bitboard, targets: Bitboard, moves: &mut MoveList) {
        let board = self.pos.board();
        let half = self.half().squares();
        let targets = targets & !board.by_color(self.turn());
        self.gen_pieces(from_set & !board.pawns(), half, targets, moves);
        self.gen_pawns(from_set & board.pawns() & half, targets, moves);
        self.gen_pawns(from_set & board.pawns() & !half, targets & half, moves);
    }

    /// Knight, bishop, rook and queen moves of the pieces in `from_set`
    /// to `targets`, and only to `half` from off it.
    fn gen_pieces(&self, from_set: Bitboard, half: Bitboard, targets: Bitboard, moves: &mut MoveList) {
        let us = self.turn();
        let board = self.pos.board();
        let occupied = board.occupied();
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in from_set & board.by_role(role) {
                let targets = if half.contains(from) { targets } else { targets & half };
                let reach = self.pos.piece_attacks(from, Piece { color: us, role }, occupied) & targets;
                for to in reach & occupied {
                    moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
                }
                for to in reach & !occupied {
                    moves.push(Move::Normal { role, from, capture: None, to, promotion: None });
                }
            }
        }
    }

    /// The steps of the king on `kings` (one square or none) that the half
    /// allows and `safe` accepts.
    fn gen_king(&self, kings: Bitboard, safe: impl Fn(Square) -> bool, moves: &mut MoveList) {
        let board = self.pos.board();
        let half = self.half().squares();
        for from in kings {
            let reach = if half.contains(from) { Bitboard::FULL } else { half };
            for to in attacks::king_attacks(from) & reach & !board.by_color(self.turn()) {
                if safe(to) {
                    moves.push(Move::Normal {
                        role: Role::King,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    });
                }
            }
        }
    }

    /// The pushes, double steps, captures and promotions of the pawns in
    /// `pawns`, to squares in `targets`, generated set-wise by shifting.
    fn gen_pawns(&self, pawns: Bitboard, targets: Bitboard, moves: &mut MoveList) {
        if pawns.is_empty() {
            return;
        }
        let us = self.turn();
        let board = self.pos.board();
        let empty = !board.occupied();
        let forward: i32 = us.fold_wb(8, -8);
        let last = Bitboard::from_rank(us.fold_wb(Rank::Eighth, Rank::First));
        let mut push = |from: Square, to: Square, capture: Option<Role>| {
            if last.contains(to) {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(role) });
                }
            } else {
                moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
            }
        };
        for (delta, edge) in [(forward - 1, File::A), (forward + 1, File::H)] {
            let captures = (pawns & !Bitboard::from_file(edge)).shift(delta) & board.by_color(us.other()) & targets;
            for to in captures {
                push(back_by(to, delta), to, board.role_at(to));
            }
        }
        let single = pawns.shift(forward) & empty;
        for to in single & targets {
            push(back_by(to, forward), to, None);
        }
        let home = Bitboard::from_rank(us.fold_wb(Rank::Second, Rank::Seventh));
        for to in (single & home.shift(forward)).shift(forward) & empty & targets {
            push(back_by(to, 2 * forward), to, None);
        }
    }

    /// En passant by a pawn of ours the half allows, played and tested.
    fn gen_en_passant(&self, from_set: Bitboard, moves: &mut MoveList) {
        let Some(ep) = self.pos.ep_square() else { return };
        if self.pos.board().occupied().contains(ep) {
            return;
        }
        let half = self.half().squares();
        let pawns = self.pos.our(Role::Pawn) & attacks::pawn_attacks(self.turn().other(), ep) & from_set;
        for from in pawns {
            let m = Move::EnPassant { from, to: ep };
            if (half.contains(from) || half.contains(ep)) && self.safe_after(m) {
                moves.push(m);
            }
        }
    }

    /// Castling the half allows (king and rook keep their right, the
    /// squares between them empty), tested square by square: the last
    /// square tested is the king's destination with king and rook lifted,
    /// which leaves at least as many lines open as the castled position,
    /// so a castling that passes needs no test after it is played.
    fn gen_castles(&self, king: Square, moves: &mut MoveList) {
        // Castling only while a rook of ours keeps its right and nothing
        // stands between it and the king (checked fully by the core).
        let board = self.pos.board();
        let rooks = self.pos.castling_rooks() & board.by_color(self.turn());
        if !rooks.into_iter().any(|rook| (attacks::between(king, rook) & board.occupied()).is_empty()) {
            return;
        }
        let first = moves.len();
        self.pos.castling_moves(false, moves);
        let mut i = first;
        while i < moves.len() {
            let keep = match moves[i] {
                m @ Move::Castle { king, rook } => {
                    allowed(m, self.turn(), self.half()) && self.castling_safe(king, rook)
                }
                _ => true,
            };
            if keep {
                i += 1;
            } else {
                moves.remove(i);
            }
        }
    }

    /// Castling "out of check" is allowed when the next player cannot make
    /// the capture; by the same measure (our ruling), the king may not
    /// castle from, through or onto a square where the next player could
    /// capture it, judged with king and rook lifted as in orthodox chess.
    fn castling_safe(&self, king: Square, rook: Square) -> bool {
        let us = self.turn();
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let king_to = side.king_to(us);
        let lifted = self.pos.board().occupied().without(king).without(rook);
        let path = attacks::between(king, king_to).with(king).with(king_to);
        path.into_iter().all(|sq| self.capturers(sq, us.other(), self.next_half(), lifted, Bitboard::EMPTY).is_empty())
    }

    /// Whether, after playing `m`, the next player could not take the mover's king.
    fn safe_after(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play(m);
        !after.king_capturable(self.turn())
    }

    /// Play a move without checking it; the next seat is to move.
    pub fn play(&mut self, m: Move) {
        self.pos.play_unchecked(m);
        self.seat = next_seat(self.seat);
    }

    /// "They move nothing on that turn": the next seat is to move, and an
    /// en passant chance ends.
    pub fn pass(&mut self) {
        self.pos.pass_turn();
        self.seat = next_seat(self.seat);
    }
}

/// The square `delta` steps back from `to`, for a pawn move generated by
/// shifting a set by `delta`: it is on the board because the pawn stood there.
fn back_by(to: Square, delta: i32) -> Square {
    Square::new((to as i32 - delta) as u32)
}
