//! The board during one player's turn, and the rules that decide what that
//! player may still do in it.
//!
//! A Zombie Chess turn has several steps (docs/games/zombie.md, "Rulings"): one
//! regular move with a piece that is not a zombie and, before or after it,
//! one move of each of the player's zombies. Zombies rise only at the end of
//! the turn, but "every move must leave your own king out of check, revealed
//! zombies included", so each step is judged on the board as it will stand
//! when the turn ends: the zombies under the squares left so far rise there.
//! A step is legal only when the turn can still be completed legally after
//! it, so a player can never be stranded in the middle of a turn. Whether
//! it can is an exact search that leaves still the zombies that cannot
//! matter (the `horde` module), so that a horde does not make it explode.

use std::collections::HashSet;

use chesskit_core::chess::{Bitboard, Board, Color, Move, MoveList, Piece, Position, Role, Square};
use shakmaty::attacks;

use super::horde::{self, Pass};

pub use super::grid::Burials;

/// Tables known not to complete, each with the pass of the search that failed there.
pub type DeadEnds = HashSet<(Table, Pass)>;

/// The roles a zombie pawn that rises on its last rank may become.
pub const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// What the rules of a turn need besides the board: the mover's own
/// burials (to know which zombies would rise) and the "zombie turn" option.
#[derive(Clone, Copy, Debug)]
pub struct TurnRules<'a> {
    pub burials: &'a Burials,
    pub zombie_turn: bool,
}

/// The board and the progress of the turn of the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    /// The pieces; its side to move is the player whose turn it is, and its
    /// en passant square is the one that player may still capture on.
    pub pos: Position,
    /// Squares holding zombies, of either colour.
    pub zombies: Bitboard,
    /// Where the mover's zombies that already moved this turn now stand.
    pub moved: Bitboard,
    /// Squares the mover's pieces left this turn: where burials may rise.
    pub left: Bitboard,
    /// Whether the regular move of this turn is made.
    pub regular_done: bool,
    /// The en passant square the mover's last double step gives the opponent.
    pub next_ep: Option<Square>,
}

/// What a move captured: the square, the piece, and whether it was a zombie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    pub square: Square,
    pub piece: Piece,
    pub zombie: bool,
}

impl Table {
    /// A table at the start of a turn.
    pub fn new(pos: Position, zombies: Bitboard) -> Table {
        Table { pos, zombies, moved: Bitboard::EMPTY, left: Bitboard::EMPTY, regular_done: false, next_ep: None }
    }

    pub fn us(&self) -> Color {
        self.pos.turn()
    }

    pub fn board(&self) -> &Board {
        self.pos.board()
    }

    /// Whether nothing has happened yet in this turn.
    pub fn at_turn_start(&self) -> bool {
        !self.regular_done && self.moved.is_empty() && self.left.is_empty()
    }

    /// The mover's zombies that have not moved this turn.
    pub fn idle_zombies(&self) -> Bitboard {
        self.zombies & self.board().by_color(self.us()) & !self.moved
    }

    /// The mover's zombie pawns that rose on their last rank and wait for the
    /// owner's choice of piece (ruling, docs/games/zombie.md: chosen on the owner's next turn,
    /// before moving it).
    pub fn pending_promotions(&self) -> Bitboard {
        let us = self.us();
        self.zombies & self.board().by_piece(us.pawn()) & Bitboard::from_rank(us.other().backrank())
    }

    // ------------------------------------------------------------------
    // What may move
    // ------------------------------------------------------------------

    /// Every move the turn rules allow now, ignoring the king's safety: the
    /// regular move (while not yet made) of a piece that is not a zombie, and
    /// a move of each zombie that has not moved. Regular moves come first.
    /// Generated for those pieces alone (the completion search asks at
    /// every step it tries), in the order of the board's pseudo-legal moves.
    pub fn candidate_moves(&self) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.candidate_moves_into(&mut moves);
        moves.to_vec()
    }

    /// [`Table::candidate_moves`] into a list the caller keeps on its stack:
    /// the completion search lists them at every table it tries, and a
    /// vector would be allocated each time.
    pub fn candidate_moves_into(&self, moves: &mut MoveList) {
        self.candidate_moves_among(Bitboard::FULL, moves);
    }

    /// The candidates of the piece on `from` alone, in their order, into
    /// `moves` (cleared first): all a move that names its square can be.
    /// A referee applying a step it was told needs no others, and the
    /// search applies one at every node it makes.
    pub fn candidate_moves_of(&self, from: Square, moves: &mut MoveList) {
        self.candidate_moves_among(Bitboard::from_square(from), moves);
    }

    /// The candidates of the pieces on `pieces`, regular moves first, into
    /// `moves` (cleared first).
    fn candidate_moves_among(&self, pieces: Bitboard, moves: &mut MoveList) {
        moves.clear();
        self.regular_candidates_into(pieces, moves);
        let zombies = self.idle_zombies() & pieces;
        if zombies.any() {
            self.pos.piece_moves_into(zombies, moves);
        }
    }

    /// The regular moves of the pieces on `pieces` among the candidates, in
    /// their order, appended to `moves`: none once the regular move is made.
    fn regular_candidates_into(&self, pieces: Bitboard, moves: &mut MoveList) {
        let movers = self.board().by_color(self.us()) & !self.zombies & pieces;
        if self.regular_done || movers.is_empty() {
            return;
        }
        self.pos.piece_moves_into(movers, moves);
        // The king, never a zombie (a king is never captured, so never buried), castles.
        if self.pos.king_of(self.us()).is_some_and(|king| movers.contains(king)) {
            self.pos.castling_moves(true, moves);
        }
    }

    /// Whether `m` moves a zombie.
    pub fn is_zombie_move(&self, m: Move) -> bool {
        m.from().is_some_and(|from| self.zombies.contains(from))
    }

    /// Play one step of the turn without checking it. The side to move stays
    /// the same; the squares left are remembered for the rising at the end.
    pub fn play(&mut self, m: Move) -> Option<Capture> {
        let us = self.us();
        let from = m.from().expect("board moves have an origin");
        let zombie = self.zombies.contains(from);
        let captured_square = match m {
            Move::EnPassant { from, to } => Some(Square::from_coords(to.file(), from.rank())),
            Move::Normal { capture: Some(_), to, .. } => Some(to),
            _ => None,
        };
        let capture = captured_square.and_then(|square| {
            let piece = self.board().piece_at(square)?;
            Some(Capture { square, piece, zombie: self.zombies.contains(square) })
        });
        if let Some(c) = capture {
            self.zombies.discard(c.square);
        }
        let first_step = self.left.is_empty();
        let (halfmoves, fullmoves, ep_before) = (self.pos.halfmoves(), self.pos.fullmoves(), self.pos.ep_square());
        self.pos.play_unchecked(m);
        if let Some(ep) = self.pos.ep_square() {
            self.next_ep = Some(ep);
        }
        match m {
            Move::Castle { king, rook } => {
                self.left.add(king);
                self.left.add(rook);
            }
            _ => self.left.add(from),
        }
        if zombie {
            self.zombies.discard(from);
            self.zombies.add(m.to());
            self.moved.add(m.to());
        } else {
            self.regular_done = true;
        }
        let halfmoves = if m.is_zeroing() {
            0
        } else if first_step {
            halfmoves + 1
        } else {
            halfmoves
        };
        let ep = ep_before.filter(|&ep| ep_still_valid(self.board(), ep, us.other()));
        self.pos.set_turn(us);
        self.pos.set_ep_square(ep);
        self.pos.set_halfmoves(halfmoves);
        self.pos.set_fullmoves(fullmoves);
        capture
    }

    /// The owner's choice of piece for a zombie pawn that rose on its last rank.
    pub fn promote(&mut self, square: Square, role: Role) {
        let us = self.us();
        self.pos.set_piece_at(square, role.of(us));
    }

    // ------------------------------------------------------------------
    // The king's safety, revealed zombies included
    // ------------------------------------------------------------------

    /// The board as it will stand at the end of the turn as far as is known
    /// now: the mover's burials under the squares left (and still empty)
    /// rise as the opponent's zombies. With `destroy`, the mover's zombies
    /// that have not moved are gone. Also returns the squares of risen pawns
    /// on their last rank: they promote to a piece the opponent will choose.
    fn end_board(&self, burials: &Burials, destroy: bool) -> (Board, Bitboard) {
        let them = self.us().other();
        let mut board = self.board().clone();
        let mut promoting = Bitboard::EMPTY;
        for square in self.left & !board.occupied() {
            if let Some(&role) = burials.get(&square) {
                board.set_piece_at(square, role.of(them));
                if role == Role::Pawn && square.rank() == them.other().backrank() {
                    promoting.add(square);
                }
            }
        }
        if destroy {
            for square in self.idle_zombies() {
                board.discard_piece_at(square);
            }
        }
        (board, promoting)
    }

    /// Whether the mover's king is out of check on the board at the end of
    /// the turn. A rising pawn that promotes counts as every piece it may
    /// become (a queen and a knight cover them all).
    pub fn king_safe(&self, burials: &Burials, destroy: bool) -> bool {
        let (board, promoting) = self.end_board(burials, destroy);
        let us = self.us();
        let Some(king) = board.king_of(us) else { return true };
        let occupied = board.occupied();
        if board.attacks_to(king, us.other(), occupied).any() {
            return false;
        }
        !promoting
            .into_iter()
            .any(|sq| (attacks::queen_attacks(sq, occupied) | attacks::knight_attacks(sq)).contains(king))
    }

    // ------------------------------------------------------------------
    // Completing a turn
    // ------------------------------------------------------------------

    /// Whether the turn may end now: the regular move is made (or, with the
    /// "zombie turn" option, a zombie has moved instead), and once the idle
    /// zombies are destroyed and the buried pieces have risen, the mover's
    /// king is out of check.
    pub fn may_end(&self, rules: TurnRules) -> bool {
        let moved_enough = self.regular_done || (rules.zombie_turn && self.moved.any());
        moved_enough && self.pending_promotions().is_empty() && self.king_safe(rules.burials, true)
    }

    /// Whether some sequence of legal steps completes the turn from here.
    ///
    /// Exact, and quick with a horde: at each table of the search, the
    /// zombies that cannot matter (see the `horde` module) stay still. A
    /// quick pass also leaves still the zombies that could only make room
    /// for a regular move that does not concern the king; a completion it
    /// finds is real, and only when it finds none does the exact pass
    /// decide. `dead_ends` remembers the tables where a pass failed.
    pub fn can_complete(&self, rules: TurnRules, dead_ends: &mut DeadEnds) -> bool {
        if let Some(square) = self.pending_promotions().first() {
            return PROMOTION_ROLES.iter().any(|&role| {
                let mut next = self.clone();
                next.promote(square, role);
                next.can_complete(rules, dead_ends)
            });
        }
        // Once the regular move is made the two passes are the same.
        self.search(rules, Pass::Quick, dead_ends) || (!self.regular_done && self.search(rules, Pass::Exact, dead_ends))
    }

    /// Whether the turn can be completed from here with, at each table, the
    /// free zombies of the pass never moving: a depth-first search over the
    /// other steps, trying one inert regular move only.
    fn search(&self, rules: TurnRules, pass: Pass, dead_ends: &mut DeadEnds) -> bool {
        if self.may_end(rules) {
            return true;
        }
        if self.ends_after_first_safe_regular_move(rules) {
            return true;
        }
        let pass = if self.regular_done { Pass::Exact } else { pass };
        let key = (self.clone(), pass);
        if dead_ends.contains(&key) {
            return false;
        }
        let horde = horde::analyse(self, rules.burials, pass);
        if self.free_zombie_turn(rules, horde.free) {
            return true;
        }
        let mut inert_tried = false;
        let mut moves = MoveList::new();
        self.candidate_moves_into(&mut moves);
        for &m in &moves {
            if m.from().is_some_and(|from| horde.free.contains(from)) {
                continue;
            }
            if horde.is_inert(self, m) {
                if inert_tried {
                    continue;
                }
                inert_tried = true;
            }
            let mut next = self.clone();
            next.play(m);
            if next.king_safe(rules.burials, false) && next.search(rules, pass, dead_ends) {
                return true;
            }
        }
        dead_ends.insert(key);
        false
    }

    /// The completion most tables have, tried before the horde is
    /// analysed (the search asks at every turn start, and this is most of
    /// its cost): the first regular move that leaves the king safe, then
    /// the end of the turn. A completion it finds is real; when it finds
    /// none the search decides.
    fn ends_after_first_safe_regular_move(&self, rules: TurnRules) -> bool {
        if self.regular_done {
            return false;
        }
        if self.chess_turn() {
            return if rules.burials.is_empty() {
                self.pos.has_legal_move()
            } else {
                let mut legal = MoveList::new();
                self.pos.legal_moves_into(&mut legal);
                self.completes_by_a_chess_move(&legal, rules)
            };
        }
        let mut regular_moves = MoveList::new();
        self.regular_candidates_into(Bitboard::FULL, &mut regular_moves);
        for &m in &regular_moves {
            let mut next = self.clone();
            next.play(m);
            if next.king_safe(rules.burials, false) {
                return next.may_end(rules);
            }
        }
        false
    }

    /// With the "zombie turn" option, a turn may be one move of a zombie
    /// the search kept still: from the start of the moves, that zombie's
    /// move alone, which cannot change the king's safety.
    fn free_zombie_turn(&self, rules: TurnRules, free: Bitboard) -> bool {
        if !rules.zombie_turn || self.regular_done || self.moved.any() || free.is_empty() {
            return false;
        }
        let mut moves = MoveList::new();
        self.candidate_moves_into(&mut moves);
        moves.iter().copied().filter(|m| m.from().is_some_and(|from| free.contains(from))).any(|m| {
            let mut next = self.clone();
            next.play(m);
            next.king_safe(rules.burials, false) && next.may_end(rules)
        })
    }

    /// The exhaustive search `can_complete` replaces, kept to check it:
    /// every step of every zombie, in every order.
    #[cfg(test)]
    pub fn can_complete_by_brute_force(&self, rules: TurnRules, dead_ends: &mut HashSet<Table>) -> bool {
        if let Some(square) = self.pending_promotions().first() {
            return PROMOTION_ROLES.iter().any(|&role| {
                let mut next = self.clone();
                next.promote(square, role);
                next.can_complete_by_brute_force(rules, dead_ends)
            });
        }
        if self.may_end(rules) {
            return true;
        }
        if dead_ends.contains(self) {
            return false;
        }
        for m in self.candidate_moves() {
            let mut next = self.clone();
            next.play(m);
            if next.king_safe(rules.burials, false) && next.can_complete_by_brute_force(rules, dead_ends) {
                return true;
            }
        }
        dead_ends.insert(self.clone());
        false
    }

    /// Why the step `m` (a candidate move) is illegal, or `None` when it is
    /// legal: it must leave the king out of check, revealed zombies
    /// included, and the turn must still be completable after it.
    pub fn step_refusal(&self, m: Move, rules: TurnRules, dead_ends: &mut DeadEnds) -> Option<&'static str> {
        let mut next = self.clone();
        next.play(m);
        next.refusal_after_step(rules, dead_ends)
    }

    /// [`Table::step_refusal`] of the step that led to this table, judged
    /// here: a referee that keeps the table after a legal step plays it once.
    pub fn refusal_after_step(&self, rules: TurnRules, dead_ends: &mut DeadEnds) -> Option<&'static str> {
        if !self.king_safe(rules.burials, false) {
            Some("it would leave your king in check (the zombies that would rise included)")
        } else if !self.can_complete(rules, dead_ends) {
            Some("after it your turn could not be completed without leaving your king in check")
        } else {
            None
        }
    }

    /// The legal steps now: candidate moves that keep the king safe and
    /// leave the turn completable.
    #[cfg(test)]
    pub fn legal_moves(&self, rules: TurnRules) -> Vec<Move> {
        let mut steps = MoveList::new();
        self.legal_moves_into(rules, |_| true, &mut steps);
        steps.to_vec()
    }

    /// The legal steps now among the candidate moves that `wanted` picks,
    /// in the candidates' order, into `steps` (cleared first). `wanted`
    /// picks before the rules judge: quiescence asks for the captures
    /// alone, and judging every quiet step as well was most of the cost of
    /// its list. Where the step is a chess move exactly (see
    /// [`Table::chess_turn`]), chess's test of the king's safety answers
    /// for it; the search lists the steps at every node, and trying each
    /// on a copy with the completion search after it was most of a node's
    /// cost.
    pub fn legal_moves_into(&self, rules: TurnRules, wanted: impl Fn(Move) -> bool, steps: &mut MoveList) {
        steps.clear();
        self.candidate_moves_into(steps);
        steps.retain(|m| wanted(*m));
        let chess = self.chess_turn().then(|| ChessSafety::of(&self.pos));
        let mut dead_ends = DeadEnds::new();
        steps.retain(|&mut m| match &chess {
            Some(chess) if !self.raises_a_burial(m, rules.burials) => chess.allows(&self.pos, m),
            _ => self.step_refusal(m, rules, &mut dead_ends).is_none(),
        });
    }

    /// [`Table::legal_moves`] by trying every candidate, as the rules say
    /// it: what the shortcut is checked against.
    #[cfg(test)]
    pub fn legal_moves_tried_one_by_one(&self, rules: TurnRules) -> Vec<Move> {
        let mut dead_ends = DeadEnds::new();
        self.candidate_moves().into_iter().filter(|&m| self.step_refusal(m, rules, &mut dead_ends).is_none()).collect()
    }

    /// Whether the turn is a chess move: at its start, the mover has no
    /// zombie (so no zombie step, none to destroy, no risen pawn to
    /// promote). A regular move that raises no burial then leaves the
    /// board as chess does, its king must be safe there as in chess, and
    /// the turn may end right after it.
    pub fn chess_turn(&self) -> bool {
        self.at_turn_start() && (self.zombies & self.board().by_color(self.us())).is_empty()
    }

    /// Whether, in a turn that is a chess move, one of chess's `legal`
    /// moves of the position completes it: one that raises no burial.
    pub fn completes_by_a_chess_move(&self, legal: &[Move], rules: TurnRules) -> bool {
        self.chess_turn() && legal.iter().any(|&m| !self.raises_a_burial(m, rules.burials))
    }

    /// Whether the regular move `m` leaves a square with one of the
    /// mover's burials under it (castling leaves two).
    fn raises_a_burial(&self, m: Move, burials: &Burials) -> bool {
        let left = match m {
            Move::Castle { king, rook } => Bitboard::from_square(king).with(rook),
            m => m.from().map_or(Bitboard::EMPTY, Bitboard::from_square),
        };
        left.into_iter().any(|square| burials.contains_key(&square))
    }
}

/// Chess's test of a pseudo-legal move's king safety, with what most
/// moves need worked out once a list: out of check, a piece other than
/// the king that is not pinned to it cannot expose it (en passant, which
/// lifts two pieces off a rank, is tested in full). The test of every
/// candidate was a tenth of a Zombie search's cost.
struct ChessSafety {
    in_check: bool,
    king: Option<Square>,
    pinned: Bitboard,
}

impl ChessSafety {
    fn of(pos: &Position) -> ChessSafety {
        ChessSafety { in_check: pos.is_check(), king: pos.king_of(pos.turn()), pinned: pos.pinned() }
    }

    /// Whether the move leaves the mover's king out of check.
    fn allows(&self, pos: &Position, m: Move) -> bool {
        let free = |from: Square| Some(from) != self.king && !self.pinned.contains(from);
        let surely_safe = !self.in_check && !m.is_en_passant() && m.from().is_some_and(free);
        surely_safe || pos.leaves_king_safe(m)
    }
}

/// Whether the en passant square `ep` behind a pawn of `pawn_colour` may
/// still be captured on: the pawn stands in front of it and it is empty.
pub fn ep_still_valid(board: &Board, ep: Square, pawn_colour: Color) -> bool {
    let pushed = ep.offset(pawn_colour.fold_wb(8, -8));
    !board.occupied().contains(ep) && pushed.is_some_and(|sq| board.piece_at(sq) == Some(pawn_colour.pawn()))
}
