//! The board during one player's turn, and the rules that decide what that
//! player may still do in it.
//!
//! A turn of Adrenaline Chess is: the regular move; then, while the moved piece
//! has checkers, extra king steps (one checker spent each, the player may stop
//! after any of them); then, if anything was captured, one checker placed under
//! an enemy piece. "A move may not leave your king attacked ... after the
//! regular move or after any extra move" (docs/games/adrenaline.md, "Rulings"),
//! and we hold the placement to the same rule. A step is legal only when the
//! turn can still be completed legally after it, so a player is never stranded
//! in the middle of a turn.

use chesskit_core::chess::{Bitboard, Color, Geometry, Move, MoveList, Position, Role, Square};
use shakmaty::attacks;

use super::attack::{self, Focus, Stacks};

/// The roles a pawn may promote to, strongest first.
pub const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// The part of the turn the player to move is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The regular move is next.
    Regular,
    /// The piece on this square has checkers left: it may take an extra
    /// king step, or stop.
    Extra(Square),
    /// Something was captured this turn: one checker goes under an enemy piece.
    Checker,
    /// Nothing is left to do: the turn passes.
    Over,
}

/// One extra king step: where from, where to, and the piece a pawn
/// stepping onto its last rank becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

/// The pieces, their checkers, and the progress of the mover's turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    /// Its side to move is the player whose turn it is; its en passant
    /// square is the one that player may use in the regular move (none once
    /// the regular move is made).
    pub pos: Position,
    pub stacks: Stacks,
    pub phase: Phase,
    /// Whether the mover has captured anything this turn.
    pub captured: bool,
    /// The en passant square the mover's regular double step gives the
    /// opponent (forgotten if that pawn then takes an extra step).
    pub next_ep: Option<Square>,
}

impl Table {
    /// A table at the start of a turn.
    pub fn new(pos: Position, stacks: Stacks) -> Table {
        Table { pos, stacks, phase: Phase::Regular, captured: false, next_ep: None }
    }

    pub fn us(&self) -> Color {
        self.pos.turn()
    }

    pub fn board(&self) -> &chesskit_core::chess::Board {
        self.pos.board()
    }

    // ------------------------------------------------------------------
    // The king's safety, in the extended sense
    // ------------------------------------------------------------------

    /// Whether the king of `color` is attacked in the extended sense, by the
    /// other side with the en passant square it would have.
    pub fn king_attacked(&self, color: Color) -> bool {
        let ep = if color == self.us() { self.next_ep } else { self.pos.ep_square() };
        match self.pos.king_of(color) {
            Some(king) => attack::attacked(self.board(), &self.stacks, king, color.other(), ep),
            None => false,
        }
    }

    /// Whether the mover is in check at the start of the turn.
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.us())
    }

    /// The mover's king is not attacked now.
    pub fn safe(&self) -> bool {
        !self.king_attacked(self.us())
    }

    /// Whether the turn, as it stands, can be completed legally: the king
    /// is safe now, and the turn can end (a stop, a safe checker placement)
    /// or go on with a step after which it can.
    pub fn completable(&self) -> bool {
        if !self.safe() {
            return false;
        }
        match self.phase {
            Phase::Over => true,
            Phase::Checker => self.has_safe_placement(),
            Phase::Extra(_) => {
                !self.captured || self.has_safe_placement() || self.steps().any(|s| self.step_is_completable(s))
            }
            Phase::Regular => self.legal_regular_moves().next().is_some(),
        }
    }

    // ------------------------------------------------------------------
    // The regular move
    // ------------------------------------------------------------------

    /// Every regular move the pieces can make, ignoring the king's safety:
    /// chess moves, with the variant's castling.
    pub fn regular_candidates(&self) -> MoveList {
        let mut moves = self.pos.pseudo_legal_moves();
        moves.retain(|m| !m.is_castle());
        self.castling_candidates(&mut moves);
        moves
    }

    /// "You may not castle, if either the king or the rook has checkers.
    /// During castling, you may not move your king through squares that
    /// could be attacked by extra moves." The king's start, the squares it
    /// crosses and its destination are each tested with the king standing
    /// there (the rook lifted), so a walk that would capture it there counts.
    fn castling_candidates(&self, moves: &mut MoveList) {
        // The orthodox test of the king's path first (the same squares, the
        // king and rook lifted): the extended attack includes it, and it is
        // cheap. Only the walks are left to test.
        let mut castles = MoveList::new();
        self.pos.castling_moves(true, &mut castles);
        for &m in castles.iter() {
            if self.castling_passes(m) {
                moves.push(m);
            }
        }
    }

    /// The variant's test of a castling that passed the orthodox one (see
    /// [`Table::castling_candidates`]).
    fn castling_passes(&self, m: Move) -> bool {
        let us = self.us();
        let Move::Castle { king, rook } = m else { return true };
        if self.stacks.get(king) > 0 || self.stacks.get(rook) > 0 {
            return false;
        }
        let (_, path) = castling_path(us, king, rook);
        let mut board = self.board().clone();
        board.discard_piece_at(king);
        board.discard_piece_at(rook);
        // The path lies on one rank: its first and last squares are its ends.
        let file = |sq: Option<Square>| sq.map_or(0, |sq| sq.file() as u32);
        let (low, high) = (file(path.first()), file(path.last()));
        let focus = Focus {
            centre: Square::from_coords(shakmaty::File::new((low + high) / 2), us.backrank()),
            radius: (high - low).div_ceil(2),
        };
        // The walkers on the board with king and rook lifted include
        // those with the king on any square of the path: the king has
        // no checkers to be taken, and standing somewhere only blocks
        // lines. Their reach on that board answers for every square of
        // the path at once, as for the king's steps (see
        // [`Table::king_steps`]: the path passed the orthodox test on
        // that board); pawns are asked square by square. Only those that
        // could come near the path are asked ([`attack::walkers_near`]:
        // the king standing on the path blocks lines, so it adds none).
        let walkers = attack::walkers_near(&board, &self.stacks, us.other(), focus.centre, focus.radius);
        if walkers.is_empty() {
            return true;
        }
        let pawns = walkers & board.pawns();
        let reached = (walkers & !pawns)
            .into_iter()
            .any(|w| (attack::walk_reach(&board, &self.stacks, w, None, focus) & path).any());
        !reached
            && (pawns.is_empty()
                || path.into_iter().all(|sq| {
                    board.set_piece_at(sq, us.king());
                    let safe = !pawns.into_iter().any(|w| attack::walk_threatens(&board, &self.stacks, w, sq, None));
                    board.discard_piece_at(sq);
                    safe
                }))
    }

    /// Whether the castling of our king (without checkers) on `king` with
    /// the rook on `rook` can be judged by the king's map
    /// ([`Table::king_steps`], made out to the castling's path, with no
    /// pawn to ask): the rook has no checkers and no enemy slider sees its
    /// square with the king lifted. Lifting the rook as well, as
    /// [`Table::castling_passes`] does, then changes no enemy piece's
    /// regular destinations but a pawn's (and no pawn can walk near the
    /// path), no walk (our pieces never block one) and no stack, so the
    /// walks reach the path on one board exactly when on the other.
    fn castling_by_map(&self, king: Square, rook: Square) -> bool {
        if self.stacks.get(rook) > 0 {
            return false;
        }
        let board = self.board();
        let occupied = board.occupied().without(king);
        let theirs = board.by_color(self.us().other());
        ((attacks::rook_attacks(rook, occupied) & board.rooks_and_queens()
            | attacks::bishop_attacks(rook, occupied) & board.bishops_and_queens())
            & theirs)
            .is_empty()
    }

    /// The regular moves that leave the turn completable.
    pub fn legal_regular_moves(&self) -> impl Iterator<Item = Move> + '_ {
        let candidates = self.pos.legal_moves();
        let mut judge = Judge::new(self, &candidates);
        candidates.into_iter().filter(move |&m| self.candidate_is_legal(m, &mut judge))
    }

    /// [`Table::legal_regular_moves`] into a list the caller keeps (cleared
    /// first): perft keeps one per ply instead of moving a move list around.
    pub fn legal_regular_moves_into(&self, moves: &mut MoveList) {
        self.pos.legal_moves_into(moves);
        let mut judge = Judge::new(self, moves);
        moves.retain(|m| self.candidate_is_legal(*m, &mut judge));
    }

    /// The number of [`Table::legal_regular_moves`], counted without
    /// keeping them: perft's last ply.
    ///
    /// Counted by sets, as orthodox perft counts a list by its length: most
    /// quiet moves get the same verdict from [`Table::candidate_is_legal`]
    /// (that of `Shortcut::threateners`, or legal outright without checkers
    /// on the board), so each piece's are counted by a popcount of its
    /// targets, and only the others (captures, promotions, moves touching a
    /// square of `Shortcut::relevant`, loaded pieces near the king, the
    /// king's moves, castling, en passant) are judged one by one, by the
    /// same test as the listed moves. The orthodox legal targets are those
    /// of [`Position::legal_moves_into`] out of check: pinned pieces keep
    /// to their line through the king, the king steps where no enemy piece
    /// attacks with it lifted. In check (rare) the moves are listed.
    pub fn count_legal_regular_moves(&self) -> u64 {
        self.count_legal_regular_moves_judged(None, Bitboard::EMPTY)
    }

    /// [`Table::count_legal_regular_moves`], with the judge made before the
    /// opponent's last move when it still holds (see [`ReplyJudge`]): it
    /// is then taken instead of being made again. `moved`: the squares the
    /// opponent's move left and entered (with a judge).
    pub fn count_legal_regular_moves_judged(&self, made: Option<&mut ReplyJudge>, moved: Bitboard) -> u64 {
        let us = self.us();
        let board = self.board();
        let king = match self.pos.king_of(us) {
            Some(king) if *self.pos.geometry() == Geometry::ORTHODOX && !self.pos.is_check() => king,
            _ => return self.count_listed_regular_moves(),
        };
        let own = board.by_color(us);
        let occupied = board.occupied();
        let without_king = occupied.without(king);
        let mut king_to = Bitboard::EMPTY;
        for to in attacks::king_attacks(king) & !own {
            if self.pos.attackers_to(to, us.other(), without_king).is_empty() {
                king_to.add(to);
            }
        }
        let quiet_steps = king_to & !occupied;
        let mut judge = Judge {
            shortcut: None,
            king_steps: KingSteps::for_quiet_steps(quiet_steps.count()),
            memo: WalkMemo::default(),
            verdicts: None,
        };
        let mut count = 0;
        let mut judged_steps = king_to;
        // With a judge made before the opponent's move: the rooks found by
        // the orthodox test of castling after the opponent's other moves.
        let mut castles_kept = None;
        // No castling while the king or the rook has checkers
        // ([`Table::castling_passes`]): the orthodox test is skipped then.
        let (may_castle, radius) = self.map_radius(king);
        let mut castling_map = None;
        if self.stacks.loaded().is_empty() {
            // No checkers on the board: the orthodox test is the whole test.
            count += quiet_steps.count() as u64;
            judged_steps &= !quiet_steps;
        } else if self.stacks.get(king) == 0 && (quiet_steps.more_than_one() || may_castle || made.is_some()) {
            // [`Table::king_step_is_safe`] by its map, for all the quiet
            // steps at once when no pawn is left to ask; the map also
            // names the threateners other than pawns. A judge made before
            // the opponent's move has them (and a map pays then even for
            // one step: it is made already).
            match made {
                Some(made) => {
                    judge.king_steps = KingSteps::Mapped { reach: made.reach, pawns: made.pawns };
                    judge.shortcut = Some(made.shortcut);
                    judge.verdicts = Some((&mut made.verdicts, moved));
                    castles_kept = Some(&mut made.castles);
                }
                None => {
                    let threats;
                    (judge.king_steps, threats) = self.king_steps_and_threats(king, radius);
                    judge.shortcut = self.shortcut_knowing(Some(threats));
                }
            }
            if let KingSteps::Mapped { reach, pawns } = judge.king_steps {
                if may_castle && pawns.is_empty() {
                    castling_map = Some(reach);
                }
                if pawns.is_empty() {
                    count += (quiet_steps & !reach).count() as u64;
                    judged_steps &= !quiet_steps;
                }
            }
        }
        if judge.shortcut.is_none() {
            judge.shortcut = self.shortcut();
        }
        for to in judged_steps {
            let m = Move::Normal { role: Role::King, from: king, capture: board.role_at(to), to, promotion: None };
            count += u64::from(self.candidate_is_legal(m, &mut judge));
        }
        // A castling needs a rook without checkers with nothing between it
        // and the king (the squares both cross hold those between them).
        let rooks = self.pos.castling_rooks() & board.by_piece(us.rook()) & !self.stacks.loaded();
        let open = rooks.into_iter().any(|rook| (attacks::between(king, rook) & occupied).is_empty());
        if may_castle && open {
            // Kept as the verdicts are (see [`Table::loaded_move_verdict`]):
            // the boards differ only on the squares of the opponent's two
            // moves, which touch neither our pieces nor the rights.
            let castlings = match castles_kept {
                Some(kept) => match *kept {
                    Some((found, read, then)) if !read.intersects(moved | then) => found,
                    _ => {
                        let mut read = Bitboard::EMPTY;
                        let found = self.orthodox_castlings_traced::<true>(king, quiet_steps, &mut read);
                        if !read.intersects(moved) {
                            *kept = Some((found, read, moved));
                        }
                        found
                    }
                },
                None => self.orthodox_castlings(king, quiet_steps),
            };
            for rook in castlings {
                let m = Move::Castle { king, rook };
                count += u64::from(match castling_map {
                    Some(reach) if self.castling_by_map(king, rook) => {
                        // [`Table::castling_passes`] by the king's map, and
                        // then [`Table::regular_is_legal`] accepts a
                        // castling whose rook lands on the king's path.
                        let (rook_to, path) = castling_path(us, king, rook);
                        !(reach & path).any() && (path.contains(rook_to) || self.candidate_is_legal(m, &mut judge))
                    }
                    _ => self.candidate_is_legal(m, &mut judge),
                });
            }
        }
        if let Some(ep) = self.pos.ep_square().filter(|&ep| !occupied.contains(ep)) {
            for from in attacks::pawn_attacks(us.other(), ep) & board.by_piece(us.pawn()) {
                let m = Move::EnPassant { from, to: ep };
                if self.pos.leaves_king_safe(m) {
                    count += u64::from(self.candidate_is_legal(m, &mut judge));
                }
            }
        }
        count + self.count_piece_moves(king, &mut judge)
    }

    /// The rooks of the castlings of our king on `king` (orthodox geometry,
    /// out of check) that pass the orthodox test and may pass the
    /// variant's: those [`Position::castling_moves_out_of_check`] would
    /// list with `safe` (the king's legal quiet steps), but for rooks with
    /// checkers, whose castlings [`Table::castling_passes`] always refuses.
    ///
    /// The same test, made here without a move list and only for those
    /// rooks: a castling rook of ours on the back rank, with the king there
    /// too; nothing but the two pieces on the stretch of the back rank from
    /// the leftmost to the rightmost of the king's and the rook's squares
    /// and destinations; no enemy piece attacking, with both lifted, a
    /// square of the king's path other than its start (out of check, a line
    /// to it could open only along the back rank beyond the rook, and would
    /// cross the king's destination first), nor, with the rook on the a or
    /// h file, one of `safe` (lifting a corner rook opens no line to them).
    #[inline(never)]
    fn orthodox_castlings(&self, king: Square, safe: Bitboard) -> Bitboard {
        self.orthodox_castlings_traced::<false>(king, safe, &mut Bitboard(0))
    }

    /// [`Table::orthodox_castlings`], adding to `read` the squares whose
    /// pieces it read (with `TRACE`): each stretch it found empty or not,
    /// and the queen and knight lines of every square of the king's paths
    /// (those of `safe` too, and whatever the first attacked one), where
    /// the enemy pieces that attack them stand. On a board that differs
    /// from this one only elsewhere, with the same castling rights, rooks
    /// and stacks, it gives the same rooks, for any `safe` that holds
    /// there (it only spares tests).
    #[inline(never)]
    fn orthodox_castlings_traced<const TRACE: bool>(
        &self,
        king: Square,
        safe: Bitboard,
        read: &mut Bitboard,
    ) -> Bitboard {
        let us = self.us();
        let board = self.board();
        let back_rank = us.backrank();
        let back = Bitboard::from_rank(back_rank);
        let rooks = self.pos.castling_rooks() & board.by_piece(us.rook()) & back & !self.stacks.loaded();
        let mut found = Bitboard::EMPTY;
        if rooks.is_empty() || !back.contains(king) {
            return found;
        }
        // The squares from `a` to `b` on the back rank, both included.
        let stretch = |a: Square, b: Square| {
            let (low, high) = (a.min(b) as u32, a.max(b) as u32);
            Bitboard((u64::MAX << low) & (u64::MAX >> (63 - high)))
        };
        let occupied = board.occupied();
        for rook in rooks {
            let (king_to, rook_to) = if rook > king {
                (Square::from_coords(shakmaty::File::G, back_rank), Square::from_coords(shakmaty::File::F, back_rank))
            } else {
                (Square::from_coords(shakmaty::File::C, back_rank), Square::from_coords(shakmaty::File::D, back_rank))
            };
            // The four squares lie on one rank: the king's stretch, the
            // rook's and the one between the two pieces join into one, from
            // the leftmost of the four squares to the rightmost.
            let span = stretch(king, rook) | stretch(king, king_to) | stretch(rook, rook_to);
            let occupied = occupied.without(king).without(rook);
            if TRACE {
                *read |= span;
            }
            if span.intersects(occupied) {
                continue;
            }
            let mut path = stretch(king, king_to);
            if king_to != king {
                path.discard(king);
            }
            if TRACE {
                for sq in path {
                    *read |= attacks::queen_attacks(sq, occupied) | attacks::knight_attacks(sq);
                }
            }
            if matches!(rook.file(), shakmaty::File::A | shakmaty::File::H) {
                path &= !safe;
            }
            if path.into_iter().all(|sq| self.pos.attackers_to(sq, us.other(), occupied).is_empty()) {
                found.add(rook);
            }
        }
        found
    }

    /// Whether our king (on `king`) may castle as far as the checkers go
    /// (it has none, and some rook it may castle with has none), and the
    /// radius its map ([`Table::king_steps`]) is made to: its steps, and
    /// out to the c and g files when it may castle.
    fn map_radius(&self, king: Square) -> (bool, u32) {
        let rooks = self.pos.castling_rooks() & self.board().by_piece(self.us().rook()) & !self.stacks.loaded();
        let may_castle = rooks.any() && self.stacks.get(king) == 0;
        let file = king.file() as u32;
        let castling_radius = file.abs_diff(shakmaty::File::C as u32).max(file.abs_diff(shakmaty::File::G as u32));
        (may_castle, if may_castle { castling_radius.max(1) } else { 1 })
    }

    /// The judge of the opponent's regular moves after ours, made once on
    /// this board before any of ours (see [`ReplyJudge`]): perft's
    /// next-to-last ply makes it, and its last ply takes it after each of
    /// our moves it fits ([`Table::reply_judge_fits`]). `None` when there
    /// is nothing to save (no checkers) or the opponent's king has
    /// checkers or stands in check.
    pub fn reply_judge(&self) -> Option<ReplyJudge> {
        if self.phase != Phase::Regular || self.stacks.loaded().is_empty() {
            return None;
        }
        let mut replies = self.clone();
        replies.pass_turn();
        let king = replies.pos.king_of(replies.us())?;
        if *replies.pos.geometry() != Geometry::ORTHODOX || replies.stacks.get(king) > 0 || replies.pos.is_check() {
            return None;
        }
        let (_, radius) = replies.map_radius(king);
        let mut met = Bitboard::EMPTY;
        let (sensitive, arrival) = replies.reply_sensitive(king, radius);
        let (KingSteps::Mapped { reach, pawns }, threats) = replies.king_steps_traced(king, radius, &mut met) else {
            return None;
        };
        let shortcut = replies.shortcut_traced(Some(threats), &mut met)?;
        Some(ReplyJudge {
            shortcut,
            reach,
            pawns,
            sensitive: sensitive | met,
            arrival,
            verdicts: Verdicts::default(),
            castles: None,
        })
    }

    /// The squares of `ReplyJudge::sensitive` but those the walks read, and
    /// `ReplyJudge::arrival`, on this table (the opponent's turn, before
    /// our move), its king on `king`. See [`ReplyJudge`] for why they are
    /// enough.
    fn reply_sensitive(&self, king: Square, radius: u32) -> (Bitboard, [Bitboard; 6]) {
        let board = self.board();
        let us = self.us();
        let them = us.other();
        let theirs = board.by_color(them);
        let loaded = self.stacks.loaded();
        let lifted = board.occupied().without(king);
        let gains = self.stacks.sum(board.by_color(us));
        let mut sensitive = Bitboard::EMPTY;
        let mut arrival = [Bitboard::EMPTY; 6];
        for w in theirs & loaded {
            let Some(role) = board.role_at(w) else { continue };
            let own = self.stacks.get(w);
            sensitive |= attack::walker_sensitive(role, them, w, lifted, board.by_color(us), king, gains, radius, own);
            sensitive.add(w);
        }
        // The stacks whose capturers the judge asks: those from which all
        // our checkers could carry them to where its map is read (the king
        // included, as the shortcut's suspects): `attack::walkers_near_area`.
        let area = self.map_area(king, radius);
        let asked = attack::grow(area, gains);
        for v in board.by_color(us) & loaded {
            let lines = attacks::queen_attacks(v, lifted);
            if attack::king_distance(v, king) <= gains {
                // [`attack::walk_relevance`] takes these lines whole.
                sensitive |= lines;
            }
            sensitive.add(v);
            if !asked.contains(v) {
                continue;
            }
            let capturers = self.pos.attackers_to(v, them, lifted);
            // Our pieces that capture it, and those first on a line from it
            // with a slider of ours behind that would then capture it.
            sensitive |= capturers;
            for b in lines & theirs & !capturers {
                let opened = lifted.without(b);
                let behind = (attacks::rook_attacks(v, opened) & board.rooks_and_queens()
                    | attacks::bishop_attacks(v, opened) & board.bishops_and_queens())
                    & theirs
                    & !capturers;
                if behind.any() {
                    sensitive.add(b);
                }
            }
            // Where a piece of ours arriving would attack it.
            arrival[Role::Pawn as usize - 1] |= attacks::pawn_attacks(us, v);
            arrival[Role::Knight as usize - 1] |= attacks::knight_attacks(v);
            arrival[Role::Bishop as usize - 1] |= attacks::bishop_attacks(v, lifted);
            arrival[Role::Rook as usize - 1] |= attacks::rook_attacks(v, lifted);
            arrival[Role::Queen as usize - 1] |= lines;
            arrival[Role::King as usize - 1] |= attacks::king_attacks(v);
            for c in capturers {
                let Some(role) = board.role_at(c) else { continue };
                // Its destinations (where the judge reads them), and the
                // squares where a piece would cut its line to the stack.
                sensitive |= attacks::between(v, c)
                    | if loaded.contains(c) {
                        attack::walker_lines(role, them, c, lifted)
                    } else {
                        attack::capturer_sensitive(role, them, c, lifted, area)
                    };
            }
        }
        (sensitive, arrival)
    }

    /// Whether the judge `replies`, made by [`Table::reply_judge`] on this
    /// table, is the opponent's judge after our regular move `m`: a quiet
    /// move (not castling), not a promotion, of a piece without checkers,
    /// off and onto squares not `ReplyJudge::sensitive`, onto a square from
    /// which it would not attack an opponent's stack (`ReplyJudge::arrival`).
    pub fn reply_judge_fits(&self, replies: &ReplyJudge, m: Move) -> bool {
        match m {
            Move::Normal { role, from, to, capture: None, promotion: None } => {
                !self.stacks.loaded().contains(from)
                    && !replies.sensitive.contains(from)
                    && !replies.sensitive.contains(to)
                    && !replies.arrival[role as usize - 1].contains(to)
            }
            _ => false,
        }
    }

    /// The legal regular moves of our pieces other than the king, en
    /// passant left out: see [`Table::count_legal_regular_moves`]. Role by
    /// role over bitboards, as the orthodox generator goes; the pawns that
    /// are not pinned all at once, by shifts.
    fn count_piece_moves(&self, king: Square, judge: &mut Judge<'_>) -> u64 {
        let us = self.us();
        let board = self.board();
        let own = board.by_color(us);
        let occupied = board.occupied();
        let bulk = Bulk::new(self, king, judge.shortcut);
        let pinned = self.pos.pinned();
        if judge.shortcut.is_none() && bulk.captures == board.by_color(us.other()) {
            return self.count_orthodox_piece_moves(king, pinned);
        }
        let free = own & !pinned & !board.kings();
        let mut count = 0;
        for from in free & board.knights() {
            count += self.count_targets(&bulk, Role::Knight, from, attacks::knight_attacks(from) & !own, judge);
        }
        for from in free & board.bishops() {
            let targets = attacks::bishop_attacks(from, occupied) & !own;
            count += self.count_targets(&bulk, Role::Bishop, from, targets, judge);
        }
        for from in free & board.rooks() {
            count += self.count_targets(&bulk, Role::Rook, from, attacks::rook_attacks(from, occupied) & !own, judge);
        }
        for from in free & board.queens() {
            let targets = attacks::queen_attacks(from, occupied) & !own;
            count += self.count_targets(&bulk, Role::Queen, from, targets, judge);
        }
        count += self.count_pawn_moves(&bulk, free & board.pawns(), judge);
        for from in pinned & !board.kings() {
            let Some(role) = board.role_at(from) else { continue };
            let targets = attack::destinations_on(role, us, from, occupied, own) & attacks::ray(king, from);
            count += self.count_targets(&bulk, role, from, targets, judge);
        }
        count
    }

    /// [`Table::count_piece_moves`] when no piece has checkers and every
    /// capture leaves an enemy piece that takes the checker due safely
    /// (`Bulk::captures` holds them all): the legal moves are then the
    /// orthodox ones (see [`Table::candidate_is_legal`]), counted as
    /// orthodox perft would, by popcounts only. A queen counts as a bishop
    /// and a rook (their targets never overlap); a promotion counts four times.
    fn count_orthodox_piece_moves(&self, king: Square, pinned: Bitboard) -> u64 {
        let us = self.us();
        let board = self.board();
        let own = board.by_color(us);
        let occupied = board.occupied();
        let free = own & !pinned;
        let mut count = 0;
        for from in free & board.knights() {
            count += (attacks::knight_attacks(from) & !own).count();
        }
        for from in free & board.bishops_and_queens() {
            count += (attacks::bishop_attacks(from, occupied) & !own).count();
        }
        for from in free & board.rooks_and_queens() {
            count += (attacks::rook_attacks(from, occupied) & !own).count();
        }
        let last_rank = Bitboard::from_rank(us.other().backrank());
        let with_promotions = |targets: Bitboard| (targets & !last_rank).count() + 4 * (targets & last_rank).count();
        let forward = us.fold_wb(8, -8);
        let pawns = free & board.pawns();
        let single = pawns.shift(forward) & !occupied;
        let third_rank = Bitboard::from_rank(us.fold_wb(shakmaty::Rank::Third, shakmaty::Rank::Sixth));
        count += with_promotions(single) + ((single & third_rank).shift(forward) & !occupied).count();
        let theirs = board.by_color(us.other());
        for (delta, edge) in [(forward - 1, shakmaty::File::A), (forward + 1, shakmaty::File::H)] {
            count += with_promotions((pawns & !Bitboard::from_file(edge)).shift(delta) & theirs);
        }
        for from in pinned & !board.kings() {
            let Some(role) = board.role_at(from) else { continue };
            let targets = attack::destinations_on(role, us, from, occupied, own) & attacks::ray(king, from);
            count += if role == Role::Pawn { with_promotions(targets) } else { targets.count() };
        }
        count as u64
    }

    /// The legal moves of the piece on `from` to its orthodox legal
    /// `targets`: the bulk (see [`Bulk`]) by a popcount, the rest one by one.
    #[inline(always)]
    fn count_targets(&self, bulk: &Bulk, role: Role, from: Square, targets: Bitboard, judge: &mut Judge<'_>) -> u64 {
        let board = self.board();
        let quiet = targets & !bulk.occupied;
        let is_pawn = role == Role::Pawn;
        if is_pawn && (targets & bulk.last_rank).any() {
            let mut count = 0;
            for to in targets {
                for promotion in PROMOTION_ROLES {
                    let m = Move::Normal { role, from, capture: board.role_at(to), to, promotion: Some(promotion) };
                    count += u64::from(self.candidate_is_legal(m, judge));
                }
            }
            return count;
        }
        let double = if is_pawn { quiet & !attacks::king_attacks(from) } else { Bitboard::EMPTY };
        let shared = bulk.targets(from, quiet, double);
        let mut count = if bulk.verdict { shared.count() as u64 } else { 0 };
        let mut rest = quiet & !shared;
        if bulk.loaded.contains(from) {
            // The moves [`Table::candidate_is_legal`] sends to
            // [`Table::loaded_move_is_safe`], those it accepts without
            // asking any walker counted together.
            let sent = if bulk.near.contains(from) { rest & !double } else { rest & bulk.near & !double };
            let safe = self.loaded_quiet_safe_kept(judge, from, sent);
            count += safe.count() as u64;
            rest &= !safe;
        }
        for to in rest {
            let m = Move::Normal { role, from, capture: None, to, promotion: None };
            count += u64::from(self.candidate_is_legal(m, judge));
        }
        let caps = targets & bulk.occupied;
        if caps.is_empty() {
            return count;
        }
        let shared_caps = bulk.capture_targets(from, caps);
        count += shared_caps.count() as u64;
        for to in caps & !shared_caps {
            let m = Move::Normal { role, from, capture: board.role_at(to), to, promotion: None };
            count += u64::from(self.candidate_is_legal(m, judge));
        }
        count
    }

    /// The legal moves of the unpinned pawns on `pawns`: pushes and double
    /// steps by shifts, the bulk counted by a popcount per kind of move
    /// (a push's square names its pawn), captures and promotions one by one.
    fn count_pawn_moves(&self, bulk: &Bulk, pawns: Bitboard, judge: &mut Judge<'_>) -> u64 {
        let us = self.us();
        let board = self.board();
        let forward = us.fold_wb(8, -8);
        let empty = !bulk.occupied;
        let single = pawns.shift(forward) & empty;
        let third_rank = Bitboard::from_rank(us.fold_wb(shakmaty::Rank::Third, shakmaty::Rank::Sixth));
        let double = (single & third_rank).shift(forward) & empty;
        // Pawns whose pushes the bulk may hold (see [`Bulk::targets`]).
        let plain = pawns & !bulk.relevant & !bulk.loaded;
        let far_loaded = pawns & !bulk.relevant & bulk.loaded & !bulk.near;
        let shared_single =
            (plain.shift(forward) | far_loaded.shift(forward) & !bulk.near) & single & !bulk.relevant & !bulk.last_rank;
        let shared_double =
            if bulk.ep_walkers { Bitboard::EMPTY } else { plain.shift(2 * forward) & double & !bulk.relevant };
        let mut count = if bulk.verdict { (shared_single.count() + shared_double.count()) as u64 } else { 0 };
        let mut judged = |from: Square, to: Square, capture: Option<Role>| -> u64 {
            if bulk.last_rank.contains(to) {
                PROMOTION_ROLES
                    .into_iter()
                    .map(|promotion| {
                        let m = Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(promotion) };
                        u64::from(self.candidate_is_legal(m, judge))
                    })
                    .sum()
            } else {
                let m = Move::Normal { role: Role::Pawn, from, capture, to, promotion: None };
                u64::from(self.candidate_is_legal(m, judge))
            }
        };
        for to in single & !shared_single {
            count += judged(back(to, forward), to, None);
        }
        for to in double & !shared_double {
            count += judged(back(to, 2 * forward), to, None);
        }
        let theirs = board.by_color(us.other());
        // Captures by the same pawns as the pushes, onto squares of
        // `Bulk::captures` (see [`Bulk::capture_targets`]).
        let sharing = plain | far_loaded;
        for (delta, edge) in [(forward - 1, shakmaty::File::A), (forward + 1, shakmaty::File::H)] {
            let not_edge = !Bitboard::from_file(edge);
            let caps = (pawns & not_edge).shift(delta) & theirs;
            if caps.is_empty() {
                continue;
            }
            let shared = (sharing & not_edge).shift(delta) & caps & bulk.captures & !bulk.last_rank;
            count += shared.count() as u64;
            for to in caps & !shared {
                count += judged(back(to, delta), to, board.role_at(to));
            }
        }
        count
    }

    /// [`Table::count_legal_regular_moves`] from the listed orthodox legal
    /// moves, each judged.
    fn count_listed_regular_moves(&self) -> u64 {
        let mut moves = MoveList::new();
        self.pos.legal_moves_into(&mut moves);
        let mut judge = Judge::new(self, &moves);
        moves.iter().filter(|&&m| self.candidate_is_legal(m, &mut judge)).count() as u64
    }

    /// Whether the orthodox legal move `m` is a legal regular move: a
    /// castling must pass the variant's test of the king's path, and every
    /// move must leave the turn completable.
    ///
    /// The candidates are the orthodox legal moves: the extended attack
    /// includes the orthodox one, so only those (with the variant's
    /// castling in place of chess's) can be legal here. The orthodox legal
    /// moves hold the castlings that pass the orthodox test of the king's
    /// path (none in check, where the path's first square, the king's, is
    /// attacked anyway): the same as [`Table::castling_candidates`] starts
    /// from.
    #[inline(always)]
    fn candidate_is_legal(&self, m: Move, judge: &mut Judge<'_>) -> bool {
        match judge.shortcut {
            // No checkers on the board: the extended attack is the
            // orthodox one, already satisfied; a capture still needs a
            // safe checker placement.
            None if !m.is_capture() => return true,
            None => {}
            Some(cut) => {
                if let Move::Normal { role, from, to, capture: None, .. } = m {
                    let double_step = role == Role::Pawn && (from as u32 ^ to as u32) == 16;
                    let plain = if self.stacks.loaded().contains(from) {
                        if role != Role::King && !double_step && (cut.near.contains(from) || cut.near.contains(to)) {
                            return self.loaded_move_verdict(&cut, judge, m, from, to);
                        }
                        // Checkers moved between squares no walk can
                        // reach (see `Shortcut::near`) change no walk.
                        !double_step
                    } else {
                        !(cut.ep_walkers && double_step)
                    };
                    if role == Role::King {
                        if self.stacks.get(from) == 0 {
                            return self.king_step_is_safe(from, to, &mut judge.king_steps);
                        }
                    } else if plain {
                        if !cut.relevant.contains(from) && !cut.relevant.contains(to) {
                            return cut.threateners.is_empty();
                        }
                        return self.quiet_move_is_safe(&cut, &mut judge.memo, from, to);
                    }
                }
            }
        }
        if m.is_castle() && !self.castling_passes(m) {
            return false;
        }
        self.regular_is_legal(m, judge.shortcut, &mut judge.king_steps)
    }

    /// Whether a quiet move of one of our pieces other than the king, from
    /// `from` to `to`, that touches a square of [`attack::walk_relevance`],
    /// leaves no enemy walk reaching the king. The piece has no checkers,
    /// or moves them between squares farther from the king than all the
    /// checkers on the board (`Shortcut::near`); the move gives no en
    /// passant an enemy walker could use (`Shortcut::ep_walkers`).
    ///
    /// Such a move changes neither the enemy's pieces nor any checker a
    /// walk could collect on its way to the king (a walk spends a checker
    /// per step, so it never passes a square farther away than all of
    /// them), so every walk after it passes over the same squares and
    /// collects the same stacks as now: only the enemy's regular
    /// destinations change,
    /// and only those of the pieces it depends on
    /// ([`attack::move_dependents`], when it touches a square of
    /// [`attack::walk_relevance`]). A threatener that does not depend on it
    /// still threatens; a dependent threatens when one of its destinations
    /// after the move is a square from which its walk reaches the king, a
    /// question answered once per walker and square in each position
    /// ([`WalkMemo`]).
    #[inline(never)]
    fn quiet_move_is_safe(&self, cut: &Shortcut, memo: &mut WalkMemo, from: Square, to: Square) -> bool {
        let board = self.board();
        let them = self.us().other();
        let theirs = board.by_color(them);
        let victims = self.stacks.loaded() & !theirs;
        // A piece without checkers walks only from a capture of one of
        // ours near enough to the king for all our checkers to carry it
        // there; one with checkers comes near only if it is dangerous.
        let victims_near = victims & attack::ball(cut.king, cut.gains);
        // Knights and kings reach the same squares whatever our pieces do.
        let steady = board.knights() | board.kings();
        let dependents = if victims_near.is_empty() {
            // Only the dangerous walkers and the threateners matter: those
            // of [`attack::move_dependents`] among them, by their lines.
            let touched = Bitboard::from_square(from).with(to);
            ((cut.dangerous | cut.threateners) & !steady)
                .into_iter()
                .filter(|&c| {
                    board
                        .role_at(c)
                        .is_some_and(|role| (attack::walker_lines(role, them, c, board.occupied()) & touched).any())
                })
                .collect()
        } else {
            attack::move_dependents(board, them, from, to) & !steady
        };
        if (cut.threateners & !dependents).any() {
            return false;
        }
        let occupied = board.occupied().without(from).with(to);
        for w in dependents {
            let own = self.stacks.get(w);
            if if own == 0 { victims_near.is_empty() } else { !cut.dangerous.contains(w) } {
                continue;
            }
            let Some(role) = board.role_at(w) else { continue };
            let destinations = attack::destinations_on(role, them, w, occupied, theirs);
            let starts =
                if own == 0 { destinations & victims } else { destinations } & attack::ball(cut.king, own + cut.gains);
            if memo.any_reaches(&self.stacks, theirs, w, own, starts, victims, cut.king) {
                return false;
            }
        }
        true
    }

    /// Computed once per position: which enemy pieces' walks reach the
    /// king now, and the squares a move must touch to change any of them.
    /// A move judged by [`Table::quick_walk_safety`] re-asks only the
    /// pieces it can affect, so most moves need no search.
    fn shortcut(&self) -> Option<Shortcut> {
        self.shortcut_knowing(None)
    }

    /// [`Table::shortcut`], given the threateners other than pawns when
    /// they are `known` (from [`Table::king_steps_and_threats`]).
    fn shortcut_knowing(&self, known: Option<Bitboard>) -> Option<Shortcut> {
        self.shortcut_traced(known, &mut Bitboard(0))
    }

    /// [`Table::shortcut_knowing`], adding to `met` the squares whose
    /// passability its walks read ([`attack::walk_reach_traced`]).
    fn shortcut_traced(&self, known: Option<Bitboard>, met: &mut Bitboard) -> Option<Shortcut> {
        if self.stacks.loaded().is_empty() {
            return None;
        }
        let us = self.us();
        let king = self.pos.king_of(us)?;
        let board = self.board();
        let them = us.other();
        let (relevant, dangerous) = attack::walk_relevance(board, &self.stacks, them, king);
        let gains = self.stacks.sum(board.by_color(us));
        // Only these may threaten now: a walker with checkers starts on a
        // regular destination, on its lines, within its checkers and all
        // of ours of the king (it is then among the dangerous); one without
        // walks only from a capture of one of our loaded pieces, on all of
        // ours at most, so near the king.
        let mut suspects = dangerous;
        for v in board.by_color(us) & self.stacks.loaded() & attack::ball(king, gains) {
            suspects |= attack::orthodox_attackers(board, v, them);
        }
        let (known, asked) = match known {
            Some(threats) => (threats, suspects & board.pawns()),
            None => (Bitboard::EMPTY, suspects),
        };
        let threateners = known
            | asked
                .into_iter()
                .filter(|&w| attack::walk_threatens_traced(board, &self.stacks, w, king, met))
                .collect::<Bitboard>();
        Some(Shortcut {
            king,
            near: attack::ball(king, self.stacks.sum(Bitboard::FULL)),
            relevant,
            threateners,
            ep_walkers: (board.by_piece(them.pawn()) & self.stacks.loaded()).any(),
            gains,
            dangerous,
        })
    }

    /// Whether the regular move `m` (an orthodox legal move, or a castling
    /// that passed the variant's test) leaves the turn completable. Judged
    /// on the bare board and stacks after the move; the whole table is
    /// built only in the rare case where the piece would have to step on.
    fn regular_is_legal(&self, m: Move, shortcut: Option<Shortcut>, king_steps: &mut KingSteps) -> bool {
        // With no checkers anywhere after a quiet move, the extended attack
        // is the orthodox one, already satisfied.
        if self.stacks.loaded().is_empty() && !m.is_capture() {
            return true;
        }
        let quick = shortcut.and_then(|cut| self.quick_walk_safety(m, &cut));
        if quick == Some(false) {
            return false;
        }
        if quick == Some(true) && !m.is_capture() {
            return true;
        }
        if let Move::Castle { king, rook } = m {
            // [`Table::castling_candidates`] tested the king on its
            // destination with the rook lifted. The rook on its square adds
            // nothing an enemy walk could use: it has no checkers, our pieces
            // never block a walk, it only cuts enemy lines, and a capture of
            // it starts a walk where a move to the empty square did, except a
            // pawn's, which attacks that square: when it is on the king's
            // path (always, but in some Chess960 starts), that was tested too.
            let (rook_to, path) = castling_path(self.us(), king, rook);
            if path.contains(rook_to) {
                return true;
            }
        }
        let us = self.us();
        if let Move::Normal { role: Role::King, from, to, capture: None, .. } = m {
            if self.stacks.get(from) == 0 {
                return self.king_step_is_safe(from, to, king_steps);
            }
        }
        if let (Some(true), Move::Normal { to, capture: Some(_), .. }, Some(king)) = (quick, m, self.pos.king_of(us)) {
            // Walk-safe: the checker due is then the only question, and
            // usually an enemy pawn, knight or king far away answers it.
            if self.plain_placement_after_capture(king, to) {
                return true;
            }
        }
        let after = Bare::after(self, m);
        let king = match m {
            Move::Normal { role: Role::King, to, .. } => Some(to),
            Move::Castle { .. } => after.board.king_of(us),
            _ => self.pos.king_of(us),
        };
        let Some(king) = king else { return true };
        // The orthodox half is settled: the candidates are orthodox legal.
        if quick.is_none() && attack::walk_attacked(&after.board, &after.stacks, king, us.other(), after.next_ep) {
            return false;
        }
        if !after.captured {
            return true;
        }
        if placement_exists(&after.board, &after.stacks, us, king, after.next_ep) {
            return true;
        }
        after.stacks.get(m.to()) > 0 && self.after_regular(m).completable()
    }

    /// Whether the quiet regular move `m`, from `from` to `to`, of one of
    /// our pieces with checkers, other than the king and not a double
    /// step, leaves no enemy walk reaching the king. Only the enemy pieces
    /// that could then walk near enough are asked, on the board after the
    /// move: those of `Shortcut::dangerous` with a destination from which
    /// a walk could get there, and those that could capture
    /// one of our pieces with checkers close enough to the king for the
    /// checkers there to carry them to it (a piece without checkers of its
    /// own walks only from such a capture, with at most all of ours). The
    /// enemy has no en passant after such a move.
    #[inline(never)]
    fn loaded_move_is_safe<const TRACE: bool>(
        &self,
        cut: &Shortcut,
        m: Move,
        from: Square,
        to: Square,
        read: &mut Bitboard,
    ) -> bool {
        let board = self.board();
        let them = self.us().other();
        let theirs = board.by_color(them);
        let occupied = board.occupied().without(from).with(to);
        let ours_loaded = (self.stacks.loaded() & !theirs).without(from).with(to);
        // The walkers asked are walked as they are found, the dangerous
        // first: the verdict is the same in any order (the move is safe
        // when none of them threatens), and when one does, what the others
        // would have read does not count.
        let mut after = None;
        let mut threatens = |w: Square, read: &mut Bitboard| {
            let after = after.get_or_insert_with(|| Bare::after(self, m));
            if !TRACE {
                return attack::walk_threatens(&after.board, &after.stacks, w, cut.king, None);
            }
            // The walk starts on a regular destination no farther from the
            // king than the walker's checkers and all of ours.
            if let Some(role) = after.board.role_at(w) {
                let area = attack::ball(cut.king, self.stacks.get(w) + cut.gains);
                *read |= attack::lines_toward(role, them, w, occupied, area);
            }
            attack::walk_threatens_traced(&after.board, &after.stacks, w, cut.king, read)
        };
        let mut asked = Bitboard::EMPTY;
        for w in cut.dangerous {
            // A walk from its regular destination reaches the king on its
            // own checkers, or first collects a stack within their reach
            // (one near enough to the king for all the checkers to carry
            // it on): no destination near either, no walk.
            let own = self.stacks.get(w);
            let mut zone = attack::ball(cut.king, own);
            for v in ours_loaded & attack::ball(cut.king, own + cut.gains) {
                zone |= attack::ball(v, own);
            }
            let Some(role) = board.role_at(w) else { continue };
            if TRACE {
                *read |= attack::lines_toward(role, them, w, occupied, zone);
            }
            if (attack::destinations_on(role, them, w, occupied, theirs) & zone).any() {
                asked.add(w);
                if threatens(w, read) {
                    return false;
                }
            }
        }
        for v in ours_loaded & attack::ball(cut.king, cut.gains) {
            if TRACE {
                *read |= attacks::queen_attacks(v, occupied) | attacks::knight_attacks(v);
            }
            for w in self.pos.attackers_to(v, them, occupied) & !asked {
                asked.add(w);
                if threatens(w, read) {
                    return false;
                }
            }
        }
        true
    }

    /// [`Table::loaded_move_is_safe`], answered from the verdicts found
    /// after the opponent's other moves when the judge was made before
    /// them (`Judge::verdicts`). Why a verdict found on one board holds on
    /// another: the boards differ only on the squares of the two
    /// opponent's moves (each leaves one square and enters another, and
    /// neither touches a stack: see [`ReplyJudge`]), and the test reads
    /// the board only on the squares it records (the lines of the walkers
    /// it asks, on the rays that could bring them near enough:
    /// [`attack::lines_toward`]; the queen and knight lines of our stacks
    /// whose capturers it asks; the squares its walks read:
    /// `attack::walk_reach_traced`), up to the first walker found to
    /// threaten, which decides it; when none of the four squares is among
    /// them, it runs the same way on both boards, to the same answer.
    fn loaded_move_verdict(&self, cut: &Shortcut, judge: &mut Judge<'_>, m: Move, from: Square, to: Square) -> bool {
        let Some((verdicts, moved)) = judge.verdicts.as_mut() else {
            return self.loaded_move_is_safe::<false>(cut, m, from, to, &mut Bitboard(0));
        };
        if let Some(verdict) = verdicts.find(m, *moved) {
            return verdict;
        }
        let mut read = Bitboard::EMPTY;
        let verdict = self.loaded_move_is_safe::<true>(cut, m, from, to, &mut read);
        if !read.intersects(*moved) {
            verdicts.keep(m, verdict, read, *moved);
        }
        verdict
    }

    /// Of the `quiet` targets of our loaded piece on `from` (other than the
    /// king, no double step), those for which
    /// [`Table::loaded_move_is_safe`] asks no walker, found for all of them
    /// at once from the board with the piece lifted: a dangerous walker's
    /// destinations after any such move lie on its lines on that board
    /// (placing the piece on `to` only shortens them), so it is asked only
    /// if those lines meet its zone without `to` (then every target goes
    /// one by one) or come within its checkers of a `to` near enough to
    /// the king; an enemy piece capturing one of our other loaded pieces
    /// near the king does so on that board too (then every target goes one
    /// by one), and one capturing on `to` attacks `to` there.
    #[inline(never)]
    fn loaded_quiet_safe<const TRACE: bool>(
        &self,
        judge: &Judge<'_>,
        from: Square,
        quiet: Bitboard,
        read: &mut Bitboard,
    ) -> Bitboard {
        let Some(cut) = &judge.shortcut else { return Bitboard::EMPTY };
        if quiet.is_empty() {
            return Bitboard::EMPTY;
        }
        let board = self.board();
        let them = self.us().other();
        let theirs = board.by_color(them);
        let lifted = board.occupied().without(from);
        let others = (self.stacks.loaded() & !theirs).without(from);
        let capturers = |v: Square| {
            (attacks::rook_attacks(v, lifted) & board.rooks_and_queens()
                | attacks::bishop_attacks(v, lifted) & board.bishops_and_queens()
                | attacks::knight_attacks(v) & board.knights()
                | attacks::king_attacks(v) & board.kings()
                | attacks::pawn_attacks(self.us(), v) & board.pawns())
                & theirs
        };
        // The squares read (see [`Table::loaded_quiet_safe_kept`]): the
        // lines to each square whose capturers are asked, and the
        // dangerous walkers' lines.
        let lines_to = |v: Square| attacks::queen_attacks(v, lifted) | attacks::knight_attacks(v);
        if (others & attack::ball(cut.king, cut.gains)).into_iter().any(|v| {
            if TRACE {
                *read |= lines_to(v);
            }
            capturers(v).any()
        }) {
            return Bitboard::EMPTY;
        }
        let mut unsafe_to = Bitboard::EMPTY;
        for w in cut.dangerous {
            let own = self.stacks.get(w);
            let Some(role) = board.role_at(w) else { continue };
            let lines = attack::walker_lines(role, them, w, lifted);
            if TRACE {
                // Only the lines within its checkers of the squares below
                // matter, so only the rays that come there are read.
                let area = attack::ball(cut.king, 2 * own + cut.gains);
                *read |= attack::lines_toward(role, them, w, lifted, area);
            }
            let mut zone = attack::ball(cut.king, own);
            for v in others & attack::ball(cut.king, own + cut.gains) {
                zone |= attack::ball(v, own);
            }
            if (lines & zone).any() {
                return Bitboard::EMPTY;
            }
            unsafe_to |= attack::ball(cut.king, own + cut.gains) & attack::grow(lines, own);
        }
        let mut safe = quiet & !unsafe_to;
        for to in safe & attack::ball(cut.king, cut.gains) {
            if TRACE {
                *read |= lines_to(to);
            }
            if capturers(to).any() {
                safe.discard(to);
            }
        }
        safe
    }

    /// [`Table::loaded_quiet_safe`], answered from the sets found after the
    /// opponent's other moves when the judge was made before them
    /// (`Judge::verdicts`), for the same piece and targets: exact for the
    /// reason given at [`Table::loaded_move_verdict`], the test reading the
    /// board only on the lines it records (those to the squares whose
    /// capturers it asks, the dangerous walkers' lines).
    fn loaded_quiet_safe_kept(&self, judge: &mut Judge<'_>, from: Square, quiet: Bitboard) -> Bitboard {
        let Some((verdicts, moved)) = judge.verdicts.as_ref() else {
            return self.loaded_quiet_safe::<false>(judge, from, quiet, &mut Bitboard(0));
        };
        if let Some(safe) = verdicts.find_safe(from, quiet, *moved) {
            return safe;
        }
        let mut read = Bitboard::EMPTY;
        let safe = self.loaded_quiet_safe::<true>(judge, from, quiet, &mut read);
        if let Some((verdicts, moved)) = judge.verdicts.as_mut() {
            if !read.intersects(*moved) {
                verdicts.keep_safe(from, quiet, safe, read, *moved);
            }
        }
        safe
    }

    /// Whether a quiet step of our king, without checkers, from `from` to
    /// `to` (an orthodox legal move) leaves it where no enemy walk reaches:
    /// it moves no checkers, only the board changes.
    fn king_step_is_safe(&self, from: Square, to: Square, king_steps: &mut KingSteps) -> bool {
        let us = self.us();
        // With two steps or more the map answers (see
        // [`KingSteps::for_candidates`]); a single one is searched for.
        let pawns = match king_steps {
            KingSteps::Unasked => None,
            KingSteps::Once => {
                *king_steps = self.king_steps(from, 1);
                king_steps.unmapped(to)
            }
            KingSteps::Mapped { .. } => king_steps.unmapped(to),
        };
        match pawns {
            Some(Err(())) => return false,
            Some(Ok(pawns)) if pawns.is_empty() => return true,
            _ => {}
        }
        let mut board = self.board().clone();
        board.discard_piece_at(from);
        board.set_piece_at(to, us.king());
        match pawns {
            None => !attack::walk_attacked(&board, &self.stacks, to, us.other(), None),
            Some(Err(())) => false,
            Some(Ok(pawns)) => !pawns.into_iter().any(|w| attack::walk_threatens(&board, &self.stacks, w, to, None)),
        }
    }

    /// The first test of [`placement_exists`] on the board after a
    /// capture on `to` by one of our pieces other than the king (whose
    /// square `king` stays): an enemy pawn, knight or king without
    /// checkers, out of reach of our king even with a checker and all of
    /// ours (which now include the captured piece's), takes the checker
    /// safely.
    fn plain_placement_after_capture(&self, king: Square, to: Square) -> bool {
        let board = self.board();
        let us = self.us();
        let gains = self.stacks.sum(board.by_color(us)) + self.stacks.get(to);
        let enemies = board.by_color(us.other()).without(to) & !self.stacks.loaded();
        (enemies & (board.pawns() | board.knights() | board.kings()) & !attack::ball(king, 2 + 1 + gains)).any()
    }

    /// Where the enemy walks reach, around `king`, once our king (without
    /// checkers) is lifted off it: asked once per position, it answers
    /// every quiet step of the king by a lookup.
    ///
    /// Why this is exact, for a king step to an empty square `to` that is
    /// orthodox legal (no enemy piece attacks `to` with the king lifted):
    /// - the walkers after the step are among those with the king lifted
    ///   (it has no checkers to be taken, and standing on `to` only blocks
    ///   lines to our loaded pieces); one that is not is a piece without
    ///   checkers whose only line to our checkers runs through `to`, an
    ///   orthodox attack on `to`;
    /// - a knight's, bishop's, rook's, queen's or king's regular
    ///   destinations are the same on both boards: the king on `to` cuts
    ///   only a line that reaches `to`, which would be an orthodox attack;
    /// - its walk passes over the same squares (our pieces never block a
    ///   walk, and `to` is passable either way) and collects the same
    ///   stacks, so it reaches `to` on one board exactly when on the other.
    ///
    /// A pawn's pushes differ (the king on `to` stops a push onto it or
    /// through it), so pawns are asked on the board after the step.
    ///
    /// The map is exact on the squares within `radius` of the king (1 for
    /// its steps; more to judge castling too, see
    /// [`Table::castling_by_map`]).
    fn king_steps(&self, king: Square, radius: u32) -> KingSteps {
        self.king_steps_and_threats(king, radius).0
    }

    /// [`Table::king_steps`], and the enemy pieces other than pawns whose
    /// walks reach the king where it stands: those whose reach holds its
    /// square. Out of check this is exact by the same argument (the king
    /// standing still is a step to its own square, and no enemy piece
    /// attacks that square), so [`Table::shortcut`] need not ask them.
    fn king_steps_and_threats(&self, king: Square, radius: u32) -> (KingSteps, Bitboard) {
        self.king_steps_traced(king, radius, &mut Bitboard(0))
    }

    /// [`Table::king_steps_and_threats`], adding to `met` the squares whose
    /// passability its walks read ([`attack::walk_reach_traced`]).
    fn king_steps_traced(&self, king: Square, radius: u32, met: &mut Bitboard) -> (KingSteps, Bitboard) {
        let mut board = self.board().clone();
        board.discard_piece_at(king);
        // Only walkers that could come to the squares the map is read on
        // can change it.
        let area = self.map_area(king, radius);
        let walkers = attack::walkers_near_area(&board, &self.stacks, self.us().other(), area);
        let pawns = walkers & board.pawns();
        let mut reach = Bitboard::EMPTY;
        let mut threats = Bitboard::EMPTY;
        for w in walkers & !pawns {
            let reach_of =
                attack::walk_reach_traced(&board, &self.stacks, w, None, Focus { centre: king, radius }, met);
            if reach_of.contains(king) {
                threats.add(w);
            }
            // The map is read on `area` only: kept to it, it is the same
            // whatever our pieces do elsewhere.
            reach |= reach_of & area;
        }
        (KingSteps::Mapped { reach, pawns }, threats)
    }

    /// The squares the king's map ([`Table::king_steps`]) made to `radius`
    /// is read on: the king's square and its steps, and, when it is made
    /// out to the castlings' paths, the back rank within `radius` (where
    /// the paths lie). Its threats (walks reaching the king) are read from
    /// the walks themselves.
    fn map_area(&self, king: Square, radius: u32) -> Bitboard {
        let back = Bitboard::from_rank(self.us().backrank());
        attack::ball(king, 1) | (attack::ball(king, radius) & back)
    }

    /// Whether no enemy walk reaches the king after the regular move `m`,
    /// answered from the position's threateners when `m` is not a king
    /// move, castling or en passant, and whatever it changes is either on
    /// lines the enemy pieces see or too far from the king to matter; `None`
    /// when the full test is needed.
    ///
    /// A piece that threatens now and that the move cannot affect (see
    /// [`attack::move_dependents`]) still threatens after it: the move is
    /// illegal. Otherwise only the dependents are asked again, on the board
    /// after the move; a piece captured by the move threatens nothing.
    fn quick_walk_safety(&self, m: Move, cut: &Shortcut) -> Option<bool> {
        let Move::Normal { role, from, to, capture, .. } = m else { return None };
        if role == Role::King {
            return None;
        }
        // No walk can pass a square farther from the king than the checkers
        // on the board: every step spends one. Moving checkers between such
        // squares, or emptying one by a capture, changes no walk through it.
        let far = |sq: Square| !cut.near.contains(sq);
        // Checkers carried from near the king to a square no walk can reach
        // leave the walks that could collect them where they stood with
        // fewer (stepping there is then a plain step): they make no new
        // threat, but may end one, so then every threatener is asked again.
        let loaded = self.stacks.loaded().contains(from);
        if loaded && !far(to) {
            return None;
        }
        let leaving = loaded && !far(from);
        if capture.is_some() && !far(to) {
            return None;
        }
        let them = self.us().other();
        let touched = cut.relevant.contains(from) || cut.relevant.contains(to);
        let mut dependents =
            if touched { attack::move_dependents(self.board(), them, from, to) } else { Bitboard::EMPTY };
        if role == Role::Pawn && attack::king_distance(from, to) == 2 {
            if let Some(ep) = from.offset(self.us().fold_wb(8, -8)) {
                dependents |= attacks::pawn_attacks(self.us(), ep) & self.board().by_piece(them.pawn());
            }
        }
        dependents.discard(to);
        let threateners = cut.threateners.without(to);
        if leaving {
            dependents |= threateners;
        }
        if (threateners & !dependents).any() {
            return Some(false);
        }
        // A piece without checkers walks only on checkers it captures: with
        // none on our side after the move, only loaded dependents can walk.
        let ours_loaded = (self.stacks.loaded() & self.board().by_color(self.us())).any()
            || (capture.is_some() && self.stacks.get(to) > 0);
        let may_walk = if ours_loaded { dependents } else { dependents & self.stacks.loaded() };
        if may_walk.is_empty() {
            return Some(threateners.is_empty());
        }
        let after = Bare::after(self, m);
        let threatened = may_walk
            .into_iter()
            .any(|w| attack::walk_threatens(&after.board, &after.stacks, w, cut.king, after.next_ep));
        Some(!threatened)
    }

    /// The table after the regular move `m` (not checked). The piece brings
    /// its checkers along, and a capture takes over the captured piece's.
    /// The rights and clocks change as in chess; the turn is still ours.
    pub fn after_regular(&self, m: Move) -> Table {
        let mut next = self.clone();
        next.play_regular(m);
        next
    }

    /// [`Table::after_regular`] in place: perft makes each child in one
    /// table it keeps, a copy of the parent's, instead of building one.
    pub fn play_regular(&mut self, m: Move) {
        let us = self.us();
        let mut castling = self.pos.castling_rooks();
        let mut halfmoves = self.pos.halfmoves() + 1;
        match m {
            Move::Normal { role, from, to, capture, .. } => {
                if role == Role::Pawn || capture.is_some() {
                    halfmoves = 0;
                }
                if role == Role::King {
                    castling &= !Bitboard::from_rank(us.backrank());
                }
                castling.discard(from);
                castling.discard(to);
            }
            Move::EnPassant { .. } => halfmoves = 0,
            Move::Castle { .. } => castling &= !Bitboard::from_rank(us.backrank()),
            Move::Put { .. } => {}
        }
        self.next_ep = move_pieces(us, self.pos.board_mut(), &mut self.stacks, m);
        self.pos.set_castling_rooks(castling);
        self.pos.set_ep_square(None);
        self.pos.set_halfmoves(halfmoves);
        self.captured |= m.is_capture();
        // Castling moves two pieces without checkers and captures nothing.
        self.phase = if m.is_castle() { Phase::Over } else { self.phase_after_moving(m.to()) };
    }

    /// What comes after the piece landed on `sq`: more steps while it has
    /// checkers, else the checker placement after a capture, else the end.
    fn phase_after_moving(&self, sq: Square) -> Phase {
        if self.stacks.get(sq) > 0 {
            Phase::Extra(sq)
        } else if self.captured {
            Phase::Checker
        } else {
            Phase::Over
        }
    }

    // ------------------------------------------------------------------
    // Extra moves
    // ------------------------------------------------------------------

    /// The extra king steps of the piece on the move, ignoring safety. A
    /// pawn stepping onto its last rank promotes there ("immediately
    /// promotes, and may continue making king moves").
    pub fn step_candidates(&self) -> Vec<Step> {
        self.steps().collect()
    }

    /// [`Table::step_candidates`] one by one, without a list: the move
    /// generator walks them at every extra move.
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        const PROMOTING: [Option<Role>; 4] =
            [Some(PROMOTION_ROLES[0]), Some(PROMOTION_ROLES[1]), Some(PROMOTION_ROLES[2]), Some(PROMOTION_ROLES[3])];
        const PLAIN: [Option<Role>; 1] = [None];
        let (from, targets) = match self.phase {
            Phase::Extra(from) => (from, attacks::king_attacks(from) & !self.board().by_color(self.us())),
            _ => (Square::A1, Bitboard::EMPTY),
        };
        let is_pawn = self.board().by_role(Role::Pawn).contains(from);
        let last_rank = Bitboard::from_rank(self.us().other().backrank());
        targets.into_iter().flat_map(move |to| {
            let roles: &[Option<Role>] = if is_pawn && last_rank.contains(to) { &PROMOTING } else { &PLAIN };
            roles.iter().map(move |&promotion| Step { from, to, promotion })
        })
    }

    /// The extra steps after which the turn can be completed.
    pub fn legal_steps(&self) -> Vec<Step> {
        self.steps().filter(|&s| self.step_is_completable(s)).collect()
    }

    /// The number of legal actions during the extra moves (the legal steps,
    /// and `stop` when it leaves the turn completable), counted without
    /// building the table after each: perft's last ply.
    pub fn count_extra_actions(&self) -> u64 {
        self.count_extra_actions_after(false)
    }

    /// [`Table::count_extra_actions`]; `reached` when this table was
    /// reached by a legal action (perft below its root): the king is then
    /// safe now, as every legal regular move and step leaves the turn
    /// completable, which asks that first ([`Table::completable`]).
    pub fn count_extra_actions_after(&self, reached: bool) -> u64 {
        let Phase::Extra(from) = self.phase else { return 0 };
        // Stopping changes nothing on the board: without a capture the
        // turn then ends, completable when the king is safe now.
        // (After a capture the checker is then due: [`Table::after_stop`]
        // and [`Table::completable`] without copying the table.)
        let stop = (reached || self.safe()) && (!self.captured || self.has_safe_placement());
        let unwalked = self.last_step_unwalked(from);
        if let Some((king, attackers)) = unwalked {
            let board = self.board();
            if attackers.is_empty() && !self.captured && !board.pawns().contains(from) {
                // Nothing attacks the king with the piece lifted and
                // nothing was captured: [`Table::unwalked_step_is_completable`]
                // accepts every step onto an empty square (no attacker is
                // left to test, and without a capture no checker is due),
                // so those are counted at once (a piece other than a pawn
                // has one step per square); the rest go one by one, as below.
                let targets = attacks::king_attacks(from) & !board.by_color(self.us());
                let empty = targets & !board.occupied() & !self.stacks.loaded();
                let rest = (targets & !empty)
                    .into_iter()
                    .filter(|&to| {
                        let step = Step { from, to, promotion: None };
                        if self.stacks.loaded().contains(to) {
                            self.step_is_completable(step)
                        } else {
                            self.unwalked_step_is_completable((king, attackers), step)
                        }
                    })
                    .count();
                return empty.count() as u64 + rest as u64 + u64::from(stop);
            }
        }
        let mut quiet = if unwalked.is_some() { None } else { self.quiet_steps_judge(from) };
        let steps = self
            .steps()
            .filter(|&s| match (unwalked, quiet.as_mut()) {
                (Some(unwalked), _) if !self.stacks.loaded().contains(s.to) => {
                    self.unwalked_step_is_completable(unwalked, s)
                }
                (_, Some((cut, memo))) if self.board().piece_at(s.to).is_none() => {
                    self.quiet_step_is_safe(cut, memo, s)
                }
                _ => self.step_is_completable(s),
            })
            .count();
        steps as u64 + u64::from(stop)
    }

    /// Our king's square and the enemy pieces that attack it in the
    /// orthodox sense with the piece on `from` lifted, when every extra step
    /// of the piece on `from` onto
    /// a square without checkers is its last and leaves no enemy walk that
    /// could come to our king: the piece is not the king and has one
    /// checker (spent by the step, and none taken over), and
    /// [`attack::walkers_near`] finds no enemy piece that could walk to the
    /// king on the board with the piece lifted and its checker gone.
    ///
    /// Why that answers for the board after any such step: the stacks are
    /// then the same (the piece has none left, the square it enters had
    /// none), so the same enemy pieces have checkers and the same of ours
    /// may be collected, within the same distance of the king; the enemy's
    /// lines are no longer (the piece only blocks, and a piece it captures
    /// stood where it now stands), and it has the same pieces or one fewer.
    /// So the walkers near the king after the step are among those found,
    /// none: the extended attack on the king is then the orthodox one
    /// ([`attack::attacked`] asks walks only of those walkers).
    fn last_step_unwalked(&self, from: Square) -> Option<(Square, Bitboard)> {
        let king = self.pos.king_of(self.us())?;
        if king == from || self.stacks.get(from) != 1 {
            return None;
        }
        let mut lifted = self.board().clone();
        lifted.discard_piece_at(from);
        let mut stacks = self.stacks.clone();
        stacks.set(from, 0);
        if attack::walkers_near(&lifted, &stacks, self.us().other(), king, 0).any() {
            return None;
        }
        Some((king, attack::orthodox_attackers(&lifted, king, self.us().other())))
    }

    /// [`Table::step_is_completable`] for a step found unwalked by
    /// [`Table::last_step_unwalked`] (our king on `king`, `attackers` its
    /// orthodox attackers with the piece lifted), onto a square without
    /// checkers: the king is safe after it when no enemy piece attacks it
    /// in the orthodox sense, and the checker due after a capture must
    /// find a place, as there. The attackers after the step are those with
    /// the piece lifted but the one it captures and the sliders it blocks
    /// (putting a piece on a square only cuts lines through it).
    fn unwalked_step_is_completable(&self, (king, attackers): (Square, Bitboard), step: Step) -> bool {
        let Step { from, to, promotion } = step;
        let us = self.us();
        let board = self.board();
        if attackers.without(to).into_iter().any(|a| !attacks::between(king, a).contains(to)) {
            return false;
        }
        let theirs = board.by_color(us.other());
        let captured = self.captured || theirs.contains(to);
        if !captured {
            return true;
        }
        // The first test of [`placement_exists`] from this board: an enemy
        // pawn, knight or king without checkers, left after the step, out
        // of reach even with all our checkers now (the step spends one).
        if (out_of_reach(board, &self.stacks, us, king, 1) & theirs.without(to) & !self.stacks.loaded()).any() {
            return true;
        }
        let Some(piece) = board.piece_at(from) else { return self.step_is_completable(step) };
        let mut after = board.clone();
        after.discard_piece_at(from);
        after.set_piece_at(to, promotion.unwrap_or(piece.role).of(us));
        let mut stacks = self.stacks.clone();
        stacks.set(from, 0);
        placement_exists(&after, &stacks, us, king, None)
    }

    /// What judges the quiet steps of the piece on `from` without building
    /// the table after each, when that can be done: the turn is completable
    /// after any quiet step exactly when the king is then safe (see
    /// [`Table::checker_surely_placed`]), the piece is not the king, stands
    /// farther from our king than all the checkers on the board, and our
    /// king is not attacked in the orthodox sense now (a step can then
    /// only uncover a line to it).
    fn quiet_steps_judge(&self, from: Square) -> Option<(Shortcut, WalkMemo)> {
        let us = self.us();
        let king = self.pos.king_of(us)?;
        // `Shortcut::near`, before the shortcut is made.
        let near = attack::ball(king, self.stacks.sum(Bitboard::FULL));
        if king == from || near.contains(from) || (self.captured && !self.checker_surely_placed(king)) {
            return None;
        }
        if attack::orthodox_attackers(self.board(), king, us.other()).any() {
            return None;
        }
        let cut = self.shortcut()?;
        Some((cut, WalkMemo::default()))
    }

    /// Whether, after any quiet extra step of ours other than the king's,
    /// the checker due for this turn's capture (if any) can be placed: an
    /// enemy pawn, knight or king without checkers is out of reach of our
    /// king now (the first test of [`placement_exists`]). Such a step moves
    /// no enemy piece and does not add to our checkers, so it stays out of
    /// reach; the turn is then completable exactly when the king is safe.
    fn checker_surely_placed(&self, king: Square) -> bool {
        let board = self.board();
        let enemies = board.by_color(self.us().other()) & !self.stacks.loaded();
        (enemies & out_of_reach(board, &self.stacks, self.us(), king, 1)).any()
    }

    /// Whether the quiet extra step `step` of the piece judged by
    /// [`Table::quiet_steps_judge`] leaves the king safe. A step onto a
    /// square near the king goes to the general test. Otherwise its checkers
    /// move between squares no walk can reach, as for a regular move
    /// ([`Table::quiet_move_is_safe`]); our king stays, so the only new
    /// orthodox attack is a line through the square the piece leaves.
    fn quiet_step_is_safe(&self, cut: &Shortcut, memo: &mut WalkMemo, step: Step) -> bool {
        let Step { from, to, .. } = step;
        if cut.near.contains(to) {
            return self.after_step(step).completable();
        }
        let board = self.board();
        let them = board.by_color(self.us().other());
        let occupied = board.occupied().without(from).with(to);
        let lines = attacks::rook_attacks(cut.king, occupied) & board.rooks_and_queens()
            | attacks::bishop_attacks(cut.king, occupied) & board.bishops_and_queens();
        if (lines & them).any() {
            return false;
        }
        if !cut.relevant.contains(from) && !cut.relevant.contains(to) {
            return cut.threateners.is_empty();
        }
        self.quiet_move_is_safe(cut, memo, from, to)
    }

    /// Whether the turn can be completed after the extra step `step`:
    /// [`Table::after_step`], then [`Table::completable`]. When the piece
    /// has no checkers left after it, the turn ends or only the checker is
    /// due, so the bare board and stacks after it answer; the whole table
    /// is built only when the piece would step on.
    pub fn step_is_completable(&self, step: Step) -> bool {
        let Step { from, to, promotion } = step;
        let us = self.us();
        let board = self.board();
        let left = self.stacks.get(from).saturating_sub(1) + self.stacks.get(to);
        let king = if board.kings().contains(from) { Some(to) } else { self.pos.king_of(us) };
        let (Some(king), Some(piece)) = (king, board.piece_at(from)) else {
            return self.after_step(step).completable();
        };
        if left > 0 {
            return self.after_step(step).completable();
        }
        let captured = self.captured || board.color_at(to) == Some(us.other());
        let mut after = board.clone();
        after.discard_piece_at(from);
        after.set_piece_at(to, promotion.unwrap_or(piece.role).of(us));
        let mut stacks = self.stacks.clone();
        stacks.set(from, 0);
        stacks.set(to, 0);
        // "You may not capture en passant if the pawn used an extra move."
        !attack::attacked(&after, &stacks, king, us.other(), None)
            && (!captured || placement_exists(&after, &stacks, us, king, None))
    }

    /// The table after an extra step (not checked): one checker is spent,
    /// the rest move with the piece, a captured piece's checkers join them.
    pub fn after_step(&self, step: Step) -> Table {
        let us = self.us();
        let mut next = self.clone();
        let Step { from, to, promotion } = step;
        let carried = next.stacks.take(from).saturating_sub(1) + next.stacks.take(to);
        let capture = self.board().color_at(to) == Some(us.other());
        let piece = self.board().piece_at(from).expect("the piece on the move stands on its square");
        let role = promotion.unwrap_or(piece.role);
        let mut board = self.board().clone();
        board.discard_piece_at(from);
        board.set_piece_at(to, role.of(us));
        let mut castling = self.pos.castling_rooks();
        castling.discard(from);
        castling.discard(to);
        let halfmoves = if capture || piece.role == Role::Pawn { 0 } else { self.pos.halfmoves() };
        next.pos =
            Position::from_parts(board, us, castling, None, halfmoves, self.pos.fullmoves(), *self.pos.geometry());
        next.stacks.set(to, carried);
        next.captured |= capture;
        // "You may not capture en passant if the pawn used an extra move."
        next.next_ep = None;
        next.phase = next.phase_after_moving(to);
        next
    }

    /// `stop`: no more extra steps this turn.
    pub fn after_stop(&self) -> Table {
        let mut next = self.clone();
        next.phase = if self.captured { Phase::Checker } else { Phase::Over };
        next
    }

    // ------------------------------------------------------------------
    // The adrenaline rush
    // ------------------------------------------------------------------

    /// The enemy pieces a checker may go under without exposing the
    /// mover's king: only that piece's reach changes, so only it is tested.
    pub fn safe_placements(&self) -> impl Iterator<Item = Square> + '_ {
        let us = self.us();
        let king = self.pos.king_of(us);
        self.board().by_color(us.other()).into_iter().filter(move |&sq| self.placement_is_safe(sq, king))
    }

    /// Whether some checker placement is safe. Pieces far from the king are
    /// tried first: they are the likely answers.
    pub fn has_safe_placement(&self) -> bool {
        match self.pos.king_of(self.us()) {
            Some(king) => placement_exists(self.board(), &self.stacks, self.us(), king, self.next_ep),
            None => self.board().by_color(self.us().other()).any(),
        }
    }

    fn placement_is_safe(&self, sq: Square, king: Option<Square>) -> bool {
        match king {
            None => true,
            Some(k)
                if self.stacks.get(sq) == 0
                    && out_of_reach(self.board(), &self.stacks, self.us(), k, 1).contains(sq) =>
            {
                true
            }
            Some(k) => !attack::piece_threatens_holding(
                self.board(),
                &self.stacks,
                sq,
                self.stacks.get(sq) + 1,
                k,
                self.next_ep,
            ),
        }
    }

    /// The table after a checker goes under the piece on `sq` (not checked).
    pub fn after_placement(&self, sq: Square) -> Table {
        let mut next = self.clone();
        next.stacks.set(sq, self.stacks.get(sq) + 1);
        next.phase = Phase::Over;
        next
    }

    // ------------------------------------------------------------------
    // The turn passes
    // ------------------------------------------------------------------

    /// The table at the start of the opponent's turn.
    pub fn next_turn(&self) -> Table {
        self.clone().into_next_turn()
    }

    /// [`Table::next_turn`], reusing this table's board and stacks.
    pub fn into_next_turn(mut self) -> Table {
        self.pass_turn();
        self
    }

    /// [`Table::next_turn`] in place: this table becomes the start of the
    /// opponent's turn (perft passes the turn without copying the table).
    pub fn pass_turn(&mut self) {
        // Passing the turn counts the full move after Black's and clears the
        // en passant square; the one this turn's double step gave is set.
        self.pos.pass_turn();
        self.pos.set_ep_square(self.next_ep);
        self.phase = Phase::Regular;
        self.captured = false;
        self.next_ep = None;
    }
}

/// The board and stacks after a regular move, without the rest of the table.
struct Bare {
    board: chesskit_core::chess::Board,
    stacks: Stacks,
    next_ep: Option<Square>,
    captured: bool,
}

impl Bare {
    #[inline(always)]
    fn after(table: &Table, m: Move) -> Bare {
        let mut board = table.board().clone();
        let mut stacks = table.stacks.clone();
        let next_ep = move_pieces(table.us(), &mut board, &mut stacks, m);
        Bare { board, stacks, next_ep, captured: m.is_capture() }
    }
}

/// Make the regular move `m` of `us` on `board` and `stacks`: the piece
/// brings its checkers along and takes over those of the piece it
/// captures. Returns the en passant square a double step gives the
/// opponent (only when an enemy pawn could use it).
#[inline(always)]
fn move_pieces(us: Color, board: &mut chesskit_core::chess::Board, stacks: &mut Stacks, m: Move) -> Option<Square> {
    let mut next_ep = None;
    match m {
        Move::Normal { role, from, to, promotion, .. } => {
            if stacks.loaded().contains(from) || stacks.loaded().contains(to) {
                let carried = stacks.take(from) + stacks.take(to);
                stacks.set(to, carried);
            }
            board.discard_piece_at(from);
            board.set_piece_at(to, promotion.unwrap_or(role).of(us));
            if role == Role::Pawn && attack::king_distance(from, to) == 2 {
                next_ep = from
                    .offset(us.fold_wb(8, -8))
                    .filter(|&ep| (attacks::pawn_attacks(us, ep) & board.by_piece(us.other().pawn())).any());
            }
        }
        Move::EnPassant { from, to } => {
            let victim = Square::from_coords(to.file(), from.rank());
            let carried = stacks.take(from) + stacks.take(victim);
            stacks.set(to, carried);
            board.discard_piece_at(from);
            board.discard_piece_at(victim);
            board.set_piece_at(to, us.pawn());
        }
        Move::Castle { king, rook } => {
            let king_side = rook.file() > king.file();
            let rank = us.backrank();
            let (king_to, rook_to) = if king_side {
                (Square::from_coords(shakmaty::File::G, rank), Square::from_coords(shakmaty::File::F, rank))
            } else {
                (Square::from_coords(shakmaty::File::C, rank), Square::from_coords(shakmaty::File::D, rank))
            };
            board.discard_piece_at(king);
            board.discard_piece_at(rook);
            board.set_piece_at(king_to, us.king());
            board.set_piece_at(rook_to, us.rook());
        }
        Move::Put { .. } => {}
    }
    next_ep
}

/// Where the rook of a castling lands, and the squares of the king's path
/// (its start, the squares it crosses, its destination).
fn castling_path(us: Color, king: Square, rook: Square) -> (Square, Bitboard) {
    let king_side = rook.file() > king.file();
    let (king_to, rook_to) =
        if king_side { (shakmaty::File::G, shakmaty::File::F) } else { (shakmaty::File::C, shakmaty::File::D) };
    let king_to = Square::from_coords(king_to, us.backrank());
    let rook_to = Square::from_coords(rook_to, us.backrank());
    (rook_to, attacks::between(king, king_to).with(king).with(king_to))
}

/// The pawns, knights and kings of either side that cannot threaten `king`
/// of `us` next turn with `own` checkers of their own: their regular move
/// goes at most two king steps, then one step per checker, their own and
/// every one under our pieces that they could capture on the way.
fn out_of_reach(board: &chesskit_core::chess::Board, stacks: &Stacks, us: Color, king: Square, own: u32) -> Bitboard {
    let gains = stacks.sum(board.by_color(us));
    (board.pawns() | board.knights() | board.kings()) & !attack::ball(king, 2 + own + gains)
}

/// Whether a checker could go under some enemy piece of `us` without that
/// piece then threatening `king`. Pieces away from the king are tried first.
fn placement_exists(
    board: &chesskit_core::chess::Board,
    stacks: &Stacks,
    us: Color,
    king: Square,
    ep: Option<Square>,
) -> bool {
    let enemies = board.by_color(us.other());
    if (enemies & !stacks.loaded() & out_of_reach(board, stacks, us, king, 1)).any() {
        return true;
    }
    let near = attacks::king_attacks(king) | attacks::knight_attacks(king);
    (enemies & !near)
        .into_iter()
        .chain(enemies & near)
        .any(|sq| !attack::piece_threatens_holding(board, stacks, sq, stacks.get(sq) + 1, king, ep))
}

/// The square `delta` behind `to` (a pawn's origin, from its destination).
#[inline(always)]
fn back(to: Square, delta: i32) -> Square {
    Square::new((to as i32 - delta) as u32)
}

/// The quiet moves that [`Table::candidate_is_legal`] answers alike, in a
/// position out of check: `verdict` (whether nothing threatens our king
/// now; `true` without checkers on the board) before any other test. See
/// [`Bulk::targets`].
struct Bulk {
    verdict: bool,
    relevant: Bitboard,
    near: Bitboard,
    loaded: Bitboard,
    ep_walkers: bool,
    occupied: Bitboard,
    last_rank: Bitboard,
    /// The enemy pieces our pieces may capture legally, whatever captures
    /// them, when the capture is far from the king and touches no
    /// relevant square: see [`Bulk::capture_targets`].
    captures: Bitboard,
}

impl Bulk {
    fn new(table: &Table, king: Square, shortcut: Option<Shortcut>) -> Bulk {
        let (verdict, relevant, near, ep_walkers, gains) = match shortcut {
            None => (true, Bitboard::EMPTY, Bitboard::EMPTY, false, 0),
            Some(cut) => (cut.threateners.is_empty(), cut.relevant, cut.near, cut.ep_walkers, cut.gains),
        };
        let board = table.board();
        let loaded = table.stacks.loaded();
        let theirs = board.by_color(table.us().other());
        // The checker due after a capture of a piece without checkers goes
        // safely under an enemy pawn, knight or king without checkers out
        // of reach of our king (see [`placement_exists`]): with two such
        // pieces one is left whatever was captured, with one the capture
        // must not take it.
        let placeable =
            theirs & !loaded & (board.pawns() | board.knights() | board.kings()) & !attack::ball(king, 2 + 1 + gains);
        let placed = if placeable.more_than_one() {
            Bitboard::FULL
        } else if placeable.any() {
            !placeable
        } else {
            Bitboard::EMPTY
        };
        let captures = if verdict { theirs & !loaded & !near & !relevant & placed } else { Bitboard::EMPTY };
        Bulk {
            verdict,
            relevant,
            near,
            loaded,
            ep_walkers,
            occupied: board.occupied(),
            last_rank: Bitboard::from_rank(table.us().other().backrank()),
            captures,
        }
    }

    /// Of the captures `caps` (none promoting) of our piece other than the
    /// king on `from`, those [`Table::candidate_is_legal`] accepts in any
    /// position where nothing threatens our king (`captures` is empty
    /// otherwise). With checkers on the board, the move goes to
    /// [`Table::quick_walk_safety`]: a capture of a piece without
    /// checkers, onto a square far from the king, by a piece without
    /// checkers or one standing far from the king, touching no relevant
    /// square, has no dependents and is walk-safe, and then
    /// [`Table::regular_is_legal`] accepts it when
    /// [`Table::plain_placement_after_capture`] holds: an enemy pawn,
    /// knight or king of `placeable` is left. Without checkers on the
    /// board, no walk exists before or after such a capture, and
    /// [`placement_exists`] answers first by the same pieces.
    #[inline(always)]
    fn capture_targets(&self, from: Square, caps: Bitboard) -> Bitboard {
        if self.relevant.contains(from) || (self.loaded.contains(from) && self.near.contains(from)) {
            Bitboard::EMPTY
        } else {
            caps & self.captures
        }
    }

    /// Of the `quiet` targets (none promoting) of our piece other than the
    /// king on `from`, `double` its double step if a pawn, those given
    /// `verdict`: [`Table::candidate_is_legal`]'s test of a quiet move
    /// returns `threateners.is_empty()` at once for a move touching no
    /// relevant square, of a piece without checkers (a double step only
    /// when no enemy pawn has checkers), or of a loaded piece moving
    /// between squares far from the king (not a double step). Without
    /// checkers on the board nothing is relevant, near or loaded.
    #[inline(always)]
    fn targets(&self, from: Square, quiet: Bitboard, double: Bitboard) -> Bitboard {
        if self.relevant.contains(from) {
            Bitboard::EMPTY
        } else if self.loaded.contains(from) {
            if self.near.contains(from) {
                Bitboard::EMPTY
            } else {
                quiet & !self.relevant & !self.near & !double
            }
        } else if self.ep_walkers {
            quiet & !self.relevant & !double
        } else {
            quiet & !self.relevant
        }
    }
}

/// See [`Table::king_steps`]: made when a second quiet king step is judged.
enum KingSteps {
    Unasked,
    Once,
    Mapped {
        /// The squares the enemy's walkers other than pawns can step onto.
        reach: Bitboard,
        /// The enemy's pawns that may walk: asked step by step.
        pawns: Bitboard,
    },
}

impl KingSteps {
    /// A map pays when the king has two quiet steps or more to judge; a
    /// single one is searched for.
    fn for_candidates(moves: &MoveList) -> KingSteps {
        let steps = moves.iter().filter(|m| matches!(m, Move::Normal { role: Role::King, capture: None, .. })).count();
        KingSteps::for_quiet_steps(steps)
    }

    /// [`KingSteps::for_candidates`] from the number of the king's quiet steps.
    fn for_quiet_steps(steps: usize) -> KingSteps {
        if steps >= 2 {
            KingSteps::Once
        } else {
            KingSteps::Unasked
        }
    }

    /// For a step to `to`: `Err` when the map says a walker reaches it,
    /// else the pawns still to ask (`None` without a map).
    fn unmapped(&self, to: Square) -> Option<Result<Bitboard, ()>> {
        match *self {
            KingSteps::Mapped { reach, .. } if reach.contains(to) => Some(Err(())),
            KingSteps::Mapped { pawns, .. } => Some(Ok(pawns)),
            _ => None,
        }
    }
}

/// The judge of the opponent's regular moves at perft's last ply
/// ([`Table::count_legal_regular_moves_judged`]), made before our move:
/// its shortcut ([`Table::shortcut_knowing`] with the threateners its
/// king's map names) and its king's map ([`Table::king_steps_and_threats`]
/// to the radius of [`Table::map_radius`]), made on our board with the turn
/// passed, for an opponent whose king has no checkers and is not in check.
///
/// Why it is the judge made after our move, when that move fits
/// ([`Table::reply_judge_fits`]): both are made by the same code from the
/// board and stacks, and the move changes neither the stacks (the piece
/// has none and captures nothing), nor the opponent's pieces, castling
/// rights or king, nor any of our pieces with checkers; it only empties
/// `from` and fills `to` with one of our pieces without checkers, and
/// neither is `sensitive`:
/// - our walkers with checkers: their lines with the opponent's king
///   lifted, and the squares beyond the first piece on each, are
///   sensitive on the rays the judge can read ([`attack::walker_sensitive`]
///   says which), so their regular destinations there, their lines (and
///   those with the first pieces lifted, as [`attack::walk_relevance`]
///   takes them, with or without the king: fewer pieces only lengthen
///   both), and the colour of the first piece on each are the same; the
///   king's map keeps only the squares within its radius, where it is read;
/// - our pieces that could capture one of the opponent's stacks: the
///   same pieces attack each stack after the move. Its capturers (with the
///   king lifted) are sensitive, and so is each of our pieces first on one
///   of its lines with a slider of ours behind that would capture it once
///   that piece leaves: the moving piece is neither, so its leaving adds
///   no capturer (a piece farther out on a line is hidden from the stack,
///   and stays hidden); the squares between the stack and each capturer
///   are sensitive, so no line to it is cut; and the moving piece does not
///   arrive where its kind would attack it (`arrival`, taken on the board
///   before the move: a slider's lines to the stack do not run through
///   its own square unless it captures the stack already, or it would be
///   on a line of the stack of its kind). Each capturer's lines are
///   sensitive where the judge reads its destinations (all of them for one
///   with checkers; for one without, which walks only from the stacks it
///   captures, those the king's map reads: [`attack::capturer_sensitive`]),
///   so they are the same there. The stacks near enough to the king
///   for [`attack::walk_relevance`] to take their lines whole have them
///   all sensitive;
/// - the walks: our pieces block them, and the squares where a walk read
///   whether one of ours stands are sensitive (`attack::walk_reach_traced`),
///   so with the same starts (the destinations above) and stacks each
///   walk runs step for step as before;
/// - the orthodox tests the judge leaves out (the king's steps where our
///   pieces attack, in check) are made after the move, as without it.
pub struct ReplyJudge {
    shortcut: Shortcut,
    /// `KingSteps::Mapped`'s fields.
    reach: Bitboard,
    pawns: Bitboard,
    /// The squares a move of ours must not leave or enter.
    sensitive: Bitboard,
    /// For each role (as index, from the pawn's 0): the squares a piece of
    /// ours of that role must not enter, from which it would attack a stack
    /// of the opponent's.
    arrival: [Bitboard; 6],
    /// Verdicts found after our moves so far ([`Table::loaded_move_verdict`]).
    verdicts: Verdicts,
    /// The opponent's castlings that passed the orthodox test after one of
    /// our moves so far, with the squares that test read and those of that
    /// move ([`Table::orthodox_castlings_traced`]).
    castles: Option<(Bitboard, Bitboard, Bitboard)>,
}

/// Verdicts of [`Table::loaded_move_is_safe`], each with the squares the
/// test read and those of the opponent's move it was found after: it holds
/// after another move of the opponent's that fits the same
/// [`ReplyJudge`] when neither move's squares were read. A few are kept.
#[derive(Default)]
struct Verdicts {
    entries: [(Option<Move>, bool, Bitboard, Bitboard); 6],
    len: usize,
    /// [`Table::loaded_quiet_safe`]'s sets: (piece's square, targets, safe ones,
    /// squares read, squares of the opponent's move).
    safe: [(Bitboard, Bitboard, Bitboard, Bitboard, Bitboard); 4],
    safe_len: usize,
}

impl Verdicts {
    fn find(&self, m: Move, moved: Bitboard) -> Option<bool> {
        self.entries[..self.len].iter().find(|e| e.0 == Some(m) && !e.2.intersects(moved | e.3)).map(|e| e.1)
    }

    fn find_safe(&self, from: Square, quiet: Bitboard, moved: Bitboard) -> Option<Bitboard> {
        self.safe[..self.safe_len]
            .iter()
            .find(|e| e.0 == Bitboard::from_square(from) && e.1 == quiet && !e.3.intersects(moved | e.4))
            .map(|e| e.2)
    }

    fn keep_safe(&mut self, from: Square, quiet: Bitboard, safe: Bitboard, read: Bitboard, moved: Bitboard) {
        let entry = (Bitboard::from_square(from), quiet, safe, read, moved);
        if let Some(e) = self.safe[..self.safe_len].iter_mut().find(|e| e.0 == entry.0 && e.1 == quiet) {
            *e = entry;
        } else if self.safe_len < self.safe.len() {
            self.safe[self.safe_len] = entry;
            self.safe_len += 1;
        }
    }

    fn keep(&mut self, m: Move, verdict: bool, read: Bitboard, moved: Bitboard) {
        if let Some(e) = self.entries[..self.len].iter_mut().find(|e| e.0 == Some(m)) {
            *e = (Some(m), verdict, read, moved);
        } else if self.len < self.entries.len() {
            self.entries[self.len] = (Some(m), verdict, read, moved);
            self.len += 1;
        }
    }
}

#[cfg(test)]
impl ReplyJudge {
    /// Whether this judge is, field by field, the one made from scratch on
    /// `table` (the opponent's turn, out of check, after a move of ours it
    /// fits): its map to the same radius with the same pawns to ask, and
    /// its shortcut, that of [`Table::shortcut`] too.
    pub fn is_made_on(&self, table: &Table) -> bool {
        let Some(king) = table.pos.king_of(table.us()) else { return false };
        let (_, radius) = table.map_radius(king);
        let (KingSteps::Mapped { reach, pawns }, threats) = table.king_steps_and_threats(king, radius) else {
            return false;
        };
        reach == self.reach
            && pawns == self.pawns
            && table.shortcut_knowing(Some(threats)) == Some(self.shortcut)
            && table.shortcut() == Some(self.shortcut)
    }
}

/// See [`Table::shortcut`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shortcut {
    /// The mover's king, and the squares no farther from it than the
    /// checkers on the whole board: no walk is longer than that.
    king: Square,
    near: Bitboard,
    /// The squares a move must touch to change any enemy walk
    /// ([`attack::walk_relevance`]).
    relevant: Bitboard,
    /// The enemy pieces whose walks reach the king now.
    threateners: Bitboard,
    /// Whether an enemy pawn has checkers: only such a pawn could start a
    /// walk by taking en passant a pawn without checkers (a walker without
    /// checkers must gain some by its capture, see [`attack::walkers`]), so
    /// otherwise a double step is judged like any other quiet move.
    ep_walkers: bool,
    /// The checkers under our pieces: an enemy walk may collect them all.
    gains: u32,
    /// The enemy pieces with checkers that could start a walk near enough
    /// to reach the king after some quiet move of ours other than the
    /// king's (see [`attack::walk_relevance`]).
    dangerous: Bitboard,
}

/// The pieces of the position that judge the regular moves, made once per
/// position and kept while its moves are judged.
struct Judge<'a> {
    shortcut: Option<Shortcut>,
    king_steps: KingSteps,
    memo: WalkMemo,
    /// With a judge made before the opponent's move ([`ReplyJudge`]): the
    /// verdicts of [`Table::loaded_move_is_safe`] found after the
    /// opponent's other moves, and the two squares of the one made here.
    verdicts: Option<(&'a mut Verdicts, Bitboard)>,
}

impl Judge<'_> {
    fn new(table: &Table, candidates: &MoveList) -> Judge<'static> {
        Judge {
            shortcut: table.shortcut(),
            king_steps: KingSteps::for_candidates(candidates),
            memo: WalkMemo::default(),
            verdicts: None,
        }
    }
}

/// For the enemy pieces asked so far in a position: the squares from
/// which each one's walk, after a regular move ending there, was found to
/// reach our king or not. Valid while the enemy's pieces and all the
/// checkers stay where they are (see [`Table::quiet_move_is_safe`]).
struct WalkMemo {
    /// (walker, squares asked, squares that reach): at most one entry per
    /// enemy piece, for the first few asked (few are: a memo is made, and
    /// cleared, for every position judged).
    entries: [(Square, Bitboard, Bitboard); 8],
    len: usize,
}

impl Default for WalkMemo {
    fn default() -> WalkMemo {
        WalkMemo { entries: [(Square::A1, Bitboard::EMPTY, Bitboard::EMPTY); 8], len: 0 }
    }
}

impl WalkMemo {
    /// Whether the walk of the enemy piece on `walker` (with `own`
    /// checkers) reaches `king` from one of `starts`.
    #[allow(clippy::too_many_arguments)]
    fn any_reaches(
        &mut self,
        stacks: &Stacks,
        theirs: Bitboard,
        walker: Square,
        own: u32,
        starts: Bitboard,
        victims: Bitboard,
        king: Square,
    ) -> bool {
        let i = match self.entries[..self.len].iter().position(|e| e.0 == walker) {
            Some(i) => i,
            None if self.len < self.entries.len() => {
                self.entries[self.len] = (walker, Bitboard::EMPTY, Bitboard::EMPTY);
                self.len += 1;
                self.len - 1
            }
            // More enemy pieces asked than the memo holds: ask without remembering.
            None => {
                return starts
                    .into_iter()
                    .any(|start| attack::walk_on_reaches(stacks, theirs.without(walker), own, start, victims, king))
            }
        };
        let (_, known, reach) = &mut self.entries[i];
        if (starts & *reach).any() {
            return true;
        }
        for start in starts & !*known {
            known.add(start);
            if attack::walk_on_reaches(stacks, theirs.without(walker), own, start, victims, king) {
                reach.add(start);
                return true;
            }
        }
        false
    }
}
