//! The Cooperative Chess 2 solver behind `chesskit solve cooperative2`: the
//! best score of a deal when the order of the draw pile is known.
//!
//! In the solitaire (`players=1`) that is the whole game: one player, every
//! card dealt from a known pile, so a deal has a best score. In the
//! two-seat game it solves the deal as if both hands and the pile were
//! known to one mind: an upper bound on what a team can score, since real
//! partners see only their own hands.
//!
//! The score counts only when a king is captured (running out of cards
//! scores 0), so the solver:
//!
//! 1. finds good lines fast with randomised greedy playouts: each turn
//!    plays the card and the non-capturing move that open the most
//!    captures, takes the captures, and takes a king once the score reaches
//!    the playout's target or the cards are nearly gone; the best playout
//!    is the incumbent;
//! 2. searches the whole tree depth first with a table of positions already
//!    solved (keyed by the text position, which holds the whole truth).
//!    When the search finishes within the time, its best is proven; the
//!    tree is far too large for that from the start of a deal, so proofs
//!    come only from positions near the end of the cards.
//!
//! It lives here, not in the game module, because it needs only the
//! game's public interface.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use chesskit_core::cards::Card;
use chesskit_core::chess::Role;
use chesskit_core::game::{Game, Seat, ToAct};
use chesskit_core::rng::GameRng;
use chesskit_games::cooperative2::{score, ChessStep, Coop2Action, Cooperative2Game, Step, WINNING_SCORE};

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best final score found (0 when no line captures a king).
    pub score: i64,
    /// The actions that reach it, from the position given.
    pub actions: Vec<Coop2Action>,
    /// Whether no better score exists (the whole tree was searched).
    pub proven: bool,
    /// Positions visited (playouts and search together).
    pub nodes: u64,
}

/// Progress reports while solving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub best: Option<i64>,
    pub nodes: u64,
    /// "playouts" or "search".
    pub stage: &'static str,
}

/// How long to search and whom to tell.
pub struct SolveOptions<'a> {
    pub time_limit: Duration,
    /// Positions to visit at most (playouts and search together), besides
    /// the time: a bound that stops at the same place on every machine,
    /// however loaded. The playouts get `playout_share` of it too.
    pub node_limit: Option<u64>,
    /// Called now and then (every few thousand nodes).
    pub progress: Option<&'a dyn Fn(Progress)>,
    /// The share of the time given to the playouts before the search.
    pub playout_share: f64,
    /// Positions the table holds before it stops taking more.
    pub table_limit: usize,
    pub seed: u64,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            time_limit: Duration::from_secs(10),
            node_limit: None,
            progress: None,
            playout_share: 0.5,
            table_limit: 2_000_000,
            seed: 1,
        }
    }
}

/// Playouts in a row without a better score after which the playouts stop.
const STALE_PLAYOUTS: usize = 200;

/// The seat that acts now, or None when the game is over.
fn actor(game: &Cooperative2Game) -> Option<Seat> {
    match game.to_act() {
        ToAct::Seats(seats) => seats.first().copied(),
        ToAct::Over(_) => None,
    }
}

/// The final score of a finished game.
fn final_score(game: &Cooperative2Game) -> i64 {
    game.to_act().outcome().and_then(|o| o.scores.as_ref()).and_then(|s| s.first().copied()).unwrap_or(0)
}

fn is_king_card(card: Option<Card>) -> bool {
    card.and_then(|c| c.piece()).is_some_and(|p| p.role == Role::King)
}

fn takes_king(action: &Coop2Action) -> bool {
    matches!(action, Coop2Action::Move(step) if is_king_card(step.captured_card))
}

fn is_capture(action: &Coop2Action) -> bool {
    matches!(action, Coop2Action::Move(ChessStep { captured_card: Some(_), .. }))
}

/// Replay `actions` through the referee: the score they end with.
pub fn replay(game: &Cooperative2Game, actions: &[Coop2Action]) -> Result<i64, String> {
    let mut g = game.clone();
    for action in actions {
        let seat = actor(&g).ok_or_else(|| format!("the game is over before {action}"))?;
        g.apply(seat, action).map_err(|e| format!("the solver's line is refused at {action}: {e}"))?;
    }
    if actor(&g).is_some() {
        return Err("the solver's line does not end the game".to_string());
    }
    Ok(final_score(&g))
}

struct Solver<'a> {
    options: &'a SolveOptions<'a>,
    started: Instant,
    nodes: u64,
    best: Option<(i64, Vec<Coop2Action>)>,
    stopped: bool,
    /// Solved positions: their exact value and best action.
    table: HashMap<u64, (i64, Option<Coop2Action>)>,
}

/// Find the best score of `game` from here; see the module documentation.
pub fn solve(game: &Cooperative2Game, options: &SolveOptions) -> Solution {
    let mut solver =
        Solver { options, started: Instant::now(), nodes: 0, best: None, stopped: false, table: HashMap::new() };
    if actor(game).is_none() {
        return Solution { score: final_score(game), actions: Vec::new(), proven: true, nodes: 0 };
    }
    solver.playouts(game);
    let mut proven = false;
    if let Some(value) = solver.search(game) {
        let line = solver.principal_line(game);
        // The table may have been too full to hold the whole line: then a
        // playout must have reached the value for it to count as proven.
        if replay(game, &line) == Ok(value) {
            solver.best = Some((value, line));
            proven = true;
        } else {
            proven = solver.best.as_ref().is_some_and(|(b, _)| *b == value);
        }
    }
    let (score, actions) = solver.best.clone().unwrap_or((0, Vec::new()));
    Solution { score, actions, proven, nodes: solver.nodes }
}

impl Solver<'_> {
    /// Whether the search must stop: its time or its nodes are spent.
    fn out_of_budget(&mut self) -> bool {
        chesskit_core::pace::breathe();
        if self.options.node_limit.is_some_and(|most| self.nodes >= most) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(1024) {
            if let Some(report) = self.options.progress {
                report(Progress { best: self.best.as_ref().map(|b| b.0), nodes: self.nodes, stage: "search" });
            }
            if self.started.elapsed() >= self.options.time_limit {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Whether the playouts have spent their share of the time or nodes.
    fn playouts_spent(&self) -> bool {
        let share = self.options.playout_share.clamp(0.0, 1.0);
        let most_nodes = self.options.node_limit.map(|most| (most as f64 * share) as u64);
        most_nodes.is_some_and(|most| self.nodes >= most)
            || self.started.elapsed().as_secs_f64() >= self.options.time_limit.as_secs_f64() * share
    }

    fn offer(&mut self, score: i64, actions: &[Coop2Action]) {
        if self.best.as_ref().is_none_or(|(b, _)| score > *b) {
            self.best = Some((score, actions.to_vec()));
        }
    }

    /// Stage 1: randomised greedy playouts until their share of the time
    /// (or of the nodes) is spent.
    fn playouts(&mut self, game: &Cooperative2Game) {
        let mut rng = GameRng::from_seed(self.options.seed);
        let targets = [WINNING_SCORE as i64, 40, 50, 60, 70];
        let mut round = 0usize;
        let mut last_better = 0usize;
        // Until their share is spent, or the playouts stop finding better lines.
        while !self.playouts_spent() && round - last_better < STALE_PLAYOUTS {
            let target = targets[round % targets.len()];
            round += 1;
            let (score, actions) = self.playout(game, target, &mut rng);
            if self.best.as_ref().is_none_or(|(b, _)| score > *b) {
                last_better = round;
            }
            self.offer(score, &actions);
            if let Some(report) = self.options.progress {
                report(Progress { best: self.best.as_ref().map(|b| b.0), nodes: self.nodes, stage: "playouts" });
            }
        }
    }

    /// One playout: see the module documentation.
    fn playout(&mut self, game: &Cooperative2Game, target: i64, rng: &mut GameRng) -> (i64, Vec<Coop2Action>) {
        let mut g = game.clone();
        let mut line = Vec::new();
        while let Some(seat) = actor(&g) {
            self.nodes += 1;
            let actions = g.legal_actions(seat);
            let choice = self.choose(&g, seat, &actions, target, rng);
            g.apply(seat, &choice).expect("a legal action applies");
            line.push(choice);
        }
        (final_score(&g), line)
    }

    fn choose(
        &mut self,
        g: &Cooperative2Game,
        seat: Seat,
        actions: &[Coop2Action],
        target: i64,
        rng: &mut GameRng,
    ) -> Coop2Action {
        let now = i64::from(score(g.position_now().board()));
        let cards_left = g.pile().len()
            + g.hand(chesskit_core::chess::Color::White).len()
            + g.hand(chesskit_core::chess::Color::Black).len();
        if let Some(king) = actions.iter().find(|a| takes_king(a)) {
            if now + 1 >= target || cards_left <= 1 {
                return *king;
            }
        }
        let captures: Vec<&Coop2Action> = actions.iter().filter(|a| is_capture(a) && !takes_king(a)).collect();
        if !captures.is_empty() && rng.below(20) != 0 {
            return *captures[rng.below(captures.len())];
        }
        if g.step() == Step::Capture {
            return Coop2Action::End;
        }
        // A card or a quiet move: the one that opens the most captures now
        // (ties broken at random), or now and then a random one.
        if rng.below(8) == 0 {
            return actions[rng.below(actions.len())];
        }
        let mut best = (i64::MIN, Coop2Action::End);
        for action in actions {
            let mut child = g.clone();
            if child.apply(seat, action).is_err() {
                continue;
            }
            self.nodes += 1;
            let opened: i64 = child
                .chess_steps()
                .iter()
                .filter(|(s, _)| s.captured_card.is_some())
                .map(|(s, _)| if is_king_card(s.captured_card) { 3 } else { 2 })
                .sum();
            let value = opened * 16 + rng.below(16) as i64;
            if value > best.0 {
                best = (value, *action);
            }
        }
        best.1
    }

    /// Stage 2: the exact value of `game`, or None when time or nodes ran out.
    fn search(&mut self, game: &Cooperative2Game) -> Option<i64> {
        self.nodes += 1;
        if self.out_of_budget() {
            return None;
        }
        let Some(seat) = actor(game) else { return Some(final_score(game)) };
        let key = position_key(game);
        if let Some(&(value, _)) = self.table.get(&key) {
            return Some(value);
        }
        let mut best: Option<(i64, Coop2Action)> = None;
        let mut actions = game.legal_actions(seat);
        // Captures first: they lead to scores soonest.
        actions.sort_by_key(|a| (!takes_king(a), !is_capture(a)));
        for action in actions {
            let mut child = game.clone();
            child.apply(seat, &action).expect("a legal action applies");
            let value = self.search(&child)?;
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, action));
            }
        }
        let (value, action) = best.expect("a game not over has an action");
        if self.table.len() < self.options.table_limit {
            self.table.insert(key, (value, Some(action)));
        }
        Some(value)
    }

    /// The line of best actions the table holds from `game`.
    fn principal_line(&self, game: &Cooperative2Game) -> Vec<Coop2Action> {
        let mut g = game.clone();
        let mut line = Vec::new();
        while let Some(seat) = actor(&g) {
            let Some(&(_, Some(action))) = self.table.get(&position_key(&g)) else { break };
            if g.apply(seat, &action).is_err() {
                break;
            }
            line.push(action);
        }
        line
    }
}

fn position_key(game: &Cooperative2Game) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    game.position().hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesskit_core::options::Options;

    /// A search bounded by `nodes` alone, so that it ends at the same place
    /// on any machine (the time limit is out of reach).
    fn within(nodes: u64) -> SolveOptions<'static> {
        SolveOptions { time_limit: Duration::MAX, node_limit: Some(nodes), ..SolveOptions::default() }
    }

    /// The solitaire deal of `seed`.
    fn deal(seed: u64) -> Cooperative2Game {
        Cooperative2Game::new(&Options::new().with("players", 1), seed).unwrap()
    }

    #[test]
    fn the_solver_proves_a_king_capture_at_the_end_of_the_cards() {
        // Solitaire, White to move with its card drawn; the white queen card
        // lies beside the black king card and the queen attacks e8. Taking
        // it scores 28 + 30 = 58; nothing else scores.
        let text = "4k3/8/8/8/4Q3/8/PP6/4K3 w - - 0 1\nstep: move\nline: kh qh ks 2h 3h\ndraw pile:\n\
                    discard: 4h 5h 2d 3d 4d 5d 8h 8d 9h 9d 10h 10d 2s 3s 4s 5s 2c 3c 4c 5c 8s 8c 9s 9c 10s 10c qs";
        let game = Cooperative2Game::from_position(text, &Options::new().with("players", 1), 0).unwrap();
        let solution = solve(&game, &within(NODES_TO_PROVE_THE_KING_CAPTURE));
        assert!(solution.proven, "not proven within {} nodes", solution.nodes);
        assert_eq!(solution.score, 58);
        assert_eq!(replay(&game, &solution.actions), Ok(58));
    }

    /// The proof above takes 274 nodes; the bound leaves room.
    const NODES_TO_PROVE_THE_KING_CAPTURE: u64 = 10_000;

    #[test]
    fn a_deal_gets_a_line_the_referee_accepts() {
        let game = deal(3);
        let solution = solve(&game, &within(DEAL_NODES));
        assert!(!solution.proven, "the tree of a whole deal is far too large");
        // Every playout plays a deal to its end, so a line is always found.
        assert!(!solution.actions.is_empty(), "no line within {DEAL_NODES} nodes");
        assert_eq!(replay(&game, &solution.actions), Ok(solution.score));
    }

    /// Enough for some playouts and a start on the search of a deal.
    const DEAL_NODES: u64 = 20_000;

    #[test]
    fn a_node_limit_stops_the_search_at_the_same_place_every_time() {
        let game = deal(3);
        let first = solve(&game, &within(DEAL_NODES));
        let again = solve(&game, &within(DEAL_NODES));
        assert_eq!(first, again, "bounded by nodes, the search does not depend on the clock");
        // The search stops at the bound; a playout may run past it by its
        // own length (a deal's actions and the choices tried at each).
        assert!(first.nodes >= DEAL_NODES, "stopped early, at {} nodes", first.nodes);
        assert!(first.nodes < DEAL_NODES + 5_000, "ran on to {} nodes", first.nodes);
    }
}
