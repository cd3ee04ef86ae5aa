//! The extended attack of Adrenaline Chess (docs/games/adrenaline.md,
//! "Rulings"): a square is attacked when an enemy piece could capture there in
//! its next turn, with its regular move and then as many king steps as the
//! checkers it has or gains by capturing along the way.
//!
//! This is the hot path of the move generator, so it is built in layers
//! that each answer most questions before the next one is asked:
//!
//! 1. the orthodox attack (a regular move that captures on the square), by
//!    bitboards;
//! 2. for each enemy piece, a distance bound: its walk can only start on one
//!    of its regular destinations, and every step moves one square, so a
//!    destination farther (in king steps) from the square than the checkers
//!    it could ever hold is useless;
//! 3. for the destinations left, a breadth-first walk over bitboards (the
//!    walker's own pieces block, the victims' pieces are captured), and,
//!    only when the victim's side has checkers of its own to be taken, a
//!    search over the order in which those stacks are collected, memoised
//!    on (square, stacks still on the board) keeping the best budget seen.
//!
//! The regular move is taken pseudo-legally, as in chess: a pinned piece
//! still attacks.

use chesskit_core::chess::{Bitboard, Board, Color, Piece, Role, Square};
use shakmaty::attacks;

use crate::chess::one_step_around;

/// The checkers under each square's piece: the "adrenaline" of the book.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stacks {
    count: [u8; 64],
    loaded: Bitboard,
}

impl Default for Stacks {
    fn default() -> Stacks {
        Stacks { count: [0; 64], loaded: Bitboard::EMPTY }
    }
}

impl Stacks {
    pub fn get(&self, sq: Square) -> u32 {
        u32::from(self.count[sq as usize])
    }

    pub fn set(&mut self, sq: Square, n: u32) {
        self.count[sq as usize] = n.min(u32::from(u8::MAX)) as u8;
        self.loaded.set(sq, n > 0);
    }

    /// Lift the stack off `sq` (it is then empty) and return its height.
    pub fn take(&mut self, sq: Square) -> u32 {
        let n = self.get(sq);
        self.set(sq, 0);
        n
    }

    /// The squares with at least one checker.
    pub fn loaded(&self) -> Bitboard {
        self.loaded
    }

    /// The checkers under the pieces on `squares`.
    pub fn sum(&self, squares: Bitboard) -> u32 {
        (squares & self.loaded).into_iter().map(|sq| self.get(sq)).sum()
    }
}

/// King steps between two squares (their Chebyshev distance), inlined:
/// shakmaty's `Square::distance` is a call, and the move generator asks
/// this millions of times per perft.
#[inline(always)]
pub fn king_distance(a: Square, b: Square) -> u32 {
    let (a, b) = (a as i32, b as i32);
    let files = ((a & 7) - (b & 7)).unsigned_abs();
    let ranks = ((a >> 3) - (b >> 3)).unsigned_abs();
    files.max(ranks)
}

/// Chebyshev balls: the squares at most `n` king steps from a square.
/// Every square is at most 7 steps away: larger balls are the radius-7 one.
#[inline(always)]
pub fn ball(sq: Square, n: u32) -> Bitboard {
    Bitboard(BALLS[sq as usize][n.min(7) as usize])
}

/// [`ball`]'s table, made at compile time (a table made at the first call
/// would be made inside the first timed perft).
const BALLS: [[u64; 8]; 64] = {
    let mut balls = [[0u64; 8]; 64];
    let mut centre = 0;
    while centre < 64 {
        let mut radius = 0;
        while radius < 8 {
            let mut sq: usize = 0;
            while sq < 64 {
                let files = ((centre & 7) as i32 - (sq & 7) as i32).unsigned_abs();
                let ranks = ((centre >> 3) as i32 - (sq >> 3) as i32).unsigned_abs();
                let distance = if files > ranks { files } else { ranks };
                if distance <= radius {
                    balls[centre][radius as usize] |= 1u64 << sq;
                }
                sq += 1;
            }
            radius += 1;
        }
        centre += 1;
    }
    balls
};

/// The squares at most `steps` king steps from a square of `set`.
pub fn grow(set: Bitboard, steps: u32) -> Bitboard {
    let mut grown = set;
    for _ in 0..steps.min(7) {
        grown = one_step_around(grown);
    }
    grown
}

/// Orthodox attackers of `by` on `target`: pieces whose regular move
/// captures there.
pub fn orthodox_attackers(board: &Board, target: Square, by: Color) -> Bitboard {
    let occupied = board.occupied();
    (attacks::rook_attacks(target, occupied) & board.rooks_and_queens()
        | attacks::bishop_attacks(target, occupied) & board.bishops_and_queens()
        | attacks::knight_attacks(target) & board.knights()
        | attacks::king_attacks(target) & board.kings()
        | attacks::pawn_attacks(by.other(), target) & board.pawns())
        & board.by_color(by)
}

/// The squares the piece on `from` may reach with a regular move, captures
/// and quiet moves alike (castling never captures and its pieces carry no
/// checkers, so it never starts a walk). `ep` is the en passant square the
/// piece's side may use.
fn regular_destinations(board: &Board, from: Square, piece: Piece, ep: Option<Square>) -> Bitboard {
    let mut to = destinations_on(piece.role, piece.color, from, board.occupied(), board.by_color(piece.color));
    if let Some(ep) = ep.filter(|&ep| piece.role == Role::Pawn && attacks::pawn_attacks(piece.color, from).contains(ep))
    {
        to.add(ep);
    }
    to
}

/// One walker's question: from `start` with `budget` checkers, stepping
/// like a king over `passable` squares, can it step onto `target`? The
/// stacks in `gains` (victims' pieces not yet taken) are collected by
/// stepping onto them.
struct Walk<'a> {
    stacks: &'a Stacks,
    target: Square,
    passable: Bitboard,
    /// Best budget seen at (square, stacks still to collect). Only walks
    /// that can collect stacks use it: the first few entries are kept in
    /// place, more (rare) in `spill`, so a walk seldom allocates.
    memo: [(Square, Bitboard, u32); MEMO_INLINE],
    memo_len: usize,
    spill: Vec<(Square, Bitboard, u32)>,
    /// Every square whose passability the walk has read: the squares its
    /// layers met (see [`walk_reach_traced`]).
    met: Bitboard,
}

/// The entries of a walk's memo kept without allocating.
const MEMO_INLINE: usize = 4;

impl Walk<'_> {
    fn new(stacks: &Stacks, target: Square, passable: Bitboard) -> Walk<'_> {
        Walk {
            stacks,
            target,
            passable,
            memo: [(Square::A1, Bitboard::EMPTY, 0); MEMO_INLINE],
            memo_len: 0,
            spill: Vec::new(),
            met: Bitboard::EMPTY,
        }
    }

    /// Whether (sq, rest) was already searched with at least `budget`;
    /// remembers it otherwise.
    fn seen_better(&mut self, sq: Square, rest: Bitboard, budget: u32) -> bool {
        let (inline, spill) = (&mut self.memo[..self.memo_len], &mut self.spill);
        if let Some(entry) = inline.iter_mut().chain(spill.iter_mut()).find(|e| e.0 == sq && e.1 == rest) {
            if entry.2 >= budget {
                return true;
            }
            entry.2 = budget;
            return false;
        }
        if self.memo_len < MEMO_INLINE {
            self.memo[self.memo_len] = (sq, rest, budget);
            self.memo_len += 1;
        } else {
            self.spill.push((sq, rest, budget));
        }
        false
    }

    fn reaches(&mut self, start: Square, budget: u32, gains: Bitboard) -> bool {
        self.reaches_from(Bitboard::from_square(start), budget, gains)
    }

    /// [`Walk::reaches`] from any of `starts`, all with the same budget and
    /// stacks to collect: one breadth-first search from all of them at
    /// once. A stack is then met by the nearest start, with the most
    /// checkers left, which is at least as good as meeting it from any
    /// other. `starts` must not hold the target.
    fn reaches_from(&mut self, starts: Bitboard, budget: u32, gains: Bitboard) -> bool {
        if budget == 0 {
            return false;
        }
        let can_gain = if gains.is_empty() { 0 } else { self.stacks.sum(gains) };
        let starts = starts & ball(self.target, budget + can_gain);
        if starts.is_empty() {
            return false;
        }
        // Breadth-first layers of king steps; gains are passable (victims).
        let mut seen = starts;
        let mut frontier = seen;
        // The stacks met on the way and the steps to each, kept on the
        // stack (no allocation in this hot loop): layers are disjoint, and
        // fewer than 64, so a byte holds a count of steps.
        let mut found = Bitboard::EMPTY;
        let mut steps_to = [0u8; 64];
        for d in 1..=budget {
            // A square farther from the target than the checkers left and
            // all those still to collect leads nowhere: left out, its
            // passability unread (and a stack there could not help).
            let next = one_step_around(frontier) & !seen & ball(self.target, budget - d + can_gain);
            if next.contains(self.target) {
                self.met |= seen | next;
                return true;
            }
            for g in next & gains {
                found.add(g);
                steps_to[g as usize] = d as u8;
            }
            seen |= next;
            frontier = next & self.passable;
            if frontier.is_empty() {
                break;
            }
        }
        self.met |= seen;
        // Collect one more stack first, then walk on with its checkers.
        for g in found {
            let d = u32::from(steps_to[g as usize]);
            let left = budget - d + self.stacks.get(g);
            let rest = gains.without(g);
            if self.seen_better(g, rest, left) {
                continue;
            }
            if self.reaches(g, left, rest) {
                return true;
            }
        }
        false
    }
}

impl Walk<'_> {
    /// Every square a walk from any of `starts` (with `budget` checkers and
    /// the stacks of `gains` to collect) can step onto, added to `reach`:
    /// [`Walk::reaches_from`] for all targets at once. The same layers and
    /// the same stacks collected, without stopping at a target, so a square
    /// of `focus` is in `reach` exactly when `reaches_from` would find it
    /// (for a target that is not among `starts`); outside `focus`, `reach`
    /// holds some of the squares the walk gets to. The memo stays exact: a stack
    /// reached again with no more checkers and the same stacks left reaches
    /// nothing new. Only the squares of `focus` are wanted: starts too far
    /// from all of them for the checkers there are to arrive are dropped.
    fn reach_from(&mut self, starts: Bitboard, budget: u32, gains: Bitboard, focus: Focus, reach: &mut Bitboard) {
        if budget == 0 {
            return;
        }
        let can_gain = if gains.is_empty() { 0 } else { self.stacks.sum(gains) };
        let starts = starts & focus.within(budget + can_gain);
        if starts.is_empty() {
            return;
        }
        let mut seen = starts;
        let mut frontier = seen;
        let mut found = Bitboard::EMPTY;
        let mut steps_to = [0u8; 64];
        for d in 1..=budget {
            // As in [`Walk::reaches_from`]: squares that cannot lead into
            // the focus are left out.
            let next = one_step_around(frontier) & !seen & focus.within(budget - d + can_gain);
            *reach |= next & self.passable;
            for g in next & gains {
                found.add(g);
                steps_to[g as usize] = d as u8;
            }
            seen |= next;
            frontier = next & self.passable;
            if frontier.is_empty() {
                break;
            }
        }
        self.met |= seen;
        for g in found {
            let left = budget - u32::from(steps_to[g as usize]) + self.stacks.get(g);
            let rest = gains.without(g);
            if self.seen_better(g, rest, left) {
                continue;
            }
            self.reach_from(Bitboard::from_square(g), left, rest, focus, reach);
        }
    }
}

/// The squares a reach is wanted on: those at most `radius` king steps
/// from `centre`.
#[derive(Clone, Copy)]
pub struct Focus {
    pub centre: Square,
    pub radius: u32,
}

impl Focus {
    /// The squares from which `steps` king steps can arrive in the focus.
    fn within(self, steps: u32) -> Bitboard {
        ball(self.centre, steps + self.radius)
    }
}

/// The squares of `focus` the piece on `from` could step onto in its next
/// turn, with its regular move or its extra steps: the squares `t` of
/// `focus` for which [`walk_threatens`] (to `t`) holds, for every `t` not
/// holding one of the walker's own pieces, with its regular destinations
/// (and some squares outside `focus`). Computed once, it answers the
/// question for many targets on the same board (the squares a king may
/// step to).
pub fn walk_reach(board: &Board, stacks: &Stacks, from: Square, ep: Option<Square>, focus: Focus) -> Bitboard {
    walk_reach_traced(board, stacks, from, ep, focus, &mut Bitboard(0))
}

/// [`walk_reach`], adding to `met` the squares whose passability (whether
/// one of the walker's own pieces stands there) it read: those its layers
/// met. The walk reads nothing else of where the walker's side's pieces
/// stand but through the walker's regular destinations, so on a board that
/// differs from this one only on squares it did not read, and not in those
/// destinations, nor in the stacks, it runs step for step the same and
/// gives the same reach.
pub fn walk_reach_traced(
    board: &Board,
    stacks: &Stacks,
    from: Square,
    ep: Option<Square>,
    focus: Focus,
    met: &mut Bitboard,
) -> Bitboard {
    let Some(piece) = board.piece_at(from) else { return Bitboard::EMPTY };
    let by = piece.color;
    let own = stacks.get(from);
    let gains = board.by_color(by.other()) & stacks.loaded();
    let ep = ep.filter(|_| piece.role == Role::Pawn);
    let destinations = regular_destinations(board, from, piece, ep);
    let mut reach = destinations;
    if own == 0 && gains.is_empty() {
        return reach;
    }
    let ep_start = ep.filter(|&e| !board.occupied().contains(e)).map_or(Bitboard::EMPTY, Bitboard::from_square);
    let starts = if own == 0 {
        destinations & (gains | ep.map_or(Bitboard::EMPTY, Bitboard::from_square))
    } else {
        destinations
    };
    let mut walk = Walk::new(stacks, from, !(board.by_color(by).without(from)));
    let plain = starts & !gains & !ep_start;
    walk.reach_from(plain, own, gains, focus, &mut reach);
    for r in starts & !plain {
        let taken = if gains.contains(r) { r } else { Square::from_coords(r.file(), from.rank()) };
        let gain = stacks.get(taken);
        walk.reach_from(Bitboard::from_square(r), own + gain, gains.without(taken), focus, &mut reach);
    }
    *met |= walk.met;
    reach
}

/// Whether the piece of `by` on `from` could capture on `target` in its next
/// turn: with its regular move, or with the king steps its checkers (and
/// those it captures on the way) pay for. `ep` is the en passant square
/// `by` may use in that turn.
pub fn piece_threatens(board: &Board, stacks: &Stacks, from: Square, target: Square, ep: Option<Square>) -> bool {
    piece_threatens_holding(board, stacks, from, stacks.get(from), target, ep)
}

/// [`piece_threatens`] as if the piece on `from` held `own` checkers (the
/// test of a checker placement, without copying the stacks).
pub fn piece_threatens_holding(
    board: &Board,
    stacks: &Stacks,
    from: Square,
    own: u32,
    target: Square,
    ep: Option<Square>,
) -> bool {
    let Some(piece) = board.piece_at(from) else { return false };
    captures_on(board, from, piece, target)
        || walk_threatens_holding(board, stacks, from, piece, own, target, ep, &mut Bitboard(0))
}

/// Whether the regular move of `piece` on `from` captures on `target` (were
/// an enemy piece there): its own attack set, not every attacker's.
#[inline]
fn captures_on(board: &Board, from: Square, piece: Piece, target: Square) -> bool {
    let occupied = board.occupied();
    let reach = match piece.role {
        Role::Pawn => attacks::pawn_attacks(piece.color, from),
        Role::Knight => attacks::knight_attacks(from),
        Role::Bishop => attacks::bishop_attacks(from, occupied),
        Role::Rook => attacks::rook_attacks(from, occupied),
        Role::Queen => attacks::queen_attacks(from, occupied),
        Role::King => attacks::king_attacks(from),
    };
    reach.contains(target)
}

/// The walking half of [`piece_threatens`]: a regular move, then steps.
pub fn walk_threatens(board: &Board, stacks: &Stacks, from: Square, target: Square, ep: Option<Square>) -> bool {
    let Some(piece) = board.piece_at(from) else { return false };
    walk_threatens_holding(board, stacks, from, piece, stacks.get(from), target, ep, &mut Bitboard(0))
}

/// [`walk_threatens`] without en passant, adding to `met` the squares whose
/// passability it read (see [`walk_reach_traced`]).
pub fn walk_threatens_traced(board: &Board, stacks: &Stacks, from: Square, target: Square, met: &mut Bitboard) -> bool {
    let Some(piece) = board.piece_at(from) else { return false };
    walk_threatens_holding(board, stacks, from, piece, stacks.get(from), target, None, met)
}

/// [`walk_threatens`] for `piece` on `from` holding `own` checkers. The
/// stacks are read only under the other side's pieces (the checkers the
/// walker can capture), never under `from`. The squares whose passability
/// the walk read are added to `met`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn walk_threatens_holding(
    board: &Board,
    stacks: &Stacks,
    from: Square,
    piece: Piece,
    own: u32,
    target: Square,
    ep: Option<Square>,
    met: &mut Bitboard,
) -> bool {
    let by = piece.color;
    let victims = board.by_color(by.other());
    let gains = victims & stacks.loaded();
    let ep = ep.filter(|_| piece.role == Role::Pawn);
    let ep_victim = ep.map(|ep| Square::from_coords(ep.file(), from.rank()));
    if own == 0 && gains.is_empty() {
        return false;
    }
    let most = own + stacks.sum(gains);
    let destinations = regular_destinations(board, from, piece, ep) & ball(target, most);
    // A walker without checkers of its own must capture some in its regular move.
    let starts = if own == 0 {
        destinations & (gains | ep.map_or(Bitboard::EMPTY, Bitboard::from_square))
    } else {
        destinations
    };
    if starts.is_empty() {
        return false;
    }
    let mut walk = Walk::new(stacks, target, !(board.by_color(by).without(from)));
    // The starts that pick up no checkers all walk on with the walker's
    // own: one search from all of them together.
    let ep_start = ep.filter(|&e| !board.occupied().contains(e)).map_or(Bitboard::EMPTY, Bitboard::from_square);
    let plain = starts & !gains & !ep_start;
    let found = walk_on_from(&mut walk, board, stacks, starts, plain, own, gains, target, ep, ep_victim);
    *met |= walk.met;
    found
}

/// The walks of [`walk_threatens_holding`] from its `starts`, `plain`
/// those that pick up no checkers.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn walk_on_from(
    walk: &mut Walk,
    board: &Board,
    stacks: &Stacks,
    starts: Bitboard,
    plain: Bitboard,
    own: u32,
    gains: Bitboard,
    target: Square,
    ep: Option<Square>,
    ep_victim: Option<Square>,
) -> bool {
    let mut rest = starts;
    if !plain.contains(target) {
        if walk.reaches_from(plain, own, gains) {
            return true;
        }
        rest &= !plain;
    }
    for r in rest {
        let (gain, taken) = if gains.contains(r) {
            (stacks.get(r), Bitboard::from_square(r))
        } else if Some(r) == ep && !board.occupied().contains(r) {
            let victim = ep_victim.expect("set with ep");
            (stacks.get(victim), Bitboard::from_square(victim))
        } else {
            (0, Bitboard::EMPTY)
        };
        if walk.reaches(r, own + gain, gains & !taken) {
            return true;
        }
    }
    false
}

/// The regular destinations of a `role` of `by` on `from` with the board's
/// pieces on `occupied`, `by`'s own on `own` ([`regular_destinations`]
/// without en passant, on a board given by its occupancy).
pub fn destinations_on(role: Role, by: Color, from: Square, occupied: Bitboard, own: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => {
            let mut to = attacks::pawn_attacks(by, from) & occupied & !own;
            let forward = by.fold_wb(8, -8);
            if let Some(one) = from.offset(forward).filter(|s| !occupied.contains(*s)) {
                to.add(one);
                let pawn_rank = by.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh);
                if let Some(two) = one.offset(forward).filter(|s| from.rank() == pawn_rank && !occupied.contains(*s)) {
                    to.add(two);
                }
            }
            to
        }
        Role::Knight => attacks::knight_attacks(from) & !own,
        Role::Bishop => attacks::bishop_attacks(from, occupied) & !own,
        Role::Rook => attacks::rook_attacks(from, occupied) & !own,
        Role::Queen => attacks::queen_attacks(from, occupied) & !own,
        Role::King => attacks::king_attacks(from) & !own,
    }
}

/// Whether a walker with `own` checkers, having arrived by its regular
/// move on `start`, walks on to `target`: the walking half of
/// [`walk_threatens`] for one start. Its side's other pieces, on
/// `blockers`, block; it collects the stacks of `victims` (the other
/// side's pieces with checkers), that of `start` on arrival.
pub fn walk_on_reaches(
    stacks: &Stacks,
    blockers: Bitboard,
    own: u32,
    start: Square,
    victims: Bitboard,
    target: Square,
) -> bool {
    let gain = if victims.contains(start) { stacks.get(start) } else { 0 };
    Walk::new(stacks, target, !blockers).reaches(start, own + gain, victims.without(start))
}

/// Whether `target` is attacked by `by` in the extended sense: some piece of
/// `by` threatens it (see [`piece_threatens`]).
pub fn attacked(board: &Board, stacks: &Stacks, target: Square, by: Color, ep: Option<Square>) -> bool {
    if orthodox_attackers(board, target, by).any() {
        return true;
    }
    walk_attacked(board, stacks, target, by, ep)
}

/// The walking half of [`attacked`]: whether some piece of `by` reaches
/// `target` with extra steps (the orthodox attack left out). Without en
/// passant, only the walkers that could come to `target` are asked
/// ([`walkers_near`]).
pub fn walk_attacked(board: &Board, stacks: &Stacks, target: Square, by: Color, ep: Option<Square>) -> bool {
    let asked = match ep {
        None => walkers_near(board, stacks, by, target, 0),
        Some(_) => walkers(board, stacks, by, ep),
    };
    asked.into_iter().any(|from| walk_threatens(board, stacks, from, target, ep))
}

/// The squares a move of the other side must leave or enter to change
/// whether the walks of `by` reach `king` (a filter before
/// [`move_dependents`]), and the pieces of `by` that might walk there after
/// one quiet move of the other side, not by its king, both in one pass
/// over the walkers with checkers.
///
/// The squares: the lines of its pieces with checkers that could come
/// near the king (a pawn's pushes and captures; of a slider only the rays
/// that matter, see [`rays_that_matter`]), and the lines into the
/// other side's loaded pieces near enough to the king for a capturer to
/// walk on from them (a piece without checkers walks only from a capture
/// of checkers). Walkers that could not come near the king even with one
/// of the other side's pieces moved out of their way are left out: one
/// move cannot change that.
///
/// The pieces ("dangerous"): those with checkers with a regular
/// destination, after one piece moves off a square and onto another, no
/// farther from `king` than their own checkers and all of the other
/// side's could carry them. Such a move empties one square and fills
/// another, so a slider's destinations then lie on its lines with the
/// first piece on each lifted; a pawn's among its captures and pushes; a
/// knight's and king's are as now.
pub fn walk_relevance(board: &Board, stacks: &Stacks, by: Color, king: Square) -> (Bitboard, Bitboard) {
    let occupied = board.occupied();
    let victims = board.by_color(by.other());
    let gains = stacks.sum(victims & stacks.loaded());
    let mut relevant = Bitboard::EMPTY;
    let mut dangerous = Bitboard::EMPTY;
    for w in board.by_color(by) & stacks.loaded() {
        let Some(role) = board.role_at(w) else { continue };
        let lines = |occ: Bitboard| walker_lines(role, by, w, occ);
        let zone = ball(king, stacks.get(w) + gains);
        let now = lines(occupied);
        // Lifting the first piece on each line, whatever its side, opens
        // at least as much as lifting only the other side's.
        let opened_all = lines(occupied & !now);
        if ((now | opened_all) & zone).is_empty() {
            continue;
        }
        dangerous.add(w);
        relevant |= rays_that_matter(role, by, w, occupied, victims, opened_all, zone);
    }
    for v in victims & stacks.loaded() {
        if king_distance(v, king) <= gains {
            relevant |= attacks::queen_attacks(v, occupied).with(v);
        }
    }
    (relevant, dangerous)
}

/// The squares where a move of the other side (whose pieces are on
/// `victims`) can change the regular destinations inside `zone` of the
/// walker, a `role` of `by` on `w`, with its square if there are any.
///
/// A slider's are taken ray by ray: a piece put on a ray cuts only the
/// squares beyond it on that ray, and the first piece on a ray, if the
/// other side's, opens only that ray by leaving. So a ray matters when its
/// squares, or those its first piece would open, meet the zone; the rays
/// that run to the edge are taken together. Other walkers' lines (a pawn's
/// pushes and captures) matter whole when they meet the zone.
///
/// `opened_all`: the lines with the first piece on each lifted. The squares
/// one ray's piece opens are taken as those of `opened_all` on its line
/// (the ray and the one opposite): a few more, never fewer.
fn rays_that_matter(
    role: Role,
    by: Color,
    w: Square,
    occupied: Bitboard,
    victims: Bitboard,
    opened_all: Bitboard,
    zone: Bitboard,
) -> Bitboard {
    let now = walker_lines(role, by, w, occupied);
    if !matches!(role, Role::Bishop | Role::Rook | Role::Queen) {
        return if (now & zone).any() { now.with(w) } else { Bitboard::EMPTY };
    }
    let mut matter = Bitboard::EMPTY;
    let mut cut = Bitboard::EMPTY;
    for first in now & occupied {
        let ray = attacks::between(w, first).with(first);
        cut |= ray;
        let opened = if victims.contains(first) { opened_all & attacks::ray(w, first) } else { Bitboard::EMPTY };
        if ((ray | opened) & zone).any() {
            matter |= ray;
        }
    }
    let to_the_edge = now & !cut;
    if (to_the_edge & zone).any() {
        matter |= to_the_edge;
    }
    if matter.any() {
        matter.add(w);
    }
    matter
}

/// The pieces of `by` whose answer to "does my walk reach the target?" may
/// change when a piece of the other side moves off `from` onto `to`, if
/// that piece has no checkers, or its checkers move between two squares
/// farther from the target than the checkers on the board (the caller
/// checks that), and the target does not move.
///
/// Why this is exact: a piece's walk ([`walk_threatens`]) depends on the
/// other side's pieces only through
/// - its regular destinations: a slider's change only if `from` or `to`
///   is in its attack set (a square it does not see can be emptied or
///   filled without changing what it sees), a pawn's only if `from` or
///   `to` is a square it captures or pushes onto, and a knight's or king's
///   only if `to` held one of `by`'s own pieces (a capture), which it then
///   attacks: all of these are `by`'s orthodox attackers of `from` and
///   `to`, with the pawns that push there;
/// - the squares it walks over: only `by`'s own pieces block, so the other
///   side's moves matter only by removing one, on `to`, which the caller
///   rules out when `to` is too far from the target for a walk through it
///   to arrive (each step spends a checker);
/// - the checkers it can take from the other side's pieces, which stay
///   where they are (or move far away, as above);
/// - the en passant square, given only by a double step: the pawns that
///   could take it are added by the caller.
///
/// A piece of `by` captured on `to` is not among them: the caller drops it
/// from the pieces that threaten.
pub fn move_dependents(board: &Board, by: Color, from: Square, to: Square) -> Bitboard {
    let pawns = board.by_piece(by.pawn());
    let back = by.fold_wb(-8, 8);
    let pushers = |sq: Square| {
        let one = Bitboard::from_square(sq).shift(back);
        (one | one.shift(back)) & pawns
    };
    orthodox_attackers(board, from, by) | orthodox_attackers(board, to, by) | pushers(from) | pushers(to)
}

/// The pieces of `by` that could take any extra step next turn: those with
/// checkers, and those whose regular move captures a piece with checkers
/// (en passant included). Without checkers on the board there are none, and
/// the extended attack is the orthodox one.
pub fn walkers(board: &Board, stacks: &Stacks, by: Color, ep: Option<Square>) -> Bitboard {
    let loaded = stacks.loaded();
    if loaded.is_empty() {
        return Bitboard::EMPTY;
    }
    let ours = board.by_color(by);
    let mut walkers = ours & loaded;
    for victim in board.by_color(by.other()) & loaded {
        walkers |= orthodox_attackers(board, victim, by);
    }
    if let Some(ep) = ep {
        let pawn = ep.offset(by.fold_wb(-8, 8));
        if pawn.is_some_and(|p| loaded.contains(p)) {
            walkers |= attacks::pawn_attacks(by.other(), ep) & board.by_piece(by.pawn());
        }
    }
    walkers
}

/// The pieces of `by` (with `ep` none) whose walks could end within
/// `radius` king steps of `centre`, a superset found without walking: a
/// piece with checkers starts its walk on a regular destination, which is
/// on its lines ([`walker_lines`]), and walks at most its checkers and all
/// of the other side's; one without starts only from a capture of one of
/// the other side's loaded pieces, with all of their checkers at most.
/// [`walk_threatens`] and [`walk_reach`] answer "no" or nothing new for
/// any other piece of `by` and any such target.
pub fn walkers_near(board: &Board, stacks: &Stacks, by: Color, centre: Square, radius: u32) -> Bitboard {
    walkers_within(board, stacks, by, |steps| ball(centre, radius + steps))
}

/// [`walkers_near`] for the squares of `area`: the pieces of `by` whose
/// walks could end on one of them, by the same bound (a piece with
/// checkers has a line within its checkers and all of the other side's of
/// `area`; one without captures a loaded piece within all of them).
pub fn walkers_near_area(board: &Board, stacks: &Stacks, by: Color, area: Bitboard) -> Bitboard {
    walkers_within(board, stacks, by, |steps| grow(area, steps))
}

/// The bound shared by [`walkers_near`] and [`walkers_near_area`]:
/// `within(k)` is the squares from which `k` king steps reach the target
/// squares.
#[inline(always)]
fn walkers_within(board: &Board, stacks: &Stacks, by: Color, within: impl Fn(u32) -> Bitboard) -> Bitboard {
    let loaded = stacks.loaded();
    let victims = board.by_color(by.other()) & loaded;
    let gains = stacks.sum(victims);
    let occupied = board.occupied();
    let mut near = Bitboard::EMPTY;
    for w in board.by_color(by) & loaded {
        let Some(role) = board.role_at(w) else { continue };
        if (walker_lines(role, by, w, occupied) & within(stacks.get(w) + gains)).any() {
            near.add(w);
        }
    }
    for v in victims & within(gains) {
        near |= orthodox_attackers(board, v, by);
    }
    near
}

/// The eight directions of a queen's rays as (file, rank) steps, each
/// beside its opposite (`d ^ 1`): the rook's first, then the bishop's.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (-1, 1), (1, -1)];

/// The indices into [`DIRECTIONS`] of a slider's rays; `None` for the
/// pieces whose lines do not depend on the board.
fn ray_directions(role: Role) -> Option<std::ops::Range<usize>> {
    match role {
        Role::Rook => Some(0..4),
        Role::Bishop => Some(4..8),
        Role::Queen => Some(0..8),
        _ => None,
    }
}

/// [`half_ray`]'s table, made at compile time.
const HALF_RAYS: [[u64; 8]; 64] = {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let (mut f, mut r) = ((sq & 7) as i32 + df, (sq >> 3) as i32 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                rays[sq][d] |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
};

/// The squares from `sq` (left out) to the edge of the board in the
/// direction `d` of [`DIRECTIONS`], on an empty board.
#[inline(always)]
fn half_ray(sq: Square, d: usize) -> Bitboard {
    Bitboard(HALF_RAYS[sq as usize][d])
}

/// The squares on which a move of the other side (a quiet move of a piece
/// without checkers: it empties one square and fills another, neither
/// `w`) may change what the judges of the other side's moves read of the
/// walker, a `role` of `by` with checkers on `w` ([`walk_relevance`],
/// [`walkers_near`] and [`walk_reach`] to `map_radius` around `king`): its
/// lines with the other side's king lifted (`lifted`: the occupancy without
/// it), and the squares the first piece on each would open, but only on
/// the rays that can matter. `gains`: the checkers under the other side's
/// pieces (`victims`).
///
/// Those readers see a walker only through its lines and destinations
/// within `own + gains + map_radius` of the king (`map_zone`, the walkers
/// near it, and the starts of its walk), through its rays meeting
/// `own + gains` of it (`rel_zone`, [`walk_relevance`], ray by ray:
/// [`rays_that_matter`]), and, for all the rays that run to the edge
/// together, through whether one of them meets `rel_zone`. After such a
/// move, and with the other side's first pieces lifted as
/// [`walk_relevance`] does, a ray runs at most to its third piece (the
/// move may lift the first): a ray whose squares to there never meet
/// `map_zone` changes none of these,
/// unless
/// - its opposite ray opens into `rel_zone` and one of its first two
///   pieces is the other side's (then it may be taken whole by
///   [`rays_that_matter`], which reads the opened squares of the line);
/// - it runs to the edge now, or would once its only piece, not the
///   other side's, leaves, and one such ray of the walker meets
///   `rel_zone` (then they are all taken together).
///
/// Other walkers' lines (a pawn's, a knight's, a king's) do not depend on
/// the board: taken whole when they meet `map_zone`.
#[allow(clippy::too_many_arguments)]
pub fn walker_sensitive(
    role: Role,
    by: Color,
    w: Square,
    lifted: Bitboard,
    victims: Bitboard,
    king: Square,
    gains: u32,
    map_radius: u32,
    own: u32,
) -> Bitboard {
    let map_zone = ball(king, own + gains + map_radius);
    let rel_zone = ball(king, own + gains);
    let l1 = walker_lines(role, by, w, lifted);
    let occ2 = lifted & !l1;
    let l2 = walker_lines(role, by, w, occ2);
    let Some(directions) = ray_directions(role) else {
        return if (l1 & map_zone).any() { l1 | l2 } else { Bitboard::EMPTY };
    };
    let l3 = walker_lines(role, by, w, occ2 & !l2);
    let mut marked = [false; 8];
    let mut edge = [false; 8];
    let mut edge_meets = false;
    for d in directions.clone() {
        let ray = half_ray(w, d);
        marked[d] =
            (l3 & ray & map_zone).any() || ((l3 & half_ray(w, d ^ 1) & rel_zone).any() && (l2 & ray & victims).any());
        let pieces = l2 & ray & lifted;
        edge[d] = pieces.is_empty() || (!pieces.more_than_one() && !pieces.intersects(victims));
        edge_meets |= edge[d] && (ray & rel_zone).any();
    }
    let mut sensitive = Bitboard::EMPTY;
    for d in directions {
        if marked[d] || (edge_meets && edge[d]) {
            sensitive |= (l1 | l2) & half_ray(w, d);
        }
    }
    sensitive
}

/// The squares on which a move of the other side (as for
/// [`walker_sensitive`]) may change what the judges of the other side's
/// moves read of the regular destinations of a piece of `by` without
/// checkers that captures a stack of the other side (a `role` on `c`):
/// such a piece walks only from the stacks it captures (which the caller
/// keeps), and otherwise its destinations are read only by the king's map
/// ([`walk_reach`], kept to the squares it is read on, `map`). A slider's
/// destinations there lie on its rays that come to `map`, at most once
/// their first piece leaves; on such a ray only a
/// piece put before the first or the first leaving changes them. Other
/// pieces' lines do not depend on the board: taken whole when they meet
/// the map.
pub fn capturer_sensitive(role: Role, by: Color, c: Square, lifted: Bitboard, map: Bitboard) -> Bitboard {
    let l1 = walker_lines(role, by, c, lifted);
    let Some(directions) = ray_directions(role) else {
        return if (l1 & map).any() { l1 } else { Bitboard::EMPTY };
    };
    let l2 = walker_lines(role, by, c, lifted & !l1);
    let mut sensitive = Bitboard::EMPTY;
    for d in directions {
        let ray = half_ray(c, d);
        if (l2 & ray & map).any() {
            sensitive |= l1 & ray;
        }
    }
    sensitive
}

/// The squares of [`walker_lines`] whose pieces decide the regular
/// destinations of a `role` of `by` on `w` within `area`: a slider's lines
/// only on the rays that meet `area` on an empty board (on another ray no
/// destination lies in `area`, whatever stands where), other pieces'
/// lines whole.
pub fn lines_toward(role: Role, by: Color, w: Square, occupied: Bitboard, area: Bitboard) -> Bitboard {
    let lines = walker_lines(role, by, w, occupied);
    let Some(directions) = ray_directions(role) else { return lines };
    let mut toward = Bitboard::EMPTY;
    for d in directions {
        let ray = half_ray(w, d);
        if ray.intersects(area) {
            toward |= lines & ray;
        }
    }
    toward
}

/// The squares a walker (a `role` of `by` on `w` with checkers) looks
/// along or steps to with the board's pieces on `occupied`: its attacks,
/// and for a pawn the one or two squares ahead as well.
pub fn walker_lines(role: Role, by: Color, w: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Bishop => attacks::bishop_attacks(w, occupied),
        Role::Rook => attacks::rook_attacks(w, occupied),
        Role::Queen => attacks::queen_attacks(w, occupied),
        Role::Knight => attacks::knight_attacks(w),
        Role::King => attacks::king_attacks(w),
        Role::Pawn => {
            let one = Bitboard::from_square(w).shift(by.fold_wb(8, -8));
            attacks::pawn_attacks(by, w) | one | one.shift(by.fold_wb(8, -8))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balls_and_expansion_are_king_steps() {
        assert_eq!(ball(Square::A1, 1), attacks::king_attacks(Square::A1).with(Square::A1));
        assert_eq!(ball(Square::D4, 7), Bitboard::FULL);
        assert_eq!(ball(Square::A1, 7), Bitboard::FULL);
        assert_eq!(ball(Square::H8, 40), Bitboard::FULL);
        assert_eq!(
            one_step_around(Bitboard::from_square(Square::H4)),
            attacks::king_attacks(Square::H4).with(Square::H4)
        );
        assert_eq!(
            one_step_around(Bitboard::from_square(Square::A8)),
            attacks::king_attacks(Square::A8).with(Square::A8)
        );
    }
}
