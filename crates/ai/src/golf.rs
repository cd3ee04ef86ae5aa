//! Chess Golf tools built on the rules and the solver of
//! `chesskit_games::golf`: the puzzle generator behind `chesskit golf new`
//! and the designer's statistics behind `chesskit golf stats`.

use std::collections::BTreeMap;

use chesskit_core::cards::{officer_deck, Card};
use chesskit_core::game::Game;
use chesskit_core::rng::GameRng;
use chesskit_core::Options;
use chesskit_games::golf::round::{MAX_COUNT, MAX_SOLVER_NODES};
use chesskit_games::golf::{
    layout_cards, puzzle_text, solve_with, Cards, GolfAction, GolfGame, GolfMove, Puzzle, Solution, SolveOptions,
    Verdict,
};

/// A puzzle dealt as the book does: the 16 cards shuffled and laid out,
/// shuffled again, and `cards` drawn as the chosen cards.
#[derive(Clone, Debug)]
pub struct Deal {
    pub puzzle: Puzzle,
    /// The layout cards in the order drawn.
    pub layout: Vec<Card>,
    /// The chosen cards in the order drawn.
    pub chosen: Vec<Card>,
}

/// Deal a puzzle with `cards` chosen cards (2 to 16) from `seed`.
pub fn deal(seed: u64, cards: usize) -> Result<Deal, String> {
    if !(2..=16).contains(&cards) {
        return Err(format!("a puzzle has 2 to 16 chosen cards, not {cards}"));
    }
    let mut rng = GameRng::from_seed(seed);
    let mut layout = officer_deck();
    rng.shuffle(&mut layout);
    let board = layout_cards(&layout)?;
    let mut deck = officer_deck();
    rng.shuffle(&mut deck);
    let chosen: Vec<Card> = deck[..cards].to_vec();
    let picked = Cards::from_pieces(chosen.iter().map(|c| c.piece().expect("officer cards are pieces")));
    Ok(Deal { puzzle: Puzzle::new(board, picked), layout, chosen })
}

/// What `chesskit golf new` asks for.
#[derive(Clone, Debug)]
pub struct NewOptions {
    pub cards: usize,
    pub seed: u64,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    /// The solver's node limit per deal: a deal it cannot settle within it
    /// (many cards make a huge search) is kept unrated when no length is
    /// asked for, and passed over otherwise.
    pub max_nodes: u64,
}

/// A dealt puzzle with its proven rating.
#[derive(Clone, Debug)]
pub struct Rated {
    /// The seed of the deal that was kept.
    pub seed: u64,
    /// How many deals were tried to meet the length limits.
    pub tries: u64,
    pub deal: Deal,
    pub solution: Solution,
}

impl Rated {
    /// A word for the search effort the proof took: under 1,000 nodes
    /// "easy", under 100,000 "medium", under 10 million "hard", else
    /// "fiendish". The optimal length is the other half of the rating.
    pub fn difficulty(&self) -> &'static str {
        match self.solution.nodes {
            0..1_000 => "easy",
            1_000..100_000 => "medium",
            100_000..10_000_000 => "hard",
            _ => "fiendish",
        }
    }
}

/// Deal from `seed`, `seed + 1`, ... until the optimal length is within
/// the limits (an impossible deal passes only when no limit is set).
pub fn generate(options: &NewOptions) -> Result<Rated, String> {
    const MAX_TRIES: u64 = 20_000;
    if let (Some(lo), Some(hi)) = (options.min_length, options.max_length) {
        if lo > hi {
            return Err(format!("--min-length {lo} is more than --max-length {hi}"));
        }
    }
    for tries in 1..=MAX_TRIES {
        let seed = options.seed.wrapping_add(tries - 1);
        let deal = deal(seed, options.cards)?;
        let solution =
            solve_with(&deal.puzzle, &SolveOptions { max_nodes: options.max_nodes, ..SolveOptions::default() });
        let fits = match solution.length() {
            Some(length) => {
                options.min_length.is_none_or(|lo| length >= lo) && options.max_length.is_none_or(|hi| length <= hi)
            }
            None => options.min_length.is_none() && options.max_length.is_none(),
        };
        if fits {
            return Ok(Rated { seed, tries, deal, solution });
        }
    }
    Err(format!(
        "no deal of {} cards with an optimal length in the limits after {MAX_TRIES} tries (seeds {} on)",
        options.cards, options.seed
    ))
}

/// What `chesskit golf stats` asks for.
#[derive(Clone, Debug)]
pub struct StatsOptions {
    pub games: u64,
    pub players: usize,
    pub seed: u64,
    /// The solver's node limit per hole; a hole that reaches it is
    /// counted as unsettled.
    pub max_nodes: u64,
}

/// One hole as the statistics see it.
#[derive(Clone, Debug)]
pub struct HoleStat {
    pub puzzle: Puzzle,
    pub cards: usize,
    /// The optimal length, `None` when impossible or unsettled.
    pub length: Option<usize>,
    /// The solver reached its node limit.
    pub unsettled: bool,
    pub nodes: u64,
    pub ms: f64,
}

/// The designer's report over many random rounds.
#[derive(Clone, Debug, Default)]
pub struct StatsReport {
    pub games: u64,
    pub players: usize,
    pub holes: Vec<HoleStat>,
    /// Every player's round total.
    pub totals: Vec<i64>,
    /// The winning total of each round.
    pub winning: Vec<i64>,
    pub seconds: f64,
}

/// The simulated player: finds the optimal length half the time, else
/// counts one or two more, and one time in ten believes in a path one move
/// shorter than the best (and fails to demonstrate it). A proven
/// impossible puzzle is called impossible four times in five.
fn simulated_count(length: Option<usize>, rng: &mut GameRng) -> u32 {
    match length {
        Some(l) => {
            let roll = rng.below(20);
            let delta: i64 = match roll {
                0..=1 => -1,
                2..=11 => 0,
                12..=16 => 1,
                _ => 2,
            };
            (l as i64 + delta).clamp(1, MAX_COUNT as i64) as u32
        }
        None if rng.below(5) < 4 => 0,
        None => 1 + rng.below(6) as u32,
    }
}

/// Play one round with simulated players; returns its holes and totals.
pub fn simulate_round(players: usize, seed: u64, max_nodes: u64) -> Result<(Vec<HoleStat>, Vec<i64>), String> {
    // The round's own referee may search no more than a round allows; the
    // statistics come from the solves below, under `max_nodes`.
    let round_nodes = max_nodes.min(MAX_SOLVER_NODES);
    let options = Options::new().with("players", players as i64).with("solver_nodes", round_nodes as i64);
    let limits = SolveOptions { max_nodes, ..SolveOptions::default() };
    let mut game = GolfGame::new(&options, seed).map_err(|e| e.to_string())?;
    let mut rng = GameRng::from_seed(seed ^ 0x9e37_79b9);
    let mut holes = Vec::new();
    let mut path: Vec<GolfMove> = Vec::new();
    let mut guard = 0;
    while !game.to_act().is_over() {
        guard += 1;
        if guard > 10_000 {
            return Err(format!("round {seed} does not end"));
        }
        let seats = game.to_act().seats().to_vec();
        let first = game.legal_actions(seats[0]);
        let action = match first.first() {
            Some(GolfAction::Count(_)) | Some(GolfAction::Impossible) => {
                let solution = solve_with(&game.puzzle(), &limits);
                let length = solution.length();
                let unsettled = matches!(solution.verdict, Verdict::Unknown { .. });
                if solution.ms > 1000.0 && std::env::var_os("GOLF_TRACE").is_some() {
                    eprintln!(
                        "slow hole ({:.0} ms, {} nodes):\n{}",
                        solution.ms,
                        solution.nodes,
                        puzzle_text(&game.puzzle())
                    );
                }
                path = solution.moves().map(<[GolfMove]>::to_vec).unwrap_or_default();
                holes.push(HoleStat {
                    puzzle: game.puzzle(),
                    cards: game.cards_per_hole(),
                    length,
                    unsettled,
                    nodes: solution.nodes,
                    ms: solution.ms,
                });
                for &seat in &seats {
                    // An unsettled puzzle looks impossible to everyone.
                    let count = if unsettled { 0 } else { simulated_count(length, &mut rng) };
                    let action = if count == 0 { GolfAction::Impossible } else { GolfAction::Count(count) };
                    game.apply(seat, &action).map_err(|e| e.to_string())?;
                }
                continue;
            }
            Some(GolfAction::Move(_)) | Some(GolfAction::GiveUp) => demonstration_step(&game, seats[0], &path),
            Some(GolfAction::Put(_)) => *rng.choose(&first).expect("an empty square"),
            None => return Err("a seat must act but has no action".to_string()),
        };
        game.apply(seats[0], &action).map_err(|e| e.to_string())?;
    }
    Ok((holes, game.totals()))
}

/// The demonstrator plays the solver's path when their count allows it,
/// else gives up.
fn demonstration_step(game: &GolfGame, seat: usize, path: &[GolfMove]) -> GolfAction {
    let made = game.demonstration_moves();
    match (game.count_of(seat), path.get(made)) {
        (Some(count), Some(&m)) if count as usize >= path.len() => GolfAction::Move(m),
        _ => GolfAction::GiveUp,
    }
}

/// Play `options.games` rounds; `progress` is called after each.
pub fn run_stats(options: &StatsOptions, progress: &mut dyn FnMut(u64)) -> Result<StatsReport, String> {
    if !(1..=8).contains(&options.players) {
        return Err(format!("players must be 1 to 8, not {}", options.players));
    }
    let start = std::time::Instant::now();
    let mut report = StatsReport { games: options.games, players: options.players, ..StatsReport::default() };
    for i in 0..options.games {
        let (holes, totals) = simulate_round(options.players, options.seed.wrapping_add(i), options.max_nodes)?;
        report.holes.extend(holes);
        report.winning.push(*totals.iter().min().expect("at least one player"));
        report.totals.extend(totals);
        progress(i + 1);
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

fn histogram<T: Ord + Copy>(values: impl IntoIterator<Item = T>) -> BTreeMap<T, u64> {
    let mut out = BTreeMap::new();
    for v in values {
        *out.entry(v).or_insert(0) += 1;
    }
    out
}

fn median(sorted: &[f64]) -> f64 {
    if sorted.is_empty() {
        0.0
    } else {
        sorted[sorted.len() / 2]
    }
}

impl StatsReport {
    /// Per number of cards: the holes, the impossible ones, and a histogram
    /// of optimal lengths.
    pub fn lengths_by_cards(&self) -> BTreeMap<usize, (u64, BTreeMap<usize, u64>)> {
        let mut out: BTreeMap<usize, (u64, BTreeMap<usize, u64>)> = BTreeMap::new();
        for hole in &self.holes {
            let entry = out.entry(hole.cards).or_default();
            match hole.length {
                Some(l) => *entry.1.entry(l).or_insert(0) += 1,
                None => entry.0 += 1,
            }
        }
        out
    }

    pub fn to_text(&self) -> String {
        let plural = |n: usize, word: &str| if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") };
        let mut out = format!(
            "{} of {}, {}, in {:.1} s\n\nOptimal length by number of cards\n",
            plural(self.games as usize, "round"),
            plural(self.players, "player"),
            plural(self.holes.len(), "hole"),
            self.seconds
        );
        let lengths = self.lengths_by_cards();
        let unsettled = self.holes.iter().filter(|h| h.unsettled).count();
        if unsettled > 0 {
            out.push_str(&format!(
                "({unsettled} hole{} reached the solver's node limit and count as impossible below)\n",
                if unsettled == 1 { "" } else { "s" }
            ));
        }
        let longest = lengths.values().flat_map(|(_, h)| h.keys().copied()).max().unwrap_or(0);
        out.push_str(&format!("{:>5} {:>6} {:>6} {:>6} ", "cards", "holes", "mean", "imposs"));
        for l in 1..=longest {
            out.push_str(&format!("{l:>6}"));
        }
        out.push('\n');
        for (cards, (impossible, hist)) in &lengths {
            let n: u64 = hist.values().sum::<u64>() + impossible;
            let solved: u64 = hist.values().sum();
            let mean = hist.iter().map(|(l, c)| *l as f64 * *c as f64).sum::<f64>() / solved.max(1) as f64;
            out.push_str(&format!("{cards:>5} {n:>6} {mean:>6.2} {impossible:>6} "));
            for l in 1..=longest {
                out.push_str(&format!("{:>6}", hist.get(&l).copied().unwrap_or(0)));
            }
            out.push('\n');
        }
        out.push_str("\nSolver time by number of cards\n");
        out.push_str(&format!("{:>5} {:>10} {:>10} {:>12}\n", "cards", "median ms", "worst ms", "mean nodes"));
        for cards in lengths.keys() {
            let mut ms: Vec<f64> = self.holes.iter().filter(|h| h.cards == *cards).map(|h| h.ms).collect();
            ms.sort_by(f64::total_cmp);
            let nodes: Vec<u64> = self.holes.iter().filter(|h| h.cards == *cards).map(|h| h.nodes).collect();
            out.push_str(&format!(
                "{cards:>5} {:>10.2} {:>10.2} {:>12.0}\n",
                median(&ms),
                ms.last().copied().unwrap_or(0.0),
                nodes.iter().sum::<u64>() as f64 / nodes.len().max(1) as f64
            ));
        }
        if let Some(hardest) = self.holes.iter().max_by_key(|h| h.nodes) {
            out.push_str(&format!(
                "\nThe hardest puzzle met ({} nodes, {:.1} ms, optimal length {}):\n{}",
                hardest.nodes,
                hardest.ms,
                match (hardest.length, hardest.unsettled) {
                    (Some(l), _) => l.to_string(),
                    (None, true) => "unsettled".to_string(),
                    (None, false) => "impossible".to_string(),
                },
                puzzle_text(&hardest.puzzle)
            ));
        }
        for (title, values) in [("Round totals (every player)", &self.totals), ("Winning totals", &self.winning)] {
            let mut sorted = values.clone();
            sorted.sort();
            let mean = sorted.iter().sum::<i64>() as f64 / sorted.len().max(1) as f64;
            out.push_str(&format!(
                "\n{title}: mean {mean:.1}, min {}, median {}, max {}\n",
                sorted.first().unwrap_or(&0),
                sorted.get(sorted.len() / 2).unwrap_or(&0),
                sorted.last().unwrap_or(&0)
            ));
            let buckets = histogram(sorted.iter().map(|t| t / 5 * 5));
            let top = buckets.values().copied().max().unwrap_or(1);
            for (low, count) in buckets {
                let bar = "#".repeat(((count * 50).div_ceil(top)) as usize);
                out.push_str(&format!("{:>4}-{:<4} {count:>7} {bar}\n", low, low + 4));
            }
        }
        out
    }

    pub fn to_json(&self) -> serde_json::Value {
        let lengths: serde_json::Map<String, serde_json::Value> = self
            .lengths_by_cards()
            .into_iter()
            .map(|(cards, (impossible, hist))| {
                let hist: serde_json::Map<String, serde_json::Value> =
                    hist.into_iter().map(|(l, c)| (l.to_string(), c.into())).collect();
                (cards.to_string(), serde_json::json!({ "impossible": impossible, "lengths": hist }))
            })
            .collect();
        serde_json::json!({
            "games": self.games,
            "players": self.players,
            "holes": self.holes.len(),
            "unsettled": self.holes.iter().filter(|h| h.unsettled).count(),
            "seconds": self.seconds,
            "optimal_lengths_by_cards": lengths,
            "round_totals": histogram(self.totals.iter().copied()).into_iter().map(|(t, c)| (t.to_string(), c.into())).collect::<serde_json::Map<String, serde_json::Value>>(),
            "winning_totals": histogram(self.winning.iter().copied()).into_iter().map(|(t, c)| (t.to_string(), c.into())).collect::<serde_json::Map<String, serde_json::Value>>(),
        })
    }
}
