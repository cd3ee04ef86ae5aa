//! The search players of levels 4 to 8: alpha-beta over the game's own
//! legal actions, so that any game's turn structure (Adrenaline's extra
//! steps, a Zombie turn's many moves, Crowded House's four seats in two
//! teams) needs no special code: a node belongs to whichever seat must act,
//! and the search maximises for the root seat's side and minimises for the
//! other side, however the turns fall.
//!
//! For hidden information it is a determinized search (perfect-information
//! Monte Carlo): it draws worlds consistent with what the seat knows
//! ([`DynGame::sample_hidden`]), searches each as if it were the truth
//! (every root action to its exact value), and plays the action with the
//! best mean over the worlds. It never looks at the game
//! it was given except through those worlds, so it cannot peek. Each
//! distinct world is searched once, weighed by how often it was drawn; a
//! world counts only if every root action got a value in it; and in games
//! won or lost the mean is of expected results (0 to 1), so that a sure
//! lead is not traded for a win in half the worlds and a loss in the rest.
//!
//! Per world: iterative deepening (each depth reorders the root by the
//! last one's values), a transposition table keyed by the game's 64-bit
//! position key ([`SearchNode::key`]), history ordering of quiet actions,
//! and a quiescence search over the noisy actions ([`SearchAction::noisy`]:
//! captures and promotions in the chess games) so that no line stops in
//! the middle of an exchange. Inside the tree the search walks
//! [`SearchNode`]s: the typed game alone, its actions taken by their place
//! in the list, so no action is written or read as text and no node copies
//! the session's record; text is used only at the root, to name actions.
//! A node allocates nothing once the search has run a while: each ply
//! from the root keeps a `Frame` of children and lists that every node
//! there reuses (a child is written over an old one with
//! [`SearchNode::child_into`], see crates/core/src/search_node.rs for why
//! that rather than a generic search or an undo), and who acts is asked
//! with [`SearchNode::first_to_act`], which builds no list of seats.
//! Noisy actions are tried best first by the estimate of the game after
//! them (a game won at once first), which orders captures without rules
//! of any one game. The searched copies forget the log and write none
//! ([`DynGame::forget_history`] mutes the session's journal), so a node
//! costs the same at move 300 as at move 3.

use std::collections::HashMap;
use std::hash::Hasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chesskit_core::game::{Outcome, ScoreOrder, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::{mix64, SearchAction, SearchNode};
use chesskit_core::DynGame;

use crate::{material_balance, Player};

/// How much a search may spend on one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Time for the whole decision, all worlds together, on `clock`.
    pub time: Option<Duration>,
    /// The clock `time` is measured on.
    pub clock: Clock,
    /// A time on `clock` the whole decision never runs past, the first
    /// iteration's grace included: a game clock's flag (UCI `wtime`, the
    /// server's talking clock) falls there. None: only `time` counts.
    pub hard: Option<Duration>,
    /// Nodes for the whole decision (a machine-independent limit, for tests).
    pub nodes: u64,
    /// The deepest iteration, in actions.
    pub max_depth: u32,
    /// Worlds drawn when the game hides something from the seat.
    pub worlds: usize,
}

impl Budget {
    /// A budget of wall-clock time, `worlds` worlds.
    pub fn timed(time: Duration, worlds: usize) -> Budget {
        Budget { time: Some(time), clock: Clock::Wall, hard: None, nodes: u64::MAX, max_depth: 64, worlds }
    }

    /// A budget of nodes only: the same choice on any machine.
    pub fn nodes(nodes: u64, worlds: usize) -> Budget {
        Budget { time: None, clock: Clock::Wall, hard: None, nodes, max_depth: 64, worlds }
    }

    /// The same budget with its time measured on `clock`.
    pub fn on(self, clock: Clock) -> Budget {
        Budget { clock, ..self }
    }
}

/// The engine techniques a search may use, each with its own switch so
/// that self-play can pit the search with one against the search without
/// it (`chesskit selfplay --players level6,level6-no-lmr`): a technique is
/// kept only if it wins games (docs/dev/engine-speed.md has the
/// measurements). The pruning on a pass (null move, reverse futility) and
/// the check extensions act only in a game that declares where they hold
/// ([`SearchNode::may_pass`], [`SearchNode::in_check`]: chess and Chess960),
/// and so do the static exchange ([`SearchNode::exchange_value`]) and the
/// pruning of quiet actions; elsewhere the search is what it was without
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Two quiet actions per ply that last caused a cut, tried before the
    /// other quiet actions.
    pub killers: bool,
    /// Aspiration windows: each iteration of the deepening searches the
    /// root in a window around the last iteration's value, and again with
    /// the window opened on the side it fell out of.
    pub aspiration: bool,
    /// Late-move reductions: quiet actions late in the order at depth 3
    /// or more searched one action shallower first, at full depth only if
    /// they prove better than the best so far.
    pub late_move_reductions: bool,
    /// Null-move pruning where the game allows a pass
    /// ([`SearchNode::may_pass`]): a node whose side, given a free pass,
    /// would still reach beyond the window searched shallower is cut.
    pub null_move: bool,
    /// Check extensions: a node whose side to act is in check
    /// ([`SearchNode::in_check`]) is searched one action deeper, so that no
    /// line ends on a check unanswered.
    pub check_extensions: bool,
    /// Reverse futility pruning: a node near the leaves whose estimate is
    /// beyond the window by a margin that grows with the depth is cut,
    /// where the game allows a pass (the same observation as the null move).
    pub reverse_futility: bool,
    /// An unfinished iteration's best root action kept when it beat the
    /// last iteration's best at the deeper search: the deeper search has
    /// proven it better, and throwing it away wastes the iteration's nodes.
    pub partial_iteration: bool,
    /// The transposition table kept from one decision to the next
    /// ([`Table`]), as engines keep it: each search starts knowing what
    /// the last one found.
    pub kept_table: bool,
    /// Quiescence finishes a turn with the actions the game lists for it
    /// ([`SearchNode::quiescence_rest_of_turn_into`]: one of several
    /// choices alike for the balance) rather than every legal action.
    pub alike_rests: bool,
    /// Static exchange evaluation where the game tells it
    /// ([`SearchNode::exchange_value`]): captures that lose material tried
    /// after the quiet actions with a history, and left out past the depth
    /// with those that cannot bring the estimate near the window.
    pub static_exchange: bool,
    /// Futility pruning of quiet actions near the leaves, where the game
    /// vouches for its estimate ([`SearchNode::may_pass`]) and the side to
    /// act is not in check: at depth 3 and shallower, a quiet action that
    /// gives no check, tried after the first, is skipped when the estimate
    /// is below the window by a pawn a depth.
    pub quiet_pruning: bool,
}

/// The techniques a search uses unless told otherwise: those that won
/// games against the search without them (docs/dev/engine-speed.md).
impl Default for Techniques {
    fn default() -> Techniques {
        Techniques::KEPT
    }
}

impl Techniques {
    /// Every technique on.
    pub const ALL: Techniques = Techniques {
        killers: true,
        aspiration: true,
        late_move_reductions: true,
        null_move: true,
        check_extensions: true,
        reverse_futility: true,
        partial_iteration: true,
        kept_table: true,
        alike_rests: true,
        static_exchange: true,
        quiet_pruning: true,
    };
    /// Every technique off: the plain alpha-beta search.
    pub const NONE: Techniques = Techniques {
        killers: false,
        aspiration: false,
        late_move_reductions: false,
        null_move: false,
        check_extensions: false,
        reverse_futility: false,
        partial_iteration: false,
        kept_table: false,
        alike_rests: false,
        static_exchange: false,
        quiet_pruning: false,
    };
    /// The techniques kept, by self-play in chess at equal nodes
    /// (docs/dev/engine-speed.md): late-move reductions (56.2% of 300
    /// games), aspiration windows (56.0% of 260), check extensions
    /// (62.9% of 120) and null-move pruning at 200,000 nodes a decision,
    /// near what level 8 searches in a UCI move of 200 ms (61.6% of 56; it
    /// lost at 20,000, 45.0% of 60, where the pass is searched too shallow
    /// to see threats) and static exchange evaluation at 100,000 nodes
    /// (59.2% of 200) and futility pruning of quiet actions beside it
    /// (63.8% of 130 at 100,000 nodes) won; killers were a wash (52.1% of
    /// 260) and cut no nodes per depth; reverse futility pruning (50.8% of 60 beside the
    /// check extensions), keeping a partly finished iteration's action
    /// (55.0% of 120 at 200,000 nodes) and keeping the table from one
    /// decision to the next (53.0% of 220 at 200,000 nodes) were not shown
    /// to win. Finishing a turn in quiescence with the game's alike choices
    /// (Zombie Chess's one burial) won in Zombie at 100,000 nodes (see
    /// docs/dev/engine-speed.md); every other game lists all its actions
    /// there, so its search is unchanged.
    pub const KEPT: Techniques = Techniques {
        killers: false,
        aspiration: true,
        late_move_reductions: true,
        null_move: true,
        check_extensions: true,
        reverse_futility: false,
        partial_iteration: false,
        kept_table: false,
        alike_rests: true,
        static_exchange: true,
        quiet_pruning: true,
    };
    /// The names [`Techniques::switched`] knows, as in a player spec.
    pub const NAMES: [&'static str; 11] =
        ["killers", "aspiration", "lmr", "null", "checks", "futility", "partial", "kept", "alike", "see", "prune"];

    /// These techniques with the one called `name` switched `on` or off
    /// (one of [`Techniques::NAMES`], or `all`).
    pub fn switched(self, name: &str, on: bool) -> Result<Techniques, String> {
        match name {
            "killers" => Ok(Techniques { killers: on, ..self }),
            "aspiration" => Ok(Techniques { aspiration: on, ..self }),
            "lmr" => Ok(Techniques { late_move_reductions: on, ..self }),
            "null" => Ok(Techniques { null_move: on, ..self }),
            "checks" => Ok(Techniques { check_extensions: on, ..self }),
            "futility" => Ok(Techniques { reverse_futility: on, ..self }),
            "partial" => Ok(Techniques { partial_iteration: on, ..self }),
            "kept" => Ok(Techniques { kept_table: on, ..self }),
            "alike" => Ok(Techniques { alike_rests: on, ..self }),
            "see" => Ok(Techniques { static_exchange: on, ..self }),
            "prune" => Ok(Techniques { quiet_pruning: on, ..self }),
            "all" if on => Ok(Techniques::ALL),
            "all" => Ok(Techniques::NONE),
            other => {
                Err(format!("unknown search technique {other:?} (known: {}, or all)", Techniques::NAMES.join(", ")))
            }
        }
    }

    /// These techniques with the one called `name` switched off.
    pub fn without(self, name: &str) -> Result<Techniques, String> {
        self.switched(name, false)
    }
}

/// The clock a search's time is measured on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// Wall-clock time: what a person waiting for the computer feels.
    #[default]
    Wall,
    /// The searching thread's CPU time: the same thinking however busy the
    /// machine is, so that self-play statistics measure the players, not
    /// the load (a level given 60 ms of a core that other work shares
    /// would otherwise search a fraction of its nodes and play weaker).
    /// Where the system has no such clock, the wall clock.
    ThreadCpu,
}

impl Clock {
    /// The clock's reading, from a start fixed for each clock (and, for
    /// CPU time, each thread: a search reads it on one thread).
    fn now(self) -> Duration {
        match self {
            Clock::Wall => wall_clock(),
            Clock::ThreadCpu => thread_cpu_time().unwrap_or_else(wall_clock),
        }
    }
}

/// Wall-clock time since the first reading in this process.
fn wall_clock() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The CPU time this thread has used.
#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut time = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through the pointer, which
    // points to a live, writable timespec.
    let read = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) } == 0;
    read.then(|| Duration::new(u64::try_from(time.tv_sec).unwrap_or(0), u32::try_from(time.tv_nsec).unwrap_or(0)))
}

#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

/// An action in the order of search: its place in the node's list, and
/// the slot of [`Frame::slots`] that holds the game after it when that was
/// needed to order it. No more: a placement lists 960 setups, and what the
/// search knows of each is read from the node's list when its turn comes.
type Searched = (usize, Option<usize>);

/// What the search keeps for one ply from the root, reused by every node
/// searched at that ply, so that once the search has run a while a node
/// allocates nothing: the children a node holds at once (the noisy ones,
/// made to order them, and one for the quiet action searched now) and its
/// lists. A node takes its ply's frame out of the searcher while it
/// searches ([`Searcher::take_frame`]); the nodes below use deeper ones.
#[derive(Default)]
struct Frame {
    /// Games after actions, rewritten with [`SearchNode::child_into`].
    slots: Vec<Box<dyn SearchNode>>,
    /// The order to search the actions with a key in (the table's best,
    /// the noisy, the quiet with a key); `unkeyed` follows
    /// ([`Frame::searched`]).
    order: Vec<Searched>,
    /// The actions to make children of and rank, by place in the list.
    chosen: Vec<usize>,
    /// The quiet actions with an ordering key (killer rank, history), each
    /// with its key.
    quiet: Vec<((u8, u64), usize)>,
    /// The quiet actions without one, in the order listed: searched after
    /// `quiet`, where a stable sort by key would put them, neither sorted
    /// nor copied into `order` (a placement of 960 setups has a handful
    /// with a history).
    unkeyed: Vec<usize>,
    /// The children made of `chosen`, best for the actor first: the value
    /// for the actor, the action's place in the list, and its slot.
    ranked: Vec<(f64, usize, usize)>,
}

impl Frame {
    /// The `n`-th action to search ([`Searched`]): `order`, then `unkeyed`.
    fn searched(&self, n: usize) -> Option<Searched> {
        match self.order.get(n) {
            Some(&searched) => Some(searched),
            None => self.unkeyed.get(n - self.order.len()).map(|&index| (index, None)),
        }
    }

    /// How many actions [`Frame::searched`] gives.
    fn searched_count(&self) -> usize {
        self.order.len() + self.unkeyed.len()
    }
}

/// The value of a won game, far beyond any static estimate.
const WIN: f64 = 10_000.0;
/// Noisy actions searched past the end of the depth, at most.
const QUIESCENCE_DEPTH: u32 = 6;
/// How far below the best a root action that failed low is ranked.
const FAIL_LOW: f64 = 1e-6;
/// How far either side of the last iteration's value an aspiration window
/// reaches ([`Searcher::aspiration_window`]): half a pawn.
const ASPIRATION: f64 = 0.5;
/// Late-move reductions apply at this depth and deeper...
const LMR_MIN_DEPTH: u32 = 3;
/// ... to actions tried after this many at the node.
const LMR_AFTER: usize = 3;
/// Null-move pruning applies at this depth and deeper...
const NULL_MIN_DEPTH: u32 = 3;
/// ... searching the pass this many actions shallower than a move (one
/// more for every [`NULL_DEEPER_EVERY`] of depth).
const NULL_REDUCTION: u32 = 2;
const NULL_DEEPER_EVERY: u32 = 6;
/// The width of the window a pass is searched in: only whether it
/// reaches the bound counts.
const NULL_WINDOW: f64 = 1e-6;
/// Reverse futility pruning applies at this depth and shallower...
const FUTILITY_MAX_DEPTH: u32 = 3;
/// ... when the estimate is beyond the window by this much a depth, in pawns.
const FUTILITY_MARGIN: f64 = 1.0;
/// A capture past the depth is searched only if winning its exchange
/// ([`SearchNode::exchange_value`]) by this much more, in pawns, would bring
/// the estimate to the window (delta pruning): what a capture can change
/// beside material.
const DELTA_MARGIN: f64 = 2.0;
/// Quiet actions are pruned at this depth and shallower
/// ([`Techniques::quiet_pruning`])...
const QUIET_PRUNING_MAX_DEPTH: u32 = 3;
/// ... when the estimate is below the window by this much a depth, in pawns.
const QUIET_FUTILITY_MARGIN: f64 = 1.0;
/// Nodes between readings of the clock.
const CLOCK_EVERY_NODES: u64 = 4;
/// Entries kept in the transposition table before it starts afresh.
const TABLE_LIMIT: usize = 1 << 20;

/// The search player: see the module documentation.
pub struct SearchPlayer {
    rng: GameRng,
    budget: Budget,
    techniques: Techniques,
    /// The transposition table from the last decision, when the
    /// techniques keep it ([`Techniques::kept_table`]).
    table: Table,
}

impl SearchPlayer {
    pub fn new(seed: u64, budget: Budget) -> SearchPlayer {
        SearchPlayer {
            rng: GameRng::from_seed(seed),
            budget,
            techniques: Techniques::default(),
            table: Table::default(),
        }
    }

    /// The same player searching with `techniques` only.
    pub fn with_techniques(self, techniques: Techniques) -> SearchPlayer {
        SearchPlayer { techniques, ..self }
    }
}

impl Player for SearchPlayer {
    fn choose(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        let actions: Vec<String> = game.search_actions(seat).into_iter().map(|(a, _)| a).collect();
        if actions.len() <= 1 {
            return actions.into_iter().next();
        }
        let worlds = self.draw_worlds(game, seat);
        let count = worlds.len();
        let clock = self.budget.clock;
        let started = clock.now();
        let mut worlds_searched: Vec<WorldValues> = Vec::new();
        let mut cut_short = None;
        for (w, (mut world, weight)) in worlds.into_iter().enumerate() {
            // Time is up: the worlds searched so far decide.
            if w > 0 && self.budget.time.is_some_and(|t| clock.now() >= started + t) {
                break;
            }
            world.forget_history();
            let mut searcher =
                Searcher::new(seat, &game.seats(), game.score_order(), self.world_limits(started, w, count));
            searcher.exact_root = count > 1;
            searcher.techniques = self.techniques;
            let mut searcher = searcher.reading(&mut self.table);
            let values = searcher.root(world.search_node(), &actions);
            searcher.hand_back_table(&mut self.table);
            // A world whose first iteration did not reach every action
            // ranks the actions it missed as lost: it counts only if no
            // world was searched whole.
            let searched = WorldValues { values, weight, scored: searcher.saw_scores };
            if searcher.first_iteration_complete {
                worlds_searched.push(searched);
            } else if cut_short.is_none() {
                cut_short = Some(searched);
            }
        }
        if worlds_searched.is_empty() {
            worlds_searched.extend(cut_short);
        }
        let totals = mean_over_worlds(&worlds_searched);
        // The best value over the worlds drawn (their mean, each weighed
        // by how often it was drawn); ties by chance.
        let best = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = (0..actions.len()).filter(|&i| totals[i] == best).collect();
        self.rng.choose(&tied).map(|&i| actions[i].clone())
    }
}

impl SearchPlayer {
    /// The budget's worlds drawn from what `seat` knows, each distinct one
    /// once with the number of times it was drawn. With nothing hidden
    /// from the seat every draw is the game itself: one world, searched
    /// with the whole budget. (Asking whether a draw equals the game
    /// itself would let the truth decide how many worlds to search: a
    /// leak. Two draws that happen to agree prove nothing either: a seat
    /// may have narrowed the hidden part to a few possibilities.)
    fn draw_worlds(&mut self, game: &dyn DynGame, seat: Seat) -> Vec<(Box<dyn DynGame>, usize)> {
        let mut distinct: Vec<(Box<dyn DynGame>, usize)> = Vec::new();
        for _ in 0..self.budget.worlds.max(1) {
            let world = game.sample_hidden(seat, self.rng.next_u64());
            match distinct.iter_mut().find(|(seen, _)| seen.same_state(world.as_ref())) {
                Some((_, times)) => *times += 1,
                None => distinct.push((world, 1)),
            }
        }
        distinct
    }

    /// World `w` of `worlds` gets an equal share of what is left of the
    /// decision's time (so a world that ran over does not starve the next
    /// one into searching a handful of actions) and of its nodes.
    fn world_limits(&self, started: Duration, w: usize, worlds: usize) -> Limits {
        let left = (worlds - w) as u32;
        let clock = self.budget.clock;
        let now = clock.now();
        let deadline = self.budget.time.map(|t| now + (started + t).saturating_sub(now) / left);
        Limits {
            clock,
            deadline,
            // The first iteration of a world may use what is left of the
            // whole decision: one world searched to depth 1 over every
            // action is worth more than many cut short (which count for
            // nothing). No world is drawn after the time is up.
            first_iteration_deadline: self.budget.time.map(|t| (started + t).max(now)),
            hard_deadline: self.budget.hard.map(|h| started + h),
            nodes: (self.budget.nodes / worlds as u64).max(1),
            max_depth: self.budget.max_depth,
            stop: None,
        }
    }
}

/// One world's values of the root actions, and whether its search met a
/// game end that keeps score.
struct WorldValues {
    values: Vec<f64>,
    /// How many of the draws gave this world.
    weight: usize,
    scored: bool,
}

/// The mean value of each root action over the worlds. In a game won or
/// lost (no scores), values are first put on one scale of expected result,
/// from 0 (lost) to 1 (won): averaged raw, a win in half the worlds
/// (+10,000) and a loss in the other half would outweigh a sure lead of a
/// queen, and the player would gamble a won game on a coin toss. Scores are
/// averaged as they are: there the mean score is what the player wants.
fn mean_over_worlds(worlds: &[WorldValues]) -> Vec<f64> {
    let scored = worlds.iter().any(|w| w.scored);
    let scale = |v: f64| if scored { v } else { expected_result(v) };
    let Some(first) = worlds.first() else { return Vec::new() };
    let mut totals = vec![0.0; first.values.len()];
    for world in worlds {
        for (total, &value) in totals.iter_mut().zip(&world.values) {
            *total += scale(value) * world.weight as f64;
        }
    }
    totals
}

/// A value (pawns, or beyond [`WIN`]` / 2` for a forced result) as an
/// expected result between 0 and 1: forced results at the ends (nearer
/// wins and later losses a hair better), estimates by a logistic curve on
/// which a lead of four pawns is worth about five wins in six.
///
/// Estimates stay within [`ESTIMATE_MARGIN`] of the ends, where no forced
/// result can reach: a lead of fifty pawns is still only likely to win,
/// so a mate in one must outrank it (without the margin, the logistic of
/// a huge lead rounded above a sure win and the player took a queen
/// instead of mating).
fn expected_result(value: f64) -> f64 {
    const PLY_PREFERENCE: f64 = 1e-6;
    if value >= WIN / 2.0 {
        1.0 - (WIN - value) * PLY_PREFERENCE
    } else if value <= -WIN / 2.0 {
        (WIN + value) * PLY_PREFERENCE
    } else if value.is_nan() || value == f64::NEG_INFINITY {
        f64::NEG_INFINITY
    } else {
        let likely = 1.0 / (1.0 + (-value / PAWNS_PER_LOGIT).exp());
        ESTIMATE_MARGIN + (1.0 - 2.0 * ESTIMATE_MARGIN) * likely
    }
}

/// How far from a sure result (0 or 1) any estimate stays in
/// [`expected_result`]: more than a forced result far away (a thousand
/// plies at the ply preference of one in a million).
const ESTIMATE_MARGIN: f64 = 0.01;

/// What winning (rather than only scoring) adds to a score in a game with
/// every seat on one side, and losing takes off: a hundredth of a point,
/// enough to break a tie and no more, so the team plays for the score.
const SIDE_RESULT_WEIGHT: f64 = 0.01;

/// Pawns of lead per unit of log-odds in [`expected_result`]: four pawns
/// give 1 / (1 + e^-1.6), about 0.83.
const PAWNS_PER_LOGIT: f64 = 2.5;

/// When one world's search stops. Times are readings of `clock`.
#[derive(Clone, Debug)]
struct Limits {
    clock: Clock,
    deadline: Option<Duration>,
    /// When the first iteration must stop, if later than `deadline` plus
    /// the usual grace.
    first_iteration_deadline: Option<Duration>,
    /// When the search stops whatever the iteration ([`Budget::hard`]).
    hard_deadline: Option<Duration>,
    nodes: u64,
    max_depth: u32,
    /// Raised from outside to stop at once (a UCI `stop`).
    stop: Option<Arc<AtomicBool>>,
}

/// One finished iteration of [`analyse`]: its depth, the best action and
/// its value (in pawns, or beyond [`WIN`]` / 2` for a forced result).
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    pub depth: u32,
    pub best: String,
    pub value: f64,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Iteration {
    /// Plies to a forced win (positive) or loss (negative), if the value is one.
    pub fn mate_in_plies(&self) -> Option<i64> {
        (self.value.abs() >= WIN / 2.0).then(|| {
            let plies = (WIN - self.value.abs()).round() as i64;
            if self.value > 0.0 {
                plies
            } else {
                -plies
            }
        })
    }
}

/// Search a game with nothing hidden for `seat` until the budget is spent
/// or `stop` is raised, telling `report` about each finished iteration;
/// returns the best action found (what a UCI engine's `go` does).
pub fn analyse(
    game: &dyn DynGame,
    seat: Seat,
    budget: Budget,
    stop: Arc<AtomicBool>,
    report: &mut dyn FnMut(&Iteration),
) -> Option<String> {
    analyse_with(game, seat, budget, Techniques::default(), &mut Table::default(), stop, report)
}

/// [`analyse`] with `techniques` only (what each technique saves per
/// depth is measured so: crates/ai/examples/techniques.rs), starting from
/// what earlier searches left in `table` and leaving its own there, when
/// the techniques keep the table ([`Techniques::kept_table`]: a UCI
/// engine would keep it from one `go` to the next).
#[allow(clippy::too_many_arguments)]
pub fn analyse_with(
    game: &dyn DynGame,
    seat: Seat,
    budget: Budget,
    techniques: Techniques,
    table: &mut Table,
    stop: Arc<AtomicBool>,
    report: &mut dyn FnMut(&Iteration),
) -> Option<String> {
    let actions: Vec<String> = game.search_actions(seat).into_iter().map(|(a, _)| a).collect();
    let started = Instant::now();
    let limits = Limits {
        clock: budget.clock,
        deadline: budget.time.map(|t| budget.clock.now() + t),
        first_iteration_deadline: None,
        hard_deadline: budget.hard.map(|h| budget.clock.now() + h),
        nodes: budget.nodes,
        max_depth: budget.max_depth,
        stop: Some(stop),
    };
    let mut searcher = Searcher::new(seat, &game.seats(), game.score_order(), limits);
    searcher.techniques = techniques;
    let mut searcher = searcher.reading(table);
    let mut game = game.clone_box();
    game.forget_history();
    let node = game.search_node();
    let best_of = |values: &[f64]| (0..values.len()).max_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut on_iteration = |depth: u32, values: &[f64], nodes: u64| {
        let Some(i) = best_of(values) else { return };
        report(&Iteration { depth, best: actions[i].clone(), value: values[i], nodes, elapsed: started.elapsed() });
    };
    let values = searcher.root_reporting(node, &actions, &mut on_iteration);
    searcher.hand_back_table(table);
    // The last finished iteration's best; stopped within the first, the best seen so far.
    best_of(&values).map(|i| actions[i].clone())
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    Exact,
    /// The value is at least this (a cut in a maximising node).
    Lower,
    /// The value is at most this.
    Upper,
}

#[derive(Clone, Debug)]
struct Entry {
    depth: u32,
    value: f64,
    bound: Bound,
    /// The best action's [`SearchAction::id`].
    best: Option<u64>,
    /// The search that stored it ([`Table::searches`]).
    search: u16,
}

/// The transposition table: what the search learnt of each position it
/// searched (keyed by [`position_key`]), the values for one seat's side.
/// A player that keeps it from one decision to the next
/// ([`Techniques::kept_table`], `level6-with-kept`) starts each
/// search knowing what the last one found of the positions it reaches
/// (searched deeper, from two plies further back); when full, the entries
/// of earlier searches go first.
///
/// Kept across decisions it tells a seat nothing it did not know: every
/// entry was found by searching worlds drawn from what the seat saw
/// ([`DynGame::sample_hidden`]), and a world's key covers its hidden part,
/// so an entry is the value of that very world, whoever asks.
#[derive(Default)]
pub struct Table {
    entries: HashMap<u64, Entry, IdentityHash>,
    /// The seat whose side the values are for (a search from another
    /// seat's side would read them the wrong way round).
    side: Option<Seat>,
    /// The searches begun, counted round; each entry notes its own.
    searches: u16,
}

impl Table {
    /// An empty table ready for a search from `root`'s side.
    fn started_for(root: Seat) -> Table {
        let mut table = Table::default();
        table.begin_search(root);
        table
    }

    /// Forgets every position (a UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.side = None;
    }

    /// Readies the table for a search from `root`'s side: entries for
    /// another seat's side are dropped, the others become an earlier
    /// search's.
    fn begin_search(&mut self, root: Seat) {
        if self.side != Some(root) {
            self.clear();
            self.side = Some(root);
        }
        self.searches = self.searches.wrapping_add(1);
    }

    fn get(&self, key: u64) -> Option<&Entry> {
        self.entries.get(&key)
    }

    /// Stores what a search of `depth` found under `key`, making room
    /// first when the table is full ([`TABLE_LIMIT`]).
    fn store(&mut self, key: u64, depth: u32, value: f64, bound: Bound, best: Option<u64>) {
        if self.entries.len() >= TABLE_LIMIT {
            self.make_room();
        }
        self.entries.insert(key, Entry { depth, value, bound, best, search: self.searches });
    }

    /// Drops the entries of earlier searches, and everything when this
    /// search's own fill half the table or more (kept, they would fill it
    /// again at once).
    fn make_room(&mut self) {
        let now = self.searches;
        self.entries.retain(|_, entry| entry.search == now);
        if self.entries.len() >= TABLE_LIMIT / 2 {
            self.entries.clear();
        }
    }
}

/// One world's search, from one seat's side.
struct Searcher {
    root: Seat,
    /// Whether each seat plays on the root seat's side (itself, team mates).
    friends: Vec<bool>,
    /// Whether any seat plays against the root's side. Only then can a
    /// turn left half-played hide a reply (see [`Searcher::quiesce`]); in
    /// a solitaire every action is the same seat's, and playing each
    /// "rest of the turn" out would search the whole game full width.
    rivals: bool,
    limits: Limits,
    nodes: u64,
    stopped: bool,
    table: Table,
    /// How often a quiet action ([`SearchAction::id`]) caused a cut,
    /// weighted by depth.
    history: HashMap<u64, u64, IdentityHash>,
    /// The ids that may be in `history`: asked for every quiet action
    /// ordered, most of which have none.
    history_filter: IdFilter,
    /// Whether the first iteration runs (it may take longer than the budget).
    first_iteration: bool,
    /// Whether every root action gets its exact value (no cut at the root),
    /// so that values can be averaged over worlds.
    exact_root: bool,
    /// Whether the first iteration reached every root action.
    first_iteration_complete: bool,
    /// The engine techniques this search uses.
    techniques: Techniques,
    /// Per ply from the root, the two quiet actions ([`SearchAction::id`])
    /// that last caused a cut there, the latest first.
    killers: Vec<[Option<u64>; 2]>,
    /// Whether a game end with scores was met (the values are scores).
    saw_scores: bool,
    /// Which way the game's scores count ([`DynGame::score_order`]).
    score_order: ScoreOrder,
    /// The clock's reading when the search began.
    started: Duration,
    /// Per ply from the root, what the nodes there reuse ([`Frame`]).
    frames: Vec<Frame>,
    /// Bit `ply` set while the node at that ply is the game after a pass,
    /// which may not pass again (two passes in a row prove nothing).
    passed: u64,
}

impl Searcher {
    fn new(root: Seat, seats: &[SeatInfo], score_order: ScoreOrder, limits: Limits) -> Searcher {
        let team = seats.get(root).and_then(|s| s.team);
        let friends: Vec<bool> =
            (0..seats.len()).map(|s| s == root || (team.is_some() && seats[s].team == team)).collect();
        let started = limits.clock.now();
        Searcher {
            root,
            rivals: friends.contains(&false),
            friends,
            limits,
            nodes: 0,
            stopped: false,
            table: Table::started_for(root),
            history: HashMap::default(),
            history_filter: IdFilter::default(),
            first_iteration: true,
            exact_root: false,
            first_iteration_complete: false,
            techniques: Techniques::default(),
            killers: Vec::new(),
            frames: Vec::new(),
            passed: 0,
            saw_scores: false,
            score_order,
            started,
        }
    }

    /// The same search starting from `table` (what earlier searches found)
    /// when the techniques keep it ([`Techniques::kept_table`]); else from
    /// an empty one. [`Searcher::hand_back_table`] returns it.
    fn reading(mut self, table: &mut Table) -> Searcher {
        if self.techniques.kept_table {
            self.table = std::mem::take(table);
            self.table.begin_search(self.root);
        }
        self
    }

    /// Gives the table back to `table` for the next search, when kept.
    fn hand_back_table(&mut self, table: &mut Table) {
        if self.techniques.kept_table {
            *table = std::mem::take(&mut self.table);
        }
    }

    /// The value of each root action by the deepest finished iteration
    /// (the first iteration's, if even that ran out of budget). Values of
    /// actions that an iteration proved worse are upper bounds: good enough
    /// to rank them below the best.
    fn root(&mut self, game: Box<dyn SearchNode>, actions: &[String]) -> Vec<f64> {
        self.root_reporting(game, actions, &mut |_, _, _| {})
    }

    /// [`Searcher::root`], calling `report` with the depth, the values and
    /// the nodes so far after each finished iteration.
    fn root_reporting(
        &mut self,
        mut game: Box<dyn SearchNode>,
        actions: &[String],
        report: &mut dyn FnMut(u32, &[f64], u64),
    ) -> Vec<f64> {
        let mut values = vec![f64::NEG_INFINITY; actions.len()];
        let mut order: Vec<usize> = (0..actions.len()).collect();
        let mut children = root_children(game.as_mut(), self.root, actions);
        for depth in 1..=self.limits.max_depth {
            self.first_iteration = depth == 1;
            let mut window = self.aspiration_window(depth, &values);
            let (found, finished) = loop {
                let (found, finished) = self.root_iteration(&mut children, &order, depth, window, &values);
                match self.outside_window(&found, window) {
                    Some(opened) if !self.stopped => window = opened,
                    _ => break (found, finished),
                }
            };
            if self.stopped {
                if depth == 1 {
                    // Not even one ply: keep what was found.
                    for (value, new) in values.iter_mut().zip(&found) {
                        *value = value.max(*new);
                    }
                } else if self.techniques.partial_iteration && !self.exact_root {
                    keep_a_better_action_of_an_unfinished_iteration(&mut values, &found, &order[..finished]);
                }
                break;
            }
            values = found;
            self.first_iteration_complete = true;
            report(depth, &values, self.nodes);
            order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
            if values.iter().any(|v| v.abs() >= WIN / 2.0 && *v > 0.0) {
                break; // a forced win: deeper cannot do better
            }
        }
        values
    }

    /// One iteration of the deepening at the root: the value of each root
    /// action searched `depth` deep, in `order`, within `window` (the
    /// whole line unless an aspiration window), starting from the last
    /// iteration's `values` (kept for any action not reached), and how
    /// many actions of `order` it finished before it stopped.
    fn root_iteration(
        &mut self,
        children: &mut [Option<Box<dyn SearchNode>>],
        order: &[usize],
        depth: u32,
        (low, high): (f64, f64),
        values: &[f64],
    ) -> (Vec<f64>, usize) {
        let mut found = values.to_vec();
        let mut alpha = low;
        let mut finished = 0;
        for (place, &i) in order.iter().enumerate() {
            let Some(child) = &mut children[i] else { continue };
            let window = if self.exact_root { (f64::NEG_INFINITY, f64::INFINITY) } else { (alpha, high) };
            // A root action after which the root seat acts again leaves
            // its turn unfinished: the search below must not stop there.
            let value = self.search_child(child.as_mut(), depth, window, (0, Some(self.root), true), 0);
            if self.stopped {
                break;
            }
            // An action that fails low returns a bound no better than
            // the best so far: rank it just below, so ties go to the
            // action proven best.
            found[i] = if !self.exact_root && value <= alpha { value - FAIL_LOW } else { value };
            finished = place + 1;
            alpha = alpha.max(value);
            if alpha >= high {
                break; // above the aspiration window: searched again
            }
        }
        (found, finished)
    }

    /// The window to search the root in at `depth`: with
    /// [`Techniques::aspiration`], [`ASPIRATION`] either side of the last
    /// iteration's best value (most iterations end near it, and a narrow
    /// window cuts more); else, or without a last value that is an
    /// estimate, the whole line.
    fn aspiration_window(&self, depth: u32, values: &[f64]) -> (f64, f64) {
        let whole = (f64::NEG_INFINITY, f64::INFINITY);
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !self.techniques.aspiration || self.exact_root || depth == 1 || !best.is_finite() || best.abs() >= WIN / 2.0
        {
            return whole;
        }
        (best - ASPIRATION, best + ASPIRATION)
    }

    /// The window to search the root in again when the best of `found`
    /// fell outside `window`: opened on the side it fell out of. None when
    /// it fell within (the values stand).
    fn outside_window(&self, found: &[f64], (low, high): (f64, f64)) -> Option<(f64, f64)> {
        let best = found.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if best >= high {
            Some((low, f64::INFINITY))
        } else if best <= low && low.is_finite() {
            Some((f64::NEG_INFINITY, high))
        } else {
            None
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if !self.stopped {
            // A node costs microseconds at least (a clone and an action
            // applied), so reading the clock every few nodes is cheap (the
            // CPU clock is a system call, the wall clock is not). The
            // first iteration may run over the time (up to a limit, and
            // never past the hard one): a busy machine must not leave some
            // actions unlooked at.
            let timed = self.limits.deadline.is_some() || self.limits.hard_deadline.is_some();
            let every_few_nodes = self.nodes.is_multiple_of(CLOCK_EVERY_NODES);
            if every_few_nodes {
                // Behind people's requests on a server (see chesskit_core::pace).
                chesskit_core::pace::breathe();
            }
            let now = (timed && every_few_nodes).then(|| self.limits.clock.now());
            let past = |deadline: Duration| now.is_some_and(|now| now >= deadline + self.grace());
            let past_hard = |hard: Duration| now.is_some_and(|now| now >= hard);
            self.stopped = self.nodes >= self.limits.nodes
                || self.limits.deadline.is_some_and(past)
                || self.limits.hard_deadline.is_some_and(past_hard)
                || self.limits.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed));
        }
        self.stopped
    }

    /// Extra time the first iteration may take: up to three times the
    /// budget again, however long that is.
    fn grace(&self) -> Duration {
        match (self.first_iteration, self.limits.deadline) {
            (true, Some(deadline)) => {
                let usual = deadline.saturating_sub(self.started) * 3;
                let allowed = self.limits.first_iteration_deadline.map(|d| d.saturating_sub(deadline));
                usual.max(allowed.unwrap_or_default())
            }
            _ => Duration::ZERO,
        }
    }

    /// Alpha-beta: the value of `game` for the root's side, searched
    /// `depth` actions deep. `ply` is the distance from the root, so that a
    /// nearer win is worth more. `turn_of`: the seat whose turn a noisy
    /// action began (or the root's, at the root's children); if that seat
    /// acts here, it is in the middle of that turn (see
    /// [`Searcher::quiesce`]).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        game: &mut dyn SearchNode,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        ply: u32,
        turn_of: Option<Seat>,
    ) -> f64 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0.0;
        }
        let Some(actor) = game.first_to_act() else { return self.end_value(game, ply) };
        let continuing = turn_of == Some(actor);
        let depth = depth + u32::from(self.techniques.check_extensions && game.in_check());
        if depth == 0 {
            return self.quiesce(game, actor, alpha, beta, ply, QUIESCENCE_DEPTH, continuing);
        }
        let key = position_key(game, actor);
        let mut table_best = None;
        if let Some(entry) = self.table.get(key) {
            if entry.depth >= depth {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower => alpha = alpha.max(entry.value),
                    Bound::Upper => beta = beta.min(entry.value),
                }
                if alpha >= beta {
                    return entry.value;
                }
            }
            table_best = entry.best;
        }
        let mut frame = self.take_frame(ply);
        let estimate = self.pruning_estimate(game, continuing);
        let value = match self.cut_on_a_pass(game, &mut frame, actor, depth, (alpha, beta), (ply, estimate)) {
            Some(bound) => bound,
            None => {
                let pruning = (ply, continuing, estimate);
                self.search_children(game, &mut frame, actor, depth, (alpha, beta), pruning, key, table_best)
            }
        };
        self.put_frame(ply, frame);
        value
    }

    /// The static estimate of a node for the prunings that read it (on a
    /// pass, [`Searcher::cut_on_a_pass`], and of quiet actions,
    /// [`Searcher::quiet_pruning_estimate`]): where the game vouches for it
    /// ([`SearchNode::may_pass`]), between turns and against rivals. Worked
    /// out once for both, as the evaluation is much of a node's cost.
    fn pruning_estimate(&self, game: &dyn SearchNode, continuing: bool) -> Option<f64> {
        let techniques = self.techniques;
        let prunes = techniques.null_move || techniques.reverse_futility || techniques.quiet_pruning;
        (prunes && !continuing && self.rivals && game.may_pass()).then(|| self.estimate(game))
    }

    /// The bound of the window the side to act reaches beyond, when even
    /// a pass would get it there, so that the node need not be searched:
    /// where the game allows a pass ([`SearchNode::may_pass`]), not in the
    /// middle of a turn (`estimate`, [`Searcher::pruning_estimate`], is
    /// None otherwise), by the estimate near the leaves
    /// ([`Techniques::reverse_futility`]) or by the pass searched
    /// shallower ([`Techniques::null_move`]). None: search the node.
    fn cut_on_a_pass(
        &mut self,
        game: &mut dyn SearchNode,
        frame: &mut Frame,
        actor: Seat,
        depth: u32,
        (alpha, beta): (f64, f64),
        (ply, estimate): (u32, Option<f64>),
    ) -> Option<f64> {
        let techniques = self.techniques;
        if !(techniques.null_move || techniques.reverse_futility) {
            return None;
        }
        let estimate = estimate?;
        let maximising = self.friends.get(actor).copied().unwrap_or(false);
        // The bound the actor must reach, and the sign that makes its gain positive.
        let (bound, sign) = if maximising { (beta, 1.0) } else { (alpha, -1.0) };
        if !bound.is_finite() || bound.abs() >= WIN / 2.0 {
            return None;
        }
        let margin = estimate * sign - bound * sign;
        if techniques.reverse_futility && depth <= FUTILITY_MAX_DEPTH && margin >= FUTILITY_MARGIN * f64::from(depth) {
            return Some(bound);
        }
        let passed_here = ply < 64 && self.passed & (1 << ply) != 0;
        if !techniques.null_move || depth < NULL_MIN_DEPTH || margin < 0.0 || passed_here || ply >= 63 {
            return None;
        }
        if !make_pass(game, &mut frame.slots) {
            return None;
        }
        let reduced = depth.saturating_sub(1 + NULL_REDUCTION + depth / NULL_DEEPER_EVERY);
        let (low, high) = if maximising { (beta - NULL_WINDOW, beta) } else { (alpha, alpha + NULL_WINDOW) };
        self.passed |= 1 << (ply + 1);
        let value = self.search(frame.slots[0].as_mut(), reduced, low, high, ply + 1, None);
        self.passed &= !(1 << (ply + 1));
        let reached = if maximising { value >= beta } else { value <= alpha };
        (reached && !self.stopped).then_some(bound)
    }

    /// The frame of `ply` ([`Frame`]), taken out of the searcher for a
    /// node there to use; [`Searcher::put_frame`] gives it back.
    fn take_frame(&mut self, ply: u32) -> Frame {
        let ply = ply as usize;
        if self.frames.len() <= ply {
            self.frames.resize_with(ply + 1, Frame::default);
        }
        std::mem::take(&mut self.frames[ply])
    }

    fn put_frame(&mut self, ply: u32, frame: Frame) {
        self.frames[ply as usize] = frame;
    }

    /// [`Searcher::search`] past the table: each action of `actor` in
    /// order, the children kept in `frame`, and the result stored under
    /// `key`. `estimate`: the node's [`Searcher::pruning_estimate`].
    #[allow(clippy::too_many_arguments)]
    fn search_children(
        &mut self,
        game: &mut dyn SearchNode,
        frame: &mut Frame,
        actor: Seat,
        depth: u32,
        (mut alpha, mut beta): (f64, f64),
        (ply, continuing, estimate): (u32, bool, Option<f64>),
        key: u64,
        table_best: Option<u64>,
    ) -> f64 {
        let maximising = self.friends.get(actor).copied().unwrap_or(false);
        let (alpha0, beta0) = (alpha, beta);
        let mut best_value = if maximising { f64::NEG_INFINITY } else { f64::INFINITY };
        let mut best_action = None;
        let prune_from = self.quiet_pruning_estimate(game, actor, depth, estimate);
        self.ordered(game, frame, actor, table_best, ply);
        // The noisy children hold the first slots; the quiet action searched
        // now, the next.
        let quiet_slot = frame.ranked.len();
        for searched in 0..frame.searched_count() {
            let Some((index, slot)) = frame.searched(searched) else { break };
            let action: SearchAction = game.actions(actor)[index];
            // Quiet actions are applied only when their turn comes: a cut
            // before them saves the work.
            let slot = match slot {
                Some(slot) => slot,
                None if make_child(game, actor, index, &mut frame.slots, quiet_slot) => quiet_slot,
                None => continue,
            };
            let child = frame.slots[slot].as_mut();
            let turn = (action.noisy || continuing).then_some(actor);
            let late_quiet = !action.noisy && !continuing && Some(action.id) != table_best;
            if let Some(estimate) = prune_from.filter(|_| late_quiet && best_action.is_some()) {
                let bound = if maximising { alpha } else { -beta };
                if Self::futile(depth, estimate, bound) && self.killer_rank(ply, action.id) == 0 && !child.in_check() {
                    continue;
                }
            }
            let reduction = if late_quiet && self.reducible(depth, searched, ply, action.id) {
                self.late_move_reduction(child, actor)
            } else {
                0
            };
            let value = self.search_child(child, depth, (alpha, beta), (ply, turn, maximising), reduction);
            if self.stopped {
                return 0.0;
            }
            let better = if maximising { value > best_value } else { value < best_value };
            if better {
                best_value = value;
                best_action = Some(action.id);
            }
            if maximising {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta {
                if !action.noisy {
                    self.add_history(action.id, u64::from(depth * depth));
                    if self.techniques.killers {
                        self.remember_killer(ply, action.id);
                    }
                }
                break;
            }
        }
        if best_action.is_none() {
            return self.estimate(game);
        }
        let bound = if best_value <= alpha0 {
            Bound::Upper
        } else if best_value >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(key, depth, best_value, bound, best_action);
        best_value
    }

    /// The value of a child of a node `depth` actions deep whose window is
    /// `(alpha, beta)`, for a node where `maximising` tells whether the
    /// actor plays on the root's side. A `reduction` searches it that many
    /// actions shallower first, at full depth only when it beats the best
    /// so far there.
    fn search_child(
        &mut self,
        child: &mut dyn SearchNode,
        depth: u32,
        (alpha, beta): (f64, f64),
        (ply, turn, maximising): (u32, Option<Seat>, bool),
        reduction: u32,
    ) -> f64 {
        let improves = |value: f64| if maximising { value > alpha } else { value < beta };
        if reduction > 0 {
            let value = self.search(child, depth - 1 - reduction, alpha, beta, ply + 1, turn);
            if self.stopped || !improves(value) {
                return value;
            }
        }
        self.search(child, depth - 1, alpha, beta, ply + 1, turn)
    }

    /// Whether the action tried `searched`-th at a node `depth` deep may
    /// be reduced, if quiet and not in the middle of a turn: with
    /// [`Techniques::late_move_reductions`], at depth 3 or more, after the
    /// first [`LMR_AFTER`] actions, and not a killer.
    fn reducible(&self, depth: u32, searched: usize, ply: u32, id: u64) -> bool {
        self.techniques.late_move_reductions
            && depth >= LMR_MIN_DEPTH
            && searched >= LMR_AFTER
            && self.killer_rank(ply, id) == 0
    }

    /// The static estimate for `actor` at a node `depth` deep whose quiet
    /// actions may be pruned ([`Techniques::quiet_pruning`]): near the
    /// leaves, where the node has a [`Searcher::pruning_estimate`] (between
    /// turns, where a rival replies and the game vouches for its estimate)
    /// and the actor is not in check. None: no quiet action is pruned here.
    fn quiet_pruning_estimate(
        &self,
        game: &dyn SearchNode,
        actor: Seat,
        depth: u32,
        estimate: Option<f64>,
    ) -> Option<f64> {
        if !self.techniques.quiet_pruning || depth > QUIET_PRUNING_MAX_DEPTH || game.in_check() {
            return None;
        }
        let estimate = estimate?;
        Some(if self.friends.get(actor).copied().unwrap_or(false) { estimate } else { -estimate })
    }

    /// Whether a quiet action at a node `depth` deep where the actor's
    /// estimate is `estimate` and it needs more than `bound` is futile: the
    /// estimate and a margin a depth stay at or below the bound.
    fn futile(depth: u32, estimate: f64, bound: f64) -> bool {
        estimate + QUIET_FUTILITY_MARGIN * f64::from(depth) <= bound
    }

    /// How many actions shallower a late quiet action that led to `child`
    /// is searched first: one, unless `actor` acts again there (a turn of
    /// several steps, as in Adrenaline: the turn's value shows only at its
    /// end, and reducing in it cuts the reply off).
    fn late_move_reduction(&self, child: &dyn SearchNode, actor: Seat) -> u32 {
        match child.first_to_act() {
            Some(next) if next != actor => 1,
            _ => 0,
        }
    }

    /// Past the depth: the static estimate, unless a noisy action (a
    /// capture) improves on it for the side to act.
    ///
    /// A turn of several actions that a noisy one began (a capture, then
    /// the burial of the captured piece, a card, more steps) is played out
    /// whole, every action of it, before the estimate may stand: standing
    /// in the middle of one's own turn would count the capture and never
    /// look at the recapture, and the player gave its queen for a knight.
    /// Only where a rival could reply ([`Searcher::rivals`]).
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        game: &mut dyn SearchNode,
        actor: Seat,
        mut alpha: f64,
        mut beta: f64,
        ply: u32,
        left: u32,
        continuing: bool,
    ) -> f64 {
        let stand = self.estimate(game);
        let maximising = self.friends.get(actor).copied().unwrap_or(false);
        if continuing && self.rivals && left > 0 {
            // The rest of the turn: every action (or one of the game's
            // alike choices), no standing on the estimate (kept only when
            // no action applies).
            let mut frame = self.take_frame(ply);
            frame.chosen.clear();
            if self.techniques.alike_rests {
                game.quiescence_rest_of_turn_into(actor, &mut frame.chosen);
            } else {
                frame.chosen.extend(0..game.action_count(actor));
            }
            let value = self.quiesce_children(game, &mut frame, actor, (alpha, beta), ply, left, None);
            self.put_frame(ply, frame);
            return value.unwrap_or(stand);
        }
        if maximising {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        if left == 0 {
            return stand;
        }
        let mut frame = self.take_frame(ply);
        frame.chosen.clear();
        game.noisy_actions_into(actor, &mut frame.chosen);
        if self.techniques.static_exchange {
            let stand_for_actor = if maximising { stand } else { -stand };
            let bound_for_actor = if maximising { alpha } else { -beta };
            frame.chosen.retain(|&index| may_reach(game.exchange_value(index), stand_for_actor, bound_for_actor));
        }
        let value = self.quiesce_children(game, &mut frame, actor, (alpha, beta), ply, left, Some(stand));
        self.put_frame(ply, frame);
        value.unwrap_or(stand)
    }

    /// The best value for `actor` among the actions `frame.chosen`
    /// searched by [`Searcher::quiesce`], starting from `floor` (the
    /// estimate a side may stand on, if it may); `None` when no action
    /// applies and there is no floor.
    #[allow(clippy::too_many_arguments)]
    fn quiesce_children(
        &mut self,
        game: &mut dyn SearchNode,
        frame: &mut Frame,
        actor: Seat,
        (mut alpha, mut beta): (f64, f64),
        ply: u32,
        left: u32,
        floor: Option<f64>,
    ) -> Option<f64> {
        let maximising = self.friends.get(actor).copied().unwrap_or(false);
        let mut best = floor;
        self.children_best_first(game, frame, actor, ply);
        for ranked in 0..frame.ranked.len() {
            if self.stopped {
                return Some(0.0);
            }
            let child = frame.slots[frame.ranked[ranked].2].as_mut();
            let value = match child.first_to_act() {
                None => self.end_value(child, ply + 1),
                Some(next) => self.quiesce(child, next, alpha, beta, ply + 1, left - 1, next == actor),
            };
            if self.stopped {
                return Some(0.0);
            }
            if best.is_none_or(|b| if maximising { value > b } else { value < b }) {
                best = Some(value);
            }
            if maximising {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The actions of `actor` in the order to search them, into
    /// `frame.order`, the games the noisy ones lead to in its slots: the
    /// table's best action first, then the noisy actions, the most
    /// promising first, then the quiet ones: this ply's killers, then
    /// those that caused most cuts.
    fn ordered(
        &mut self,
        game: &mut dyn SearchNode,
        frame: &mut Frame,
        actor: Seat,
        table_best: Option<u64>,
        ply: u32,
    ) {
        frame.chosen.clear();
        frame.quiet.clear();
        frame.unkeyed.clear();
        // The table's best if it is quiet: taken out of the quiet ones, to
        // go first unless a noisy action is the table's best.
        let mut quiet_best = None;
        for (index, action) in game.actions(actor).iter().enumerate() {
            if action.noisy {
                frame.chosen.push(index);
            } else if quiet_best.is_none() && Some(action.id) == table_best {
                quiet_best = Some(index);
            } else {
                match (self.killer_rank(ply, action.id), self.history_of(action.id)) {
                    (0, 0) => frame.unkeyed.push(index),
                    key => frame.quiet.push((key, index)),
                }
            }
        }
        frame.quiet.sort_by_key(|(key, _)| std::cmp::Reverse(*key));
        self.children_best_first(game, frame, actor, ply);
        frame.order.clear();
        // The children are made: `chosen` holds the losing captures' ranks.
        frame.chosen.clear();
        for (rank, &(_, index, slot)) in frame.ranked.iter().enumerate() {
            if self.techniques.static_exchange && game.exchange_value(index).is_some_and(|gain| gain < 0.0) {
                frame.chosen.push(rank);
            } else {
                frame.order.push((index, Some(slot)));
            }
        }
        frame.order.extend(frame.quiet.iter().map(|&(_, index)| (index, None)));
        frame.order.extend(frame.chosen.iter().map(|&rank| (frame.ranked[rank].1, Some(frame.ranked[rank].2))));
        // The node keeps its list: read again, not copied.
        let listed = game.actions(actor);
        let noisy_best =
            frame.order.iter().position(|&(index, slot)| slot.is_some() && Some(listed[index].id) == table_best);
        match (noisy_best, quiet_best) {
            (Some(at), _) => {
                frame.order[..=at].rotate_right(1);
                // Two actions with one id (a hash collision): not lost.
                if let Some(index) = quiet_best {
                    frame.unkeyed.insert(0, index);
                }
            }
            (None, Some(index)) => frame.order.insert(0, (index, None)),
            (None, None) => {}
        }
    }

    /// How often the quiet action `id` caused a cut, weighted by depth
    /// ([`Searcher::history`]); the filter answers first for most actions.
    fn history_of(&self, id: u64) -> u64 {
        if self.history_filter.may_hold(id) {
            self.history.get(&id).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// Counts a cut by the quiet action `id` at `depth`'s weight.
    fn add_history(&mut self, id: u64, weight: u64) {
        self.history_filter.add(id);
        *self.history.entry(id).or_default() += weight;
    }

    /// How early a quiet action is tried for being a killer at `ply`: 2 for
    /// the latest, 1 for the one before, 0 for any other action.
    fn killer_rank(&self, ply: u32, id: u64) -> u8 {
        let Some(killers) = self.killers.get(ply as usize).filter(|_| self.techniques.killers) else { return 0 };
        match killers.iter().position(|&killer| killer == Some(id)) {
            Some(0) => 2,
            Some(_) => 1,
            None => 0,
        }
    }

    /// Remembers a quiet action that caused a cut at `ply` as the latest
    /// killer there: an action that refutes one line often refutes its
    /// neighbours, which differ in what was played earlier.
    fn remember_killer(&mut self, ply: u32, id: u64) {
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(id) {
            killers[1] = killers[0];
            killers[0] = Some(id);
        }
    }

    /// The games the actions `frame.chosen` (places in the list the caller
    /// had `game` make for `actor`) lead to, made in the frame's
    /// first slots and ranked in `frame.ranked` best for `actor` first: a
    /// game won at once, then by the static estimate after the action.
    /// Searching a capture of the king (or of the queen) before the pawn
    /// captures cuts most of the tree of captures without game-specific
    /// ordering rules.
    fn children_best_first(&mut self, game: &mut dyn SearchNode, frame: &mut Frame, actor: Seat, ply: u32) {
        let maximising = self.friends.get(actor).copied().unwrap_or(false);
        frame.ranked.clear();
        for &action in &frame.chosen {
            self.nodes += 1;
            if self.out_of_budget() {
                break;
            }
            let slot = frame.ranked.len();
            if !make_child(game, actor, action, &mut frame.slots, slot) {
                continue;
            }
            let child = frame.slots[slot].as_ref();
            let value = match child.first_to_act() {
                None => self.end_value(child, ply + 1),
                Some(_) => self.estimate(child),
            };
            let for_actor = if maximising { value } else { -value };
            frame.ranked.push((for_actor, action, slot));
        }
        frame.ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    }

    /// The game's own estimate for the root seat, or the material of the
    /// root seat's view.
    fn estimate(&self, game: &dyn SearchNode) -> f64 {
        game.heuristic(self.root)
            .unwrap_or_else(|| material_balance(&game.board_view(Viewer::Seat(self.root)), self.root))
    }

    /// The value of `game`, which has no seat to act, `ply` actions from
    /// the root: its outcome's ([`Searcher::outcome_value`]); a game that
    /// names no seat and no outcome is counted a draw.
    fn end_value(&mut self, game: &dyn SearchNode, ply: u32) -> f64 {
        match game.to_act() {
            ToAct::Over(outcome) => self.outcome_value(&outcome, ply),
            ToAct::Seats(_) => 0.0,
        }
    }

    /// A finished game: a win for the root's side, nearer is better; a
    /// loss, later is better; a draw even. Games that keep score add the
    /// root's margin over the best other side, so a solitaire is played
    /// for the highest score.
    fn outcome_value(&mut self, outcome: &Outcome, ply: u32) -> f64 {
        self.saw_scores |= outcome.scores.is_some();
        let friend = |s: &Seat| self.friends.get(*s).copied().unwrap_or(false);
        let result = if outcome.winners.iter().any(friend) {
            WIN - f64::from(ply)
        } else if outcome.winners.is_empty() {
            0.0
        } else {
            -WIN + f64::from(ply)
        };
        match &outcome.scores {
            None => result,
            // The lowest total wins (Chess Golf): there a margin counts the other way.
            Some(scores) if self.score_order == ScoreOrder::Lowest => {
                result / 10.0 - score_margin(scores, self.root, &self.friends)
            }
            // Every seat on one side (a solitaire, a cooperative game):
            // the score is the point, whether or not the book calls the
            // ending a win. Valued as a win beyond any position, a king
            // capture worth nothing yet would end the game at once.
            Some(scores) if self.friends.iter().all(|&f| f) => {
                score_margin(scores, self.root, &self.friends) + result / WIN * SIDE_RESULT_WEIGHT
            }
            Some(scores) => result / 10.0 + score_margin(scores, self.root, &self.friends),
        }
    }
}

/// Whether a capture past the depth that wins `exchange` (None: not known)
/// may bring the actor's estimate `stand` to its `bound`: not if it loses
/// material, nor if even its gain and [`DELTA_MARGIN`] fall short.
fn may_reach(exchange: Option<f64>, stand: f64, bound: f64) -> bool {
    exchange.is_none_or(|gain| gain >= 0.0 && stand + gain + DELTA_MARGIN > bound)
}

/// The root's score less the best score outside its side (or the score
/// itself when every seat is on its side).
fn score_margin(scores: &[i64], root: Seat, friends: &[bool]) -> f64 {
    let own = scores.get(root).copied().unwrap_or(0) as f64;
    let rival =
        scores.iter().enumerate().filter(|(s, _)| !friends.get(*s).copied().unwrap_or(false)).map(|(_, &v)| v).max();
    own - rival.map_or(0.0, |r| r as f64)
}

/// Writes the game after `seat`'s action at `index` of `game`'s list into
/// `slots[at]`, reusing that slot, or making it when `at` is just past the
/// last; false when the rules refuse the action.
fn make_child(
    game: &dyn SearchNode,
    seat: Seat,
    index: usize,
    slots: &mut Vec<Box<dyn SearchNode>>,
    at: usize,
) -> bool {
    debug_assert!(at <= slots.len(), "slots are filled in order");
    match slots.get_mut(at) {
        Some(slot) => game.child_into(seat, index, slot),
        None => game.child(seat, index).map(|child| slots.push(child)).is_some(),
    }
}

/// Writes the game after the seat to act passes into `slots[0]`, reusing
/// it, or making it when there is none; false where the game allows no pass.
fn make_pass(game: &dyn SearchNode, slots: &mut Vec<Box<dyn SearchNode>>) -> bool {
    match slots.first_mut() {
        Some(slot) => game.pass_into(slot),
        None => game.pass().map(|passed| slots.push(passed)).is_some(),
    }
}

/// After an iteration stopped part way, keeps in the last finished
/// iteration's `values` the best action of the unfinished one, when the
/// deeper search proved it better than the last iteration's best:
/// `finished` is the part of the order the unfinished iteration searched
/// (the last best first), with their deeper values in `found`. Those values
/// replace the shallower ones, and the actions not reached are ranked just
/// below the new best (their shallower values were measured against a best
/// that the deeper search has since found worse). With only the last best
/// finished, nothing was proven and the values stand.
fn keep_a_better_action_of_an_unfinished_iteration(values: &mut [f64], found: &[f64], finished: &[usize]) {
    let Some((&last_best, others)) = finished.split_first() else { return };
    let better = others.iter().copied().filter(|&i| found[i] > found[last_best]);
    let Some(best) = better.max_by(|&a, &b| found[a].total_cmp(&found[b])) else { return };
    let new_best = found[best];
    for value in values.iter_mut() {
        *value = value.min(new_best - FAIL_LOW);
    }
    for &i in finished {
        values[i] = found[i];
    }
}

/// The transposition key: the whole truth of the world and who acts.
fn position_key(game: &dyn SearchNode, actor: Seat) -> u64 {
    game.key() ^ mix64(ACTOR_SALT ^ actor as u64)
}

/// Keeps the seat to act apart from the position in [`position_key`].
const ACTOR_SALT: u64 = 0x5851_f42d_4c95_7f2d;

/// The game after each root action, by the action's text: a world drawn
/// for hidden information may list its actions in another order than
/// the game itself, or lack one (then None: it gets no value there).
fn root_children(game: &mut dyn SearchNode, root: Seat, actions: &[String]) -> Vec<Option<Box<dyn SearchNode>>> {
    let listed = game.action_count(root);
    let places: HashMap<String, usize> =
        (0..listed).filter_map(|i| game.action_text(i).map(|text| (text, i))).collect();
    actions.iter().map(|action| places.get(action).and_then(|&i| game.child(root, i))).collect()
}

/// A set of ids that may answer "perhaps" for an id not in it, never "no"
/// for one in it: one bit per value of an id's top 12 bits. A placement
/// lists 960 setups at every node and a handful have a history; testing
/// a bit in 512 bytes spares the others a probe of the history table.
#[derive(Clone, Debug)]
struct IdFilter([u64; 64]);

impl Default for IdFilter {
    fn default() -> IdFilter {
        IdFilter([0; 64])
    }
}

impl IdFilter {
    /// The word and the bit of `id`: its top 12 bits (the ids are hashes,
    /// spread over all 64 bits).
    fn place(id: u64) -> (usize, u64) {
        let bits = (id >> 52) as usize;
        (bits >> 6, 1 << (bits & 63))
    }

    fn add(&mut self, id: u64) {
        let (word, bit) = IdFilter::place(id);
        self.0[word] |= bit;
    }

    fn may_hold(&self, id: u64) -> bool {
        let (word, bit) = IdFilter::place(id);
        self.0[word] & bit != 0
    }
}

/// Hashing for keys that are already well-spread 64-bit hashes (positions,
/// actions): the key is its own hash, which spares a SipHash per lookup.
#[derive(Clone, Copy, Debug, Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8) | u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type IdentityHash = std::hash::BuildHasherDefault<IdentityHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use chesskit_core::Options;

    fn chess(fen: &str) -> Box<dyn DynGame> {
        chesskit_games::create("chess", Options::new(), 0, Some(fen)).unwrap()
    }

    fn choose(fen: &str, nodes: u64) -> String {
        let game = chess(fen);
        let seat = if fen.contains(" w ") { 0 } else { 1 };
        SearchPlayer::new(7, Budget::nodes(nodes, 1)).choose(game.as_ref(), seat).unwrap()
    }

    #[test]
    fn mates_in_one_and_in_two() {
        assert_eq!(choose("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", 5_000), "e1e8");
        // 1. Rxd8+ Re8 (the only reply) 2. Rxe8#; no mate in one, as Re8 can block.
        assert_eq!(choose("3r2k1/4rppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1", 100_000), "d1d8");
    }

    #[test]
    fn far_ahead_it_mates_rather_than_grabs() {
        // From a level 4 game against random play that ended drawn by the
        // fifty-move rule: Black, fifty pawns up, played Qd3+ (Kxd3)
        // instead of one of six mates in one.
        let mates = ["a8a3", "c5c3", "c5a3", "c5c1", "b1b3", "a1c3"];
        let choice = choose("r3k2r/8/2pb4/2qbp2p/3nn2p/4Kp2/p7/qq6 b kq - 1 53", 5_000);
        assert!(mates.contains(&choice.as_str()), "{choice}");
    }

    #[test]
    fn a_turn_begun_by_a_capture_is_played_out_before_the_estimate_stands() {
        // Zombie Chess: after a capture the capturer buries the piece, still
        // in its turn. Standing on the estimate at the burial counted the
        // knight and never saw Bxc5; level 4 gave its queen for a knight so.
        // Every capture the queen can make here loses her.
        let game = chesskit_games::create(
            "zombie",
            Options::new(),
            0,
            Some("rnb1kb1r/pppp1ppp/8/2n5/3Q4/8/PPP2PPP/RNB1KBNR w KQkq - 0 1"),
        )
        .unwrap();
        let one_ply = Budget { max_depth: 1, ..Budget::nodes(100_000, 1) };
        let choice = SearchPlayer::new(7, one_ply).choose(game.as_ref(), 0).unwrap();
        assert!(!["d4c5", "d4g7", "d4a7", "d4d7"].contains(&choice.as_str()), "{choice}");
    }

    #[test]
    fn does_not_leave_its_queen_to_be_taken() {
        // The queen on d4 is attacked by the pawn on e5: it must move, not play a4.
        let attacked = "4k3/8/8/4p3/3Q4/8/P7/4K3 w - - 0 1";
        let choice = choose(attacked, 30_000);
        assert!(choice.starts_with("d4"), "{choice}");
    }

    #[test]
    fn takes_a_free_piece_but_not_a_defended_one_with_the_queen() {
        // Qxd5 loses the queen to exd5; Qxh5 wins a free knight.
        let choice = choose("4k3/8/4p3/3n3n/8/8/8/3QK3 w - - 0 1", 30_000);
        assert_eq!(choice, "d1h5");
    }

    #[test]
    fn worlds_are_averaged_by_expected_result_unless_they_keep_score() {
        let world = |values: Vec<f64>, scored| WorldValues { values, weight: 1, scored };
        // Action 0: a lead of nine pawns in both worlds. Action 1: a win in
        // one world, a loss in the other.
        let won_or_lost = [world(vec![9.0, WIN - 1.0], false), world(vec![9.0, -WIN + 2.0], false)];
        let means = mean_over_worlds(&won_or_lost);
        assert!(means[0] > means[1], "a sure lead beats a coin toss: {means:?}");
        // In a game kept by score, the mean score is what counts.
        let scores = [world(vec![9.0, 40.0], true), world(vec![9.0, -10.0], true)];
        let means = mean_over_worlds(&scores);
        assert!(means[1] > means[0], "{means:?}");
        // A forced win beats any lead, however large; a lead beats a forced loss.
        let mate_or_material = [world(vec![60.0, WIN - 1.0, -WIN + 1.0, -60.0], false)];
        let means = mean_over_worlds(&mate_or_material);
        assert!(means[1] > means[0] && means[0] > means[3] && means[3] > means[2], "{means:?}");
        // A world drawn twice counts twice.
        let twice = [WorldValues { values: vec![0.0, 1.0], weight: 2, scored: true }, world(vec![1.0, 0.0], true)];
        assert_eq!(mean_over_worlds(&twice), vec![1.0, 2.0]);
        assert!(expected_result(WIN - 1.0) > expected_result(WIN - 3.0), "nearer wins first");
        assert!(expected_result(3.0) > 0.5 && expected_result(3.0) < expected_result(WIN - 50.0));
    }

    #[test]
    fn with_every_seat_on_one_side_the_score_counts_not_the_name_of_the_ending() {
        let partners = vec![SeatInfo::new("White").with_team(0), SeatInfo::new("Black").with_team(0)];
        let limits = Limits {
            clock: Clock::Wall,
            deadline: None,
            first_iteration_deadline: None,
            hard_deadline: None,
            nodes: 1,
            max_depth: 1,
            stop: None,
        };
        let mut searcher = Searcher::new(0, &partners, ScoreOrder::Highest, limits);
        // Cooperative Chess: a king taken at once, nothing removed, scores
        // 0; taken later with two types gone, 2. And a higher score beats
        // a lower one whatever the ending is called.
        let early_king = searcher.outcome_value(&Outcome::win(vec![0, 1], "king captured").with_scores(vec![0, 0]), 3);
        let two_types_later =
            searcher.outcome_value(&Outcome::win(vec![0, 1], "king captured").with_scores(vec![2, 2]), 9);
        assert!(two_types_later > early_king + 1.0, "{early_king} {two_types_later}");
        let lost_with_more = searcher.outcome_value(&Outcome::draw("under 32").with_scores(vec![35, 35]), 3);
        let won_with_less = searcher.outcome_value(&Outcome::win(vec![0, 1], "won").with_scores(vec![3, 3]), 3);
        assert!(lost_with_more > won_with_less);
        assert!(early_king > searcher.outcome_value(&Outcome::draw("out of cards").with_scores(vec![0, 0]), 3));
        // Against a rival side, winning still outweighs any margin.
        let mut duel = Searcher::new(
            0,
            &SeatInfo::white_black(),
            ScoreOrder::Highest,
            Limits { nodes: 1, ..searcher.limits.clone() },
        );
        let won = duel.outcome_value(&Outcome::win(vec![0], "won").with_scores(vec![1, 9]), 3);
        assert!(won > duel.outcome_value(&Outcome::draw("drawn").with_scores(vec![50, 0]), 3));
    }

    #[test]
    fn in_a_solitaire_each_action_stands_on_the_estimate_rather_than_playing_out_the_game() {
        // Every Parade action is the one player's, so each looked like the
        // rest of a turn, and quiescence searched six more plies full width
        // below every leaf: 20,000 nodes did not finish even depth 1 (now
        // depth 2), and level 4 played no better than random (-15.97
        // against -16.00).
        let parade = chesskit_games::create("parade", Options::new(), 11, None).unwrap();
        let mut depth = 0;
        let stop = Arc::new(AtomicBool::new(false));
        analyse(parade.as_ref(), 0, Budget::nodes(20_000, 1), stop, &mut |iteration| depth = iteration.depth);
        assert!(depth >= 2, "reached depth {depth}");
    }

    /// A searcher for `root` in a game of two seats, `nodes` nodes and
    /// `max_depth` deep, using `techniques` only.
    fn searcher(root: Seat, nodes: u64, max_depth: u32, techniques: Techniques) -> Searcher {
        let limits = Limits {
            clock: Clock::Wall,
            deadline: None,
            first_iteration_deadline: None,
            hard_deadline: None,
            nodes,
            max_depth,
            stop: None,
        };
        let mut searcher = Searcher::new(root, &SeatInfo::white_black(), ScoreOrder::Highest, limits);
        searcher.techniques = techniques;
        searcher
    }

    /// Middle-game positions with captures on both sides.
    const MIDDLE_GAMES: [&str; 3] = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8",
        "r1bq1rk1/pp3ppp/2n1pn2/2bp4/2P5/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    ];

    /// The best value at each depth from 1 to `max_depth` searched with
    /// `techniques`, and the nodes it took.
    fn values_by_depth(fen: &str, max_depth: u32, techniques: Techniques) -> (Vec<f64>, u64) {
        let game = chess(fen);
        let actions: Vec<String> = game.search_actions(0).into_iter().map(|(a, _)| a).collect();
        let mut searcher = searcher(0, u64::MAX, max_depth, techniques);
        let mut best = Vec::new();
        searcher.root_reporting(game.search_node(), &actions, &mut |_, values, _| {
            best.push(values.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        });
        (best, searcher.nodes)
    }

    /// `Searcher::ordered` sorts only the quiet actions that have a key
    /// and moves the table's best to the front in one pass: the quiet
    /// actions must come in the order a stable sort of the whole list by
    /// key gives, with the table's best first, in a chess middle game and
    /// at Cloak and Dagger's placement, with and without history.
    #[test]
    fn the_quiet_actions_are_ordered_as_a_stable_sort_by_key_with_the_tables_best_first() {
        let mut placement = chesskit_games::create("cloak-and-dagger", Options::new(), 0, None).unwrap();
        placement.apply(0, "place RNBQKBNR").unwrap();
        for game in [chess(MIDDLE_GAMES[1]), placement] {
            let ToAct::Seats(seats) = game.to_act() else { panic!("a seat acts") };
            let seat = seats[0];
            let mut node = game.search_node();
            let quiet: Vec<u64> = node.actions(seat).iter().filter(|a| !a.noisy).map(|a| a.id).collect();
            let mut searcher = searcher(seat, u64::MAX, 4, Techniques::ALL);
            for with_history in [false, true] {
                if with_history {
                    for (n, &id) in quiet.iter().enumerate().filter(|(n, _)| n % 7 == 3) {
                        searcher.add_history(id, (n % 5) as u64);
                    }
                }
                let mut expected = quiet.clone();
                expected.sort_by_key(|id| std::cmp::Reverse(searcher.history.get(id).copied().unwrap_or(0)));
                for table_best in [None, Some(expected[expected.len() / 2])] {
                    let mut frame = Frame::default();
                    searcher.ordered(node.as_mut(), &mut frame, seat, table_best, 2);
                    let order = quiet_ids_in_order(&frame, node.as_mut(), seat);
                    let mut wanted = expected.clone();
                    if let Some(best) = table_best {
                        wanted.retain(|&id| id != best);
                        wanted.insert(0, best);
                    }
                    assert_eq!(order, wanted, "history {with_history}, table's best {table_best:?}");
                }
            }
        }
    }

    /// The ids of the quiet actions in the order `frame` searches them.
    fn quiet_ids_in_order(frame: &Frame, node: &mut dyn SearchNode, seat: Seat) -> Vec<u64> {
        let listed = node.actions(seat);
        let searched = (0..frame.searched_count()).filter_map(|n| frame.searched(n));
        searched.map(|(index, _)| listed[index]).filter(|action| !action.noisy).map(|action| action.id).collect()
    }

    /// The history's filter never hides an action that has a history: each
    /// of many ids added is held, and an id of every top-bits value too.
    #[test]
    fn the_history_filter_holds_every_id_added() {
        let mut filter = IdFilter::default();
        let ids: Vec<u64> = (0..5000u64).map(chesskit_core::search_node::mix64).collect();
        for (n, &id) in ids.iter().enumerate() {
            filter.add(id);
            assert!(ids[..=n].iter().all(|&held| filter.may_hold(held)), "after {n} ids");
        }
        let mut sparse = IdFilter::default();
        sparse.add(ids[0]);
        assert_eq!(
            ids.iter().filter(|&&id| sparse.may_hold(id)).count(),
            ids.iter().filter(|&&id| id >> 52 == ids[0] >> 52).count(),
            "one top-bits value"
        );
    }

    #[test]
    fn killer_moves_two_quiet_cutting_moves_per_ply_are_tried_before_the_other_quiet_moves() {
        let game = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let mut node = game.search_node();
        let quiet: Vec<u64> = node.actions(0).iter().filter(|a| !a.noisy).map(|a| a.id).collect();
        let quiet_order = |searcher: &mut Searcher, node: &mut dyn SearchNode, ply| -> Vec<u64> {
            let mut frame = Frame::default();
            searcher.ordered(node, &mut frame, 0, None, ply);
            quiet_ids_in_order(&frame, node, 0)
        };
        let mut with = searcher(0, u64::MAX, 4, Techniques::ALL);
        let plain = quiet_order(&mut with, node.as_mut(), 2);
        for &id in &[quiet[5], quiet[9], quiet[12]] {
            with.remember_killer(2, id);
        }
        let killed = quiet_order(&mut with, node.as_mut(), 2);
        assert_eq!(killed[..2], [quiet[12], quiet[9]], "the two latest, the latest first");
        assert_eq!(killed.len(), quiet.len(), "no action lost or repeated");
        assert_eq!(quiet_order(&mut with, node.as_mut(), 3), plain, "killers are kept per ply");
        let mut without = searcher(0, u64::MAX, 4, Techniques { killers: false, ..Techniques::ALL });
        without.remember_killer(2, quiet[12]);
        assert_eq!(quiet_order(&mut without, node.as_mut(), 2), plain, "switched off, no killer counts");
    }

    #[test]
    fn aspiration_and_killers_find_the_value_alpha_beta_finds_at_each_depth() {
        // Neither changes what a depth is worth, only how much
        // of the tree is searched to learn it.
        let exact = Techniques {
            late_move_reductions: false,
            null_move: false,
            reverse_futility: false,
            check_extensions: false,
            static_exchange: false,
            quiet_pruning: false,
            ..Techniques::ALL
        };
        for fen in MIDDLE_GAMES {
            let (with, _) = values_by_depth(fen, 4, exact);
            let (plain, _) = values_by_depth(fen, 4, Techniques::NONE);
            assert_eq!(with.len(), 4, "{fen}");
            for (a, b) in with.iter().zip(&plain) {
                assert!((a - b).abs() < 1e-9, "{fen}: {with:?} against {plain:?}");
            }
        }
    }

    #[test]
    fn the_techniques_together_search_fewer_nodes_to_the_same_depth() {
        let nodes = |techniques| MIDDLE_GAMES.iter().map(|fen| values_by_depth(fen, 4, techniques).1).sum::<u64>();
        let (with, plain) = (nodes(Techniques::ALL), nodes(Techniques::NONE));
        // A fifth fewer at least: 136,136 against 176,964 when PVS was
        // removed (it had made the saving a quarter).
        assert!(with * 5 < plain * 4, "{with} nodes against {plain}");
    }

    #[test]
    fn an_aspiration_window_is_opened_on_the_side_the_value_fell_out_of() {
        let searcher = searcher(0, 1, 1, Techniques::ALL);
        let window = (1.0, 2.0);
        assert_eq!(searcher.outside_window(&[0.5, 1.5], window), None, "within: the values stand");
        assert_eq!(searcher.outside_window(&[0.5, 2.0], window), Some((1.0, f64::INFINITY)));
        assert_eq!(searcher.outside_window(&[0.5, 1.0], window), Some((f64::NEG_INFINITY, 2.0)));
        let whole = (f64::NEG_INFINITY, f64::INFINITY);
        assert_eq!(searcher.outside_window(&[-50.0], whole), None, "the whole line is never opened");
        assert_eq!(searcher.aspiration_window(2, &[0.25, 3.0]), (2.5, 3.5));
        assert_eq!(searcher.aspiration_window(2, &[WIN - 3.0]), whole, "not around a forced result");
        assert_eq!(searcher.aspiration_window(1, &[0.0]), whole, "not without a last iteration");
    }

    #[test]
    fn late_move_reductions_are_not_made_in_a_turn_of_several_steps() {
        // Adrenaline Chess: "When you move a piece that has checkers under
        // it, it first makes its ordinary chess move ... Then it may spend
        // one checker to take one extra step" (docs/games/adrenaline.md):
        // after a quiet move of that piece its mover acts again.
        let mut game = chesskit_games::create("adrenaline", Options::new(), 0, None).unwrap();
        for (seat, action) in [(0, "e2e4"), (1, "d7d5"), (0, "e4d5")] {
            game.apply(seat, action).unwrap();
        }
        // White ends the capturing turn with a checker under the black queen.
        let checker = game.legal_actions(0).into_iter().find(|a| a.contains("d8")).expect("a checker for the queen");
        game.apply(0, &checker).unwrap();
        let mut node = game.search_node();
        let texts: Vec<String> = (0..node.actions(1).len()).map(|i| node.action_text(i).unwrap()).collect();
        let place = |text: &str| texts.iter().position(|t| t == text).unwrap_or_else(|| panic!("{text} in {texts:?}"));
        let searcher = searcher(1, u64::MAX, 4, Techniques::ALL);
        let queen_moved = node.child(1, place("d8d6")).unwrap();
        assert_eq!(queen_moved.to_act(), ToAct::one(1), "the queen may step on");
        assert_eq!(searcher.late_move_reduction(queen_moved.as_ref(), 1), 0);
        let knight_moved = node.child(1, place("g8f6")).unwrap();
        assert_eq!(searcher.late_move_reduction(knight_moved.as_ref(), 1), 1);
    }

    #[test]
    fn a_child_written_into_a_used_slot_is_the_child_a_new_node_would_be() {
        let game = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let mut node = game.search_node();
        let count = node.actions(0).len();
        let mut slots = Vec::new();
        assert!(make_child(node.as_ref(), 0, count - 1, &mut slots, 0), "a new slot");
        for index in 0..count {
            assert!(make_child(node.as_ref(), 0, index, &mut slots, 0), "the slot reused");
            let mut fresh = node.child(0, index).unwrap();
            let reused = slots[0].as_mut();
            assert_eq!((reused.key(), reused.to_act()), (fresh.key(), fresh.to_act()));
            assert_eq!(reused.first_to_act(), Some(1));
            assert_eq!(reused.actions(1), fresh.actions(1), "the listing made again, not the parent's");
        }
        assert!(!make_child(node.as_ref(), 0, count, &mut slots, 0), "no such action");
        assert!(!make_child(node.as_ref(), 1, 0, &mut slots, 0), "not listed for that seat");
        assert_eq!(slots.len(), 1);
    }

    /// The quiescence search asks a node only for its noisy actions, listed
    /// alone ([`Game::noisy_actions_into`](chesskit_core::Game::noisy_actions_into)),
    /// and for its count, which skip hashing every action: they must name
    /// the same actions as the full description ([`SearchNode::actions`]),
    /// lead to the same children, and a slot reused after them must list
    /// its own actions, not its parent's.
    #[test]
    fn the_noisy_actions_and_the_count_agree_with_the_described_list_along_random_games() {
        for variant in ["chess", "cloak-and-dagger", "masquerade", "adrenaline", "zombie"] {
            let mut game = chesskit_games::create(variant, Options::new(), 3, None).unwrap();
            let mut rng = GameRng::from_seed(3);
            let mut slots = Vec::new();
            for _ in 0..120 {
                let ToAct::Seats(seats) = game.to_act() else { break };
                let seat = seats[0];
                let mut full = game.search_node();
                let described = full.actions(seat).to_vec();
                let noisy_described: Vec<usize> = (0..described.len()).filter(|&i| described[i].noisy).collect();
                let mut node = game.search_node();
                let mut noisy = Vec::new();
                node.noisy_actions_into(seat, &mut noisy);
                assert_eq!(noisy.len(), noisy_described.len(), "{variant}");
                for (&index, &index_described) in noisy.iter().zip(&noisy_described) {
                    assert_eq!(node.action_text(index), full.action_text(index_described), "{variant}");
                    assert!(make_child(node.as_ref(), seat, index, &mut slots, 0), "{variant}");
                    let fresh = full.child(seat, index_described).unwrap();
                    assert_eq!(slots[0].key(), fresh.key(), "{variant}");
                }
                assert_eq!(node.action_count(seat), described.len(), "{variant}");
                assert_eq!(node.actions(seat), described, "{variant}: described after the noisy ones");
                // A child written over the last one lists anew.
                let count = described.len();
                for index in [0, count / 2, count.saturating_sub(1)].into_iter().filter(|&i| i < count) {
                    if !make_child(node.as_ref(), seat, index, &mut slots, 0) {
                        continue;
                    }
                    let mut fresh = node.child(seat, index).unwrap();
                    let Some(next) = fresh.first_to_act() else { continue };
                    let reused = slots[0].as_mut();
                    reused.noisy_actions_into(next, &mut Vec::new());
                    assert_eq!(reused.actions(next), fresh.actions(next), "{variant}: the child's own list");
                }
                let legal = game.legal_actions(seat);
                let action = rng.choose(&legal).unwrap();
                game.apply(seat, action).unwrap();
            }
        }
    }

    #[test]
    fn the_techniques_that_won_games_are_on_by_default() {
        // Each scored above 50% with its 95% interval against the search
        // without it (docs/dev/engine-speed.md).
        let default = Techniques::default();
        assert!(default.aspiration && default.late_move_reductions, "{default:?}");
        assert!(default.check_extensions && default.null_move, "{default:?}");
        assert!(default.static_exchange && default.quiet_pruning, "{default:?}");
        assert!(!default.killers && !default.reverse_futility, "not shown to win: {default:?}");
        assert!(!default.partial_iteration && !default.kept_table, "not shown to win: {default:?}");
    }

    /// The nodes `analyse_with` took to finish `depth` in `game` for
    /// `seat`, starting from `table`, and the best action it found.
    fn nodes_to_depth(game: &dyn DynGame, seat: Seat, depth: u32, table: &mut Table) -> (u64, String) {
        let budget = Budget { max_depth: depth, ..Budget::nodes(u64::MAX, 1) };
        let (mut nodes, stop) = (0, Arc::new(AtomicBool::new(false)));
        let techniques = Techniques { kept_table: true, ..Techniques::default() };
        let best = analyse_with(game, seat, budget, techniques, table, stop, &mut |it| nodes = it.nodes);
        (nodes, best.expect("a move"))
    }

    /// What engines keep the table for: after a move and its reply, the
    /// search finishes its depth in fewer nodes starting from the last
    /// search's table than from an empty one (over the middle games, 5
    /// plies deep: 156,751 nodes against 180,377 when this was written).
    #[test]
    fn the_table_kept_from_the_last_decision_finishes_the_next_depth_in_fewer_nodes() {
        let (mut kept_nodes, mut fresh_nodes) = (0, 0);
        for fen in MIDDLE_GAMES {
            let mut game = chess(fen);
            let mut kept = Table::default();
            let (_, white) = nodes_to_depth(game.as_ref(), 0, 5, &mut kept);
            game.apply(0, &white).unwrap();
            let (_, black) = nodes_to_depth(game.as_ref(), 1, 3, &mut Table::default());
            game.apply(1, &black).unwrap();
            let (kept_here, kept_best) = nodes_to_depth(game.as_ref(), 0, 5, &mut kept);
            let (fresh_here, fresh_best) = nodes_to_depth(game.as_ref(), 0, 5, &mut Table::default());
            assert!(kept_best == fresh_best || kept_here != fresh_here, "{fen}: {kept_best} {fresh_best}");
            kept_nodes += kept_here;
            fresh_nodes += fresh_here;
        }
        assert!(kept_nodes < fresh_nodes, "kept {kept_nodes}, fresh {fresh_nodes}");
    }

    #[test]
    fn a_table_kept_for_one_seats_side_is_not_read_from_the_others() {
        let mut table = Table::started_for(0);
        table.store(7, 3, 1.5, Bound::Exact, None);
        table.begin_search(0);
        assert!(table.get(7).is_some(), "the same side reads on");
        table.begin_search(1);
        assert!(table.get(7).is_none(), "the value was for the other side");
    }

    #[test]
    fn a_full_table_drops_the_entries_of_earlier_searches_first() {
        let mut table = Table::started_for(0);
        table.store(1, 3, 0.5, Bound::Lower, None);
        table.begin_search(0);
        table.store(2, 3, 0.5, Bound::Upper, None);
        table.make_room();
        assert!(table.get(1).is_none(), "the earlier search's entry goes");
        assert!(table.get(2).is_some(), "this search's entry stays");
    }

    #[test]
    fn an_unfinished_iterations_action_that_beat_the_last_best_is_kept() {
        // The last iteration ranked action 0 best, then 2, 1, 3; the next
        // stopped after 0 (worse deeper) and 2 (better than 0 deeper).
        let mut values = vec![0.3, 0.1, 0.2, 0.0];
        keep_a_better_action_of_an_unfinished_iteration(&mut values, &[-0.5, 0.1, 0.25, 0.0], &[0, 2]);
        assert_eq!(values[2], 0.25);
        assert_eq!(values[0], -0.5);
        let best = (0..4).max_by(|&a, &b| values[a].total_cmp(&values[b]));
        assert_eq!(best, Some(2), "{values:?}");
    }

    #[test]
    fn an_unfinished_iteration_that_proved_nothing_better_leaves_the_last_values() {
        let last = vec![0.3, 0.1, 0.2, 0.0];
        // Only the last best finished: nothing was compared with it.
        let mut values = last.clone();
        keep_a_better_action_of_an_unfinished_iteration(&mut values, &[-0.5, 0.1, 0.9, 0.0], &[0]);
        assert_eq!(values, last);
        // The next action finished no better than the last best.
        keep_a_better_action_of_an_unfinished_iteration(&mut values, &[0.2, 0.1, 0.1, 0.0], &[0, 2]);
        assert_eq!(values, last);
    }

    #[test]
    fn a_search_stopped_in_an_iteration_plays_the_action_the_deeper_search_proved_better() {
        // Over growing node budgets, the first that stops an iteration
        // after a later action beat the last best: the action played is
        // the one that beat it, and the whole deeper iteration agrees that
        // it is better than the last best.
        let game = chess(MIDDLE_GAMES[2]);
        let actions: Vec<String> = game.search_actions(0).into_iter().map(|(a, _)| a).collect();
        let partial = Techniques { partial_iteration: true, ..Techniques::KEPT };
        let best_of = |values: &[f64]| (0..values.len()).max_by(|&a, &b| values[a].total_cmp(&values[b])).unwrap();
        let search = |nodes: u64, techniques: Techniques, max_depth: u32| {
            let mut searcher = searcher(0, nodes, max_depth, techniques);
            // Unlimited, every root action's exact value.
            searcher.exact_root = nodes == u64::MAX;
            let mut finished = Vec::new();
            let values = searcher.root_reporting(game.search_node(), &actions, &mut |_, values, _| {
                finished.push(values.to_vec());
            });
            (values, finished)
        };
        let found = (1..200u64).map(|step| step * 500).find_map(|nodes| {
            let (with, finished) = search(nodes, partial, 6);
            let (without, _) = search(nodes, Techniques::KEPT, 6);
            (best_of(&with) != best_of(&without)).then(|| (best_of(&with), best_of(&without), finished.len()))
        });
        let (kept, last_best, depth) = found.expect("some budget stops an iteration after a better action");
        let (whole, _) = search(u64::MAX, Techniques { aspiration: false, ..Techniques::KEPT }, depth as u32 + 1);
        assert!(whole[kept] > whole[last_best], "{} not better than {}", actions[kept], actions[last_best]);
    }

    /// The search as kept with the pruning on a pass and the check
    /// extensions switched on, and with them off.
    const ON_A_PASS: Techniques =
        Techniques { null_move: true, reverse_futility: true, check_extensions: true, ..Techniques::KEPT };
    const NO_PASS: Techniques =
        Techniques { null_move: false, reverse_futility: false, check_extensions: false, ..Techniques::KEPT };

    #[test]
    fn a_node_in_check_is_searched_one_action_deeper() {
        // Black's king on e8 in check from the rook on e1; four steps answer
        // it and nothing can be taken, so at depth 0 only the extension
        // searches anything below the node.
        let mut node = chess("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1").search_node();
        let mut at_the_horizon = |techniques| {
            let mut searcher = searcher(0, u64::MAX, 4, techniques);
            searcher.search(node.as_mut(), 0, f64::NEG_INFINITY, f64::INFINITY, 1, None);
            searcher.nodes
        };
        assert_eq!(at_the_horizon(NO_PASS), 1, "the estimate stands");
        assert_eq!(at_the_horizon(ON_A_PASS), 1 + 4, "each of the four king steps searched");
    }

    #[test]
    fn the_pruning_on_a_pass_searches_fewer_nodes_to_the_same_depth_in_chess() {
        let nodes = |techniques| MIDDLE_GAMES.iter().map(|fen| values_by_depth(fen, 5, techniques).1).sum::<u64>();
        let (kept, pruning) = (nodes(NO_PASS), nodes(Techniques { check_extensions: false, ..ON_A_PASS }));
        assert!(pruning * 4 < kept * 3, "a quarter fewer at least: {pruning} nodes against {kept}");
    }

    /// The root's values and the nodes at each depth from 1 to 4 of a
    /// Gravity Chess start searched with `techniques`.
    fn gravity_by_depth(techniques: Techniques) -> Vec<(Vec<f64>, u64)> {
        let game = chesskit_games::create("gravity", Options::new(), 3, None).unwrap();
        let actions: Vec<String> = game.search_actions(0).into_iter().map(|(a, _)| a).collect();
        let mut searcher = searcher(0, u64::MAX, 4, techniques);
        let mut best = Vec::new();
        searcher.root_reporting(game.search_node(), &actions, &mut |_, values, nodes| {
            best.push((values.to_vec(), nodes));
        });
        best
    }

    #[test]
    fn a_game_that_declares_no_pass_and_no_check_is_searched_as_before() {
        // Gravity Chess says nothing of passes or checks (the defaults):
        // switched on, the three techniques change no value and no node.
        let (kept, with) = (gravity_by_depth(NO_PASS), gravity_by_depth(ON_A_PASS));
        assert_eq!(kept.len(), 4);
        assert_eq!(kept, with);
    }

    /// The texts of the actions `frame` orders, in its order.
    fn searched_texts(frame: &Frame, node: &dyn SearchNode) -> Vec<String> {
        (0..frame.searched_count()).filter_map(|n| frame.searched(n)).filter_map(|(i, _)| node.action_text(i)).collect()
    }

    #[test]
    fn static_exchange_tries_losing_captures_after_the_quiet_actions_with_a_history() {
        // fxe5 wins a knight (dxe5 gives back a pawn); Qxe5 gives the queen
        // for it (dxe5); Kf1-g2 has caused a cut before.
        let game = chess("4k3/8/3p4/4n3/5P2/8/8/4QK2 w - - 0 1");
        let mut node = game.search_node();
        let count = node.actions(0).len();
        let index_of = |node: &dyn SearchNode, text: &str| {
            (0..count).find(|&i| node.action_text(i).as_deref() == Some(text)).expect("a legal move")
        };
        let king_index = index_of(node.as_ref(), "f1g2");
        let king_move = node.actions(0)[king_index].id;
        let first_three = |techniques: Techniques, node: &mut dyn SearchNode| {
            let mut searcher = searcher(0, u64::MAX, 4, techniques);
            searcher.add_history(king_move, 1);
            let mut frame = Frame::default();
            searcher.ordered(node, &mut frame, 0, None, 0);
            let texts = searched_texts(&frame, node);
            assert_eq!(texts.len(), count, "no action lost or repeated");
            texts[..3].to_vec()
        };
        let with = Techniques { static_exchange: true, ..Techniques::KEPT };
        assert_eq!(first_three(with, node.as_mut()), ["f4e5", "f1g2", "e1e5"]);
        let without = Techniques { static_exchange: false, ..Techniques::KEPT };
        assert_eq!(first_three(without, node.as_mut())[2], "f1g2", "without it, every capture goes first");
    }

    #[test]
    fn past_the_depth_a_capture_that_loses_material_or_cannot_reach_the_window_is_left_out() {
        assert!(!may_reach(Some(3.2 - 9.0), 0.0, -10.0), "a losing capture, however far the window");
        assert!(!may_reach(Some(1.0), 0.0, 1.0 + DELTA_MARGIN), "a pawn and the margin fall short");
        assert!(may_reach(Some(1.0), 0.0, 0.5 + DELTA_MARGIN));
        assert!(may_reach(Some(0.0), 0.0, 0.0), "an even exchange is searched");
        assert!(may_reach(None, 0.0, 100.0), "a game that tells no exchange: every capture");
    }

    #[test]
    fn static_exchange_searches_fewer_nodes_to_the_same_depth_in_chess() {
        let nodes = |static_exchange| {
            let techniques = Techniques { static_exchange, ..Techniques::KEPT };
            MIDDLE_GAMES.iter().map(|fen| values_by_depth(fen, 4, techniques).1).sum::<u64>()
        };
        let (with, without) = (nodes(true), nodes(false));
        assert!(with < without, "{with} nodes against {without}");
    }

    #[test]
    fn a_game_that_tells_no_exchange_is_searched_as_before() {
        // Gravity Chess leaves `exchange_value` at its default: switched on,
        // static exchange changes no value and no node.
        let by_depth = |static_exchange| gravity_by_depth(Techniques { static_exchange, ..Techniques::KEPT });
        let (without, with) = (by_depth(false), by_depth(true));
        assert_eq!(without.len(), 4);
        assert_eq!(without, with);
    }

    const PRUNING: Techniques = Techniques { quiet_pruning: true, ..Techniques::KEPT };
    const NO_PRUNING: Techniques = Techniques { quiet_pruning: false, ..Techniques::KEPT };

    /// What [`Searcher::quiet_pruning_estimate`] gives for the side to act
    /// at `node`, `depth` deep, between turns.
    fn quiet_pruning_from(searcher: &Searcher, node: &dyn SearchNode, depth: u32) -> Option<f64> {
        searcher.quiet_pruning_estimate(node, 0, depth, searcher.pruning_estimate(node, false))
    }

    #[test]
    fn quiet_pruning_never_prunes_in_check() {
        let searcher = searcher(0, u64::MAX, 4, PRUNING);
        let in_check = chess("4k3/8/8/8/8/8/4q3/R3K3 w - - 0 1");
        assert_eq!(quiet_pruning_from(&searcher, in_check.search_node().as_ref(), 2), None);
        let quiet = chess(MIDDLE_GAMES[0]);
        assert!(quiet_pruning_from(&searcher, quiet.search_node().as_ref(), 2).is_some());
        assert_eq!(quiet_pruning_from(&searcher, quiet.search_node().as_ref(), 4), None, "too deep");
    }

    #[test]
    fn quiet_pruning_never_skips_the_only_legal_move() {
        // White, a queen down and far below the window, has one move, h2-h3
        // (the knight is walled in, the king boxed), and is not in check.
        let game = chess("k7/8/8/7p/6pP/1q3pP1/p4P1P/K6N w - - 0 1");
        assert_eq!(game.search_actions(0).len(), 1);
        let mut searcher = searcher(0, u64::MAX, 4, PRUNING);
        let mut node = game.search_node();
        assert!(quiet_pruning_from(&searcher, node.as_ref(), 2).is_some_and(|estimate| estimate < -5.0));
        searcher.search(node.as_mut(), 2, 5.0, 6.0, 1, None);
        assert!(searcher.nodes > 1, "the move was searched: {} nodes", searcher.nodes);
    }

    #[test]
    fn quiet_pruning_searches_fewer_nodes_to_the_same_depth_in_chess() {
        let nodes = |techniques| MIDDLE_GAMES.iter().map(|fen| values_by_depth(fen, 5, techniques).1).sum::<u64>();
        let (with, without) = (nodes(PRUNING), nodes(NO_PRUNING));
        assert!(with < without, "{with} nodes against {without}");
    }

    #[test]
    fn a_node_budget_gives_the_same_choice_every_time() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        assert_eq!(choose(fen, 5_000), choose(fen, 5_000));
    }
}
