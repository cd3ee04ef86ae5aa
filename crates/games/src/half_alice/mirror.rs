//! The board of Half Alice Chess: one physical board whose pieces stand on
//! either side of a mirror (rules.md, "Half Alice Chess", "Play").
//!
//! A piece without a checker is on the near side, a piece on a checker on
//! the far side (the looking glass). Each side is an orthodox chess board
//! of its own for moving, blocking, capturing and checking, except that a
//! square holds at most one piece, so a move may not end on a square that
//! holds a piece of the other side (docs/games/half-alice.md, "Rulings").
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
//! no trial moves but for en passant); the tests check it against a
//! brute-force one.

use chesskit_core::chess::{Bitboard, Board, Color, File, Move, MoveList, Piece, Position, Rank, Role, Square};
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

    /// A 64-bit key of what the rules read: the pieces' Zobrist key
    /// ([`Position::zobrist`]), the side of the mirror each stands on and
    /// the checker supply.
    pub fn zobrist(&self) -> u64 {
        self.pos.zobrist() ^ chesskit_core::search_node::hash_of(&(self.far, self.checkers))
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
    /// of that side; without regard to the own king's safety after the
    /// move (castling still tests the squares the king crosses on the near
    /// side, not where it lands). The checker supply is respected.
    pub fn pseudo_legal_moves(&self, moves: &mut MoveList) {
        self.gen_pseudo_legal(moves);
    }

    fn gen_pseudo_legal(&self, out: &mut impl MoveSink) {
        let us = self.turn();
        let board = self.pos.board();
        let empty = !board.occupied();
        for side in [Side::Near, Side::Far] {
            if side == Side::Near && !self.near_pieces_may_move(us, 1) {
                continue;
            }
            let here = self.on(side);
            let (ours, theirs) = (board.by_color(us) & here, board.by_color(us.other()) & here);
            self.gen_pieces(ours & !board.pawns(), here, empty, theirs, |_, _| true, out);
            self.gen_pawns(ours & board.pawns(), here, empty, theirs, |_, _| true, out);
            self.gen_en_passant(side, out);
            if side == Side::Near {
                self.gen_castling(false, out);
            }
        }
    }

    /// The moves of the pieces in `movers` (no pawns) on the side whose
    /// pieces are `here`: to the empty squares in `quiet`, and capturing
    /// the enemies in `victims` where `keep(from, to)` allows it. Role by
    /// role, in square order.
    #[inline(always)]
    fn gen_pieces(
        &self,
        movers: Bitboard,
        here: Bitboard,
        quiet: Bitboard,
        victims: Bitboard,
        keep: impl Fn(Square, Square) -> bool,
        out: &mut impl MoveSink,
    ) {
        let b = self.pos.board();
        let mut piece = |role: Role, from: Square, reach: Bitboard| {
            let mut captures = reach & victims;
            for to in captures {
                if !keep(from, to) {
                    captures.discard(to);
                }
            }
            out.piece(b, role, from, captures, reach & quiet);
        };
        for from in movers & b.knights() {
            piece(Role::Knight, from, attacks::knight_attacks(from));
        }
        for from in movers & b.bishops() {
            piece(Role::Bishop, from, attacks::bishop_attacks(from, here));
        }
        for from in movers & b.rooks() {
            piece(Role::Rook, from, attacks::rook_attacks(from, here));
        }
        for from in movers & b.queens() {
            piece(Role::Queen, from, attacks::queen_attacks(from, here));
        }
        for from in movers & b.kings() {
            piece(Role::King, from, attacks::king_attacks(from));
        }
    }

    /// The moves of the `pawns` on the side whose pieces are `here`, as
    /// [`AlicePosition::gen_pieces`], generated set-wise by shifting. A
    /// step ends on a square empty on the whole board; the double step
    /// passes over a square empty on this side only.
    #[inline(always)]
    fn gen_pawns(
        &self,
        pawns: Bitboard,
        here: Bitboard,
        quiet: Bitboard,
        victims: Bitboard,
        keep: impl Fn(Square, Square) -> bool,
        out: &mut impl MoveSink,
    ) {
        if pawns.is_empty() {
            return;
        }
        let us = self.turn();
        let board = self.pos.board();
        let empty = !board.occupied();
        let forward: i32 = us.fold_wb(8, -8);
        for (delta, edge) in [(forward - 1, File::A), (forward + 1, File::H)] {
            let mut captures = (pawns & !Bitboard::from_file(edge)).shift(delta) & victims;
            for to in captures {
                if !keep(back_by(to, delta), to) {
                    captures.discard(to);
                }
            }
            out.pawns(board, captures, delta, true);
        }
        let single = pawns.shift(forward) & empty;
        out.pawns(board, single & quiet, forward, false);
        let second_rank = Bitboard::from_rank(us.fold_wb(Rank::Second, Rank::Seventh));
        let crossed = (pawns & second_rank).shift(forward) & !here;
        out.pawns(board, crossed.shift(forward) & empty & quiet, 2 * forward, false);
    }

    /// En passant "on the same side": the capturing pawn stands on the side
    /// of the pawn that just made its double step, and the square behind
    /// that pawn holds no piece at all.
    fn gen_en_passant(&self, side: Side, out: &mut impl MoveSink) {
        let Some(ep) = self.pos.ep_square() else { return };
        let us = self.turn();
        let victim = ep.offset(us.fold_wb(-8, 8)).expect("behind the ep square");
        if self.pos.board().occupied().contains(ep) || self.side_of(victim) != side {
            return;
        }
        let capturers = attacks::pawn_attacks(us.other(), ep) & self.pos.board().by_piece(us.pawn()) & self.on(side);
        for from in capturers {
            out.push(Move::EnPassant { from, to: ep });
        }
    }

    /// Castling on the near side (castling rights belong only to a king and
    /// rooks that have never moved, so never switched): every square the
    /// king or rook crosses is empty on the near side, the squares where
    /// they land hold no piece at all, the king is not in check and crosses
    /// no attacked square there. Castling moves two pieces off the board
    /// side, so it needs two free checkers (our ruling). With `legal`, the
    /// king must also be safe where it lands on the far side.
    fn gen_castling(&self, legal: bool, out: &mut impl MoveSink) {
        let us = self.turn();
        let Some((king, Side::Near)) = self.our_king() else { return };
        let rooks = self.pos.castling_rooks() & self.pos.board().by_piece(us.rook()) & !self.far;
        if rooks.is_empty() || king.rank() != us.backrank() || !self.near_pieces_may_move(us, 2) {
            return;
        }
        let near = self.on(Side::Near);
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
            if !legal || self.castling_lands_safely(king, rook) {
                out.push(Move::Castle { king, rook });
            }
        }
    }

    // ------------------------------------------------------------------
    // Legal moves
    // ------------------------------------------------------------------

    /// The legal moves of the side to move (see the module documentation).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.gen_legal(Bitboard::FULL, &mut moves);
        moves
    }

    /// Whether the side to move has a legal move: the end-of-game check at
    /// every turn asks only this, so no move is written down.
    pub fn has_legal_move(&self) -> bool {
        let mut found = AnyMove(false);
        self.gen_legal(Bitboard::FULL, &mut found);
        found.0
    }

    /// The legal moves of the piece on `from` (both castlings when it is
    /// the king): a move applied is looked for among its own piece's moves,
    /// and only that piece's moves are generated.
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut moves = MovesFrom { from, moves: MoveList::new() };
        self.gen_legal(Bitboard::from_square(from), &mut moves);
        moves.moves
    }

    /// The legal moves, straight from the rules, side by side:
    ///
    /// - The king steps on its side where it is attacked neither there (the
    ///   orthodox condition) nor on the other side, where it lands.
    /// - A piece on the king's side leaves it: whatever it shielded and
    ///   whatever it captured are gone from the king's lines, so it may
    ///   never answer a check but by capturing the checker, a pinned piece
    ///   never moves but to capture, and a capture touching the king's
    ///   lines is tried on those lines.
    /// - A piece on the other side arrives on the king's side where it
    ///   lands: with the king in check it must land between the king and
    ///   its single checker; otherwise all its moves are legal (the own
    ///   king is not on its side before the switch).
    /// - En passant, rare and subtle (two pawns leave a side), is tried
    ///   out; castling lands both pieces on the far side, where the king
    ///   must be safe.
    ///
    /// Only the pieces on `from_squares` are moved (all of them but for
    /// [`AlicePosition::legal_moves_from`]); the checks and pins still
    /// read the whole board. Without a king every piece is moved: the sink
    /// picks its own.
    fn gen_legal(&self, from_squares: Bitboard, out: &mut impl MoveSink) {
        let Some((king, king_side)) = self.our_king() else {
            self.gen_pseudo_legal(out);
            return;
        };
        let us = self.turn();
        let them = us.other();
        let b = self.pos.board();
        let empty = !b.occupied();
        let (here, there) = match king_side {
            Side::Near => (b.occupied() & !self.far, self.far),
            Side::Far => (self.far, b.occupied() & !self.far),
        };
        let (ours, theirs) = (b.by_color(us) & from_squares, b.by_color(them));
        let checkers = self.pos.attackers_to(king, them, here);
        let near_may_move = self.near_pieces_may_move(us, 1);
        let here_moves = king_side == Side::Far || near_may_move;
        let there_moves = king_side == Side::Near || near_may_move;

        if here_moves && from_squares.contains(king) {
            let mut steps = attacks::king_attacks(king) & (empty | theirs & here);
            for to in steps {
                if !self.king_may_go(king, to, here, there) {
                    steps.discard(to);
                }
            }
            out.piece(b, Role::King, king, steps & theirs, steps & empty);
        }
        if checkers.more_than_one() {
            return;
        }
        if here_moves {
            let (quiet, victims) = match checkers.any() {
                true => (Bitboard::EMPTY, checkers),
                false => (empty, theirs & here),
            };
            let lines = attacks::queen_attacks(king, Bitboard::EMPTY);
            let keep = |from: Square, to: Square| {
                !(lines.contains(from) || lines.contains(to)) || self.safe_after_leaving(king, here, from, to)
            };
            let movers = ours & here & !b.kings();
            let pinned = self.pinned_on(king, here);
            let free = movers & !pinned;
            self.gen_pieces(free & !b.pawns(), here, quiet, victims, keep, out);
            self.gen_pawns(free & b.pawns(), here, quiet, victims, keep, out);
            if pinned.any() {
                self.gen_pieces(pinned & !b.pawns(), here, Bitboard::EMPTY, victims, keep, out);
                self.gen_pawns(pinned & b.pawns(), here, Bitboard::EMPTY, victims, keep, out);
            }
        }
        if there_moves {
            let arrive = match checkers.single_square() {
                None => Bitboard::FULL,
                Some(checker) => attacks::between(king, checker),
            };
            let movers = ours & there;
            let (quiet, victims) = (empty & arrive, theirs & there & arrive);
            self.gen_pieces(movers & !b.pawns(), there, quiet, victims, |_, _| true, out);
            self.gen_pawns(movers & b.pawns(), there, quiet, victims, |_, _| true, out);
        }
        if let Some(ep) = self.pos.ep_square() {
            self.gen_legal_en_passant(ep, from_squares, near_may_move, out);
        }
        if checkers.is_empty() && king_side == Side::Near && from_squares.contains(king) {
            self.gen_castling(true, out);
        }
    }

    /// A king step from `from` to `to` on the side whose pieces are
    /// `here`: not attacked there before the switch, nor on the other side
    /// (`there`) after it.
    #[inline(always)]
    fn king_may_go(&self, from: Square, to: Square, here: Bitboard, there: Bitboard) -> bool {
        let them = self.turn().other();
        self.pos.attackers_to(to, them, here.without(from)).without(to).is_empty()
            && self.pos.attackers_to(to, them, there).is_empty()
    }

    /// Whether the king on `king`, among the pieces `here` on its side, is
    /// safe once the pieces on `from` and `to` have both left that side (a
    /// piece captured there and its capturer, switched away): no enemy
    /// slider there sees it along a line they opened. Checks by other
    /// pieces are ruled out before.
    fn safe_after_leaving(&self, king: Square, here: Bitboard, from: Square, to: Square) -> bool {
        let b = self.pos.board();
        let open = here.without(from).without(to);
        let snipers = attacks::rook_attacks(king, open) & b.rooks_and_queens()
            | attacks::bishop_attacks(king, open) & b.bishops_and_queens();
        (snipers & b.by_color(self.turn().other()) & open).is_empty()
    }

    /// En passant captures by the pawns on `from_squares` that keep the own king
    /// safe, each tried out.
    #[inline(never)]
    fn gen_legal_en_passant(&self, ep: Square, from_squares: Bitboard, near_may_move: bool, out: &mut impl MoveSink) {
        let Some(victim) = ep.offset(self.turn().fold_wb(-8, 8)) else { return };
        let side = self.side_of(victim);
        if side == Side::Near && !near_may_move {
            return;
        }
        let mut candidates = MoveList::new();
        self.gen_en_passant(side, &mut candidates);
        for &m in &candidates {
            if m.from().is_some_and(|from| from_squares.contains(from)) && self.king_safe_after_switch(m) {
                out.push(m);
            }
        }
    }

    /// After castling both king and rook stand on the far side: the king
    /// must not be in check there (the rook may shield it).
    fn castling_lands_safely(&self, king: Square, rook: Square) -> bool {
        let us = self.turn();
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let far = self.on(Side::Far).with(side.rook_to(us));
        self.attackers(side.king_to(us), us.other(), Side::Far, far).is_empty()
    }

    /// Own pieces on the king's side (`here`) that stand alone between it
    /// and an enemy slider there.
    fn pinned_on(&self, king: Square, here: Bitboard) -> Bitboard {
        let b = self.pos.board();
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & b.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & b.bishops_and_queens())
            & b.by_color(self.turn().other())
            & here;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & here;
            if !between.more_than_one() {
                pinned |= between;
            }
        }
        pinned & b.by_color(self.turn())
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

/// Where the generator puts the moves it finds (a move list; perft's
/// counting sink, the only other, went with the game's own perft).
trait MoveSink {
    /// The `role` on `from` capturing on `captures` and moving to the
    /// empty squares `quiet`.
    fn piece(&mut self, board: &Board, role: Role, from: Square, captures: Bitboard, quiet: Bitboard);
    /// Pawns moving `delta` squares forward to each of `to` (capturing
    /// there with `captures`), each once per promotion on the last rank.
    fn pawns(&mut self, board: &Board, to: Bitboard, delta: i32, captures: bool);
    fn push(&mut self, m: Move);
}

/// The roles a pawn may promote to, strongest first.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece(&mut self, board: &Board, role: Role, from: Square, captures: Bitboard, quiet: Bitboard) {
        for to in captures {
            self.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
        }
        for to in quiet {
            self.push(Move::Normal { role, from, capture: None, to, promotion: None });
        }
    }

    #[inline(always)]
    fn pawns(&mut self, board: &Board, to: Bitboard, delta: i32, captures: bool) {
        let capture = |to: Square| if captures { board.role_at(to) } else { None };
        for to in to & !Bitboard::BACKRANKS {
            let from = back_by(to, delta);
            self.push(Move::Normal { role: Role::Pawn, from, capture: capture(to), to, promotion: None });
        }
        for to in to & Bitboard::BACKRANKS {
            let from = back_by(to, delta);
            for role in PROMOTIONS {
                self.push(Move::Normal { role: Role::Pawn, from, capture: capture(to), to, promotion: Some(role) });
            }
        }
    }

    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Notes only whether any move was generated ([`AlicePosition::has_legal_move`]).
struct AnyMove(bool);

impl MoveSink for AnyMove {
    fn piece(&mut self, _board: &Board, _role: Role, _from: Square, captures: Bitboard, quiet: Bitboard) {
        self.0 |= (captures | quiet).any();
    }

    fn pawns(&mut self, _board: &Board, to: Bitboard, _delta: i32, _captures: bool) {
        self.0 |= to.any();
    }

    fn push(&mut self, _m: Move) {
        self.0 = true;
    }
}

/// Keeps the moves of the piece on one square ([`AlicePosition::legal_moves_from`]).
struct MovesFrom {
    from: Square,
    moves: MoveList,
}

impl MoveSink for MovesFrom {
    fn piece(&mut self, board: &Board, role: Role, from: Square, captures: Bitboard, quiet: Bitboard) {
        if from == self.from {
            self.moves.piece(board, role, from, captures, quiet);
        }
    }

    fn pawns(&mut self, board: &Board, to: Bitboard, delta: i32, captures: bool) {
        let ahead = self.from as i32 + delta;
        if (0..64).contains(&ahead) {
            let landing = to & Bitboard::from_square(Square::new(ahead as u32));
            self.moves.pawns(board, landing, delta, captures);
        }
    }

    fn push(&mut self, m: Move) {
        if m.from() == Some(self.from) {
            self.moves.push(m);
        }
    }
}

/// The square `delta` steps back from `to`, for a pawn move found by
/// shifting a set by `delta`: on the board, since the pawn stood there.
#[inline(always)]
fn back_by(to: Square, delta: i32) -> Square {
    Square::new((to as i32 - delta) as u32 & 63)
}
