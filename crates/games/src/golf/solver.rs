//! The optimal Chess Golf solver: the shortest path that solves a puzzle,
//! proven shortest, or a proof that there is none.
//!
//! It lives in the games crate, not in chesskit-ai, because the referee of
//! the round needs it to settle "impossible" answers and games may not
//! depend on the ai crate.
//!
//! # How it searches
//!
//! Iterative deepening A* (IDA*): depth-first searches with a growing move
//! budget, each exhaustive up to its budget, so the first budget that finds
//! a path proves that no shorter path exists. Three things keep it fast:
//!
//! * **Captures are counted.** Every capture is one move, so a position
//!   that still needs `r` captures needs at least `r` moves, one more when
//!   no capture is possible right now, and two more when no single move
//!   makes a capture possible (see [`Search::extra_moves`]). When the
//!   budget leaves no slack, only captures are tried.
//! * **A transposition table** remembers, for each position met (pieces by
//!   type and colour on their squares, the capturer, the cards still to
//!   capture), the least number of moves it is known to need, so positions
//!   reached by moving the same pieces in another order are searched once.
//!   Identical pieces are not told apart, so the table is canonical by type.
//! * **Small puzzles are exhausted.** When the budget keeps growing, a
//!   breadth-first search over every reachable position (capped in size)
//!   is tried: if it runs out of positions, the puzzle is proven impossible
//!   (or solved at the shortest length, as breadth-first search finds it).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::time::Instant;

use shakmaty::attacks::{between, king_attacks};
use shakmaty::{Bitboard, Color, Piece, Square};

use super::rules::{GolfMove, Puzzle};

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The shortest path.
    Solved(Vec<GolfMove>),
    /// Proven: no path solves the puzzle.
    Impossible,
    /// The node limit ran out first; `at_least` moves are needed.
    Unknown { at_least: u32 },
}

/// A solve with its statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub verdict: Verdict,
    /// Positions searched (each search node and each breadth-first position).
    pub nodes: u64,
    pub ms: f64,
}

impl Solution {
    /// The optimal length, if solved.
    pub fn length(&self) -> Option<usize> {
        match &self.verdict {
            Verdict::Solved(path) => Some(path.len()),
            _ => None,
        }
    }

    pub fn moves(&self) -> Option<&[GolfMove]> {
        match &self.verdict {
            Verdict::Solved(path) => Some(path),
            _ => None,
        }
    }
}

/// Limits and restrictions for a solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Give up (with [`Verdict::Unknown`]) after this many nodes. The
    /// default, two billion (minutes of search), is never reached by a
    /// dealt puzzle; it bounds the rare sparse puzzle that is impossible
    /// in a space too large to exhaust.
    pub max_nodes: u64,
    /// At most this many transposition-table entries (about 56 bytes each).
    pub max_table: usize,
    /// At most this many positions in an exhaustive breadth-first search.
    pub max_exhaust: usize,
    /// Only paths where a piece of this kind makes the captures (the
    /// book's "solutions that help the white king capture a black bishop").
    pub capturer: Option<Piece>,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions { max_nodes: 2_000_000_000, max_table: 6_000_000, max_exhaust: 2_000_000, capturer: None }
    }
}

/// Solve with default options: an answer, proven (or, only for
/// pathological puzzles, [`Verdict::Unknown`] after the node limit).
pub fn solve(puzzle: &Puzzle) -> Solution {
    solve_with(puzzle, &SolveOptions::default())
}

/// Solve under `options`.
pub fn solve_with(puzzle: &Puzzle, options: &SolveOptions) -> Solution {
    let start = Instant::now();
    let mut search = Search::new(options);
    let verdict = search.run(puzzle);
    Solution { verdict, nodes: search.nodes, ms: start.elapsed().as_secs_f64() * 1000.0 }
}

/// Whether two quiet moves in a row, `first` (from `parent` to `middle`)
/// then `second` (from `middle` to `after`), could be played the other way
/// round to the same end: different pieces, neither entering the other's
/// squares or crossing them, neither next to the other's starting square
/// (so no lender is gained or lost where it matters), and the special
/// move's status of the movers' colour the same all along. The search
/// plays such pairs only in one order (the move-order reduction); this
/// test may say "no" to pairs that do commute, never "yes" to pairs that
/// do not.
fn commute(parent: &Puzzle, first: GolfMove, middle: &Puzzle, second: GolfMove, after: &Puzzle) -> bool {
    let firsts = Bitboard::from_square(first.from).with(first.to);
    if firsts.contains(second.from) || second.to == first.from {
        return false;
    }
    if between(second.from, second.to).intersects(firsts)
        || between(first.from, first.to).intersects(Bitboard::from_square(second.from).with(second.to))
    {
        return false;
    }
    if king_attacks(second.from).intersects(firsts) || king_attacks(first.from).contains(second.from) {
        return false;
    }
    let color = Ctx::color_at(middle, first.to);
    if color != Ctx::color_at(middle, second.from) || !middle.special_move() {
        return true;
    }
    // Same colour: the special move must be in the same state before,
    // between and after either order.
    let status = |b: Bitboard| no_pairs(b);
    let own = |q: &Puzzle| q.board.by_color(color);
    let swapped = own(parent).without(second.from).with(second.to);
    let s = status(own(parent));
    s == status(own(middle)) && s == status(own(after)) && s == status(swapped)
}

/// Whether no two squares of `b` touch.
fn no_pairs(b: Bitboard) -> bool {
    let b = b.0;
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    b & (((b & NOT_H) << 1) | (b << 8) | ((b & NOT_H) << 9) | ((b & NOT_A) << 7)) == 0
}

/// Boards with at most this many pieces are worth exhausting.
const SPARSE: usize = 10;

/// The puzzle without the pieces of a colour that has no chosen piece
/// left, if there is such a colour. Those pieces never capture nor are
/// captured; for the other colour they are only obstacles, which block
/// slides and fill squares but lend nothing. So every path of the puzzle,
/// less their moves, is a path of the relaxation: when the relaxation is
/// impossible, so is the puzzle. Its smaller space is quicker to exhaust.
fn relaxation(p: &Puzzle) -> Option<Puzzle> {
    let mut chosen_colours = [false; 2];
    for piece in p.remaining().kinds() {
        chosen_colours[ci(piece.color)] = true;
    }
    if let Some(sq) = p.capturer() {
        chosen_colours[ci(Ctx::color_at(p, sq))] = true;
    }
    let idle = [Color::White, Color::Black].into_iter().find(|c| !chosen_colours[ci(*c)])?;
    let mut relaxed = *p;
    for sq in p.board.by_color(idle) {
        relaxed.board.take(sq);
    }
    Some(relaxed)
}

/// A position as a table key: the packed board, the capturer and the cards
/// still to capture.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    cells: [u64; 4],
    extra: u64,
}

impl Key {
    fn of(p: &Puzzle) -> Key {
        let capturer = p.capturer().map_or(64, |sq| sq.to_u32() as u64);
        Key { cells: p.board.cells(), extra: p.remaining().bits() | (capturer << 56) }
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h = self.extra.wrapping_mul(K);
        for word in self.cells {
            h = (h.rotate_left(23) ^ word).wrapping_mul(K);
        }
        // The finaliser of MurmurHash3, so the low bits depend on every bit.
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        state.write_u64(h ^ (h >> 33));
    }
}

/// Passes on the one word [`Key`] hashes to.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Table<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

struct Search<'a> {
    options: &'a SolveOptions,
    /// Least number of moves each position is known to need.
    table: Table<u8>,
    nodes: u64,
    /// Of the nodes, those of capture chains (for tracing).
    chain_nodes: u64,
    aborted: bool,
    /// Move lists, one per ply, reused.
    buffers: Vec<Vec<GolfMove>>,
}

/// What the move rules and the bounds need to know about one position,
/// computed once per search node.
struct Ctx {
    /// Whether each colour (white, black) may make the special king's move.
    no_pairs: [bool; 2],
    /// The pieces that may capture now ("hunters") and what each may capture.
    hunters: [(Square, Bitboard); 16],
    hunter_count: usize,
    /// The hunters and every piece some hunter may capture: moving one of
    /// them may make a capture possible.
    movers: Bitboard,
    /// Squares between a hunter and one of its targets on a line: vacating
    /// one may open a capture.
    between: Bitboard,
    /// Squares next to a hunter of each colour: a piece of that colour
    /// arriving there lends the hunter a new move.
    ring: [Bitboard; 2],
}

fn ci(color: Color) -> usize {
    color.fold_wb(0, 1)
}

impl Ctx {
    /// The hunters and their targets; the relevance sets are left empty
    /// until [`Ctx::with_relevance`] fills them.
    fn of(p: &Puzzle, only: Option<Piece>) -> Ctx {
        let mut ctx = Ctx {
            no_pairs: [p.king_moves_for(Color::White), p.king_moves_for(Color::Black)],
            hunters: [(Square::A1, Bitboard::EMPTY); 16],
            hunter_count: 0,
            movers: Bitboard::EMPTY,
            between: Bitboard::EMPTY,
            ring: [Bitboard::EMPTY; 2],
        };
        match p.capturer() {
            Some(sq) => {
                let targets = p.board.matching(p.remaining());
                if targets.any() {
                    ctx.hunters[0] = (sq, targets);
                    ctx.hunter_count = 1;
                }
            }
            None => {
                for kind in p.remaining().kinds() {
                    if only.is_some_and(|only| only != kind) {
                        continue;
                    }
                    let targets = p.board.matching(p.remaining().without(kind));
                    for sq in p.board.by_piece(kind) {
                        let targets = targets.without(sq);
                        if targets.any() && ctx.hunter_count < 16 {
                            ctx.hunters[ctx.hunter_count] = (sq, targets);
                            ctx.hunter_count += 1;
                        }
                    }
                }
            }
        }
        ctx
    }

    /// Fill in what [`Ctx::may_enable`] needs. The capturer stands, in
    /// turn, on a hunter's square and on the squares of the targets it
    /// takes, so lenders and blockers matter around and between all of them.
    fn with_relevance(mut self, p: &Puzzle) -> Ctx {
        let mut all = Bitboard::EMPTY;
        for i in 0..self.hunter_count {
            let (sq, targets) = self.hunters[i];
            let stands = targets.with(sq);
            all |= stands;
            let color = ci(Ctx::color_at(p, sq));
            for at in stands {
                self.ring[color] |= king_attacks(at);
            }
        }
        self.movers = all;
        let mut rest = all;
        while let Some(u) = rest.pop_front() {
            for v in rest {
                self.between |= between(u, v);
            }
        }
        self
    }

    fn hunters(&self) -> &[(Square, Bitboard)] {
        &self.hunters[..self.hunter_count]
    }

    fn reach(&self, p: &Puzzle, sq: Square, color: Color) -> Bitboard {
        p.board.reach_with(sq, color, self.no_pairs[ci(color)])
    }

    fn color_at(p: &Puzzle, sq: Square) -> Color {
        if p.board.by_color(Color::White).contains(sq) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The captures possible now.
    fn captures(&self, p: &Puzzle, out: &mut Vec<GolfMove>) {
        for &(from, targets) in self.hunters() {
            for to in self.reach(p, from, Ctx::color_at(p, from)) & targets {
                out.push(GolfMove::new(from, to));
            }
        }
    }

    fn can_capture(&self, p: &Puzzle) -> bool {
        self.hunters().iter().any(|&(from, targets)| self.reach(p, from, Ctx::color_at(p, from)).intersects(targets))
    }

    /// Whether the quiet move of the piece on `from` (of `color`) could
    /// matter to the captures that follow it: it moves a hunter or a
    /// target, vacates a square between two squares the capturer may stand
    /// on or take, arrives next to such a square (a new lender), or leaves a
    /// pair of its colour (which, with the captures, may end the last pair
    /// and start the special king's move). A quiet move that fails all of
    /// these changes nothing the captures depend on, so the captures could
    /// be made without it.
    fn may_enable(&self, p: &Puzzle, from: Square, to: Square, color: Color) -> bool {
        if self.movers.contains(from) || self.between.contains(from) || self.ring[ci(color)].contains(to) {
            return true;
        }
        p.special_move() && self.ring[ci(color)].any() && king_attacks(from).intersects(p.board.by_color(color))
    }
}

impl<'a> Search<'a> {
    fn new(options: &'a SolveOptions) -> Search<'a> {
        Search { options, table: Table::default(), nodes: 0, chain_nodes: 0, aborted: false, buffers: Vec::new() }
    }

    fn ctx(&self, p: &Puzzle) -> Ctx {
        Ctx::of(p, if p.capturer().is_none() { self.options.capturer } else { None })
    }

    fn run(&mut self, root: &Puzzle) -> Verdict {
        if root.is_solved() {
            return Verdict::Solved(Vec::new());
        }
        if self.ctx(root).hunter_count == 0 && root.capturer().is_none() {
            return Verdict::Impossible;
        }
        let mut bound = root.captures_needed() + self.extra_moves(root, &self.ctx(root).with_relevance(root), 2);
        let (mut exhaust_nodes, mut exhaust_bound) = (50_000u64, bound + 6);
        loop {
            let mut path = Vec::new();
            if self.dfs(root, bound, 0, &mut path, None) {
                path.reverse();
                return Verdict::Solved(path);
            }
            if self.aborted {
                return Verdict::Unknown { at_least: bound };
            }
            if std::env::var_os("GOLF_TRACE").is_some() {
                eprintln!(
                    "bound {bound}: {} nodes ({} in capture chains), table {}",
                    self.nodes,
                    self.chain_nodes,
                    self.table.len()
                );
            }
            if self.nodes >= exhaust_nodes || bound >= exhaust_bound {
                // Spend on the exhaustive search about what the deepening
                // has spent so far, so neither costs much more than the
                // other; a small puzzle is exhausted quickly.
                let work = self.nodes.max(200_000);
                exhaust_nodes = self.nodes.saturating_mul(4);
                exhaust_bound = bound + 2 * (exhaust_bound - bound).max(6);
                // Only sparse boards can be exhausted; a full board's
                // reachable positions are far too many.
                if let Some(relaxed) = relaxation(root).filter(|r| r.board.occupied().count() <= SPARSE) {
                    if self.exhaust(&relaxed, work) == Some(Verdict::Impossible) {
                        return Verdict::Impossible;
                    }
                }
                if root.board.occupied().count() <= SPARSE {
                    if let Some(verdict) = self.exhaust(root, work) {
                        return verdict;
                    }
                }
            }
            bound += 1;
            if bound > 250 {
                // The table stores lengths in a byte; no real puzzle gets here.
                return self.exhaust(root, u64::MAX).unwrap_or(Verdict::Unknown { at_least: bound });
            }
        }
    }

    /// Every move, captures first.
    fn all_moves(&self, p: &Puzzle, ctx: &Ctx, out: &mut Vec<GolfMove>) {
        ctx.captures(p, out);
        let empty = !p.board.occupied();
        for color in [Color::White, Color::Black] {
            for from in p.board.by_color(color) {
                for to in ctx.reach(p, from, color) & empty {
                    out.push(GolfMove::new(from, to));
                }
            }
        }
    }

    /// Captures, then only the quiet moves that may make a capture possible.
    fn enabling_moves(&self, p: &Puzzle, ctx: &Ctx, out: &mut Vec<GolfMove>) {
        ctx.captures(p, out);
        let empty = !p.board.occupied();
        for color in [Color::White, Color::Black] {
            for from in p.board.by_color(color) {
                for to in ctx.reach(p, from, color) & empty {
                    if ctx.may_enable(p, from, to, color) {
                        out.push(GolfMove::new(from, to));
                    }
                }
            }
        }
    }

    /// A lower bound on the moves besides the captures, up to `cap`: 0 if
    /// a capture is possible now, 1 if one quiet move makes one possible,
    /// else 2.
    fn extra_moves(&self, p: &Puzzle, ctx: &Ctx, cap: u32) -> u32 {
        if p.captures_needed() == 0 || ctx.can_capture(p) {
            return 0;
        }
        if cap <= 1 {
            return 1;
        }
        let empty = !p.board.occupied();
        for color in [Color::White, Color::Black] {
            for from in p.board.by_color(color) {
                for to in ctx.reach(p, from, color) & empty {
                    if !ctx.may_enable(p, from, to, color) {
                        continue;
                    }
                    let mut child = *p;
                    child.play_unchecked(GolfMove::new(from, to));
                    if self.ctx(&child).can_capture(&child) {
                        return 1;
                    }
                }
            }
        }
        2
    }

    /// Only captures, exactly `r` of them: the search when the budget has
    /// no slack.
    fn capture_chain(&mut self, p: &Puzzle, ply: usize, path: &mut Vec<GolfMove>) -> bool {
        self.nodes += 1;
        self.chain_nodes += 1;
        chesskit_core::pace::breathe();
        if p.is_solved() {
            return true;
        }
        let ctx = self.ctx(p);
        let mut moves = self.take_buffer(ply);
        ctx.captures(p, &mut moves);
        let mut found = false;
        for &m in &moves {
            let mut child = *p;
            child.play_unchecked(m);
            if self.capture_chain(&child, ply + 1, path) {
                path.push(m);
                found = true;
                break;
            }
        }
        self.buffers[ply] = moves;
        found
    }

    fn take_buffer(&mut self, ply: usize) -> Vec<GolfMove> {
        while self.buffers.len() <= ply {
            self.buffers.push(Vec::with_capacity(256));
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        moves
    }

    /// Is there a path of at most `budget` moves? On success the path is
    /// pushed onto `path` last move first. `prev` is the quiet move that
    /// led here from `parent`, for the move-order reduction.
    fn dfs(
        &mut self,
        p: &Puzzle,
        budget: u32,
        ply: usize,
        path: &mut Vec<GolfMove>,
        prev: Option<(GolfMove, &Puzzle)>,
    ) -> bool {
        if p.is_solved() {
            return true;
        }
        let r = p.captures_needed();
        if budget < r {
            return false;
        }
        if budget == r {
            return self.capture_chain(p, ply, path);
        }
        self.nodes += 1;
        chesskit_core::pace::breathe();
        if self.nodes > self.options.max_nodes {
            self.aborted = true;
            return false;
        }
        let key = Key::of(p);
        if let Some(&known) = self.table.get(&key) {
            if known as u32 > budget {
                return false;
            }
        }
        let slack = budget - r;
        let ctx = self.ctx(p);
        let mut found = false;
        let mut skipped = false;
        {
            let mut moves = self.take_buffer(ply);
            if slack == 1 {
                // The one quiet move left must make the next capture possible.
                self.enabling_moves(p, &ctx.with_relevance(p), &mut moves);
            } else {
                self.all_moves(p, &ctx, &mut moves);
            }
            let occupied = p.board.occupied();
            for &m in &moves {
                let quiet = !occupied.contains(m.to);
                let mut child = *p;
                child.play_unchecked(m);
                if quiet {
                    if let Some((before, parent)) = prev {
                        if m < before && commute(parent, before, p, m, &child) {
                            skipped = true;
                            continue;
                        }
                    }
                }
                let next = if quiet { Some((m, p)) } else { None };
                if self.dfs(&child, budget - 1, ply + 1, path, next) {
                    path.push(m);
                    found = true;
                    break;
                }
                if self.aborted {
                    break;
                }
            }
            self.buffers[ply] = moves;
        }
        // A search that skipped moves proved less than "no path within the
        // budget", so it is not remembered.
        if !found && !skipped && !self.aborted && self.table.len() < self.options.max_table {
            let entry = self.table.entry(key).or_insert(0);
            *entry = (*entry).max((budget + 1).min(255) as u8);
        }
        found
    }

    /// Breadth-first search over every reachable position, up to the cap:
    /// `Some` verdict if it finishes (shortest path or impossible).
    fn exhaust(&mut self, root: &Puzzle, work: u64) -> Option<Verdict> {
        let mut spent = 0u64;
        let mut seen: Table<u32> = Table::default();
        // Each entry: position, parent index, move from the parent.
        let mut states: Vec<(Puzzle, u32, GolfMove)> = Vec::new();
        let null = GolfMove::new(Square::A1, Square::A1);
        seen.insert(Key::of(root), 0);
        states.push((*root, u32::MAX, null));
        let mut head = 0usize;
        let mut moves = Vec::new();
        while head < states.len() {
            let (p, _, _) = states[head];
            self.nodes += 1;
            chesskit_core::pace::breathe();
            if self.nodes > self.options.max_nodes {
                self.aborted = true;
                return None;
            }
            moves.clear();
            self.all_moves(&p, &self.ctx(&p), &mut moves);
            spent += moves.len() as u64 + 1;
            if spent > work || states.len() + moves.len() > self.options.max_exhaust {
                return None;
            }
            for &m in &moves {
                let mut child = p;
                child.play_unchecked(m);
                let key = Key::of(&child);
                if seen.contains_key(&key) {
                    continue;
                }
                seen.insert(key, states.len() as u32);
                states.push((child, head as u32, m));
                if child.is_solved() {
                    let mut path = Vec::new();
                    let mut at = states.len() - 1;
                    while states[at].1 != u32::MAX {
                        path.push(states[at].2);
                        at = states[at].1 as usize;
                    }
                    path.reverse();
                    return Some(Verdict::Solved(path));
                }
            }
            head += 1;
        }
        Some(Verdict::Impossible)
    }
}
