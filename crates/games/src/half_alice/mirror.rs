//! The board of Half Alice Chess: one physical board whose pieces stand on
//! either side of a mirror (rules.md, "Half Alice Chess", "Play").
//!
//! A piece without a checker is on the near side, a piece on a checker on
//! the far side (the looking glass). Each side is an orthodox chess board
//! of its own for moving, blocking, capturing and checking, except that a
//! square holds at most one piece, so a move may not end on a square that
//! holds a piece of the other side (RULINGS.md).
//!
//! A move is legal when
//! 1. it is an orthodox move on the mover's side, with only that side's
//!    pieces on the board, ending on an empty square or capturing an enemy
//!    of that side, and leaves the own king out of check on that side
//!    ("the move must be legal under orthodox chess rules");
//! 2. after the moved piece switches side, the own king is not in check on
//!    its own side;
//! 3. with the 12-checker option, a piece without a checker moves only
//!    while its owner has a free checker.
//!
//! [`AlicePosition::legal_moves`] is the fast generator (pins and checks,
//! no trial moves); the tests check it against a brute-force one.

use chesskit_core::chess::{Bitboard, Board, Color, Move, MoveList, Piece, Position, Role, Square};
use shakmaty::attacks;
use shakmaty::CastlingSide;

/// The two sides of the mirror.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Pieces standing on the board, without a checker.
    Near,
    /// Pieces on a checker: through the looking glass.
    Far,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Near => Side::Far,
            Side::Far => Side::Near,
        }
    }
}

/// A position of Half Alice Chess: the pieces (all of them on one board),
/// which of them stand on checkers, the side to move, castling rights, the
/// en passant square, the clocks, and the checker supply.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AlicePosition {
    /// Pieces, turn, castling rooks, en passant square and clocks. Its
    /// board holds the pieces of both sides; its own move generator is
    /// never used on it directly.
    pos: Position,
    /// The squares whose piece stands on a checker (the far side).
    far: Bitboard,
    /// Checkers each player owns: `None` for unlimited (the original Alice
    /// rules), `Some(12)` with a standard checkers set.
    checkers: Option<u8>,
}

impl AlicePosition {
    /// The standard opening position, every piece on the near side.
    pub fn startpos(checkers: Option<u8>) -> AlicePosition {
        AlicePosition { pos: Position::startpos(), far: Bitboard::EMPTY, checkers }
    }

    /// A position from its parts, unchecked (the text reader checks).
    pub fn from_parts(pos: Position, far: Bitboard, checkers: Option<u8>) -> AlicePosition {
        let mut p = AlicePosition { pos, far, checkers };
        p.keep_usable_ep();
        p
    }

    pub fn inner(&self) -> &Position {
        &self.pos
    }

    pub fn board(&self) -> &Board {
        self.pos.board()
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The squares of the pieces on checkers.
    pub fn far(&self) -> Bitboard {
        self.far
    }

    pub fn checker_limit(&self) -> Option<u8> {
        self.checkers
    }

    pub fn side_of(&self, sq: Square) -> Side {
        if self.far.contains(sq) {
            Side::Far
        } else {
            Side::Near
        }
    }

    /// The squares of the pieces on `side`.
    pub fn on(&self, side: Side) -> Bitboard {
        match side {
            Side::Near => self.pos.board().occupied() & !self.far,
            Side::Far => self.far,
        }
    }

    /// Free checkers of `color`: its supply less those under its pieces.
    /// `None` when unlimited. A captured piece's checker goes back to its
    /// owner (our ruling), so this follows from the board.
    pub fn free_checkers(&self, color: Color) -> Option<u32> {
        let used = (self.pos.board().by_color(color) & self.far).count() as u32;
        self.checkers.map(|limit| u32::from(limit).saturating_sub(used))
    }

    /// Whether a piece of `color` without a checker may move now: always
    /// with unlimited checkers, else only with a free checker ("you must
    /// have a free checker in order to move a piece without a checker").
    fn near_pieces_may_move(&self, color: Color, pieces: u32) -> bool {
        self.free_checkers(color).is_none_or(|free| free >= pieces)
    }

    // ------------------------------------------------------------------
    // Attacks, each side on its own
    // ------------------------------------------------------------------

    /// Pieces of `attacker` on `side` that attack `sq`, with `occupied` as
    /// that side's blockers.
    fn attackers(&self, sq: Square, attacker: Color, side: Side, occupied: Bitboard) -> Bitboard {
        self.pos.attackers_to(sq, attacker, occupied) & self.on(side)
    }

    /// Whether the king of `color` is in check: attacked by an enemy on its
    /// own side of the mirror.
    pub fn in_check(&self, color: Color) -> bool {
        self.checkers_of(color).any()
    }

    /// The enemy pieces giving check to the king of `color`.
    pub fn checkers_of(&self, color: Color) -> Bitboard {
        let Some(king) = self.pos.king_of(color) else { return Bitboard::EMPTY };
        let side = self.side_of(king);
        self.attackers(king, color.other(), side, self.on(side))
    }

    /// The king of the side to move, if any, and its side of the mirror.
    fn our_king(&self) -> Option<(Square, Side)> {
        self.pos.king_of(self.turn()).map(|k| (k, self.side_of(k)))
    }

    // ------------------------------------------------------------------
    // Pseudo-legal moves: legal on the mover's side before checks
    // ------------------------------------------------------------------

    /// Every move of the side to move that is an orthodox move on its own
    /// side of the mirror and ends on a square holding nothing or an enemy
    /// of that side; without regard to the own king, and castling without
    /// its attack conditions. The checker supply is respected.
    pub fn pseudo_legal_moves(&self, moves: &mut MoveList) {
        let us = self.turn();
        for side in [Side::Near, Side::Far] {
            if side == Side::Near && !self.near_pieces_may_move(us, 1) {
                continue;
            }
            self.gen_side(side, moves);
        }
    }

    fn gen_side(&self, side: Side, moves: &mut MoveList) {
        let us = self.turn();
        let board = self.pos.board();
        let occupied_here = self.on(side);
        let ours = board.by_color(us) & occupied_here;
        let theirs = board.by_color(us.other()) & occupied_here;
        // "A square holds at most one piece": empty squares, or an enemy here.
        let targets = !board.occupied() | theirs;
        let occupied = board.occupied();
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            let piece = Piece { color: us, role };
            for from in ours & board.by_role(role) {
                let reach = self.pos.piece_attacks(from, piece, occupied_here) & targets;
                for to in reach & theirs {
                    moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
                }
                for to in reach & !occupied {
                    moves.push(Move::Normal { role, from, capture: None, to, promotion: None });
                }
            }
        }
        self.gen_pawns(ours & board.pawns(), theirs, occupied_here, moves);
        self.gen_en_passant(side, moves);
        if side == Side::Near {
            self.gen_castling(moves);
        }
    }

    fn gen_pawns(&self, pawns: Bitboard, theirs: Bitboard, occupied_here: Bitboard, moves: &mut MoveList) {
        let us = self.turn();
        let empty = !self.pos.board().occupied();
        let forward: i32 = us.fold_wb(8, -8);
        let last = Bitboard::from_rank(us.other().backrank());
        let push = |from: Square, to: Square, capture: Option<Role>, moves: &mut MoveList| {
            if last.contains(to) {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(role) });
                }
            } else {
                moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
            }
        };
        for from in pawns {
            for to in attacks::pawn_attacks(us, from) & theirs {
                push(from, to, self.pos.board().role_at(to), moves);
            }
            let Some(one) = from.offset(forward) else { continue };
            if empty.contains(one) {
                push(from, one, None, moves);
            }
            // The double step passes over `one` on this side only.
            if from.rank() == us.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh)
                && !occupied_here.contains(one)
            {
                let two = one.offset(forward).expect("on the board");
                if empty.contains(two) {
                    moves.push(Move::Normal { role: Role::Pawn, from, capture: None, to: two, promotion: None });
                }
            }
        }
    }

    /// En passant "on the same side": the capturing pawn stands on the side
    /// of the pawn that just made its double step, and the square behind
    /// that pawn holds no piece at all.
    fn gen_en_passant(&self, side: Side, moves: &mut MoveList) {
        let Some(ep) = self.pos.ep_square() else { return };
        let us = self.turn();
        let victim = ep.offset(us.fold_wb(-8, 8)).expect("behind the ep square");
        if self.pos.board().occupied().contains(ep) || self.side_of(victim) != side {
            return;
        }
        let capturers = attacks::pawn_attacks(us.other(), ep) & self.pos.board().by_piece(us.pawn()) & self.on(side);
        for from in capturers {
            moves.push(Move::EnPassant { from, to: ep });
        }
    }

    /// Castling on the near side (castling rights belong only to a king and
    /// rooks that have never moved, so never switched): every square the
    /// king or rook crosses is empty on the near side, the squares where
    /// they land hold no piece at all, the king is not in check and crosses
    /// no attacked square there. Castling moves two pieces off the board
    /// side, so it needs two free checkers (our ruling).
    fn gen_castling(&self, moves: &mut MoveList) {
        let us = self.turn();
        let Some((king, Side::Near)) = self.our_king() else { return };
        if king.rank() != us.backrank() || !self.near_pieces_may_move(us, 2) {
            return;
        }
        let near = self.on(Side::Near);
        let rooks = self.pos.castling_rooks() & self.pos.board().by_piece(us.rook()) & near;
        for rook in rooks & Bitboard::from_rank(us.backrank()) {
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            let crossed = attacks::between(king, king_to).with(king_to) | attacks::between(rook, rook_to).with(rook_to);
            let others = near.without(king).without(rook);
            if crossed.intersects(others) {
                continue;
            }
            let landing = Bitboard::from_square(king_to).with(rook_to);
            if landing.intersects(self.far) {
                continue;
            }
            let king_path = attacks::between(king, king_to).with(king).with(king_to);
            if king_path.into_iter().any(|sq| self.attackers(sq, us.other(), Side::Near, others).any()) {
                continue;
            }
            moves.push(Move::Castle { king, rook });
        }
    }

    // ------------------------------------------------------------------
    // Legal moves
    // ------------------------------------------------------------------

    /// The legal moves of the side to move (see the module documentation).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.pseudo_legal_moves(&mut moves);
        let Some((king, king_side)) = self.our_king() else { return moves };
        let us = self.turn();
        let checkers = self.checkers_of(us);
        let (pinned, pinners) = self.pins(king, king_side);
        moves.retain(|m| match *m {
            Move::Normal { role: Role::King, to, .. } => self.king_may_go(king, to, king_side),
            Move::Castle { king: from, rook } => self.castling_lands_safely(from, rook),
            Move::EnPassant { .. } => self.king_safe_after_switch(*m),
            Move::Normal { from, to, .. } if self.side_of(from) == king_side => {
                // The piece leaves the king's side: it may neither shield
                // the king nor stay in a pin; only capturing helps.
                match checkers.count() {
                    0 => !pinned.contains(from) || (pinners.contains(to) && attacks::aligned(king, from, to)),
                    1 => checkers.contains(to) && !pinned.contains(from),
                    _ => false,
                }
            }
            Move::Normal { to, .. } => {
                // The piece arrives on the king's side on `to`: it may block a check.
                match checkers.single_square() {
                    None => checkers.is_empty(),
                    Some(checker) => attacks::between(king, checker).contains(to),
                }
            }
            Move::Put { .. } => false,
        });
        moves
    }

    /// A king step from `from` to `to` on `side`: not attacked there on its
    /// side before the switch, nor on the other side after it.
    fn king_may_go(&self, from: Square, to: Square, side: Side) -> bool {
        let them = self.turn().other();
        let before = self.attackers(to, them, side, self.on(side).without(from)).without(to);
        before.is_empty() && self.attackers(to, them, side.other(), self.on(side.other())).is_empty()
    }

    /// After castling both king and rook stand on the far side: the king
    /// must not be in check there (the rook may shield it).
    fn castling_lands_safely(&self, king: Square, rook: Square) -> bool {
        let us = self.turn();
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let far = self.on(Side::Far).with(side.rook_to(us));
        self.attackers(side.king_to(us), us.other(), Side::Far, far).is_empty()
    }

    /// Own pieces on the king's side pinned to it there, and the pinners.
    fn pins(&self, king: Square, side: Side) -> (Bitboard, Bitboard) {
        let us = self.turn();
        let board = self.pos.board();
        let here = self.on(side);
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & board.by_color(us.other())
            & here;
        let (mut pinned, mut pinners) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for sniper in snipers {
            if let Some(sq) = (attacks::between(king, sniper) & here).single_square() {
                if board.by_color(us).contains(sq) {
                    pinned.add(sq);
                    pinners.add(sniper);
                }
            }
        }
        (pinned, pinners)
    }

    /// Whether, once `m` is played and its piece has switched, the mover's
    /// king is out of check on its side. Used for en passant (rare, and
    /// subtle: two pawns leave a rank) and by the reference generator.
    pub fn king_safe_after_switch(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(m);
        !after.in_check(self.turn())
    }

    // ------------------------------------------------------------------
    // Playing moves
    // ------------------------------------------------------------------

    /// Play `m` and switch the moved piece (both pieces in castling) to the
    /// other side of the mirror; a captured piece leaves with its checker.
    pub fn play_unchecked(&mut self, m: Move) {
        match m {
            Move::Normal { from, to, .. } => {
                let side = self.side_of(from);
                self.far.discard(from);
                self.far.discard(to);
                self.place(to, side.other());
            }
            Move::EnPassant { from, to } => {
                let side = self.side_of(from);
                self.far.discard(from);
                self.far.discard(Square::from_coords(to.file(), from.rank()));
                self.place(to, side.other());
            }
            Move::Castle { king, rook } => {
                let us = self.turn();
                let side = self.side_of(king);
                let castle = CastlingSide::from_king_side(rook.file() > king.file());
                self.far.discard(king);
                self.far.discard(rook);
                self.place(castle.king_to(us), side.other());
                self.place(castle.rook_to(us), side.other());
            }
            Move::Put { to, .. } => self.place(to, Side::Near),
        }
        self.pos.play_unchecked(m);
        self.keep_usable_ep();
    }

    fn place(&mut self, sq: Square, side: Side) {
        if side == Side::Far {
            self.far.add(sq);
        } else {
            self.far.discard(sq);
        }
    }

    /// The en passant square is kept only while an en passant capture is
    /// legal, so that equal positions compare equal (repetition, text).
    fn keep_usable_ep(&mut self) {
        let Some(ep) = self.pos.ep_square() else { return };
        let mut moves = MoveList::new();
        let victim = ep.offset(self.turn().fold_wb(-8, 8));
        if let Some(victim) = victim {
            self.gen_en_passant(self.side_of(victim), &mut moves);
        }
        if !moves.iter().any(|&m| self.supply_allows(m) && self.king_safe_after_switch(m)) {
            self.pos.set_ep_square(None);
        }
    }

    /// The checker supply allows moving the piece of `m`.
    fn supply_allows(&self, m: Move) -> bool {
        m.from().is_none_or(|from| self.side_of(from) == Side::Far || self.near_pieces_may_move(self.turn(), 1))
    }

    /// No piece but the kings: no checkmate can ever happen.
    pub fn bare_kings(&self) -> bool {
        self.pos.board().occupied() == self.pos.board().kings()
    }

    /// A piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.pos.board().piece_at(sq)
    }
}

/// Count the leaves of the move tree to `depth`, bulk-counted at the last ply.
pub fn perft(pos: &AlicePosition, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}
