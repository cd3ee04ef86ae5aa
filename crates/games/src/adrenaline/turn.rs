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

use chesskit_core::chess::{Bitboard, Board, Color, Move, MoveList, Piece, Position, Role, Square};
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
    pub(super) fn new(pos: Position, stacks: Stacks) -> Table {
        Table { pos, stacks, phase: Phase::Regular, captured: false, next_ep: None }
    }

    pub(super) fn us(&self) -> Color {
        self.pos.turn()
    }

    pub(super) fn board(&self) -> &chesskit_core::chess::Board {
        self.pos.board()
    }

    // ------------------------------------------------------------------
    // The king's safety, in the extended sense
    // ------------------------------------------------------------------

    /// Whether the king of `color` is attacked in the extended sense, by the
    /// other side with the en passant square it would have.
    pub(super) fn king_attacked(&self, color: Color) -> bool {
        let ep = if color == self.us() { self.next_ep } else { self.pos.ep_square() };
        match self.pos.king_of(color) {
            Some(king) => attack::attacked(self.board(), &self.stacks, king, color.other(), ep),
            None => false,
        }
    }

    /// Whether the mover is in check at the start of the turn.
    pub(super) fn in_check(&self) -> bool {
        self.king_attacked(self.us())
    }

    /// The mover's king is not attacked now.
    pub(super) fn safe(&self) -> bool {
        !self.king_attacked(self.us())
    }

    /// Whether the turn, as it stands, can be completed legally: the king
    /// is safe now, and the turn can end (a stop, a safe checker placement)
    /// or go on with a step after which it can.
    pub(super) fn completable(&self) -> bool {
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
    pub(super) fn regular_candidates(&self) -> MoveList {
        self.regular_candidates_of(Bitboard::FULL)
    }

    /// [`Table::regular_candidates`] of the piece on `from` only, in the
    /// same order: a regular move applied is looked for among its own
    /// piece's moves (the whole list cost a twentieth of a search node).
    pub(super) fn regular_candidates_from(&self, from: Square) -> MoveList {
        self.regular_candidates_of(Bitboard::from_square(from))
    }

    /// [`Table::regular_candidates`] of the pieces on `pieces`.
    fn regular_candidates_of(&self, pieces: Bitboard) -> MoveList {
        let mut moves = MoveList::new();
        self.pos.piece_moves_into(pieces, &mut moves);
        if self.pos.king_of(self.us()).is_some_and(|king| pieces.contains(king)) {
            self.castling_candidates(&mut moves);
        }
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

    /// The regular moves that leave the turn completable.
    pub(super) fn legal_regular_moves(&self) -> impl Iterator<Item = Move> + '_ {
        let candidates = self.pos.legal_moves();
        let mut judge = Judge::new(self, &candidates);
        candidates.into_iter().filter(move |&m| self.candidate_is_legal(m, &mut judge))
    }

    /// Whether the mover has a legal regular move: what the end of the
    /// game asks at every turn start. A quiet move that
    /// [`Table::candidate_is_legal`] accepts at once answers without
    /// listing every move ([`Table::quick_quiet_move`]); otherwise the list
    /// answers.
    pub(super) fn has_legal_regular_move(&self) -> bool {
        self.quick_quiet_move().is_some() || self.legal_regular_moves().next().is_some()
    }

    /// One of the quiet moves [`Table::candidate_is_legal`] accepts without
    /// a search, if one is found. With no shortcut (no checkers on the
    /// board, or no king) every orthodox legal quiet move is legal; with
    /// one, an orthodox legal quiet move of a piece without checkers that
    /// is not a pawn (no double step) nor the king, touching no square of
    /// `Shortcut::relevant`, is legal when no enemy piece threatens now.
    /// None says only that none was found this way.
    pub(super) fn quick_quiet_move(&self) -> Option<Move> {
        match self.shortcut() {
            None => self.safe_quiet_king_step().or_else(|| self.free_quiet_move(Bitboard::EMPTY)),
            Some(cut) if cut.threateners.is_empty() => self.free_quiet_move(cut.relevant | self.stacks.loaded()),
            Some(_) => None,
        }
    }

    /// A step of the mover's king to an empty square that no enemy piece
    /// attacks once the king has left its own: an orthodox legal move.
    fn safe_quiet_king_step(&self) -> Option<Move> {
        let us = self.us();
        let board = self.board();
        let king = self.pos.king_of(us)?;
        let without_king = board.occupied().without(king);
        let steps = attacks::king_attacks(king) & self.pos.mask() & !board.occupied();
        let to = steps.into_iter().find(|&to| self.pos.attackers_to(to, us.other(), without_king).is_empty())?;
        Some(Move::Normal { role: Role::King, from: king, capture: None, to, promotion: None })
    }

    /// Out of check, a move of a knight, bishop, rook or queen of the mover
    /// that is not pinned and not on `avoid` to an empty square not on
    /// `avoid`: an orthodox legal move that captures nothing.
    fn free_quiet_move(&self, avoid: Bitboard) -> Option<Move> {
        if self.pos.is_check() {
            return None;
        }
        let board = self.board();
        let empty = !board.occupied() & self.pos.mask() & !avoid;
        let free = board.by_color(self.us()) & !board.pawns() & !board.kings() & !avoid & !self.pos.pinned();
        free.into_iter().find_map(|from| {
            let piece = board.piece_at(from)?;
            let to = (self.pos.piece_attacks(from, piece, board.occupied()) & empty).first()?;
            Some(Move::Normal { role: piece.role, from, capture: None, to, promotion: None })
        })
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
    fn candidate_is_legal(&self, m: Move, judge: &mut Judge) -> bool {
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
                            return self.loaded_move_is_safe(&cut, m, from, to);
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
    fn loaded_move_is_safe(&self, cut: &Shortcut, m: Move, from: Square, to: Square) -> bool {
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
        let mut threatens = |w: Square| {
            let after = after.get_or_insert_with(|| Bare::after(self, m));
            attack::walk_threatens(&after.board, &after.stacks, w, cut.king, None)
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
            if (attack::destinations_on(role, them, w, occupied, theirs) & zone).any() {
                asked.add(w);
                if threatens(w) {
                    return false;
                }
            }
        }
        for v in ours_loaded & attack::ball(cut.king, cut.gains) {
            for w in self.pos.attackers_to(v, them, occupied) & !asked {
                asked.add(w);
                if threatens(w) {
                    return false;
                }
            }
        }
        true
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
    pub(super) fn after_regular(&self, m: Move) -> Table {
        let mut next = self.clone();
        next.play_regular(m);
        next
    }

    /// [`Table::after_regular`] in place: perft makes each child in one
    /// table it keeps, a copy of the parent's, instead of building one.
    pub(super) fn play_regular(&mut self, m: Move) {
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
        self.next_ep = move_pieces(us, &mut self.pos, &mut self.stacks, m);
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
    pub(super) fn step_candidates(&self) -> Vec<Step> {
        self.steps().collect()
    }

    /// [`Table::step_candidates`] one by one, without a list: the move
    /// generator walks them at every extra move.
    pub(super) fn steps(&self) -> impl Iterator<Item = Step> + '_ {
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
    pub(super) fn legal_steps(&self) -> Vec<Step> {
        self.steps().filter(|&s| self.step_is_completable(s)).collect()
    }

    /// Whether the turn can be completed after the extra step `step`:
    /// [`Table::after_step`], then [`Table::completable`]. When the piece
    /// has no checkers left after it, the turn ends or only the checker is
    /// due, so the bare board and stacks after it answer; the whole table
    /// is built only when the piece would step on.
    pub(super) fn step_is_completable(&self, step: Step) -> bool {
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
    pub(super) fn after_step(&self, step: Step) -> Table {
        let us = self.us();
        let mut next = self.clone();
        let Step { from, to, promotion } = step;
        let carried = next.stacks.take(from).saturating_sub(1) + next.stacks.take(to);
        let capture = self.board().color_at(to) == Some(us.other());
        let piece = self.board().piece_at(from).expect("the piece on the move stands on its square");
        let role = promotion.unwrap_or(piece.role);
        // Edited in place: the position keeps its evaluation sums and key
        // up to date piece by piece.
        next.pos.remove_piece_at(from);
        next.pos.set_piece_at(to, role.of(us));
        let mut castling = self.pos.castling_rooks();
        castling.discard(from);
        castling.discard(to);
        next.pos.set_castling_rooks(castling);
        next.pos.set_ep_square(None);
        if capture || piece.role == Role::Pawn {
            next.pos.set_halfmoves(0);
        }
        next.stacks.set(to, carried);
        next.captured |= capture;
        // "You may not capture en passant if the pawn used an extra move."
        next.next_ep = None;
        next.phase = next.phase_after_moving(to);
        next
    }

    /// `stop`: no more extra steps this turn.
    pub(super) fn after_stop(&self) -> Table {
        let mut next = self.clone();
        next.phase = if self.captured { Phase::Checker } else { Phase::Over };
        next
    }

    // ------------------------------------------------------------------
    // The adrenaline rush
    // ------------------------------------------------------------------

    /// The enemy pieces a checker may go under without exposing the
    /// mover's king: only that piece's reach changes, so only it is tested.
    pub(super) fn safe_placements(&self) -> impl Iterator<Item = Square> + '_ {
        let us = self.us();
        let king = self.pos.king_of(us);
        self.board().by_color(us.other()).into_iter().filter(move |&sq| self.placement_is_safe(sq, king))
    }

    /// Whether some checker placement is safe. Pieces far from the king are
    /// tried first: they are the likely answers.
    pub(super) fn has_safe_placement(&self) -> bool {
        match self.pos.king_of(self.us()) {
            Some(king) => placement_exists(self.board(), &self.stacks, self.us(), king, self.next_ep),
            None => self.board().by_color(self.us().other()).any(),
        }
    }

    /// Whether a checker may go under the enemy piece on `sq`: the one
    /// test of [`Table::safe_placements`] for that piece, without testing
    /// the pieces before it in the list.
    pub(super) fn placement_is_safe_under(&self, sq: Square) -> bool {
        self.placement_is_safe(sq, self.pos.king_of(self.us()))
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
    pub(super) fn after_placement(&self, sq: Square) -> Table {
        let mut next = self.clone();
        next.place_checker(sq);
        next
    }

    /// [`Table::after_placement`] in place: the game's own table takes the
    /// checker without a copy of it.
    pub(super) fn place_checker(&mut self, sq: Square) {
        self.stacks.set(sq, self.stacks.get(sq) + 1);
        self.phase = Phase::Over;
    }

    // ------------------------------------------------------------------
    // The turn passes
    // ------------------------------------------------------------------

    /// The table at the start of the opponent's turn, reusing this table's
    /// board and stacks.
    pub(super) fn into_next_turn(mut self) -> Table {
        self.pass_turn();
        self
    }

    /// [`Table::into_next_turn`] in place: this table becomes the start of
    /// the opponent's turn (the game and perft pass the turn without
    /// copying the table).
    pub(super) fn pass_turn(&mut self) {
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

/// What [`move_pieces`] moves the pieces on: a bare board (a trial), or
/// the table's position, which keeps its evaluation sums and key up to
/// date piece by piece (counting them again after every move was a tenth
/// of a search node).
trait Pieces {
    fn board(&self) -> &Board;
    fn discard_piece_at(&mut self, sq: Square);
    fn set_piece_at(&mut self, sq: Square, piece: Piece);
}

impl Pieces for Board {
    fn board(&self) -> &Board {
        self
    }

    fn discard_piece_at(&mut self, sq: Square) {
        Board::discard_piece_at(self, sq);
    }

    fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        Board::set_piece_at(self, sq, piece);
    }
}

impl Pieces for Position {
    fn board(&self) -> &Board {
        Position::board(self)
    }

    fn discard_piece_at(&mut self, sq: Square) {
        self.remove_piece_at(sq);
    }

    fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        Position::set_piece_at(self, sq, piece);
    }
}

/// Make the regular move `m` of `us` on `board` and `stacks`: the piece
/// brings its checkers along and takes over those of the piece it
/// captures. Returns the en passant square a double step gives the
/// opponent (only when an enemy pawn could use it).
#[inline(always)]
fn move_pieces(us: Color, board: &mut impl Pieces, stacks: &mut Stacks, m: Move) -> Option<Square> {
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
                    .filter(|&ep| (attacks::pawn_attacks(us, ep) & board.board().by_piece(us.other().pawn())).any());
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
struct Judge {
    shortcut: Option<Shortcut>,
    king_steps: KingSteps,
    memo: WalkMemo,
}

impl Judge {
    fn new(table: &Table, candidates: &MoveList) -> Judge {
        Judge {
            shortcut: table.shortcut(),
            king_steps: KingSteps::for_candidates(candidates),
            memo: WalkMemo::default(),
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
