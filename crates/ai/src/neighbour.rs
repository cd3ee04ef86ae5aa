//! The solver of Neighbour Chess Solitaire behind `chesskit solve
//! neighbour`: the best score for a deal, knowing the order of both decks.
//!
//! It lives here, not in the game module: it needs only the game's public
//! rule functions (`chesskit_games::neighbour::rules`) and the decks of a
//! game (`pieces_to_come`, `positions_to_come`), and the referee never
//! needs it.
//!
//! The score is the cards left, so the best line is the one that spends
//! the fewest cards: 2 for each piece added (one card of each deck), 1 for
//! each move. The search is iterative deepening on that cost: every line
//! costing 0, then 1, 2, ... cards is tried, so the first winning line
//! found is the best one, and it is proven best. Within a cost bound the
//! adding part branches on stopping or adding (and on the landing square
//! when a target is taken); the moving part is a depth-first search of
//! borrowed moves with a transposition table of the boards already shown
//! to need more than the budget left. Before the proof starts, a quick
//! greedy search finds a good line, so that a search cut short by
//! `--seconds` still reports the best line found, and the bound the proof
//! reached ("no line keeps more than N cards").

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chesskit_core::cards::Card;
use chesskit_core::rng::GameRng;
use chesskit_games::neighbour::rules::{
    dilate, each_move, groups, held_square, is_one_group, landing_squares, moves, target_square,
};
use chesskit_games::neighbour::{NeighbourAction, NeighbourGame, Phase};
use shakmaty::{Board, Square};

/// How long to search and whom to tell how far it got.
pub struct SolveOptions<'a> {
    /// Stop the search after this long and report the best line found.
    pub time_limit: Duration,
    /// Called now and then with the progress so far.
    pub progress: Option<&'a mut dyn FnMut(&Progress)>,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions { time_limit: Duration::from_secs(10), progress: None }
    }
}

/// How far the search got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Every line spending fewer cards than this has been ruled out.
    pub cost_bound: usize,
    /// The best score found so far, if any line wins.
    pub best: Option<usize>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The answer for a deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best score found (cards left when the group forms), or `None`
    /// when no winning line was found.
    pub score: Option<usize>,
    /// The actions of the best line, from the game's current state.
    pub actions: Vec<NeighbourAction>,
    /// Whether the score is proven the best possible (or, with no score,
    /// no line wins at all).
    pub proven: bool,
    /// No line keeps more cards than this (the proof's bound).
    pub upper_bound: usize,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The state the search plans from.
#[derive(Clone)]
struct Start {
    board: Board,
    phase: Phase,
    last: Option<Square>,
    /// Cards of each deck still to come, next first.
    pieces: Vec<Card>,
    positions: Vec<Card>,
    /// The target of the piece waiting to be placed (placing phase).
    target: Option<Square>,
    /// The piece waiting to be placed (placing phase).
    placing: Option<shakmaty::Piece>,
    cards_left: usize,
}

impl Start {
    fn of(game: &NeighbourGame) -> Start {
        Start {
            board: game.board().clone(),
            phase: game.phase(),
            last: game.last_added(),
            pieces: game.pieces_to_come(),
            positions: game.positions_to_come(),
            target: game.placing_target(),
            placing: game.placing_piece(),
            cards_left: game.cards_left(),
        }
    }
}

struct Stop;

/// The most boards the transposition table holds (about 200 bytes each)
/// before it starts again empty.
const MAX_TABLE: usize = 4_000_000;

struct Search<'a, 'b> {
    start: Start,
    /// Boards of the moving part shown to need more than this many moves.
    failed: HashMap<Board, usize>,
    nodes: u64,
    began: Instant,
    deadline: Instant,
    line: Vec<NeighbourAction>,
    best: Option<(usize, Vec<NeighbourAction>)>,
    cost_bound: usize,
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'b)>,
}

/// The best score for `game` from where it stands.
pub fn solve(game: &NeighbourGame, options: SolveOptions) -> Solution {
    let began = Instant::now();
    let start = Start::of(game);
    let mut search = Search {
        failed: HashMap::new(),
        nodes: 0,
        began,
        deadline: began + options.time_limit,
        line: Vec::new(),
        best: None,
        cost_bound: 0,
        progress: options.progress,
        start,
    };
    if let Some(outcome) = game.outcome() {
        let won = !outcome.winners.is_empty();
        let score = outcome.scores.as_ref().map_or(0, |s| s[0].max(0) as usize);
        return Solution {
            score: won.then_some(score),
            actions: Vec::new(),
            proven: true,
            upper_bound: score,
            nodes: 0,
            elapsed: began.elapsed(),
        };
    }
    search.greedy(began + options.time_limit / 4);
    let proven = search.prove().is_ok();
    let cards = search.start.cards_left;
    let (score, actions) = match search.best.take() {
        Some((score, actions)) => (Some(score), actions),
        None => (None, Vec::new()),
    };
    let upper_bound = if proven { score.unwrap_or(0) } else { cards.saturating_sub(search.cost_bound) };
    Solution { score, actions, proven, upper_bound, nodes: search.nodes, elapsed: began.elapsed() }
}

/// A board with one piece moved.
fn moved(board: &Board, from: Square, to: Square) -> Board {
    let mut next = board.clone();
    let piece = next.remove_piece_at(from).expect("a move starts on a piece");
    next.set_piece_at(to, piece);
    next
}

/// How far the pieces are from forming a group: the number of groups,
/// then the sum over groups of how many squares lie between the group and
/// its nearest other piece.
fn spread(board: &Board) -> (usize, u32) {
    let occupied = board.occupied();
    let groups = chesskit_games::connection::groups_of(occupied, dilate);
    let mut gaps = 0;
    for &group in &groups {
        let others = occupied & !group;
        let mut reach = group;
        let mut gap = 0;
        while others.any() && !(dilate(reach) & others).any() && gap < 8 {
            reach = dilate(reach);
            gap += 1;
        }
        gaps += gap;
    }
    let count = groups.len();
    (count, gaps)
}

impl Search<'_, '_> {
    fn tick(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            if Instant::now() >= self.deadline {
                return Err(Stop);
            }
            if self.nodes.is_multiple_of(1 << 18) {
                self.report();
            }
        }
        Ok(())
    }

    fn report(&mut self) {
        let progress = Progress {
            cost_bound: self.cost_bound,
            best: self.best.as_ref().map(|b| b.0),
            nodes: self.nodes,
            elapsed: self.began.elapsed(),
        };
        if let Some(report) = self.progress.as_mut() {
            report(&progress);
        }
    }

    fn found(&mut self, cost: usize) {
        let score = self.start.cards_left - cost;
        if self.best.as_ref().is_none_or(|(best, _)| score > *best) {
            self.best = Some((score, self.line.clone()));
        }
    }

    /// The proof: every cost bound from 0 up, until a line wins within it
    /// (the best) or no line can win at all.
    fn prove(&mut self) -> Result<(), Stop> {
        let most = self.start.cards_left;
        for bound in 0..=most {
            if let Some((best, _)) = &self.best {
                if self.start.cards_left - bound <= *best {
                    return Ok(());
                }
            }
            self.cost_bound = bound;
            self.report();
            let start = self.start.clone();
            if self.adding(&start.board, start.phase, start.last, 0, 0, bound)? {
                return Ok(());
            }
        }
        self.cost_bound = most + 1;
        Ok(())
    }

    /// The adding part, `added` pieces after the start, `spent` cards so far.
    /// True when a line within `bound` wins (it is recorded).
    fn adding(
        &mut self,
        board: &Board,
        phase: Phase,
        last: Option<Square>,
        added: usize,
        spent: usize,
        bound: usize,
    ) -> Result<bool, Stop> {
        self.tick()?;
        if phase != Phase::Placing && is_one_group(board.occupied()) {
            self.found(spent);
            return Ok(true);
        }
        match phase {
            Phase::Moving => return self.moving(board, spent, bound),
            Phase::Placing => {
                let target = self.start.target.expect("placing has a target");
                let piece = self.start.placing.expect("placing has a piece");
                for sq in landing_squares(board.occupied(), target) {
                    let mut next = board.clone();
                    next.set_piece_at(sq, piece);
                    self.line.push(NeighbourAction::Place(sq));
                    let won = self.adding(&next, Phase::Adding, Some(sq), added, spent, bound)?;
                    self.line.pop();
                    if won {
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            Phase::Adding => {}
        }
        if board.occupied().count() >= 2 && spent < bound {
            self.line.push(NeighbourAction::Stop);
            let won = self.moving(board, spent, bound)?;
            self.line.pop();
            if won {
                return Ok(true);
            }
        }
        if added < self.start.pieces.len() && spent + 2 <= bound {
            let piece = self.start.pieces[added].piece().expect("piece cards");
            let target = target_square(held_square(last), self.start.positions[added]);
            let landing = landing_squares(board.occupied(), target);
            self.line.push(NeighbourAction::Add);
            for sq in landing {
                let mut next = board.clone();
                next.set_piece_at(sq, piece);
                let chosen = landing.count() > 1;
                if chosen {
                    self.line.push(NeighbourAction::Place(sq));
                }
                let won = self.adding(&next, Phase::Adding, Some(sq), added + 1, spent + 2, bound)?;
                if chosen {
                    self.line.pop();
                }
                if won {
                    self.line.pop();
                    return Ok(true);
                }
            }
            self.line.pop();
        }
        Ok(false)
    }

    /// The moving part: a line of at most `bound - spent` moves that forms one group.
    fn moving(&mut self, board: &Board, spent: usize, bound: usize) -> Result<bool, Stop> {
        self.tick()?;
        if is_one_group(board.occupied()) {
            self.found(spent);
            return Ok(true);
        }
        let budget = bound - spent;
        // One move merges at most four groups into the moved piece's: the
        // eight squares around its landing square hold at most four
        // groups, as squares next to each other around it touch.
        let needed = (groups(board.occupied()) - 1).div_ceil(4);
        if budget < needed || self.failed.get(board).is_some_and(|&b| b >= budget) {
            return Ok(false);
        }
        for (from, to) in each_move(board) {
            let next = moved(board, from, to);
            self.line.push(NeighbourAction::Move { from, to });
            let won = self.moving(&next, spent + 1, bound)?;
            self.line.pop();
            if won {
                return Ok(true);
            }
        }
        if self.failed.len() >= MAX_TABLE {
            self.failed.clear();
        }
        self.failed.insert(board.clone(), budget);
        Ok(false)
    }

    /// A quick line to start from: for every number of pieces to add (first
    /// landing square each time), moves chosen greedily to reduce the
    /// groups, with random tie-breaks, over and over until `until`.
    fn greedy(&mut self, until: Instant) {
        let mut rng = GameRng::from_seed(0x6e65_6967);
        let start = self.start.clone();
        if start.phase != Phase::Adding {
            return;
        }
        let mut rounds = 0;
        while Instant::now() < until && (rounds < 200 || self.best.is_none()) {
            rounds += 1;
            let mut board = start.board.clone();
            let mut last = start.last;
            let mut line = Vec::new();
            for added in 0..=start.pieces.len() {
                if added > 0 {
                    let piece = start.pieces[added - 1].piece().expect("piece cards");
                    let target = target_square(held_square(last), start.positions[added - 1]);
                    let landing: Vec<Square> = landing_squares(board.occupied(), target).into_iter().collect();
                    let sq = *rng.choose(&landing).expect("a landing square");
                    board.set_piece_at(sq, piece);
                    last = Some(sq);
                    line.push(NeighbourAction::Add);
                    if landing.len() > 1 {
                        line.push(NeighbourAction::Place(sq));
                    }
                }
                let spent = 2 * added;
                if is_one_group(board.occupied()) {
                    self.offer(spent, &line);
                    break;
                }
                if board.occupied().count() < 2 {
                    continue;
                }
                self.greedy_moves(&board, spent, &line, &mut rng);
            }
        }
    }

    fn greedy_moves(&mut self, board: &Board, spent: usize, line: &[NeighbourAction], rng: &mut GameRng) {
        let mut board = board.clone();
        let mut line = line.to_vec();
        line.push(NeighbourAction::Stop);
        let mut spent = spent;
        while spent < self.start.cards_left {
            if self.best.as_ref().is_some_and(|(best, _)| self.start.cards_left - spent <= *best) {
                return;
            }
            let options = moves(&board);
            if options.is_empty() {
                return;
            }
            self.nodes += options.len() as u64;
            let scored: Vec<((usize, u32), (Square, Square))> =
                options.iter().map(|&(f, t)| (spread(&moved(&board, f, t)), (f, t))).collect();
            let least = scored.iter().map(|s| s.0).min().expect("some move");
            let best: Vec<(Square, Square)> = scored.iter().filter(|s| s.0 == least).map(|s| s.1).collect();
            // Now and then a random move, to leave the greedy's dead ends.
            let pool = if rng.next_u64().is_multiple_of(4) { &options } else { &best };
            let (from, to) = *rng.choose(pool).expect("some move");
            board = moved(&board, from, to);
            line.push(NeighbourAction::Move { from, to });
            spent += 1;
            if is_one_group(board.occupied()) {
                self.offer(spent, &line);
                return;
            }
        }
    }

    fn offer(&mut self, spent: usize, line: &[NeighbourAction]) {
        let score = self.start.cards_left - spent;
        if self.best.as_ref().is_none_or(|(best, _)| score > *best) {
            self.best = Some((score, line.to_vec()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesskit_core::game::Game;
    use chesskit_core::Options;

    fn replayed_score(game: &NeighbourGame, actions: &[NeighbourAction]) -> Option<i64> {
        let mut game = game.clone();
        for action in actions {
            game.apply(0, action).unwrap_or_else(|e| panic!("{action}: {e}"));
        }
        let outcome = game.outcome()?;
        (!outcome.winners.is_empty()).then(|| outcome.scores.unwrap()[0])
    }

    #[test]
    fn a_one_move_win_is_found_and_proven() {
        // The rook on a1 jumps like its knight neighbour to c2, next to b1 and d2.
        let position = "8/8/8/8/8/8/3B4/RN6\nphase: moving\nlast: -\n\
            pieces deck: 8d 9d 10d 8s 8c 9s 9c 10s 10c qs ks qh kh\n\
            positions deck: 2h 3h 4h 5h 6h 2d 3d 4d 5d 6d 2s 3s 4s 5s 6s 2c 3c\n\
            pieces discard: 10h 8h 9h\npositions discard: 4c 5c 6c\nspent:";
        let game = NeighbourGame::from_position(position, &Options::new(), 0).unwrap();
        let solution = solve(&game, SolveOptions::default());
        assert_eq!(solution.score, Some(29), "30 cards left, one spent");
        assert!(solution.proven);
        assert_eq!(replayed_score(&game, &solution.actions), Some(29));
    }

    #[test]
    fn the_best_line_of_a_deal_replays_to_its_score_and_nothing_shorter_wins() {
        for seed in [1, 2, 5] {
            let game = NeighbourGame::new(&Options::new(), seed).unwrap();
            let solution = solve(&game, SolveOptions { time_limit: Duration::from_secs(20), progress: None });
            assert!(solution.proven, "seed {seed}");
            let score = solution.score.expect("these deals are won");
            assert_eq!(replayed_score(&game, &solution.actions), Some(score as i64), "seed {seed}");
            assert_eq!(solution.upper_bound, score);
        }
    }

    #[test]
    fn a_lost_game_has_no_score() {
        let position = "8/8/8/8/8/8/8/R6n\nphase: moving\nlast: -\n\
            pieces deck: 8d 9d 8h 9s 10s 10c qs ks qh kh 8s 9c 10d 9h\n\
            positions deck: 2h 3h 4h 5h 6h 2d 3d 4d 5d 6d 2s 3s 4s 5s 6s 2c 3c 4c\n\
            pieces discard: 10h 8c\npositions discard: 5c 6c\nspent:";
        let game = NeighbourGame::from_position(position, &Options::new(), 0).unwrap();
        let solution = solve(&game, SolveOptions::default());
        assert_eq!(solution.score, None);
        assert!(solution.proven);
    }
}
