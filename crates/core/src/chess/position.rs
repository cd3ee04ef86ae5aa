//! A chess position on any board mask, with pseudo-legal move generation
//! and orthodox legality as separate steps.
//!
//! Most Chess Kit variants change only *what is legal* (kings that may be
//! captured, moves judged against the next player, extra steps in a turn),
//! so the generator offers three layers:
//!
//! 1. attack sets ([`Position::attacks_from`], [`Position::attackers_to`]) that
//!    respect the board mask: squares outside the mask block sliders and are
//!    never targets;
//! 2. pseudo-legal moves ([`Position::pseudo_legal_moves`]): every move the
//!    pieces can make, ignoring whether the own king is left in check;
//! 3. orthodox legality ([`Position::legal_moves`], [`Position::is_legal`]), a
//!    fast filter with pins and check evasions that variants replace freely.

use shakmaty::attacks;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Bitboard, Board, ByColor, CastlingSide, Color, File, Move, MoveList, Piece, Rank, Role, Square};

use crate::chess::eval::PieceSums;

/// A small set of roles, e.g. the roles a pawn may promote to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoleSet(u8);

impl RoleSet {
    pub const EMPTY: RoleSet = RoleSet(0);
    /// Knight, bishop, rook, queen: orthodox promotion.
    pub const ORTHODOX_PROMOTIONS: RoleSet = RoleSet(
        (1 << Role::Knight as u8) | (1 << Role::Bishop as u8) | (1 << Role::Rook as u8) | (1 << Role::Queen as u8),
    );

    pub const fn with(self, role: Role) -> RoleSet {
        RoleSet(self.0 | (1 << role as u8))
    }

    pub const fn without(self, role: Role) -> RoleSet {
        RoleSet(self.0 & !(1 << role as u8))
    }

    pub const fn contains(self, role: Role) -> bool {
        self.0 & (1 << role as u8) != 0
    }

    /// The roles in the set, strongest first (queen, rook, bishop, knight, ...).
    pub fn iter(self) -> impl Iterator<Item = Role> {
        [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::King, Role::Pawn]
            .into_iter()
            .filter(move |&r| self.contains(r))
    }
}

/// The geometry and the orthodox rules a position is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// The squares in play. Outside them nothing stands, moves or attacks.
    pub mask: Bitboard,
    /// Whether a pawn on its first rank may advance two squares.
    pub double_step: bool,
    /// Whether castling exists at all.
    pub castling: bool,
    /// What a pawn on the last rank may become.
    pub promotions: RoleSet,
}

impl Geometry {
    /// The orthodox 8x8 board.
    pub const ORTHODOX: Geometry =
        Geometry { mask: Bitboard::FULL, double_step: true, castling: true, promotions: RoleSet::ORTHODOX_PROMOTIONS };

    /// Los Alamos chess on the inner 6x6 (b2 to g7): no double step, no
    /// castling, no promotion to bishop.
    pub fn los_alamos() -> Geometry {
        let files = Bitboard::from_file(File::B)
            | Bitboard::from_file(File::C)
            | Bitboard::from_file(File::D)
            | Bitboard::from_file(File::E)
            | Bitboard::from_file(File::F)
            | Bitboard::from_file(File::G);
        let ranks = Bitboard::from_rank(Rank::Second)
            | Bitboard::from_rank(Rank::Third)
            | Bitboard::from_rank(Rank::Fourth)
            | Bitboard::from_rank(Rank::Fifth)
            | Bitboard::from_rank(Rank::Sixth)
            | Bitboard::from_rank(Rank::Seventh);
        Geometry {
            mask: files & ranks,
            double_step: false,
            castling: false,
            promotions: RoleSet::EMPTY.with(Role::Knight).with(Role::Rook).with(Role::Queen),
        }
    }

    /// The rank where `color`'s pieces start (the lowest rank of the mask for White).
    pub fn back_rank(&self, color: Color) -> Option<Rank> {
        let sq = match color {
            Color::White => self.mask.first(),
            Color::Black => self.mask.last(),
        }?;
        Some(sq.rank())
    }

    /// The rank where `color`'s pawns promote.
    pub fn promotion_rank(&self, color: Color) -> Option<Rank> {
        self.back_rank(color.other())
    }

    /// The rank from which `color`'s pawns may double-step.
    pub fn pawn_rank(&self, color: Color) -> Option<Rank> {
        let back = self.back_rank(color)?;
        back.offset(color.fold_wb(1, -1))
    }
}

impl Default for Geometry {
    fn default() -> Geometry {
        Geometry::ORTHODOX
    }
}

/// A position: pieces, side to move, castling rights, en passant square and
/// clocks, on a [`Geometry`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
    /// Rooks that still carry castling rights (Chess960 style: by square).
    castling_rooks: Bitboard,
    /// The square behind a pawn that just advanced two squares.
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    geometry: Geometry,
    /// The evaluation's material and piece-square sums of `board`, kept up
    /// to date as pieces are put down and lifted (every edit of the board
    /// goes through [`Position::set_piece_at`], [`Position::remove_piece_at`]
    /// or [`Position::board_mut`], which counts them again).
    piece_sums: PieceSums,
    /// The pieces' part of [`Position::zobrist`], kept up to date alike.
    pieces_key: u64,
}

impl Position {
    /// The orthodox starting position.
    pub fn startpos() -> Position {
        Position::from_parts(Board::new(), Color::White, Bitboard::CORNERS, None, 0, 1, Geometry::ORTHODOX)
    }

    /// Build a position from its parts without any validation. Use
    /// [`crate::chess::fen::parse_fen`] for checked input.
    pub fn from_parts(
        board: Board,
        turn: Color,
        castling_rooks: Bitboard,
        ep_square: Option<Square>,
        halfmoves: u32,
        fullmoves: u32,
        geometry: Geometry,
    ) -> Position {
        let (piece_sums, pieces_key) = (PieceSums::count(&board), pieces_key(&board));
        let fullmoves = fullmoves.max(1);
        Position { board, turn, castling_rooks, ep_square, halfmoves, fullmoves, geometry, piece_sums, pieces_key }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Mutable access for variants that edit the board outside moves (a
    /// rising zombie, a lifted piece). The sums the position keeps of its
    /// pieces are counted again when the returned edit ends;
    /// [`Position::set_piece_at`] and [`Position::remove_piece_at`] keep
    /// them up to date without that count.
    pub fn board_mut(&mut self) -> BoardEdit<'_> {
        BoardEdit { pos: self }
    }

    /// The evaluation's material and piece-square sums of the board
    /// ([`crate::chess::eval::evaluate`] reads them).
    pub fn piece_sums(&self) -> PieceSums {
        self.piece_sums
    }

    /// Put `piece` on `square`, replacing what stood there.
    #[inline]
    pub fn set_piece_at(&mut self, square: Square, piece: Piece) {
        self.remove_piece_at(square);
        self.board.set_piece_at(square, piece);
        self.piece_sums.add(piece, square);
        self.pieces_key ^= piece_key(square, piece);
    }

    /// Lift the piece on `square` off the board, if there is one.
    #[inline]
    pub fn remove_piece_at(&mut self, square: Square) -> Option<Piece> {
        let piece = self.board.remove_piece_at(square)?;
        self.piece_sums.remove(piece, square);
        self.pieces_key ^= piece_key(square, piece);
        Some(piece)
    }

    /// The sums kept of the pieces, counted again after the board was
    /// edited directly.
    fn recount_pieces(&mut self) {
        self.piece_sums = PieceSums::count(&self.board);
        self.pieces_key = pieces_key(&self.board);
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
    }

    pub fn castling_rooks(&self) -> Bitboard {
        self.castling_rooks
    }

    pub fn set_castling_rooks(&mut self, rooks: Bitboard) {
        self.castling_rooks = rooks;
    }

    /// The en passant target square as stored (set after every double step).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    pub fn set_ep_square(&mut self, square: Option<Square>) {
        self.ep_square = square;
    }

    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// Set the halfmove clock (a variant that makes a move in place).
    pub fn set_halfmoves(&mut self, halfmoves: u32) {
        self.halfmoves = halfmoves;
    }

    /// A 64-bit Zobrist key of what the rules read from this position:
    /// the pieces, the side to move, the castling rooks, the stored en
    /// passant square and the halfmove clock (the fifty-move rule), so
    /// that a search can key its table without writing the FEN. Equal
    /// positions have equal keys; the move number is left out, as it
    /// changes no rule.
    pub fn zobrist(&self) -> u64 {
        use crate::search_node::mix64;
        debug_assert_eq!(self.pieces_key, pieces_key(&self.board), "the pieces' key drifted from the board");
        let mut key = self.pieces_key;
        if self.turn == Color::White {
            key ^= u64::from(Zobrist64::zobrist_for_white_turn());
        }
        for rook in self.castling_rooks {
            key ^= mix64(CASTLING_SALT ^ u64::from(rook));
        }
        if let Some(ep) = self.ep_square {
            key ^= u64::from(Zobrist64::zobrist_for_en_passant_file(ep.file())) ^ mix64(EP_SALT ^ u64::from(ep));
        }
        key ^ mix64(HALFMOVE_SALT ^ u64::from(self.halfmoves))
    }

    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Set the move number (at least 1), for a variant that keeps a position
    /// through the steps of a turn rather than building it again.
    pub fn set_fullmoves(&mut self, fullmoves: u32) {
        self.fullmoves = fullmoves.max(1);
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    pub fn mask(&self) -> Bitboard {
        self.geometry.mask
    }

    pub fn our(&self, role: Role) -> Bitboard {
        self.board.by_piece(role.of(self.turn))
    }

    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.board.kings() & self.board.by_color(color)).single_square()
    }

    // ------------------------------------------------------------------
    // Attack sets
    // ------------------------------------------------------------------

    /// Squares a piece of kind `piece` on `sq` attacks with the given
    /// occupancy, clipped to the mask (squares off the mask block sliders).
    /// Inlined: callers that ask for several kinds on one square (Masquerade's
    /// capture moves) then pay no call and no match per kind.
    #[inline]
    pub fn piece_attacks(&self, sq: Square, piece: Piece, occupied: Bitboard) -> Bitboard {
        let mask = self.geometry.mask;
        let blockers = occupied | !mask;
        let targets = match piece.role {
            Role::Pawn => attacks::pawn_attacks(piece.color, sq),
            Role::Knight => attacks::knight_attacks(sq),
            Role::Bishop => attacks::bishop_attacks(sq, blockers),
            Role::Rook => attacks::rook_attacks(sq, blockers),
            Role::Queen => attacks::queen_attacks(sq, blockers),
            Role::King => attacks::king_attacks(sq),
        };
        targets & mask
    }

    /// Squares the piece on `sq` attacks, or nothing for an empty square.
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        self.board.piece_at(sq).map_or(Bitboard::EMPTY, |p| self.piece_attacks(sq, p, self.board.occupied()))
    }

    /// Pieces of `attacker` that attack `sq`, given the occupancy.
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.attackers_among(sq, attacker, self.board.by_color(attacker) & occupied, occupied)
    }

    /// The pieces among `them` (of colour `attacker`) that attack `sq`
    /// with the given occupancy, their roles read from the board: also
    /// what attacks after a move of the other side, which moves none of
    /// `them` and at most takes some away ([`Position::leaves_king_safe`]).
    #[inline(always)]
    fn attackers_among(&self, sq: Square, attacker: Color, them: Bitboard, occupied: Bitboard) -> Bitboard {
        let blockers = occupied | !self.geometry.mask;
        let b = &self.board;
        (attacks::rook_attacks(sq, blockers) & b.rooks_and_queens()
            | attacks::bishop_attacks(sq, blockers) & b.bishops_and_queens()
            | attacks::knight_attacks(sq) & b.knights()
            | attacks::king_attacks(sq) & b.kings()
            | attacks::pawn_attacks(attacker.other(), sq) & b.pawns())
            & them
    }

    pub fn is_attacked(&self, sq: Square, attacker: Color) -> bool {
        self.attackers_to(sq, attacker, self.board.occupied()).any()
    }

    /// Enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        self.king_of(self.turn)
            .map_or(Bitboard::EMPTY, |king| self.attackers_to(king, self.turn.other(), self.board.occupied()))
    }

    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    // ------------------------------------------------------------------
    // Pseudo-legal moves
    // ------------------------------------------------------------------

    /// Every move the side to move's pieces can make, ignoring checks.
    /// Castling is included only where the rules of castling (path empty and
    /// not attacked) hold; see [`Position::castling_moves`].
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        let targets = !self.board.by_color(self.turn) & self.geometry.mask;
        self.gen_pieces(self.board.by_color(self.turn) & !self.board.pawns(), targets, &mut moves);
        self.gen_pawns(self.our(Role::Pawn), targets, &mut moves);
        self.gen_en_passant(&mut moves);
        self.castling_moves(true, &mut moves);
        moves
    }

    /// The moves of the side to move's pieces on `from_set`, appended to
    /// `moves`, without castling and without a test of the king's safety:
    /// [`Position::pseudo_legal_moves`] for some pieces only, in the same
    /// order, and into a list the caller owns (variants whose pieces may
    /// not all move as in chess, generating at every node).
    pub fn piece_moves_into(&self, from_set: Bitboard, moves: &mut MoveList) {
        let ours = self.board.by_color(self.turn) & from_set;
        let targets = !self.board.by_color(self.turn) & self.geometry.mask;
        self.gen_pieces(ours & !self.board.pawns(), targets, moves);
        self.gen_pawns(ours & self.board.pawns(), targets, moves);
        let first_en_passant = moves.len();
        self.gen_en_passant(moves);
        let mut i = first_en_passant;
        while i < moves.len() {
            if moves[i].from().is_some_and(|from| from_set.contains(from)) {
                i += 1;
            } else {
                moves.remove(i);
            }
        }
    }

    /// The side to move's pseudo-legal moves to squares in `targets`,
    /// without en passant and castling: with the empty squares as targets,
    /// the moves that capture nothing (Cooperative Chess's first step).
    pub fn pseudo_legal_moves_to(&self, targets: Bitboard, moves: &mut MoveList) {
        let targets = targets & !self.board.by_color(self.turn) & self.geometry.mask;
        self.gen_pieces(self.board.by_color(self.turn) & !self.board.pawns(), targets, moves);
        self.gen_pawns(self.our(Role::Pawn), targets, moves);
    }

    /// Moves of the non-pawn pieces in `from_set` (the side to move's) to
    /// squares in `targets` (which lie on the mask): role by role, in square
    /// order, each piece's captures before its quiet moves.
    #[inline(always)]
    fn gen_pieces(&self, from_set: Bitboard, targets: Bitboard, moves: &mut MoveList) {
        let b = &self.board;
        let blockers = b.occupied() | !self.geometry.mask;
        for from in from_set & b.knights() {
            self.push_piece_moves(Role::Knight, from, attacks::knight_attacks(from) & targets, moves);
        }
        for from in from_set & b.bishops() {
            self.push_piece_moves(Role::Bishop, from, attacks::bishop_attacks(from, blockers) & targets, moves);
        }
        for from in from_set & b.rooks() {
            self.push_piece_moves(Role::Rook, from, attacks::rook_attacks(from, blockers) & targets, moves);
        }
        for from in from_set & b.queens() {
            self.push_piece_moves(Role::Queen, from, attacks::queen_attacks(from, blockers) & targets, moves);
        }
        for from in from_set & b.kings() {
            self.push_piece_moves(Role::King, from, attacks::king_attacks(from) & targets, moves);
        }
    }

    /// The moves of the `role` on `from` to the squares in `reach`: captures
    /// first, then quiet moves.
    #[inline(always)]
    fn push_piece_moves(&self, role: Role, from: Square, reach: Bitboard, moves: &mut MoveList) {
        let occupied = self.board.occupied();
        for to in reach & occupied {
            moves.push(Move::Normal { role, from, capture: self.board.role_at(to), to, promotion: None });
        }
        for to in reach & !occupied {
            moves.push(Move::Normal { role, from, capture: None, to, promotion: None });
        }
    }

    /// Pawn pushes, double steps, captures and promotions of the pawns in
    /// `pawns`, to squares in `targets`, generated set-wise by shifting.
    #[inline(always)]
    fn gen_pawns(&self, pawns: Bitboard, targets: Bitboard, moves: &mut MoveList) {
        match self.turn {
            Color::White => self.gen_pawns_of::<true>(pawns, targets, moves),
            Color::Black => self.gen_pawns_of::<false>(pawns, targets, moves),
        }
    }

    /// [`Position::gen_pawns`] for one colour, so that every shift is by a
    /// constant.
    #[inline(always)]
    fn gen_pawns_of<const WHITE: bool>(&self, pawns: Bitboard, targets: Bitboard, moves: &mut MoveList) {
        let us = self.turn;
        let mask = self.geometry.mask;
        let them = self.board.by_color(us.other()) & mask;
        let empty = !self.board.occupied() & mask;
        let forward: i32 = if WHITE { 8 } else { -8 };
        // The ranks of the mask's first and last squares: the back ranks.
        let rank_of = |sq: Option<Square>| sq.map_or(Bitboard::EMPTY, |sq| Bitboard::from_rank(sq.rank()));
        let (back_rank, promo_rank) = if WHITE {
            (rank_of(mask.first()), rank_of(mask.last()))
        } else {
            (rank_of(mask.last()), rank_of(mask.first()))
        };
        let advance = |set: Bitboard, by: i32| set.shift(by);
        for (delta, edge) in [(forward - 1, File::A), (forward + 1, File::H)] {
            let captures = advance(pawns & !Bitboard::from_file(edge), delta) & them & targets;
            for to in captures {
                let (from, capture) = (back_by(to, delta), self.board.role_at(to));
                if promo_rank.contains(to) {
                    self.push_promotions(from, to, capture, moves);
                } else {
                    moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
                }
            }
        }
        let single = advance(pawns, forward) & empty;
        // Most pushes do not promote: those need no check of the rank.
        for to in single & targets & !promo_rank {
            moves.push(Move::Normal {
                role: Role::Pawn,
                from: back_by(to, forward),
                capture: None,
                to,
                promotion: None,
            });
        }
        for to in single & targets & promo_rank {
            self.push_promotions(back_by(to, forward), to, None, moves);
        }
        if self.geometry.double_step {
            // A double step crosses the rank two ahead of the back rank.
            let crossed_rank = advance(back_rank, 2 * forward);
            let double = advance(single & crossed_rank, forward) & empty & targets;
            for to in double {
                let from = back_by(to, 2 * forward);
                moves.push(Move::Normal { role: Role::Pawn, from, capture: None, to, promotion: None });
            }
        }
    }

    /// A pawn's move to its last rank, once for each role it may become.
    fn push_promotions(&self, from: Square, to: Square, capture: Option<Role>, moves: &mut MoveList) {
        for role in self.geometry.promotions.iter() {
            moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(role) });
        }
    }

    fn gen_en_passant(&self, moves: &mut MoveList) {
        let Some(ep) = self.ep_square else { return };
        if self.board.occupied().contains(ep) {
            return;
        }
        for from in attacks::pawn_attacks(self.turn.other(), ep) & self.our(Role::Pawn) {
            moves.push(Move::EnPassant { from, to: ep });
        }
    }

    /// The castling moves of the side to move (Chess960 rules: king to the
    /// c or g file, rook to the d or f file, every square either piece
    /// crosses empty but for the two of them). With `check_attacks` the
    /// king's start, path and destination must not be attacked.
    pub fn castling_moves(&self, check_attacks: bool, moves: &mut MoveList) {
        if let Some(king) = self.king_of(self.turn) {
            self.castling_moves_of(king, check_attacks, false, Bitboard::EMPTY, moves);
        }
    }

    /// [`Position::castling_moves`] with the attacks checked, for a side to
    /// move the caller knows is not in check: the king's start is then not
    /// tested again (see [`Position::castling_moves_of`]), as
    /// [`Position::legal_moves_into`] does. `safe`: squares the caller knows
    /// no enemy piece attacks with the king lifted (its legal steps); with
    /// a rook on the a or h file they are not tested again either.
    pub fn castling_moves_out_of_check(&self, safe: Bitboard, moves: &mut MoveList) {
        if let Some(king) = self.king_of(self.turn) {
            self.castling_moves_of(king, true, true, safe, moves);
        }
    }

    /// [`Position::castling_moves`] for the king on `king`;
    /// `in_check_tested` when the caller knows the king is not in check.
    /// Then a king that moves needs no test of its start square: with the
    /// rook gone, a line to it could open only along the back rank from
    /// beyond the rook, and would cross the king's destination first.
    /// `known_safe`: squares not attacked with the king lifted; with a rook
    /// on the a or h file lifting it too opens no line to them (a line
    /// through the rook's square to a square of the back rank runs along
    /// the rank, and nothing stands beyond a corner), so they need no test.
    #[inline(always)]
    fn castling_moves_of(
        &self,
        king: Square,
        check_attacks: bool,
        in_check_tested: bool,
        known_safe: Bitboard,
        moves: &mut MoveList,
    ) {
        if !self.geometry.castling {
            return;
        }
        let back_rank = self.turn.backrank();
        let back = Bitboard::from_rank(back_rank);
        let rooks = self.castling_rooks & self.our(Role::Rook) & back;
        if rooks.is_empty() || !back.contains(king) {
            return;
        }
        let a1 = Square::from_coords(File::A, back_rank) as u32;
        for rook in rooks {
            // The squares the king and the rook cross, their destinations
            // included, join into one stretch of the back rank: from the
            // leftmost to the rightmost of the four squares.
            let (king_to, low, high) = if rook > king {
                (File::G, (king as u32).min(a1 + 5), (rook as u32).max(a1 + 6))
            } else {
                (File::C, (rook as u32).min(a1 + 2), (king as u32).max(a1 + 3))
            };
            let occupied = self.board.occupied().without(king).without(rook);
            if span(low, high).intersects(occupied) {
                continue;
            }
            let king_to = Square::from_coords(king_to, back_rank);
            let mut king_path = span((king as u32).min(king_to as u32), (king as u32).max(king_to as u32));
            if in_check_tested && king_to != king {
                king_path.discard(king);
            }
            if matches!(rook.file(), File::A | File::H) {
                king_path &= !known_safe;
            }
            if !check_attacks || self.squares_safe(king_path, occupied) {
                moves.push(Move::Castle { king, rook });
            }
        }
    }

    /// Whether no enemy piece attacks any of `squares` (the king's path
    /// when castling) with the given occupancy.
    #[inline(never)]
    fn squares_safe(&self, squares: Bitboard, occupied: Bitboard) -> bool {
        !squares.into_iter().any(|sq| self.attackers_to(sq, self.turn.other(), occupied).any())
    }

    // ------------------------------------------------------------------
    // Orthodox legality
    // ------------------------------------------------------------------

    /// Pieces of the side to move pinned to their own king.
    pub fn pinned(&self) -> Bitboard {
        self.king_of(self.turn).map_or(Bitboard::EMPTY, |king| self.pinned_to(king))
    }

    /// Pieces of the side to move pinned to its king on `king`.
    #[inline(always)]
    fn pinned_to(&self, king: Square) -> Bitboard {
        let b = &self.board;
        let them = b.by_color(self.turn.other());
        let blockers_off_mask = !self.geometry.mask;
        let snipers = (attacks::rook_attacks(king, blockers_off_mask) & b.rooks_and_queens()
            | attacks::bishop_attacks(king, blockers_off_mask) & b.bishops_and_queens())
            & them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & b.occupied();
            if !between.more_than_one() {
                pinned |= between;
            }
        }
        pinned & b.by_color(self.turn)
    }

    /// The orthodox legal moves: pseudo-legal moves that do not leave the
    /// own king attacked. Positions without a king of the side to move
    /// allow every pseudo-legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// [`Position::legal_moves`] into a list the caller owns (cleared
    /// first), so that a search or perft keeps one list per ply instead of
    /// moving a 256-move array around at every node.
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        let us = self.turn;
        let b = &self.board;
        let own = b.by_color(us);
        let Some(king) = (b.kings() & own).single_square() else {
            *moves = self.pseudo_legal_moves();
            return;
        };
        let them = us.other();
        let mask = self.geometry.mask;
        let checkers = self.attackers_to(king, them, b.occupied());

        // King steps: the destination must not be attacked once the king has left.
        let occupied_without_king = b.occupied().without(king);
        for to in attacks::king_attacks(king) & mask & !own {
            if self.attackers_to(to, them, occupied_without_king).is_empty() {
                moves.push(Move::Normal { role: Role::King, from: king, capture: b.role_at(to), to, promotion: None });
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let pinned = self.pinned_to(king);
        let free = own & !pinned;
        match checkers.single_square() {
            Some(checker) => self.gen_check_answers(king, checker, free, moves),
            None => {
                let targets = !own & mask;
                self.castling_moves_of(king, true, true, Bitboard::EMPTY, moves);
                // Pinned pieces move only along the line through their king:
                // the free ones are generated together, each pinned one on its line.
                self.gen_pieces(free & !b.pawns() & !b.kings(), targets, moves);
                self.gen_pawns(free & b.pawns(), targets, moves);
                if pinned.any() {
                    self.gen_pinned(king, pinned, targets, moves);
                }
            }
        }
        // En passant is rare and subtle (discovered checks along the rank): test it fully.
        if self.ep_square.is_some() {
            let first_en_passant = moves.len();
            self.gen_en_passant(moves);
            let mut i = first_en_passant;
            while i < moves.len() {
                if self.leaves_king_safe(moves[i]) {
                    i += 1;
                } else {
                    moves.swap_remove(i);
                }
            }
        }
    }

    /// The moves of the `free` (unpinned) pieces other than the king that
    /// answer a check by the single `checker`: capture it or block it.
    /// A pinned piece never does: its line through the king is not the
    /// checker's.
    #[inline(never)]
    fn gen_check_answers(&self, king: Square, checker: Square, free: Bitboard, moves: &mut MoveList) {
        let b = &self.board;
        let targets = attacks::between(king, checker).with(checker) & self.geometry.mask;
        self.gen_pieces(free & !b.pawns() & !b.kings(), targets, moves);
        self.gen_pawns(free & b.pawns(), targets, moves);
    }

    /// The moves of the `pinned` pieces along their lines through `king`.
    #[inline(never)]
    fn gen_pinned(&self, king: Square, pinned: Bitboard, targets: Bitboard, moves: &mut MoveList) {
        for from in pinned {
            let on_line = targets & attacks::ray(king, from);
            if self.board.pawns().contains(from) {
                self.gen_pawns(Bitboard::from_square(from), on_line, moves);
            } else {
                self.gen_pieces(Bitboard::from_square(from), on_line, moves);
            }
        }
    }

    /// The first orthodox legal move of the piece on `from` that `named`
    /// accepts (castling included for the king), in the order of
    /// [`Position::legal_moves`]: a referee applying the move it was told
    /// checks that piece's moves only, where the whole list costs a
    /// search a full move generation at every node.
    pub fn legal_move_from(&self, from: Square, named: impl Fn(Move) -> bool) -> Option<Move> {
        let mut moves = MoveList::new();
        self.piece_moves_into(Bitboard::from_square(from), &mut moves);
        if self.king_of(self.turn) == Some(from) {
            self.castling_moves(true, &mut moves);
        }
        // By reference: `into_iter` would copy the whole 256-move array.
        moves.iter().copied().find(|&m| named(m) && self.leaves_king_safe(m))
    }

    /// Whether `m`, played by the side to move, leaves its own king
    /// unattacked (true when the side has no single king after it).
    /// Judged on the board's sets as [`Position::play_unchecked`] would
    /// leave them, without playing the move: every apply of a referee asks
    /// it, and a copy of the position with its sums and key updated costs
    /// several times more.
    pub fn leaves_king_safe(&self, m: Move) -> bool {
        let after = SquaresAfter::of(self, m);
        match after.our_kings.single_square() {
            Some(king) => self.attackers_among(king, self.turn.other(), after.them, after.occupied).is_empty(),
            None => true,
        }
    }

    /// Whether `m` is an orthodox legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move has an orthodox legal move: what the end
    /// of a game asks after every move. A king step to a safe square, or
    /// any move of an unpinned knight, bishop, rook or queen that answers
    /// the check if there is one, answers it without generating the
    /// other moves.
    pub fn has_legal_move(&self) -> bool {
        let us = self.turn;
        let b = &self.board;
        if let Some(king) = (b.kings() & b.by_color(us)).single_square() {
            let without_king = b.occupied().without(king);
            let steps = attacks::king_attacks(king) & self.geometry.mask & !b.by_color(us);
            if steps.into_iter().any(|to| self.attackers_to(to, us.other(), without_king).is_empty()) {
                return true;
            }
            if self.a_free_piece_moves(king) {
                return true;
            }
        }
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        !moves.is_empty()
    }

    /// Whether an unpinned piece of the side to move other than its king
    /// and its pawns has a move that [`Position::legal_moves_into`] lists:
    /// any move at all out of check, one that takes or blocks a single
    /// checker, none in double check.
    fn a_free_piece_moves(&self, king: Square) -> bool {
        let b = &self.board;
        let own = b.by_color(self.turn);
        let checkers = self.attackers_to(king, self.turn.other(), b.occupied());
        let targets = match checkers.single_square() {
            _ if checkers.more_than_one() => return false,
            Some(checker) => attacks::between(king, checker).with(checker),
            None => !own,
        } & self.geometry.mask;
        let free = own & !self.pinned_to(king) & !b.pawns() & !b.kings();
        let blockers = b.occupied() | !self.geometry.mask;
        (free & b.knights()).into_iter().any(|from| attacks::knight_attacks(from).intersects(targets))
            || (free & b.bishops_and_queens())
                .into_iter()
                .any(|from| attacks::bishop_attacks(from, blockers).intersects(targets))
            || (free & b.rooks_and_queens())
                .into_iter()
                .any(|from| attacks::rook_attacks(from, blockers).intersects(targets))
    }

    /// Neither side can ever mate: bare kings, a lone minor piece, or
    /// bishops all on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        if (b.pawns() | b.rooks_and_queens()).any() {
            return false;
        }
        let minors = b.knights() | b.bishops();
        if minors.count() <= 1 {
            return true;
        }
        if b.knights().is_empty() {
            let bishops = b.bishops();
            return bishops.is_subset(Bitboard::DARK_SQUARES) || bishops.is_subset(Bitboard::LIGHT_SQUARES);
        }
        false
    }

    /// The en passant square only when a pseudo-legal en passant capture
    /// exists: what FEN prints and what repetition compares.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut moves = MoveList::new();
        self.gen_en_passant(&mut moves);
        moves.iter().any(|&m| self.leaves_king_safe(m)).then_some(ep)
    }

    // ------------------------------------------------------------------
    // Playing moves
    // ------------------------------------------------------------------

    /// Play `m` for the side to move without checking it: pieces, castling
    /// rights, en passant square, clocks and turn are updated.
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        self.ep_square = None;
        self.halfmoves += 1;
        match m {
            Move::Normal { role, from, capture, to, promotion } => {
                if role == Role::Pawn || capture.is_some() {
                    self.halfmoves = 0;
                }
                if role == Role::King {
                    self.castling_rooks &= !Bitboard::from_rank(us.backrank());
                }
                self.castling_rooks.discard(from);
                self.castling_rooks.discard(to);
                if role == Role::Pawn && (to as i32 - from as i32).abs() == 16 {
                    self.ep_square = from.offset(us.fold_wb(8, -8));
                }
                self.remove_piece_at(from);
                self.set_piece_at(to, promotion.unwrap_or(role).of(us));
            }
            Move::EnPassant { from, to } => {
                self.halfmoves = 0;
                self.remove_piece_at(from);
                self.remove_piece_at(Square::from_coords(to.file(), from.rank()));
                self.set_piece_at(to, Piece { color: us, role: Role::Pawn });
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(rook.file() > king.file());
                self.remove_piece_at(king);
                self.remove_piece_at(rook);
                self.set_piece_at(side.king_to(us), us.king());
                self.set_piece_at(side.rook_to(us), us.rook());
                self.castling_rooks &= !Bitboard::from_rank(us.backrank());
            }
            Move::Put { role, to } => {
                self.set_piece_at(to, role.of(us));
            }
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = us.other();
    }

    /// Pass the turn without moving (for variants where a seat may pass).
    pub fn pass_turn(&mut self) {
        self.ep_square = None;
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = self.turn.other();
    }

    /// Whether the castling rights could ever be used: each right must name
    /// a rook on its owner's back rank, with the king on the same rank.
    pub fn castling_rights_valid(&self) -> bool {
        for color in Color::ALL {
            let rights = self.castling_rooks & Bitboard::from_rank(color.backrank());
            if rights.is_empty() {
                continue;
            }
            let Some(king) = self.king_of(color) else { return false };
            if king.rank() != color.backrank() || !rights.is_subset(self.board.by_piece(color.rook())) {
                return false;
            }
            let (a_side, h_side): (Vec<Square>, Vec<Square>) = rights.into_iter().partition(|r| r.file() < king.file());
            if a_side.len() > 1 || h_side.len() > 1 {
                return false;
            }
        }
        let on_back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
        self.castling_rooks.is_subset(on_back_ranks)
    }

    /// A count of each side's pieces by role.
    pub fn material(&self) -> ByColor<[u8; 6]> {
        ByColor::new_with(|color| {
            let mut counts = [0u8; 6];
            for role in Role::ALL {
                counts[role as usize - 1] = (self.board.by_piece(role.of(color))).count() as u8;
            }
            counts
        })
    }
}

/// What [`Position::leaves_king_safe`] reads of the board after a move,
/// worked out from the move as [`Position::play_unchecked`] would place
/// and lift the pieces.
struct SquaresAfter {
    /// Every square with a piece on it.
    occupied: Bitboard,
    /// The other side's pieces (those the move did not take).
    them: Bitboard,
    /// The mover's kings.
    our_kings: Bitboard,
}

impl SquaresAfter {
    fn of(pos: &Position, m: Move) -> SquaresAfter {
        let us = pos.turn;
        let b = &pos.board;
        let mut after = SquaresAfter {
            occupied: b.occupied(),
            them: b.by_color(us.other()),
            our_kings: b.kings() & b.by_color(us),
        };
        match m {
            Move::Normal { role, from, to, promotion, .. } => {
                after.lift(from);
                after.put(to, promotion.unwrap_or(role));
            }
            Move::EnPassant { from, to } => {
                after.lift(from);
                after.lift(Square::from_coords(to.file(), from.rank()));
                after.put(to, Role::Pawn);
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(rook.file() > king.file());
                after.lift(king);
                after.lift(rook);
                after.put(side.king_to(us), Role::King);
                after.put(side.rook_to(us), Role::Rook);
            }
            Move::Put { role, to } => after.put(to, role),
        }
        after
    }

    fn lift(&mut self, square: Square) {
        self.occupied.discard(square);
        self.them.discard(square);
        self.our_kings.discard(square);
    }

    /// A piece of the mover's, of `role`, put on `square` (replacing
    /// whatever stood there).
    fn put(&mut self, square: Square, role: Role) {
        self.lift(square);
        self.occupied.add(square);
        if role == Role::King {
            self.our_kings.add(square);
        }
    }
}

/// An edit of a position's board ([`Position::board_mut`]): the board
/// itself to change as a variant's rules say, and, when the edit ends,
/// the sums the position keeps of its pieces counted again, so that no
/// edit can leave them behind the board.
pub struct BoardEdit<'a> {
    pos: &'a mut Position,
}

impl std::ops::Deref for BoardEdit<'_> {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.pos.board
    }
}

impl std::ops::DerefMut for BoardEdit<'_> {
    fn deref_mut(&mut self) -> &mut Board {
        &mut self.pos.board
    }
}

impl Drop for BoardEdit<'_> {
    fn drop(&mut self) {
        self.pos.recount_pieces();
    }
}

/// The Zobrist value of `piece` on `square`.
#[inline]
fn piece_key(square: Square, piece: Piece) -> u64 {
    u64::from(Zobrist64::zobrist_for_piece(square, piece))
}

/// The pieces' part of the Zobrist key of `board`, counted piece by piece
/// (kind by kind, which finds each piece's kind without asking the board).
fn pieces_key(board: &Board) -> u64 {
    let mut key = 0;
    for piece in Color::ALL.into_iter().flat_map(|color| Role::ALL.map(|role| role.of(color))) {
        for square in board.by_piece(piece) {
            key ^= piece_key(square, piece);
        }
    }
    key
}

/// The squares from `low` to `high` (both included) in square order: on
/// one rank, the stretch between two files.
fn span(low: u32, high: u32) -> Bitboard {
    Bitboard((u64::MAX << (low & 63)) & (u64::MAX >> ((63 - high) & 63)))
}

/// The square `delta` steps back from `to`, for a pawn move generated by
/// shifting a set by `delta`: it is on the board because the pawn stood there.
#[inline(always)]
fn back_by(to: Square, delta: i32) -> Square {
    Square::new((to as i32 - delta) as u32 & 63)
}

/// Count the leaf nodes of the orthodox move tree to `depth` (bulk-counted
/// at the last ply: its legal moves are listed and counted, not played, as
/// `shakmaty::perft` does): the standard test of a move generator.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    match depth {
        0 => 1,
        1 => moves.len() as u64,
        _ => moves
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Salts that keep [`Position::zobrist`]'s own terms apart from each other.
const CASTLING_SALT: u64 = 0x9e37_79b9_7f4a_7c15;
const EP_SALT: u64 = 0xc2b2_ae3d_27d4_eb4f;
const HALFMOVE_SALT: u64 = 0x1656_67b1_9e37_79f9;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::{parse_fen_with, Validation};
    use crate::chess::notation::{to_uci, CastlingStyle};

    fn los_alamos(fen: &str) -> Position {
        parse_fen_with(fen, Geometry::los_alamos(), Validation::ORTHODOX).unwrap().0
    }

    fn uci_moves(pos: &Position) -> Vec<String> {
        let mut moves: Vec<String> = pos.legal_moves().iter().map(|&m| to_uci(m, CastlingStyle::Standard)).collect();
        moves.sort();
        moves
    }

    /// Split-Brain's Los Alamos start (fixtures): on the inner 6x6 board.
    const LOS_ALAMOS_START: &str = "8/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/8 w - - 0 1";

    #[test]
    fn los_alamos_pawns_may_not_stand_on_its_own_first_or_last_rank() {
        let on_b7 = parse_fen_with("8/1P2k3/8/8/8/8/4K3/8 w - - 0 1", Geometry::los_alamos(), Validation::ORTHODOX);
        assert_eq!(on_b7.unwrap_err(), "a pawn stands on the first or last rank of the board (b7)");
        let on_c2 = parse_fen_with("8/4k3/8/8/8/8/2p1K3/8 w - - 0 1", Geometry::los_alamos(), Validation::ORTHODOX);
        assert!(on_c2.unwrap_err().contains("(c2)"));
        assert!(parse_fen_with("8/4k3/1P6/8/8/8/4K3/8 w - - 0 1", Geometry::los_alamos(), Validation::ORTHODOX).is_ok());
    }

    #[test]
    fn los_alamos_start_has_single_steps_and_knights_inside_the_mask() {
        let pos = los_alamos(LOS_ALAMOS_START);
        assert_eq!(
            uci_moves(&pos),
            ["b3b4", "c2b4", "c2d4", "c3c4", "d3d4", "e3e4", "f2e4", "f2g4", "f3f4", "g3g4"],
            "no double steps, and knights never leave b2-g7"
        );
    }

    #[test]
    fn squares_off_the_mask_block_sliders_and_are_never_targets() {
        let pos = los_alamos("8/6k1/8/8/8/8/1R4K1/8 w - - 0 1");
        let rook = pos.attacks_from(Square::B2);
        assert!(rook.contains(Square::F2) && rook.contains(Square::B7));
        assert!(!rook.contains(Square::A2) && !rook.contains(Square::B1) && !rook.contains(Square::B8));
        let king = pos.attacks_from(Square::G2);
        assert!(!king.contains(Square::H1) && !king.contains(Square::G1) && king.contains(Square::F3));
    }

    #[test]
    fn los_alamos_promotes_on_the_masks_last_rank_without_bishops() {
        let pos = los_alamos("8/6k1/2P5/8/8/8/1K6/8 w - - 0 1");
        let promotions: Vec<String> = uci_moves(&pos).into_iter().filter(|m| m.starts_with("c6")).collect();
        assert_eq!(promotions, ["c6c7n", "c6c7q", "c6c7r"]);
    }

    #[test]
    fn pseudo_legal_moves_ignore_checks_and_legality_filters_them() {
        // The pinned knight may move pseudo-legally, never legally.
        let pos = crate::chess::fen::parse_fen("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
        let knight_moves = |list: &MoveList| list.iter().filter(|m| m.from() == Some(Square::E2)).count();
        assert_eq!(knight_moves(&pos.pseudo_legal_moves()), 6);
        assert_eq!(knight_moves(&pos.legal_moves()), 0);
        assert!(pos.pinned().contains(Square::E2));
    }

    #[test]
    fn castling_without_attack_checks_is_available_to_variants() {
        // The king is in check: orthodox castling is refused, a variant may allow it.
        let pos = crate::chess::fen::parse_fen("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let mut relaxed = MoveList::new();
        pos.castling_moves(false, &mut relaxed);
        assert_eq!(relaxed.len(), 2);
        assert!(!pos.legal_moves().iter().any(|m| m.is_castle()));
    }

    #[test]
    fn chess960_castling_refused_when_the_rook_leaving_uncovers_the_king_that_stays() {
        // King c1 castles queenside with the rook on b1: the king stays on
        // c1, the rook goes to d1, and the queen on a1 would then attack c1.
        let castles = |fen: &str| {
            let pos = crate::chess::fen::parse_fen(fen).unwrap();
            pos.legal_moves().iter().filter(|m| m.is_castle()).count()
        };
        assert_eq!(castles("4k3/8/8/8/8/8/8/qRK5 w B - 0 1"), 0);
        assert_eq!(castles("4k3/8/8/8/8/8/8/nRK5 w B - 0 1"), 1, "a knight on a1 attacks no square on the rank");
    }

    /// `fen` and every position up to `plies` legal moves from it.
    fn positions_within(fen: &str, plies: u32) -> Vec<Position> {
        let mut positions = vec![crate::chess::fen::parse_fen(fen).unwrap()];
        let mut last = positions.clone();
        for _ in 0..plies {
            last = last
                .iter()
                .flat_map(|pos| {
                    pos.legal_moves().into_iter().map(|m| {
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        child
                    })
                })
                .collect();
            positions.extend(last.iter().cloned());
        }
        positions
    }

    /// Every position two moves deep from a few starts, checkmates and
    /// stalemates among them: the quick answer agrees with the full list.
    #[test]
    fn has_legal_move_agrees_with_the_list_of_legal_moves() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "6rk/6pp/8/8/8/8/8/K5QR w - - 0 1",
            "k7/P7/1K6/8/8/8/8/8 b - - 0 1",
            "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
        ];
        let mut ends = 0;
        for pos in starts.iter().flat_map(|fen| positions_within(fen, 2)) {
            let listed = !pos.legal_moves().is_empty();
            ends += usize::from(!listed);
            assert_eq!(pos.has_legal_move(), listed, "{pos:?}");
        }
        assert!(ends >= 2, "mates and stalemates were among them: {ends}");
    }

    /// Every pseudo-legal move from a few starts and the positions one move
    /// on (castling both ways, Chess960's uncovered king, en passant, pins,
    /// checks): the legal move found by its squares is the one in the list
    /// of legal moves, and a move that list lacks is not found.
    #[test]
    fn legal_move_from_finds_what_the_list_of_legal_moves_holds() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/8/8/8/8/qRK5 w B - 0 1",
            "4k3/8/8/8/8/8/8/r4K1R w H - 0 1",
            "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",
        ];
        let mut checked = 0;
        for pos in starts.iter().flat_map(|fen| positions_within(fen, 1)) {
            let legal = pos.legal_moves();
            for &m in pos.pseudo_legal_moves().iter() {
                let from = m.from().unwrap();
                for style in [CastlingStyle::Standard, CastlingStyle::KingTakesRook] {
                    let action = crate::chess::notation::UciAction::from_move(m, style);
                    let found = pos.legal_move_from(from, |candidate| action.names(candidate));
                    assert_eq!(found, action.resolve(&legal), "{action} in {pos:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// Whether `m` leaves the mover's king safe, found by playing it on a
    /// copy: what [`Position::leaves_king_safe`] judges without the copy.
    fn king_safe_after_playing(pos: &Position, m: Move) -> bool {
        let mut after = pos.clone();
        after.play_unchecked(m);
        after.king_of(pos.turn()).is_none_or(|king| !after.is_attacked(king, pos.turn().other()))
    }

    /// Every pseudo-legal move and a knight or a king put on every empty
    /// square, in the positions within two moves of a few starts (pins,
    /// checks, en passant out of a pin, both castlings, Chess960's rook
    /// beside its king, a capture of the checker, the mask of Los Alamos):
    /// the king is judged safe after the move exactly when it is after
    /// playing the move.
    #[test]
    fn leaves_king_safe_agrees_with_playing_the_move() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
            "4k3/8/8/8/8/8/8/qRK5 w B - 0 1",
            "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",
        ];
        let mut positions: Vec<Position> = starts.iter().flat_map(|fen| positions_within(fen, 2)).collect();
        positions.push(los_alamos("8/1r3bk1/8/3N4/8/8/1R4K1/8 w - - 0 1"));
        let (mut checked, mut unsafe_moves) = (0, 0);
        for pos in &positions {
            let puts = (!pos.board().occupied() & pos.mask())
                .into_iter()
                .flat_map(|to| [Move::Put { role: Role::Knight, to }, Move::Put { role: Role::King, to }]);
            for m in pos.pseudo_legal_moves().into_iter().chain(puts) {
                let expected = king_safe_after_playing(pos, m);
                assert_eq!(pos.leaves_king_safe(m), expected, "{m:?} in {pos:?}");
                checked += 1;
                unsafe_moves += usize::from(!expected);
            }
        }
        assert!(checked > 10_000 && unsafe_moves > 1000, "{checked} moves, {unsafe_moves} unsafe");
    }

    fn after(fen: &str, moves: &[&str]) -> Position {
        let mut pos = crate::chess::fen::parse_fen(fen).unwrap();
        for uci in moves {
            let m = crate::chess::notation::find_uci(&pos.legal_moves(), uci).unwrap();
            pos.play_unchecked(m);
        }
        pos
    }

    #[test]
    fn the_zobrist_key_is_the_same_for_a_transposition_and_differs_for_any_change_the_rules_read() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let one_order = after(start, &["g1f3", "b8c6", "b1c3"]);
        let other_order = after(start, &["b1c3", "b8c6", "g1f3"]);
        assert_eq!(one_order.zobrist(), other_order.zobrist(), "the same position by two move orders");
        let keys = [
            start,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1",
        ]
        .map(|fen| crate::chess::fen::parse_fen(fen).unwrap().zobrist());
        let distinct: std::collections::HashSet<u64> = keys.iter().copied().collect();
        assert_eq!(distinct.len(), keys.len(), "side to move, castling, halfmove clock, a piece: {keys:?}");
        let en_passant = after(start, &["e2e4"]);
        let same_board = crate::chess::fen::parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_ne!(en_passant.zobrist(), same_board.unwrap().zobrist(), "the en passant square counts");
    }
}
