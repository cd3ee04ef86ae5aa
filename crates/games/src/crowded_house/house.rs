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

use chesskit_core::chess::Position;
use chesskit_core::game::Seat;

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

/// The colour `seat` plays: seats 0 and 2 White, 1 and 3 Black.
pub fn colour_of_seat(seat: Seat) -> Color {
    if seat.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
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

    /// A position with `seat` to move. The caller checks that the seat's
    /// colour is the position's turn.
    pub fn from_parts(pos: Position, seat: Seat) -> HousePosition {
        debug_assert_eq!(colour_of_seat(seat), pos.turn());
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

    /// The moves the player to move is allowed to make (pieces of their
    /// colour, starting or ending on their half), legal or not. Castling
    /// here needs only the squares between king and rook empty. A piece
    /// off the half is offered only the squares of the half.
    pub fn allowed_moves(&self) -> MoveList {
        let us = self.turn();
        let board = self.pos.board();
        let half = self.half().squares();
        let own = board.by_color(us);
        let occupied = board.occupied();
        let reach_from = |from: Square| if half.contains(from) { !own } else { half & !own };
        let mut moves = MoveList::new();
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            for from in own & board.by_role(role) {
                let reach = self.pos.piece_attacks(from, Piece { color: us, role }, occupied) & reach_from(from);
                for to in reach & occupied {
                    moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
                }
                for to in reach & !occupied {
                    moves.push(Move::Normal { role, from, capture: None, to, promotion: None });
                }
            }
        }
        for from in own & board.pawns() {
            self.pawn_moves(from, reach_from(from), &mut moves);
        }
        // Castling only while a rook of ours keeps its right.
        if self.pos.castling_rooks().intersects(own) {
            let mut castles = MoveList::new();
            self.pos.castling_moves(false, &mut castles);
            moves.extend(castles.into_iter().filter(|&m| allowed(m, us, self.half())));
        }
        moves
    }

    /// The pushes, double steps, captures (en passant too) and promotions
    /// of the pawn on `from`, to squares in `targets`.
    fn pawn_moves(&self, from: Square, targets: Bitboard, moves: &mut MoveList) {
        let us = self.turn();
        let board = self.pos.board();
        let empty = !board.occupied();
        let forward = us.fold_wb(8, -8);
        let last = us.fold_wb(Rank::Eighth, Rank::First);
        let mut push = |to: Square, capture: Option<Role>| {
            if to.rank() == last {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(role) });
                }
            } else {
                moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
            }
        };
        if let Some(one) = from.offset(forward).filter(|&sq| empty.contains(sq)) {
            if targets.contains(one) {
                push(one, None);
            }
            let home = us.fold_wb(Rank::Second, Rank::Seventh);
            if from.rank() == home {
                if let Some(two) = one.offset(forward).filter(|&sq| empty.contains(sq) && targets.contains(sq)) {
                    push(two, None);
                }
            }
        }
        let attacks = attacks::pawn_attacks(us, from) & targets;
        for to in attacks & board.by_color(us.other()) {
            push(to, board.role_at(to));
        }
        if let Some(ep) = self.pos.ep_square().filter(|&ep| attacks.contains(ep) && empty.contains(ep)) {
            moves.push(Move::EnPassant { from, to: ep });
        }
    }

    /// The legal moves: the allowed moves after which the next player could
    /// not capture the mover's king. Most moves are judged without playing
    /// them: a move that is not the king's, made while the king is not
    /// capturable, can only expose it by leaving a line through the king.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = self.allowed_moves();
        let us = self.turn();
        let Some(king) = self.pos.king_of(us) else { return moves };
        let exposed_now = self.in_check();
        let lines = attacks::queen_attacks(king, Bitboard::EMPTY);
        moves.retain(|m| match *m {
            Move::Normal { from, .. } if from != king && !exposed_now && !lines.contains(from) => true,
            m => self.is_safe(m, king),
        });
        moves
    }

    /// Whether `m` leaves the mover's king out of the next player's reach.
    fn is_safe(&self, m: Move, king: Square) -> bool {
        let us = self.turn();
        let them = us.other();
        let next = self.next_half();
        let occupied = self.pos.board().occupied();
        match m {
            Move::Normal { from, to, .. } => {
                let after = occupied.without(from).with(to);
                let target = if from == king { to } else { king };
                self.capturers(target, them, next, after, Bitboard::from_square(to)).is_empty()
            }
            Move::Castle { king, rook } => self.castling_safe(king, rook) && self.safe_after(m),
            Move::EnPassant { .. } | Move::Put { .. } => self.safe_after(m),
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

/// Count the leaves of the Crowded House move tree to `depth`; a turn in
/// which the player passes is one node.
pub fn perft(p: &HousePosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = p.legal_moves();
    if moves.is_empty() {
        if p.in_check() {
            return 0;
        }
        let mut child = p.clone();
        child.pass();
        return perft(&child, depth - 1);
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = p.clone();
            child.play(m);
            perft(&child, depth - 1)
        })
        .sum()
}
