//! The round of Chess Golf (rules.md, "Chess Golf": Setup, Play,
//! Difficulty Level, Game End) for 1 to 8 players, as a [`Game`].
//!
//! Each of the 9 turns ("holes"): the dealer **draws** the chosen cards;
//! every player secretly **counts** the moves of their solution (all at
//! once: `to_act` holds every seat that has not counted yet, and a count
//! stays hidden until all are in); the counts are **revealed**; the player
//! with the fewest moves **demonstrates** one move at a time while the
//! referee checks each; after a successful demonstration the captured
//! pieces are **put back** on empty squares; the deck **passes** to the left.
//!
//! Rulings (docs/games/golf.md): a demonstration fails when the player
//! gives up, tries a move the referee refuses, or has made as many moves as
//! they counted without solving. Every wrong answer (a failed
//! demonstration; "impossible", a count of 0, unless the referee proves
//! it) scores the same penalty, one more than the larger of the highest
//! count at the table and, when nobody demonstrated, the moves the referee
//! found the puzzle needs (`hole_scores`); so bluffing never pays. One
//! more card is dealt on later holes whenever every player gave the same
//! (non-zero) count, up to the `max_cards` option. Tied totals share the
//! win. A resumed position is checked line by line (the `resume` module).

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError};

use chesskit_core::cards::{officer_deck, Card};
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, ScoreOrder, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{ActionInfo, BoardView, CardZone, Corner, Journal, Marker, MarkerDrawing, TableView, View};
use shakmaty::{Piece, Square};

use super::layout::layout_cards;
use super::rules::{piece_name, Board, Cards, GolfMove, Puzzle};
use super::solver::{solve_with, SolveOptions, Verdict};
use super::text::board_text;

mod expert;
mod finding;
mod resume;

use finding::{finding_text, read_finding};
use resume::{demonstration_order, grows};

/// The largest count a player may give (the book counts on fingers; the
/// referee allows more).
pub const MAX_COUNT: u32 = 20;

/// One step of a player's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GolfAction {
    /// `count 3`: the secret number of moves of your solution.
    Count(u32),
    /// `impossible`: you think no path solves it (the fist, a count of 0).
    Impossible,
    /// `e5g6`: one move of your demonstration.
    Move(GolfMove),
    /// `give up`: you cannot demonstrate your path.
    GiveUp,
    /// `put e4`: put the next captured piece back on an empty square.
    Put(Square),
}

impl fmt::Display for GolfAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GolfAction::Count(n) => write!(f, "count {n}"),
            GolfAction::Impossible => f.write_str("impossible"),
            GolfAction::Move(m) => write!(f, "{m}"),
            GolfAction::GiveUp => f.write_str("give up"),
            GolfAction::Put(sq) => write!(f, "put {sq}"),
        }
    }
}

impl FromStr for GolfAction {
    type Err = String;

    /// Also read: a bare number (`3`, `0` for impossible), `count 0`,
    /// `move e5g6`, `giveup`, `put back e4`.
    fn from_str(text: &str) -> Result<GolfAction, String> {
        let words: Vec<String> = text.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let count = |n: &str| -> Result<GolfAction, String> {
            match n.parse::<u32>() {
                Ok(0) => Ok(GolfAction::Impossible),
                Ok(n) => Ok(GolfAction::Count(n)),
                Err(_) => Err(format!("bad count {n:?}: write a number of moves, like count 3")),
            }
        };
        match words.as_slice() {
            ["count", n] => count(n),
            [n] if n.chars().all(|c| c.is_ascii_digit()) => count(n),
            ["impossible"] => Ok(GolfAction::Impossible),
            ["give", "up"] | ["giveup"] => Ok(GolfAction::GiveUp),
            ["put", sq] | ["put", "back", sq] => sq
                .parse::<Square>()
                .map(GolfAction::Put)
                .map_err(|_| format!("bad square {sq:?}: write it like put e4")),
            ["move", m] | [m] => m.parse::<GolfMove>().map(GolfAction::Move),
            _ => Err(format!(
                "cannot read {text:?}: the actions are count N, impossible, a move like e5g6, give up, and put e4"
            )),
        }
    }
}

impl GameAction for GolfAction {
    fn info(&self) -> ActionInfo {
        let mut info = ActionInfo::text_only(self.to_string());
        match self {
            GolfAction::Move(m) => {
                info.from = Some(m.from.to_string());
                info.to = Some(m.to.to_string());
                info.label = Some(format!("Move from {} to {}", m.from, m.to));
            }
            GolfAction::Put(sq) => {
                info.square = Some(sq.to_string());
                info.label = Some(format!("Put it back on {sq}"));
            }
            GolfAction::Count(n) => info.label = Some(plural(*n as usize, "move")),
            GolfAction::Impossible => info.label = Some("Impossible".to_string()),
            GolfAction::GiveUp => info.label = Some("Give up".to_string()),
        }
        info
    }
}

/// Where the current hole stands.
#[derive(Clone, Debug, PartialEq, Hash)]
enum Phase {
    /// Players are giving their secret counts.
    Counting,
    /// `seat` demonstrates: `puzzle` is the puzzle after `path`.
    Demonstrating { seat: Seat, puzzle: Puzzle, path: Vec<GolfMove>, failed: Vec<Seat> },
    /// `seat` solved the puzzle in `length` moves and puts the captured
    /// `pieces` back, one at a time; `board` is the board now.
    Returning { seat: Seat, board: Board, pieces: Vec<Piece>, length: usize, failed: Vec<Seat> },
    /// The round is over.
    Over,
}

/// A finished hole on the score sheet.
#[derive(Clone, Debug, PartialEq, Hash)]
struct Hole {
    chosen: Cards,
    counts: Vec<u32>,
    scores: Vec<i64>,
}

/// A round of Chess Golf.
#[derive(Clone, Debug, PartialEq)]
pub struct GolfGame {
    players: usize,
    holes: usize,
    max_cards: usize,
    /// The referee's search limit when it settles "impossible" answers.
    solver_nodes: u64,
    rng: GameRng,
    /// The board at the start of this hole (demonstrations reset to it).
    course: Board,
    /// The draw pile, top last.
    draw: Vec<Card>,
    discard: Vec<Card>,
    dealer: Seat,
    /// How many cards the dealer draws each hole.
    cards: usize,
    /// The hole in play, from 1.
    hole: usize,
    /// This hole's chosen cards, in the order drawn.
    deal: Vec<Card>,
    /// This hole's counts (0 for impossible), secret until all are given.
    counts: Vec<Option<u32>>,
    phase: Phase,
    sheet: Vec<Hole>,
    /// The referee's verdict on this hole as found before and stored with
    /// the action (a replay: see [`Game::apply_found`]), which settling
    /// takes instead of searching. None at rest.
    given_verdict: Option<Verdict>,
    /// The verdict settling reached during the action being applied, to be
    /// stored with it. None at rest.
    reached_verdict: Option<Verdict>,
    /// The referee's last verdict, shared with this game's copies.
    verdicts: VerdictMemo,
}

/// The referee's last verdict and its puzzle, shared by a game and all its
/// copies: the computer's search copies the game at every node, and every
/// line in which all demonstrations fail settles the same hole, which
/// without this ran the referee's search again each time. The verdict
/// depends on the puzzle alone (and the round's search limit, the same in
/// every copy). A cache, not part of the game: games equal in every rule
/// compare equal whatever it holds.
#[derive(Clone, Default)]
struct VerdictMemo(Arc<Mutex<Option<(Puzzle, Verdict)>>>);

impl VerdictMemo {
    /// The verdict on `puzzle`: the one found before, or `search`'s.
    fn verdict(&self, puzzle: &Puzzle, search: impl FnOnce() -> Verdict) -> Verdict {
        let mut last = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match last.as_ref() {
            Some((known, verdict)) if known == puzzle => verdict.clone(),
            _ => {
                let verdict = search();
                *last = Some((*puzzle, verdict.clone()));
                verdict
            }
        }
    }
}

impl PartialEq for VerdictMemo {
    fn eq(&self, _other: &VerdictMemo) -> bool {
        true
    }
}

impl fmt::Debug for VerdictMemo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("VerdictMemo")
    }
}

fn pieces_of(cards: &[Card]) -> Cards {
    Cards::from_pieces(cards.iter().filter_map(|c| c.piece()))
}

fn player(seat: Seat) -> String {
    format!("Player {}", seat + 1)
}

fn count_text(n: u32) -> String {
    if n == 0 {
        "impossible".to_string()
    } else {
        n.to_string()
    }
}

/// A score on the sheet, with the count when they differ: `6 (said 2)`.
fn score_cell(count: u32, score: i64) -> String {
    if score == count as i64 {
        score.to_string()
    } else {
        format!("{score} (said {})", count_text(count))
    }
}

/// `1 move`, `3 moves`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A legal move in words, for the log: "moves the black bishop from e5
/// to g6", "captures the white king on h2 with the black bishop from h5".
fn move_words(board: &Board, m: GolfMove) -> String {
    let name = |sq: Square| board.piece_at(sq).map_or_else(|| "piece".to_string(), piece_name);
    match board.piece_at(m.to) {
        Some(_) => format!("captures the {} on {} with the {} from {}", name(m.to), m.to, name(m.from), m.from),
        None => format!("moves the {} from {} to {}", name(m.from), m.from, m.to),
    }
}

/// How a hole ended, as far as scoring needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Settled {
    /// A demonstration succeeded.
    Demonstrated,
    /// Nobody demonstrated; the referee found a shortest path of this length.
    Solvable(usize),
    /// Nobody demonstrated; the referee proved that no path exists.
    Impossible,
    /// Nobody demonstrated; the referee's search stopped at its limit
    /// having shown that at least this many moves are needed.
    Unproven(usize),
}

impl Settled {
    /// The moves the puzzle is known to need beyond the table's counts.
    fn needed(self) -> i64 {
        match self {
            Settled::Demonstrated | Settled::Impossible => 0,
            Settled::Solvable(n) | Settled::Unproven(n) => n as i64,
        }
    }
}

/// Scoring (docs/games/golf.md, Rulings): a count that stands scores
/// itself; "impossible" scores 0 when the referee proves it. Every wrong
/// answer (a failed demonstration, or "impossible" when the puzzle is
/// solvable or not proven impossible) scores the same: one more than the
/// larger of the highest count at the table and the moves the puzzle is
/// known to need. So a bluffed low count that fails never costs less than
/// an honest "impossible" would have: both are wrong answers, and the
/// bluff can only raise the highest count.
fn hole_scores(counts: &[u32], failed: &[Seat], settled: Settled) -> Vec<i64> {
    let top = counts.iter().copied().max().unwrap_or(0) as i64;
    let wrong = top.max(settled.needed()) + 1;
    (0..counts.len())
        .map(|s| match counts[s] {
            _ if failed.contains(&s) => wrong,
            0 if settled == Settled::Impossible => 0,
            0 => wrong,
            n => n as i64,
        })
        .collect()
}

/// The board as the core's board, for views.
fn to_shakmaty(board: &Board) -> shakmaty::Board {
    let mut out = shakmaty::Board::empty();
    for (sq, piece) in board.pieces() {
        out.set_piece_at(sq, piece);
    }
    out
}

impl GolfGame {
    // ----- Setup -----

    /// Setup: lay out the shuffled 16 cards, choose a dealer at random,
    /// shuffle the cards again, and deal the first hole.
    fn setup(settings: Settings, course: Option<Board>, seed: u64, story: &mut Journal) -> GolfGame {
        let Settings { players, holes, max_cards, solver_nodes } = settings;
        let mut rng = GameRng::from_seed(seed);
        let course = course.unwrap_or_else(|| {
            let mut cards = officer_deck();
            rng.shuffle(&mut cards);
            layout_cards(&cards).expect("the 16 officer cards always fit")
        });
        let dealer = rng.below(players);
        let mut draw = officer_deck();
        rng.shuffle(&mut draw);
        let mut game = GolfGame {
            players,
            holes,
            max_cards,
            solver_nodes,
            rng,
            course,
            draw,
            discard: Vec::new(),
            dealer,
            cards: 2.min(max_cards),
            hole: 1,
            deal: Vec::new(),
            counts: vec![None; players],
            phase: Phase::Counting,
            sheet: Vec::new(),
            given_verdict: None,
            reached_verdict: None,
            verdicts: VerdictMemo::default(),
        };
        story.public(None, format!("{} deals the first hole", player(dealer)));
        game.draw_cards(story);
        game
    }

    // ----- Play -----

    /// Draw: the dealer draws this hole's cards face up (shuffling the
    /// discard pile back in when the draw pile runs short) and announces
    /// the chosen piece types.
    fn draw_cards(&mut self, story: &mut Journal) {
        if self.draw.len() < self.cards {
            self.draw.append(&mut self.discard);
            self.rng.shuffle(&mut self.draw);
            story.public(None, "The discard pile is shuffled back into the deck");
        }
        self.deal = (0..self.cards).filter_map(|_| self.draw.pop()).collect();
        self.counts = vec![None; self.players];
        self.phase = Phase::Counting;
        let cards: Vec<String> = self.deal.iter().map(|c| c.to_string()).collect();
        story.public(
            Some(self.dealer),
            format!(
                "Hole {}: {} draws {} ({})",
                self.hole,
                player(self.dealer),
                cards.join(" "),
                pieces_of(&self.deal).describe()
            ),
        );
    }

    /// The puzzle of this hole, from its starting position.
    pub fn puzzle(&self) -> Puzzle {
        Puzzle::new(self.course, pieces_of(&self.deal))
    }

    /// The puzzle being demonstrated now (after the moves made so far) and
    /// how many moves the demonstrator may still make, while one is on.
    pub fn demonstration(&self) -> Option<(Seat, &Puzzle, usize)> {
        match &self.phase {
            Phase::Demonstrating { seat, puzzle, path, .. } => {
                let count = self.counts[*seat].unwrap_or(0) as usize;
                Some((*seat, puzzle, count.saturating_sub(path.len())))
            }
            _ => None,
        }
    }

    /// The node limit of the round's solver (the option `solver_nodes`).
    pub fn solver_nodes(&self) -> u64 {
        self.solver_nodes
    }

    /// Solve and reveal: a player gives their secret count; when the last
    /// count is in, all are revealed at once.
    fn count(&mut self, seat: Seat, n: u32, story: &mut Journal) {
        self.counts[seat] = Some(n);
        if self.counts.iter().all(Option::is_some) {
            self.reveal(story);
        }
    }

    /// Reveal: everyone shows their count; the difficulty may rise; the
    /// player with the fewest moves demonstrates.
    fn reveal(&mut self, story: &mut Journal) {
        let counts = self.given_counts();
        let shown: Vec<String> =
            (0..self.players).map(|s| format!("{} {}", player(s), count_text(counts[s]))).collect();
        story.public(None, format!("Counts revealed: {}", shown.join(", ")));
        if grows(&counts, self.cards, self.max_cards, self.hole, self.holes) {
            self.cards += 1;
            story.public(None, format!("Everyone gave the same count: {} cards from the next hole on", self.cards));
        }
        self.next_demonstrator(Vec::new(), story);
    }

    fn given_counts(&self) -> Vec<u32> {
        self.counts.iter().map(|c| c.unwrap_or(0)).collect()
    }

    /// Demonstrate: the player with the lowest non-zero count who has not
    /// failed yet; ties go to the first from the dealer round to the left.
    /// When nobody is left, the solver settles the hole.
    fn next_demonstrator(&mut self, failed: Vec<Seat>, story: &mut Journal) {
        let counts = self.given_counts();
        let next = demonstration_order(&counts, self.dealer).into_iter().find(|s| !failed.contains(s));
        match next {
            Some(seat) => {
                story.public(
                    Some(seat),
                    format!("{} demonstrates a path of {}", player(seat), plural(counts[seat] as usize, "move")),
                );
                self.phase = Phase::Demonstrating { seat, puzzle: self.puzzle(), path: Vec::new(), failed };
            }
            None => self.settle(failed, story),
        }
    }

    /// One move of the demonstration, checked by the referee.
    fn demonstrate(&mut self, m: GolfMove, story: &mut Journal) {
        let Phase::Demonstrating { seat, puzzle, path, failed } = &mut self.phase else { return };
        let seat = *seat;
        let said = move_words(&puzzle.board, m);
        puzzle.play_unchecked(m);
        path.push(m);
        let (solved, moves, board) = (puzzle.is_solved(), path.len(), puzzle.board);
        let failed = failed.clone();
        story.public(Some(seat), format!("{} {said}", player(seat)));
        let count = self.counts[seat].unwrap_or(0) as usize;
        if solved {
            story.public(Some(seat), format!("{} solves the puzzle in {}", player(seat), plural(moves, "move")));
            let mut pieces = self.course.pieces().map(|(_, p)| p).collect::<Vec<_>>();
            for (_, p) in board.pieces() {
                if let Some(i) = pieces.iter().position(|q| *q == p) {
                    pieces.remove(i);
                }
            }
            self.phase = Phase::Returning { seat, board, pieces, length: moves, failed };
        } else if moves >= count {
            self.fail(seat, "used every move of the count without solving the puzzle", story);
        }
    }

    /// A move the referee refuses ends the demonstration as a failure
    /// (Rulings): at the table a wrong move is a failed demonstration, and
    /// the book gives no time to search ("they can't sit and try to solve
    /// it at this point"), so the demonstrator may not try another.
    fn refuse(&mut self, seat: Seat, m: GolfMove, reason: &str, story: &mut Journal) {
        let what = match self.board_now().piece_at(m.from) {
            Some(piece) => format!("the {} from {} to {}", piece_name(piece), m.from, m.to),
            None => format!("from the empty square {} to {}", m.from, m.to),
        };
        story.public(Some(seat), format!("{} tries to move {what}, which is not allowed: {reason}", player(seat)));
        self.fail(seat, "fails the demonstration", story);
    }

    /// A failed demonstration: the pieces go back to where they started and
    /// the next lowest count demonstrates.
    fn fail(&mut self, seat: Seat, why: &str, story: &mut Journal) {
        let mut failed = match &self.phase {
            Phase::Demonstrating { failed, .. } => failed.clone(),
            _ => Vec::new(),
        };
        story.public(Some(seat), format!("{} {why}: the pieces are reset", player(seat)));
        failed.push(seat);
        self.next_demonstrator(failed, story);
    }

    /// After a successful demonstration: put a captured piece back on an
    /// empty square; with the last one the hole ends.
    fn put_back(&mut self, sq: Square, story: &mut Journal) {
        let Phase::Returning { seat, board, pieces, failed, .. } = &mut self.phase else { return };
        let piece = pieces.remove(0);
        board.put(sq, piece);
        let (seat, done, failed, board) = (*seat, pieces.is_empty(), failed.clone(), *board);
        story.public(Some(seat), format!("{} puts the {} back on {sq}", player(seat), piece_name(piece)));
        if done {
            self.course = board;
            self.record_hole(hole_scores(&self.given_counts(), &failed, Settled::Demonstrated), story);
        }
    }

    /// Nobody demonstrated successfully: the referee's search settles the
    /// hole, so that the wrong answers can be scored (see [`hole_scores`]).
    /// A verdict found before (a replay) is taken as it is: the search
    /// runs once per hole, when the action is first taken.
    fn settle(&mut self, failed: Vec<Seat>, story: &mut Journal) {
        let verdict = self.given_verdict.take().unwrap_or_else(|| self.search());
        self.reached_verdict = Some(verdict.clone());
        let settled = match verdict {
            Verdict::Solved(path) => {
                let moves: Vec<String> = path.iter().map(|m| m.to_string()).collect();
                story.public(
                    None,
                    format!("The referee solves it in {}: {}", plural(path.len(), "move"), moves.join(" ")),
                );
                Settled::Solvable(path.len())
            }
            Verdict::Impossible => {
                story.public(None, "The referee proves the puzzle impossible");
                Settled::Impossible
            }
            Verdict::Unknown { at_least } => {
                story.public(
                    None,
                    format!(
                        "The referee's search reaches its limit without a proof: the puzzle needs at least {}, \
                         and an unproven \"impossible\" counts as wrong",
                        plural(at_least as usize, "move")
                    ),
                );
                Settled::Unproven(at_least as usize)
            }
        };
        self.record_hole(hole_scores(&self.given_counts(), &failed, settled), story);
    }

    /// The referee's search of this hole's puzzle, bounded by the round's
    /// `solver_nodes`; once per puzzle for this game and its copies.
    fn search(&self) -> Verdict {
        let puzzle = self.puzzle();
        let options = SolveOptions { max_nodes: self.solver_nodes, ..SolveOptions::default() };
        self.verdicts.verdict(&puzzle, || solve_with(&puzzle, &options).verdict)
    }

    /// Write the hole on the score sheet and pass the deck to the left.
    fn record_hole(&mut self, scores: Vec<i64>, story: &mut Journal) {
        let counts = self.given_counts();
        let shown: Vec<String> = (0..self.players).map(|s| format!("{} {}", player(s), scores[s])).collect();
        story.public(None, format!("Hole {} scores: {}", self.hole, shown.join(", ")));
        self.sheet.push(Hole { chosen: pieces_of(&self.deal), counts, scores });
        self.discard.append(&mut self.deal);
        if self.hole >= self.holes {
            self.phase = Phase::Over;
            let outcome = self.outcome().expect("the round is over");
            let winners: Vec<String> = outcome.winners.iter().map(|&s| player(s)).collect();
            let verb = if winners.len() == 1 { "wins" } else { "share the win" };
            story.public(None, format!("The round is over: {} {verb}", winners.join(" and ")));
            return;
        }
        self.hole += 1;
        self.dealer = (self.dealer + 1) % self.players;
        self.draw_cards(story);
    }

    /// Apply one action by the rules (the body of [`Game::apply`]): on
    /// error nothing changes.
    fn play(&mut self, seat: Seat, action: &GolfAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match (&self.phase, *action) {
            (Phase::Counting, GolfAction::Count(n)) if (1..=MAX_COUNT).contains(&n) => self.count(seat, n, story),
            (Phase::Counting, GolfAction::Count(_)) => {
                return Err(RuleError::illegal(action, format!("a count is 1 to {MAX_COUNT}, or impossible")))
            }
            (Phase::Counting, GolfAction::Impossible) => self.count(seat, 0, story),
            (Phase::Demonstrating { puzzle, .. }, GolfAction::Move(m)) => match puzzle.check_move(m) {
                Ok(()) => self.demonstrate(m, story),
                Err(reason) => self.refuse(seat, m, &reason, story),
            },
            (Phase::Demonstrating { .. }, GolfAction::GiveUp) => self.fail(seat, "gives up", story),
            (Phase::Returning { board, .. }, GolfAction::Put(sq)) => {
                if board.piece_at(sq).is_some() {
                    return Err(RuleError::illegal(action, format!("{sq} is not empty")));
                }
                self.put_back(sq, story);
            }
            (Phase::Counting, _) => {
                return Err(RuleError::illegal(action, "now give your count: a number of moves, or impossible"))
            }
            (Phase::Demonstrating { .. }, _) => {
                return Err(RuleError::illegal(action, "now demonstrate your path one move at a time, or give up"))
            }
            (Phase::Returning { .. }, _) => {
                return Err(RuleError::illegal(action, "now put the captured piece back on an empty square"))
            }
            (Phase::Over, _) => return Err(RuleError::GameOver),
        }
        Ok(())
    }

    // ----- Game End -----

    /// Every player's total so far, with this hole's scores once they are
    /// settled (while the demonstrator puts the pieces back).
    pub fn totals(&self) -> Vec<i64> {
        let pending = self.pending_scores();
        (0..self.players)
            .map(|s| self.sheet.iter().map(|h| h.scores[s]).sum::<i64>() + pending.as_ref().map_or(0, |p| p[s]))
            .collect()
    }

    /// This hole's scores when they are known but not yet on the sheet:
    /// after a successful demonstration, while the pieces are put back.
    fn pending_scores(&self) -> Option<Vec<i64>> {
        match &self.phase {
            Phase::Returning { failed, .. } => Some(hole_scores(&self.given_counts(), failed, Settled::Demonstrated)),
            _ => None,
        }
    }

    /// Game End: after the last hole the lowest total wins; a tie is shared.
    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let totals = self.totals();
        let best = *totals.iter().min()?;
        let winners = (0..self.players).filter(|&s| totals[s] == best).collect();
        Some(Outcome::win(winners, "lowest score").with_scores(totals))
    }

    /// The scores of every finished hole, per seat.
    pub fn hole_scores(&self) -> Vec<Vec<i64>> {
        self.sheet.iter().map(|h| h.scores.clone()).collect()
    }

    /// The number of the hole in play (from 1).
    pub fn hole(&self) -> usize {
        self.hole
    }

    /// The cards dealt per hole now.
    pub fn cards_per_hole(&self) -> usize {
        self.cards
    }

    /// A seat's count this hole, once given (0 for impossible).
    pub fn count_of(&self, seat: Seat) -> Option<u32> {
        self.counts.get(seat).copied().flatten()
    }

    /// How many moves the current demonstration has made.
    pub fn demonstration_moves(&self) -> usize {
        match &self.phase {
            Phase::Demonstrating { path, .. } => path.len(),
            _ => 0,
        }
    }

    /// The board now: the demonstration in progress, or the course.
    pub fn board_now(&self) -> Board {
        match &self.phase {
            Phase::Demonstrating { puzzle, .. } => puzzle.board,
            Phase::Returning { board, .. } => *board,
            _ => self.course,
        }
    }

    fn legal_moves_for(&self, seat: Seat) -> Vec<GolfAction> {
        match &self.phase {
            Phase::Counting if self.counts[seat].is_none() => {
                let mut out: Vec<GolfAction> = (1..=MAX_COUNT).map(GolfAction::Count).collect();
                out.push(GolfAction::Impossible);
                out
            }
            Phase::Demonstrating { seat: s, puzzle, .. } if *s == seat => {
                let mut out: Vec<GolfAction> = puzzle.legal_moves().into_iter().map(GolfAction::Move).collect();
                out.push(GolfAction::GiveUp);
                out
            }
            Phase::Returning { seat: s, board, .. } if *s == seat => {
                (!board.occupied()).into_iter().map(GolfAction::Put).collect()
            }
            _ => Vec::new(),
        }
    }

    fn prompt(&self, viewer: Viewer) -> Option<String> {
        let seat = viewer.seat();
        Some(match &self.phase {
            Phase::Counting => match seat {
                Some(s) if self.counts[s].is_none() => format!(
                    "How many moves does it take for one chosen piece ({}) to capture the others? \
                     Choose a number of moves, or impossible",
                    pieces_of(&self.deal).describe()
                ),
                _ => "Waiting for every player's count".to_string(),
            },
            Phase::Demonstrating { seat: s, path, .. } => {
                let count = self.counts[*s].unwrap_or(0);
                if seat == Some(*s) {
                    format!(
                        "Demonstrate your path: make move {} of at most {count}, or give up. \
                         A move that is not allowed ends your demonstration",
                        path.len() + 1
                    )
                } else {
                    format!("{} demonstrates a path of {}", player(*s), plural(count as usize, "move"))
                }
            }
            Phase::Returning { seat: s, pieces, .. } => {
                if seat == Some(*s) {
                    format!("Put the captured {} back: choose an empty square", piece_name(pieces[0]))
                } else {
                    format!("{} puts the captured pieces back", player(*s))
                }
            }
            Phase::Over => return None,
        })
    }

    fn score_table(&self, viewer: Viewer) -> TableView {
        let mut columns = vec!["Hole".to_string(), "Cards".to_string()];
        columns.extend((0..self.players).map(player));
        let mut rows = Vec::new();
        for (i, hole) in self.sheet.iter().enumerate() {
            let mut row = vec![(i + 1).to_string(), hole.chosen.to_string()];
            row.extend((0..self.players).map(|s| score_cell(hole.counts[s], hole.scores[s])));
            rows.push(row);
        }
        if let Some(scores) = self.pending_scores() {
            let mut row = vec![self.hole.to_string(), pieces_of(&self.deal).to_string()];
            let counts = self.given_counts();
            row.extend((0..self.players).map(|s| score_cell(counts[s], scores[s])));
            rows.push(row);
        } else if self.phase != Phase::Over {
            let mut row = vec![self.hole.to_string(), pieces_of(&self.deal).to_string()];
            for s in 0..self.players {
                row.push(match (self.counts[s], &self.phase) {
                    (None, _) => String::new(),
                    (Some(n), Phase::Counting) if viewer.seat() == Some(s) => format!("{} (secret)", count_text(n)),
                    (Some(_), Phase::Counting) => "ready".to_string(),
                    (Some(n), _) => count_text(n),
                });
            }
            rows.push(row);
        }
        let mut total = vec!["Total".to_string(), String::new()];
        total.extend(self.totals().iter().map(|t| t.to_string()));
        rows.push(total);
        TableView { title: "Score sheet".to_string(), columns, rows, drawn_as: None }
    }

    fn markers(&self, sq: Square) -> Vec<Marker> {
        let board = self.board_now();
        let mut out = Vec::new();
        let chosen = match &self.phase {
            Phase::Demonstrating { puzzle, .. } => {
                if puzzle.capturer() == Some(sq) {
                    let badge = MarkerDrawing::badge(Corner::TopLeft, "#455a64", "C");
                    out.push(Marker::new("capturer").drawn(badge));
                }
                puzzle.capturers() | board.matching(puzzle.remaining())
            }
            Phase::Over | Phase::Returning { .. } => shakmaty::Bitboard::EMPTY,
            Phase::Counting => board.matching(pieces_of(&self.deal)),
        };
        if chosen.contains(sq) {
            out.push(Marker::new("chosen").drawn(MarkerDrawing::ring("green")));
        }
        out
    }
}

// ----- The text position -----

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

fn seats_text(seats: &[Seat]) -> String {
    seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

impl GolfGame {
    /// The whole truth: the board now (8 lines), then `key: value` lines
    /// (docs/games/golf.md lists them).
    fn position_text(&self) -> String {
        let mut out = board_text(&self.board_now());
        let mut line = |k: &str, v: String| out.push_str(&format!("{k}: {v}\n"));
        line("players", self.players.to_string());
        line("holes", self.holes.to_string());
        line("max cards", self.max_cards.to_string());
        line("hole", self.hole.to_string());
        line("dealer", self.dealer.to_string());
        line("cards", self.cards.to_string());
        line("deck", cards_text(&self.draw));
        line("discard", cards_text(&self.discard));
        line("deal", cards_text(&self.deal));
        line(
            "counts",
            self.counts.iter().map(|c| c.map_or("-".to_string(), |n| n.to_string())).collect::<Vec<_>>().join(" "),
        );
        for hole in &self.sheet {
            let counts: Vec<String> = hole.counts.iter().map(|n| n.to_string()).collect();
            let scores: Vec<String> = hole.scores.iter().map(|n| n.to_string()).collect();
            line("played", format!("{} | {} | {}", hole.chosen, counts.join(" "), scores.join(" ")));
        }
        match &self.phase {
            Phase::Counting => line("phase", "counting".to_string()),
            Phase::Over => line("phase", "over".to_string()),
            Phase::Demonstrating { seat, path, failed, .. } => {
                line("phase", "demonstrating".to_string());
                line("course", course_fen(&self.course));
                line("demonstrator", seat.to_string());
                line("path", path.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "));
                line("failed", seats_text(failed));
            }
            Phase::Returning { seat, pieces, length, failed, .. } => {
                line("phase", "returning".to_string());
                line("demonstrator", seat.to_string());
                line("length", length.to_string());
                line("returning", pieces.iter().map(|p| p.char().to_string()).collect::<Vec<_>>().join(""));
                line("failed", seats_text(failed));
            }
        }
        out
    }
}

/// The course on one line, ranks joined by `/`.
fn course_fen(board: &Board) -> String {
    board_text(board).lines().map(|l| l.replace(' ', "")).collect::<Vec<_>>().join("/")
}

/// The round's options.
#[derive(Clone, Copy, Debug)]
struct Settings {
    players: usize,
    holes: usize,
    max_cards: usize,
    solver_nodes: u64,
}

fn read_options(options: &Options) -> Result<Settings, String> {
    let players = options.int("players", 2);
    let holes = options.int("holes", 9);
    let max_cards = options.int("max_cards", DEFAULT_MAX_CARDS as i64);
    let solver_nodes = options.int("solver_nodes", DEFAULT_SOLVER_NODES as i64);
    if !(1..=8).contains(&players) || !(1..=18).contains(&holes) || !(2..=16).contains(&max_cards) {
        return Err("players must be 1 to 8, holes 1 to 18, max_cards 2 to 16".to_string());
    }
    if !(1..=MAX_SOLVER_NODES as i64).contains(&solver_nodes) {
        return Err(format!(
            "solver_nodes must be 1 to {MAX_SOLVER_NODES} (the referee's longest search), not {solver_nodes}"
        ));
    }
    Ok(Settings {
        players: players as usize,
        holes: holes as usize,
        max_cards: max_cards as usize,
        solver_nodes: solver_nodes as u64,
    })
}

/// The most positions a round may let its referee search when it settles
/// a hole: a few seconds of search, so that no option a client chooses can
/// make one action hold a server's core for minutes (issue 24). Measured
/// (docs/games/golf.md, "The solver"): 6.0 million positions a second on
/// the worst board met, a round's 15-card hole, on a loaded 2-core machine,
/// so 3.3 s. A round asking for more is refused.
pub const MAX_SOLVER_NODES: u64 = 20_000_000;

/// The referee's default search limit: as hard as the server allows.
/// Almost every hole needs far less (docs/games/golf.md, "The solver").
pub const DEFAULT_SOLVER_NODES: u64 = MAX_SOLVER_NODES;

/// The difficulty rule's default cap: the whole deck of 16 cards, as the
/// book sets no other ("and so on"). In a round of 9 holes, starting at 2
/// cards with at most one more per hole, hole 9 deals at most 10.
pub const DEFAULT_MAX_CARDS: usize = 16;

impl Game for GolfGame {
    type Action = GolfAction;
    const VARIANT: &'static str = "golf";
    const TITLE: &'static str = "Chess Golf";
    /// "After 9 holes the lowest total wins" (docs/games/golf.md).
    const SCORE_ORDER: ScoreOrder = ScoreOrder::Lowest;
    /// Every player solves the same hole; nobody plays against a side.
    const PUZZLE: bool = true;

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int("players", 1, 8, 2, "number of players").label("Number of players"),
            OptionSpec::int("holes", 1, 18, 9, "number of turns (holes); the book plays 9").label("Number of holes"),
            OptionSpec::int(
                "max_cards",
                2,
                16,
                DEFAULT_MAX_CARDS as i64,
                "the most cards a hole may deal: one more card each time all counts agree (the book sets no limit \
                 but the 16 cards; 9 holes reach at most 10)",
            )
            .label("Most cards dealt for a hole"),
            OptionSpec::int(
                "solver_nodes",
                1,
                MAX_SOLVER_NODES as i64,
                DEFAULT_SOLVER_NODES as i64,
                "the referee's search limit (positions) when nobody demonstrates; an impossible it cannot prove \
                 within it counts as wrong",
            )
            .label("Referee's search limit")
            .advanced(),
        ]
    }

    /// What the start announces is written to `story`.
    fn open(options: &Options, seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(GolfGame::setup(read_options(options).map_err(GameError::new)?, None, seed, story)),
            Some(position) => GolfGame::from_text(position, options, seed, story).map_err(GameError::new),
        }
    }

    fn position(&self) -> String {
        self.position_text()
    }

    // The key of everything the rules read, the draw pile included (the
    // search plays drawn worlds): the course, the cards, the counts given,
    // the demonstration or the pieces to put back, the score sheet. The
    // options stay the same all game and the referee's stored verdicts
    // are empty at rest, so they are left out.
    fn position_hash(&self) -> Option<u64> {
        let cards = (&self.draw, &self.discard, &self.deal, self.cards);
        let hole = (self.dealer, self.hole, &self.counts, &self.phase);
        Some(hash_of(&(&self.course, cards, hole, &self.sheet)))
    }

    fn seats(&self) -> Vec<SeatInfo> {
        (0..self.players).map(|s| SeatInfo::new(&player(s))).collect()
    }

    fn to_act(&self) -> ToAct {
        match &self.phase {
            Phase::Counting => ToAct::Seats((0..self.players).filter(|&s| self.counts[s].is_none()).collect()),
            Phase::Demonstrating { seat, .. } | Phase::Returning { seat, .. } => ToAct::one(*seat),
            Phase::Over => ToAct::Over(self.outcome().expect("the round is over")),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<GolfAction> {
        if seat >= self.players {
            return Vec::new();
        }
        self.legal_moves_for(seat)
    }

    fn apply_with(&mut self, seat: Seat, action: &GolfAction, story: &mut Journal) -> Result<(), RuleError> {
        self.apply_found(seat, action, None, story).map(drop)
    }

    /// The count and the demonstration from the solver (the `expert` module).
    fn expert_action(&self, seat: Seat, nodes: u64, miss: i64) -> Option<GolfAction> {
        self.expert(seat, nodes, miss)
    }

    /// A hole settled by the referee's search stores its verdict (see the
    /// `finding` module); a replay hands it back and no search runs. The
    /// stored finding must settle this very action: one on an action that
    /// settles nothing, or with a path that does not solve the hole, is
    /// refused and nothing changes.
    fn apply_found(
        &mut self,
        seat: Seat,
        action: &GolfAction,
        found: Option<&str>,
        story: &mut Journal,
    ) -> Result<Option<String>, RuleError> {
        let Some(found) = found else {
            self.play(seat, action, story)?;
            return Ok(self.reached_verdict.take().map(|verdict| finding_text(&verdict)));
        };
        let given = read_finding(found, &self.puzzle())
            .map_err(|reason| RuleError::illegal(action, format!("bad stored finding: {reason}")))?;
        let mut next = self.clone();
        next.given_verdict = Some(given);
        next.play(seat, action, story)?;
        if next.given_verdict.is_some() {
            return Err(RuleError::illegal(
                action,
                format!("the stored finding {found:?} settles a hole, and this action settles none"),
            ));
        }
        let reached = next.reached_verdict.take();
        *self = next;
        Ok(reached.map(|verdict| finding_text(&verdict)))
    }

    /// Golf has no sides and so no material to weigh: the players' seats
    /// have no colour, which makes the search's fallback (the material of
    /// the seat's view) 0 in every position. Saying so at once spares the
    /// search building the whole view at every node.
    fn heuristic(&self, _seat: Seat) -> Option<f64> {
        Some(0.0)
    }

    fn view(&self, viewer: Viewer) -> View {
        let board = to_shakmaty(&self.board_now());
        let mut view = View {
            board: Some(BoardView::from_board(&board, shakmaty::Bitboard::FULL, &|sq| self.markers(sq))),
            zones: vec![
                CardZone {
                    name: "chosen".to_string(),
                    owner: None,
                    cards: self.deal.iter().map(|c| c.to_string()).collect(),
                    hidden: 0,
                },
                CardZone { name: "deck".to_string(), owner: None, cards: Vec::new(), hidden: self.draw.len() },
                CardZone {
                    name: "discard".to_string(),
                    owner: None,
                    cards: self.discard.iter().map(|c| c.to_string()).collect(),
                    hidden: 0,
                },
            ],
            tables: vec![self.score_table(viewer)],
            prompt: self.prompt(viewer),
            ..View::default()
        };
        if let Phase::Demonstrating { path: p, .. } = &self.phase {
            if let Some(m) = p.last() {
                view.last_move = vec![m.from.to_string(), m.to.to_string()];
            }
        }
        view
    }

    /// Re-draw what `seat` cannot know: the other players' counts not yet
    /// revealed, the order of the draw pile, and the generator's future.
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        if game.phase == Phase::Counting {
            for s in 0..game.players {
                if s != seat && game.counts[s].is_some() {
                    game.counts[s] = Some(rng.below(MAX_COUNT as usize + 1) as u32);
                }
            }
        }
        // A canonical order first, so the real order cannot steer the draw.
        game.draw.sort();
        rng.shuffle(&mut game.draw);
        game.rng = GameRng::from_seed(rng.next_u64());
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every count vector of `players` seats with counts 0 to `most`.
    fn all_counts(players: usize, most: u32) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new()];
        for _ in 0..players {
            out = out
                .into_iter()
                .flat_map(|c: Vec<u32>| (0..=most).map(move |n| [c.clone(), vec![n]].concat()))
                .collect();
        }
        out
    }

    #[test]
    fn bluffing_never_pays() {
        // Rulings, scoring: for every table of up to 3 players and every
        // way a hole can end, a seat whose low count failed scores at least
        // what the same seat would have scored saying "impossible" instead.
        for players in 1..=3 {
            for counts in all_counts(players, 4) {
                for bluffer in (0..players).filter(|&s| counts[s] > 0) {
                    let mut honest = counts.clone();
                    honest[bluffer] = 0;
                    // The seats that demonstrate before the bluffer and fail
                    // do so in both tables.
                    let order = resume::demonstration_order(&counts, 0);
                    let before: Vec<Seat> = order.iter().copied().take_while(|&s| s != bluffer).collect();
                    let mut failed = before.clone();
                    failed.push(bluffer);
                    let mut endings = vec![Settled::Impossible];
                    endings.extend((1..=8).flat_map(|n| [Settled::Solvable(n), Settled::Unproven(n)]));
                    // Someone after the bluffer succeeds.
                    if order.len() > failed.len() {
                        endings.push(Settled::Demonstrated);
                    }
                    for settled in endings {
                        let all_failed: Vec<Seat> =
                            if settled == Settled::Demonstrated { failed.clone() } else { order.clone() };
                        let honest_failed: Vec<Seat> = all_failed.iter().copied().filter(|&s| s != bluffer).collect();
                        let bluff = hole_scores(&counts, &all_failed, settled)[bluffer];
                        let fair = hole_scores(&honest, &honest_failed, settled)[bluffer];
                        assert!(bluff >= fair, "{counts:?} {settled:?}: bluff {bluff} < impossible {fair}");
                        assert!(bluff > 0);
                    }
                }
            }
        }
    }

    #[test]
    fn scoring_clauses() {
        // A count that stands scores itself; a failed demonstration and a
        // wrong "impossible" score the highest count plus one after a
        // successful demonstration (the book's numbers).
        assert_eq!(hole_scores(&[5, 3, 0], &[], Settled::Demonstrated), [5, 3, 6]);
        assert_eq!(hole_scores(&[2, 3, 5], &[0, 1], Settled::Demonstrated), [6, 6, 5]);
        // A proven "impossible" scores 0; the failed counts the highest plus one.
        assert_eq!(hole_scores(&[0, 2], &[1], Settled::Impossible), [0, 3]);
        // Nobody demonstrated and the puzzle takes 7: wrong answers score 8.
        assert_eq!(hole_scores(&[0, 2], &[1], Settled::Solvable(7)), [8, 8]);
        // Not proven within the search limit, at least 5 moves: 6.
        assert_eq!(hole_scores(&[0, 0], &[], Settled::Unproven(5)), [6, 6]);
    }

    /// The search's transposition table may only share what the rules
    /// cannot tell apart: see [`crate::testing::check_position_hash`].
    #[test]
    fn the_position_key_is_the_same_for_the_same_state_and_differs_for_any_change_the_rules_read() {
        crate::testing::check_position_hash::<GolfGame>(&Options::new(), 2, 60);
    }

    /// The referee's verdict is searched once per puzzle, however many
    /// copies of the game settle it, and a new puzzle is searched anew.
    #[test]
    fn the_referee_searches_each_puzzle_once_for_a_game_and_its_copies() {
        let memo = VerdictMemo::default();
        let copy = memo.clone();
        let first = Puzzle::new(Board::default(), Cards::default());
        let mut searches = 0;
        let mut search = |verdict: Verdict| {
            searches += 1;
            verdict
        };
        assert_eq!(memo.verdict(&first, || search(Verdict::Impossible)), Verdict::Impossible);
        assert_eq!(copy.verdict(&first, || search(Verdict::Solved(Vec::new()))), Verdict::Impossible);
        let mut board = Board::default();
        board.put(Square::E4, Piece { color: shakmaty::Color::White, role: shakmaty::Role::King });
        let second = Puzzle::new(board, Cards::default());
        assert_eq!(copy.verdict(&second, || search(Verdict::Solved(Vec::new()))), Verdict::Solved(Vec::new()));
        assert_eq!(searches, 2, "one search for each puzzle");
    }
}
