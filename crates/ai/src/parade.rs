//! The Parade Chess Solitaire solver behind `chesskit solve parade`: the
//! best score of a deal when the order of the hand is known.
//!
//! Every action spends one card, and the score only falls as cards are
//! spent (the cards left, then minus the negative cards), so the best score
//! is reached by the fewest actions to one connected group. The solver:
//!
//! 1. finds a good sequence fast with a beam search (widened while time
//!    allows), which is the incumbent;
//! 2. proves it with iterative deepening (IDA*): each depth below the
//!    incumbent is searched exhaustively, with a lower bound on the actions
//!    still needed and a transposition table of positions already shown
//!    not to form up within the actions left. When every shorter depth
//!    fails, the incumbent is proven best.
//!
//! The lower bound: an order moves one piece, which can join at most four
//! groups around its new square (and leaves its old group one piece
//! smaller), so it lowers the number of groups by at most 4; an added piece
//! lands after the last piece with a gap before it and nothing above or to
//! its right, so it touches at most one piece and never joins groups. From
//! `g` groups at least `ceil((g - 1) / 4)` actions remain.
//!
//! It lives here, not in the game module, because it needs only the public
//! board rules (`chesskit_games::parade::rules`) and the game's accessors.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chesskit_core::cards::Card;
use chesskit_core::rng::GameRng;
use chesskit_games::parade::rules::{carry_out, for_each_order, groups, spread};
use chesskit_games::parade::{next_square, officer, Order, ParadeAction, ParadeGame, NEGATIVE_CARDS};
use shakmaty::Board;

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best score found; `-16` when no sequence forms up.
    pub score: i64,
    /// The actions that reach it, from the position given (empty if none).
    pub actions: Vec<ParadeAction>,
    /// Whether no better score exists (every shorter sequence was searched).
    pub proven: bool,
    /// Search nodes visited.
    pub nodes: u64,
}

/// Progress reports while solving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The depth being proven impossible (actions), if proving.
    pub depth: Option<usize>,
    /// The best score so far, if any sequence forms up.
    pub best: Option<i64>,
    pub nodes: u64,
}

/// How long to search and whom to tell.
pub struct SolveOptions<'a> {
    pub time_limit: Duration,
    /// Search nodes to visit at most, besides the time: a bound that stops
    /// at the same place on every machine, however loaded. The beam
    /// searches get a quarter of it, as they get a quarter of the time.
    pub node_limit: Option<u64>,
    /// Called now and then (every few thousand nodes and at each depth).
    pub progress: Option<&'a dyn Fn(Progress)>,
    /// Positions the transposition table holds before it is cleared.
    pub table_limit: usize,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions { time_limit: Duration::from_secs(10), node_limit: None, progress: None, table_limit: 2_000_000 }
    }
}

/// The deal as the solver sees it: the hand's order known.
struct Problem {
    hand: Vec<Card>,
    /// Cards spent on the negative count before the search starts.
    negative: Option<u32>,
}

impl Problem {
    /// The most actions a game can still take: the hand, then the 16 negative cards.
    fn max_actions(&self) -> usize {
        match self.negative {
            None => self.hand.len() + NEGATIVE_CARDS as usize,
            Some(spent) => (NEGATIVE_CARDS - spent.min(NEGATIVE_CARDS)) as usize,
        }
    }

    /// The score after `actions` actions when the group has formed.
    fn score(&self, actions: usize) -> i64 {
        match self.negative {
            None if actions <= self.hand.len() => (self.hand.len() - actions) as i64,
            None => -((actions - self.hand.len()) as i64),
            Some(spent) => -(i64::from(spent) + actions as i64),
        }
    }

    /// The card an add turns up after `done` actions, if adding is allowed then.
    fn add_card(&self, done: usize) -> Option<Card> {
        match self.negative {
            None => self.hand.get(done).copied(),
            Some(_) => None,
        }
    }
}

/// The actions still needed at least, from the number of groups.
fn lower_bound(board: &Board) -> usize {
    let g = groups(board.occupied()) as usize;
    g.saturating_sub(1).div_ceil(4)
}

/// The board after adding `card` (unchanged when the piece does not fit).
fn added(board: &Board, card: Card) -> Board {
    let mut next = board.clone();
    if let Ok(piece) = officer(card) {
        if let Some(square) = next_square(board, piece.role) {
            next.set_piece_at(square, piece);
        }
    }
    next
}

/// The children of a position: every order, then add when allowed.
fn children(problem: &Problem, board: &Board, done: usize, out: &mut Vec<(ParadeAction, Board)>) {
    out.clear();
    for_each_order(board, |order: Order| {
        let mut next = board.clone();
        carry_out(&mut next, order);
        out.push((ParadeAction::Order(order), next));
    });
    if let Some(card) = problem.add_card(done) {
        out.push((ParadeAction::Add, added(board, card)));
    }
}

/// A position: the board (kings are the occupied squares of no other role)
/// and the actions done, which fix the next card and the score.
type Key = ([u64; 6], u8);

fn key(board: &Board, done: usize) -> Key {
    (
        [board.occupied().0, board.white().0, board.knights().0, board.bishops().0, board.rooks().0, board.queens().0],
        done as u8,
    )
}

/// Where a stage of the search stops: a moment, and perhaps a node count.
#[derive(Clone, Copy)]
struct Stop {
    /// None when the time limit is out of reach (`Duration::MAX`).
    deadline: Option<Instant>,
    nodes: Option<u64>,
}

impl Stop {
    fn reached(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|most| nodes >= most) || self.deadline.is_some_and(|at| Instant::now() >= at)
    }
}

/// Solve the deal of `game` from where it stands.
pub fn solve(game: &ParadeGame, options: &SolveOptions) -> Solution {
    let start = Instant::now();
    let stop = Stop { deadline: start.checked_add(options.time_limit), nodes: options.node_limit };
    let problem = Problem { hand: game.hand().to_vec(), negative: game.negative() };
    let board = game.board().clone();
    if groups(board.occupied()) <= 1 {
        return Solution { score: problem.score(0), actions: Vec::new(), proven: true, nodes: 0 };
    }
    let report = |p: Progress| {
        if let Some(f) = options.progress {
            f(p)
        }
    };
    let mut nodes = 0u64;
    // 1. The incumbent: beam searches, wider while time allows (a quarter of it at most).
    let mut best: Option<Vec<ParadeAction>> = None;
    let beam_stop =
        Stop { deadline: start.checked_add(options.time_limit / 4), nodes: options.node_limit.map(|most| most / 4) };
    let mut width = 64;
    let mut rng = GameRng::from_seed(0);
    while !beam_stop.reached(nodes) && width <= 1 << 15 {
        let limit = best.as_ref().map_or(problem.max_actions(), |b| b.len().saturating_sub(1));
        if let Some(path) = beam(&problem, &board, width, limit, &mut rng, &mut nodes, beam_stop) {
            if best.as_ref().is_none_or(|b| path.len() < b.len()) {
                best = Some(path);
            }
        }
        report(Progress { depth: None, best: best.as_ref().map(|b| problem.score(b.len())), nodes });
        width *= 2;
    }
    // 2. The proof: every depth below the incumbent, shortest first.
    let mut search = Search {
        problem: &problem,
        table: HashMap::new(),
        table_limit: options.table_limit,
        nodes,
        stop,
        timed_out: false,
        path: Vec::new(),
        report: &report,
        best_score: best.as_ref().map(|b| problem.score(b.len())),
    };
    let ceiling = best.as_ref().map_or(problem.max_actions(), |b| b.len() - 1);
    let mut proven = true;
    let mut depth = lower_bound(&board).max(1);
    while depth <= ceiling {
        (search.report)(Progress { depth: Some(depth), best: search.best_score, nodes: search.nodes });
        if search.dfs(&board, 0, depth) {
            best = Some(search.path.clone());
            break;
        }
        if search.timed_out {
            proven = false;
            break;
        }
        depth += 1;
    }
    let nodes = search.nodes;
    match best {
        Some(actions) => Solution { score: problem.score(actions.len()), actions, proven, nodes },
        None => Solution { score: -i64::from(NEGATIVE_CARDS), actions: Vec::new(), proven, nodes },
    }
}

struct Search<'a> {
    problem: &'a Problem,
    /// Positions (board, actions done) shown not to form up within this many actions.
    table: HashMap<Key, u8>,
    table_limit: usize,
    nodes: u64,
    stop: Stop,
    /// Time or nodes ran out.
    timed_out: bool,
    /// The actions from the root to the solution, once found.
    path: Vec<ParadeAction>,
    report: &'a dyn Fn(Progress),
    best_score: Option<i64>,
}

impl Search<'_> {
    /// Whether the group can be formed within `depth - done` more actions;
    /// on success `path` holds the actions (in order).
    fn dfs(&mut self, board: &Board, done: usize, depth: usize) -> bool {
        self.nodes += 1;
        chesskit_core::pace::breathe();
        if self.nodes.is_multiple_of(4096) {
            if self.stop.reached(self.nodes) {
                self.timed_out = true;
            }
            if self.nodes.is_multiple_of(1 << 20) {
                (self.report)(Progress { depth: Some(depth), best: self.best_score, nodes: self.nodes });
            }
        }
        if self.timed_out {
            return false;
        }
        let left = depth - done;
        let k = key(board, done);
        if self.table.get(&k).is_some_and(|&known| usize::from(known) >= left) {
            return false;
        }
        let mut kids = Vec::new();
        children(self.problem, board, done, &mut kids);
        // Fewest groups first: the solution, when there is one, is found early.
        let mut scored: Vec<(usize, ParadeAction, Board)> =
            kids.into_iter().map(|(a, b)| (groups(b.occupied()) as usize, a, b)).collect();
        scored.sort_by_key(|(g, _, _)| *g);
        for (g, action, next) in scored {
            if g <= 1 {
                self.path = vec![action];
                return true;
            }
            if left <= 1 || (g - 1).div_ceil(4) > left - 1 {
                // Sorted by groups: no later child does better.
                break;
            }
            if self.dfs(&next, done + 1, depth) {
                self.path.insert(0, action);
                return true;
            }
            if self.timed_out {
                return false;
            }
        }
        if self.table.len() >= self.table_limit {
            self.table.clear();
        }
        self.table.insert(k, left as u8);
        false
    }
}

/// A beam search: keep the `width` most promising positions at each step
/// (fewest groups, then the most compact), until one forms up within `limit`
/// actions. Returns the actions.
fn beam(
    problem: &Problem,
    root: &Board,
    width: usize,
    limit: usize,
    rng: &mut GameRng,
    nodes: &mut u64,
    stop: Stop,
) -> Option<Vec<ParadeAction>> {
    // Each layer: (board, index of parent in the previous layer, action).
    let mut layers: Vec<Vec<(Board, usize, Option<ParadeAction>)>> = vec![vec![(root.clone(), 0, None)]];
    let mut kids = Vec::new();
    for done in 0..limit {
        if stop.reached(*nodes) {
            return None;
        }
        let mut next: Vec<(u64, Board, usize, ParadeAction)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (parent, (board, _, _)) in layers[done].iter().enumerate() {
            children(problem, board, done, &mut kids);
            for (action, child) in kids.drain(..) {
                *nodes += 1;
                chesskit_core::pace::breathe();
                let g = groups(child.occupied());
                if g <= 1 {
                    let mut path = vec![action];
                    let mut index = parent;
                    for layer in (1..=done).rev() {
                        let (_, up, a) = &layers[layer][index];
                        path.push(a.expect("every layer after the root has actions"));
                        index = *up;
                    }
                    path.reverse();
                    return Some(path);
                }
                if seen.insert(key(&child, done + 1)) {
                    let rank = (u64::from(g) << 40) | (spread(child.occupied()) << 20) | (rng.next_u64() & 0xF_FFFF);
                    next.push((rank, child, parent, action));
                }
            }
        }
        next.sort_unstable_by_key(|(rank, ..)| *rank);
        next.truncate(width);
        if next.is_empty() {
            return None;
        }
        layers.push(next.into_iter().map(|(_, b, p, a)| (b, p, Some(a))).collect());
    }
    None
}

/// Replay `actions` on `game` (a check that the solver's answer is a legal
/// game reaching its score).
pub fn replay(game: &ParadeGame, actions: &[ParadeAction]) -> Result<i64, String> {
    use chesskit_core::game::Game;
    let mut game = game.clone();
    for (i, action) in actions.iter().enumerate() {
        game.apply(0, action).map_err(|e| format!("action {} ({action}): {e}", i + 1))?;
    }
    match game.outcome() {
        Some(outcome) => Ok(outcome.scores.map_or(0, |s| s[0])),
        None => Err("the actions do not end the game".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesskit_core::game::Game;
    use chesskit_core::Options;

    const CARDS: &str = "discard: 9h 10h ks 10s 8s 8h 10c 9s";

    fn position(board_rank_1: &str, hand: &str, extra: &str) -> ParadeGame {
        let text = format!("{}{board_rank_1}\nhand: {hand}\n{CARDS}\n{extra}", ". . . . . . . .\n".repeat(7));
        ParadeGame::from_position(&text, &Options::new(), 0).unwrap()
    }

    /// A search bounded by nodes alone, so that it ends at the same place
    /// on any machine: the time limit is out of reach. The deal of seed 8
    /// takes the most (28,344 nodes with a bound of 100 million, most of
    /// them the beam searches' quarter); the bound leaves room.
    fn quick() -> SolveOptions<'static> {
        SolveOptions { time_limit: Duration::MAX, node_limit: Some(QUICK_NODES), ..SolveOptions::default() }
    }

    const QUICK_NODES: u64 = 1_000_000;

    #[test]
    fn one_order_away_scores_seven_proven() {
        let game = position(". . R r . . . B", "8d qs 10d 9c 9d 8c qh kh", "");
        let solution = solve(&game, &quick());
        assert_eq!((solution.score, solution.proven), (7, true));
        assert_eq!(replay(&game, &solution.actions), Ok(7));
    }

    #[test]
    fn the_negative_continuation_is_searched_too() {
        // No card left and 3 negative cards spent: one order forms the group.
        let game = position(". . R r . . . B", "", "face down: 8d qs 10d 9c 9d 8c qh kh\nnegative: 3");
        let solution = solve(&game, &quick());
        assert_eq!((solution.score, solution.proven), (-4, true), "one more negative card after 3");
        assert_eq!(replay(&game, &solution.actions), Ok(-4));
    }

    #[test]
    fn a_deal_is_solved_proven_and_the_answer_replays() {
        let game = ParadeGame::new(&Options::new(), 8).unwrap();
        let solution = solve(&game, &quick());
        assert!(solution.proven);
        assert_eq!(solution.score, 5, "seed 8 (the benchmark's table)");
        assert_eq!(replay(&game, &solution.actions), Ok(5));
    }

    #[test]
    fn a_node_limit_stops_the_search_at_the_same_place_every_time() {
        let game = ParadeGame::new(&Options::new(), 8).unwrap();
        let options = SolveOptions { time_limit: Duration::MAX, node_limit: Some(2_000), ..SolveOptions::default() };
        let first = solve(&game, &options);
        assert_eq!(first, solve(&game, &options), "bounded by nodes, the search does not depend on the clock");
        let unbounded = solve(&game, &quick());
        assert!(first.nodes < unbounded.nodes, "{} nodes, as many as with no bound", first.nodes);
    }

    #[test]
    fn no_order_possible_is_proven_at_minus_sixteen() {
        // Two white pieces and no card to add: nothing can ever join them.
        let game = position(". . R . . . . B", "", "face down: 8d qs 10d 9c 9d 8c qh kh\nnegative: 3");
        let solution = solve(&game, &quick());
        assert_eq!((solution.score, solution.proven, solution.actions.len()), (-16, true, 0));
    }
}
