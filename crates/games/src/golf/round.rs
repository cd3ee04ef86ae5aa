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
//! gives up or has made as many moves as they counted without solving; a
//! failed demonstrator scores the highest count at the table (their own
//! included) plus one; "impossible" (a count of 0) scores the highest count
//! plus one when someone demonstrates, and otherwise is settled by the
//! solver: 0 when the puzzle is impossible, else the larger of the highest
//! count and the optimal length, plus one. One more card is dealt on later
//! holes whenever every player gave the same (non-zero) count, up to the
//! `max_cards` option. Tied totals share the win.

use std::fmt;
use std::str::FromStr;

use chesskit_core::cards::{officer_deck, Card};
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::rng::GameRng;
use chesskit_core::view::{ActionInfo, BoardView, CardZone, Journal, Marker, TableView, View};
use shakmaty::{Piece, Square};

use super::layout::layout_cards;
use super::rules::{piece_name, Board, Cards, GolfMove, Puzzle};
use super::solver::{solve_with, SolveOptions, Verdict};
use super::text::{board_text, parse_board, split_lines};

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
            }
            GolfAction::Put(sq) => info.square = Some(sq.to_string()),
            GolfAction::Count(n) => info.label = Some(format!("{n} move{}", if *n == 1 { "" } else { "s" })),
            GolfAction::Impossible => info.label = Some("Impossible".to_string()),
            GolfAction::GiveUp => info.label = Some("Give up".to_string()),
        }
        info
    }
}

/// Where the current hole stands.
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Debug, PartialEq)]
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
    journal: Journal,
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
    fn setup(settings: Settings, course: Option<Board>, seed: u64) -> GolfGame {
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
            journal: Journal::default(),
        };
        game.journal.public(None, format!("{} deals the first hole", player(dealer)));
        game.draw_cards();
        game
    }

    // ----- Play -----

    /// Draw: the dealer draws this hole's cards face up (shuffling the
    /// discard pile back in when the draw pile runs short) and announces
    /// the chosen piece types.
    fn draw_cards(&mut self) {
        if self.draw.len() < self.cards {
            self.draw.append(&mut self.discard);
            self.rng.shuffle(&mut self.draw);
            self.journal.public(None, "The discard pile is shuffled back into the deck");
        }
        self.deal = (0..self.cards).filter_map(|_| self.draw.pop()).collect();
        self.counts = vec![None; self.players];
        self.phase = Phase::Counting;
        let cards: Vec<String> = self.deal.iter().map(|c| c.to_string()).collect();
        self.journal.public(
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

    /// Solve and reveal: a player gives their secret count; when the last
    /// count is in, all are revealed at once.
    fn count(&mut self, seat: Seat, n: u32) {
        self.counts[seat] = Some(n);
        if self.counts.iter().all(Option::is_some) {
            self.reveal();
        }
    }

    /// Reveal: everyone shows their count; the difficulty may rise; the
    /// player with the fewest moves demonstrates.
    fn reveal(&mut self) {
        let counts = self.given_counts();
        let shown: Vec<String> =
            (0..self.players).map(|s| format!("{} {}", player(s), count_text(counts[s]))).collect();
        self.journal.public(None, format!("Counts revealed: {}", shown.join(", ")));
        if counts.iter().all(|&n| n == counts[0] && n > 0) && self.cards < self.max_cards && self.hole < self.holes {
            self.cards += 1;
            self.journal
                .public(None, format!("Everyone gave the same count: {} cards from the next hole on", self.cards));
        }
        self.next_demonstrator(Vec::new());
    }

    fn given_counts(&self) -> Vec<u32> {
        self.counts.iter().map(|c| c.unwrap_or(0)).collect()
    }

    /// Demonstrate: the player with the lowest non-zero count who has not
    /// failed yet; ties go to the first from the dealer round to the left.
    /// When nobody is left, the solver settles the hole.
    fn next_demonstrator(&mut self, failed: Vec<Seat>) {
        let counts = self.given_counts();
        let next = (0..self.players)
            .map(|i| (self.dealer + i) % self.players)
            .filter(|s| counts[*s] > 0 && !failed.contains(s))
            .min_by_key(|s| counts[*s]);
        match next {
            Some(seat) => {
                self.journal
                    .public(Some(seat), format!("{} demonstrates a path of {} moves", player(seat), counts[seat]));
                self.phase = Phase::Demonstrating { seat, puzzle: self.puzzle(), path: Vec::new(), failed };
            }
            None => self.settle(failed),
        }
    }

    /// One move of the demonstration, checked by the referee.
    fn demonstrate(&mut self, m: GolfMove) {
        let Phase::Demonstrating { seat, puzzle, path, failed } = &mut self.phase else { return };
        let seat = *seat;
        puzzle.play_unchecked(m);
        path.push(m);
        let (solved, moves, board) = (puzzle.is_solved(), path.len(), puzzle.board);
        let failed = failed.clone();
        self.journal.public(Some(seat), format!("{} plays {m}", player(seat)));
        let count = self.counts[seat].unwrap_or(0) as usize;
        if solved {
            self.journal.public(Some(seat), format!("{} solved the puzzle in {moves} moves", player(seat)));
            let mut pieces = self.course.pieces().map(|(_, p)| p).collect::<Vec<_>>();
            for (_, p) in board.pieces() {
                if let Some(i) = pieces.iter().position(|q| *q == p) {
                    pieces.remove(i);
                }
            }
            self.phase = Phase::Returning { seat, board, pieces, length: moves, failed };
        } else if moves >= count {
            self.fail(seat, "used every move of the count without solving the puzzle");
        }
    }

    /// A failed demonstration: the pieces go back to where they started and
    /// the next lowest count demonstrates.
    fn fail(&mut self, seat: Seat, why: &str) {
        let mut failed = match &self.phase {
            Phase::Demonstrating { failed, .. } => failed.clone(),
            _ => Vec::new(),
        };
        self.journal.public(Some(seat), format!("{} {why}: the pieces are reset", player(seat)));
        failed.push(seat);
        self.next_demonstrator(failed);
    }

    /// After a successful demonstration: put a captured piece back on an
    /// empty square; with the last one the hole ends.
    fn put_back(&mut self, sq: Square) {
        let Phase::Returning { seat, board, pieces, length, failed } = &mut self.phase else { return };
        let piece = pieces.remove(0);
        board.put(sq, piece);
        let (seat, done, length, failed, board) = (*seat, pieces.is_empty(), *length, failed.clone(), *board);
        self.journal.public(Some(seat), format!("{} puts the {} back on {sq}", player(seat), piece_name(piece)));
        if done {
            self.course = board;
            self.finish_hole(Some((seat, length)), &failed);
        }
    }

    /// No demonstration succeeded: the solver settles the "impossible" counts.
    fn settle(&mut self, failed: Vec<Seat>) {
        let zeros = self.counts.contains(&Some(0));
        if zeros {
            let options = SolveOptions { max_nodes: self.solver_nodes, ..SolveOptions::default() };
            let settled = match solve_with(&self.puzzle(), &options).verdict {
                Verdict::Solved(path) => {
                    let moves: Vec<String> = path.iter().map(|m| m.to_string()).collect();
                    self.journal
                        .public(None, format!("The referee solves it in {} moves: {}", path.len(), moves.join(" ")));
                    Some(path.len())
                }
                Verdict::Impossible => {
                    self.journal.public(None, "The referee proves the puzzle impossible");
                    None
                }
                Verdict::Unknown { .. } => {
                    self.journal.public(None, "The referee's search gives up: impossible answers are not penalised");
                    None
                }
            };
            self.finish_settled(settled, &failed);
        } else {
            self.finish_hole(None, &failed);
        }
    }

    fn finish_settled(&mut self, optimal: Option<usize>, failed: &[Seat]) {
        let counts = self.given_counts();
        let top = counts.iter().copied().max().unwrap_or(0) as i64;
        let scores = (0..self.players)
            .map(|s| {
                if failed.contains(&s) {
                    top + 1
                } else if counts[s] == 0 {
                    optimal.map_or(0, |l| top.max(l as i64) + 1)
                } else {
                    counts[s] as i64
                }
            })
            .collect();
        self.record_hole(scores);
    }

    /// Score the hole: counts as given; a failed demonstration scores the
    /// highest count plus one; after a success, "impossible" scores the
    /// highest count plus one.
    fn finish_hole(&mut self, success: Option<(Seat, usize)>, failed: &[Seat]) {
        let counts = self.given_counts();
        let top = counts.iter().copied().max().unwrap_or(0) as i64;
        let scores =
            (0..self.players)
                .map(|s| {
                    if failed.contains(&s) || (counts[s] == 0 && success.is_some()) {
                        top + 1
                    } else {
                        counts[s] as i64
                    }
                })
                .collect();
        self.record_hole(scores);
    }

    /// Write the hole on the score sheet and pass the deck to the left.
    fn record_hole(&mut self, scores: Vec<i64>) {
        let counts = self.given_counts();
        let shown: Vec<String> = (0..self.players).map(|s| format!("{} {}", player(s), scores[s])).collect();
        self.journal.public(None, format!("Hole {} scores: {}", self.hole, shown.join(", ")));
        self.sheet.push(Hole { chosen: pieces_of(&self.deal), counts, scores });
        self.discard.append(&mut self.deal);
        if self.hole >= self.holes {
            self.phase = Phase::Over;
            let outcome = self.outcome().expect("the round is over");
            let winners: Vec<String> = outcome.winners.iter().map(|&s| player(s)).collect();
            self.journal.public(None, format!("The round is over: {} wins", winners.join(" and ")));
            return;
        }
        self.hole += 1;
        self.dealer = (self.dealer + 1) % self.players;
        self.draw_cards();
    }

    // ----- Game End -----

    /// Every player's total so far.
    pub fn totals(&self) -> Vec<i64> {
        (0..self.players).map(|s| self.sheet.iter().map(|h| h.scores[s]).sum()).collect()
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
                    "Count the moves for one chosen piece ({}) to capture the others: count N, or impossible",
                    pieces_of(&self.deal).describe()
                ),
                _ => "Waiting for every player's count".to_string(),
            },
            Phase::Demonstrating { seat: s, path, .. } => {
                let count = self.counts[*s].unwrap_or(0);
                if seat == Some(*s) {
                    format!(
                        "Demonstrate your path: move {} of at most {count} (a move like e5g6, or give up)",
                        path.len() + 1
                    )
                } else {
                    format!("{} demonstrates a path of {count} moves", player(*s))
                }
            }
            Phase::Returning { seat: s, pieces, .. } => {
                if seat == Some(*s) {
                    format!("Put the captured {} back on an empty square: put e4", piece_name(pieces[0]))
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
            for s in 0..self.players {
                let (count, score) = (hole.counts[s], hole.scores[s]);
                row.push(if score == count as i64 {
                    score.to_string()
                } else {
                    format!("{score} (said {})", count_text(count))
                });
            }
            rows.push(row);
        }
        if self.phase != Phase::Over {
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
        TableView { title: "Score sheet".to_string(), columns, rows }
    }

    fn markers(&self, sq: Square) -> Vec<Marker> {
        let board = self.board_now();
        let mut out = Vec::new();
        let chosen = match &self.phase {
            Phase::Demonstrating { puzzle, .. } => {
                if puzzle.capturer() == Some(sq) {
                    out.push(Marker::new("capturer"));
                }
                puzzle.capturers() | board.matching(puzzle.remaining())
            }
            Phase::Over | Phase::Returning { .. } => shakmaty::Bitboard::EMPTY,
            Phase::Counting => board.matching(pieces_of(&self.deal)),
        };
        if chosen.contains(sq) {
            out.push(Marker::new("chosen"));
        }
        out
    }
}

// ----- The text position -----

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

fn parse_cards(line: usize, value: &str) -> Result<Vec<Card>, String> {
    value.split_whitespace().map(|w| w.parse::<Card>().map_err(|e| format!("line {line}: {e}"))).collect()
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

    /// Read a position: the 8 board lines alone start a round on that
    /// course; with the keys of [`GolfGame::position_text`] it resumes one.
    fn from_text(text: &str, options: &Options, seed: u64) -> Result<GolfGame, String> {
        let (board_lines, keys) = split_lines(text);
        let board = parse_board(&board_lines)?;
        if board.occupied().count() != 16 {
            return Err(format!(
                "a round needs the 16 pieces of the Chess Golf set on the board, found {}",
                board.occupied().count()
            ));
        }
        let mut game = GolfGame::setup(read_options(options)?, Some(board), seed);
        if keys.is_empty() {
            return Ok(game);
        }
        let get = |name: &str| keys.iter().find(|(_, k, _)| k.eq_ignore_ascii_case(name)).map(|(l, _, v)| (*l, *v));
        let need = |name: &str| get(name).ok_or_else(|| format!("the position has no {name}: line"));
        let number = |name: &str| -> Result<usize, String> {
            let (l, v) = need(name)?;
            v.parse::<usize>().map_err(|_| format!("line {l} ({name}): {v:?} is not a number"))
        };
        game.players = number("players")?;
        if !(1..=8).contains(&game.players) {
            return Err("players must be 1 to 8".to_string());
        }
        game.holes = number("holes")?;
        game.max_cards = number("max cards")?;
        game.hole = number("hole")?;
        game.dealer = number("dealer")?;
        game.cards = number("cards")?;
        if game.dealer >= game.players || game.hole == 0 || game.hole > game.holes || game.cards > 16 {
            return Err("hole, dealer or cards out of range".to_string());
        }
        let (l, v) = need("deck")?;
        game.draw = parse_cards(l, v)?;
        let (l, v) = need("discard")?;
        game.discard = parse_cards(l, v)?;
        let (l, v) = need("deal")?;
        game.deal = parse_cards(l, v)?;
        let mut all: Vec<Card> = game.draw.iter().chain(&game.discard).chain(&game.deal).copied().collect();
        all.sort();
        let mut deck = officer_deck();
        deck.sort();
        if all != deck {
            return Err("deck, discard and deal must hold the 16 officer cards once each".to_string());
        }
        let (l, v) = need("counts")?;
        game.counts = v
            .split_whitespace()
            .map(|w| if w == "-" { Ok(None) } else { w.parse::<u32>().map(Some) })
            .collect::<Result<_, _>>()
            .map_err(|_| format!("line {l} (counts): write a number or - per player"))?;
        if game.counts.len() != game.players {
            return Err(format!("line {l} (counts): one per player"));
        }
        game.sheet = keys
            .iter()
            .filter(|(_, k, _)| k.eq_ignore_ascii_case("played"))
            .map(|(l, _, v)| parse_played(*l, v, game.players))
            .collect::<Result<_, _>>()?;
        game.journal = Journal::default();
        let seat = |game: &GolfGame| -> Result<Seat, String> {
            let s = number("demonstrator")?;
            if s >= game.players {
                return Err("demonstrator out of range".to_string());
            }
            Ok(s)
        };
        let failed = || -> Result<Vec<Seat>, String> {
            let (l, v) = need("failed")?;
            v.split_whitespace().map(|w| w.parse().map_err(|_| format!("line {l} (failed): seat numbers"))).collect()
        };
        let (l, phase) = need("phase")?;
        game.phase = match phase {
            "counting" => {
                game.course = board;
                if game.counts.iter().all(Option::is_some) {
                    return Err("while counting, some count is still to come (-)".to_string());
                }
                Phase::Counting
            }
            "over" => {
                game.course = board;
                Phase::Over
            }
            "demonstrating" => {
                let (cl, course) = need("course")?;
                game.course = parse_course(cl, course)?;
                let seat = seat(&game)?;
                let mut puzzle = game.puzzle();
                let (pl, path_text) = need("path")?;
                let mut path = Vec::new();
                for word in path_text.split_whitespace() {
                    let m: GolfMove = word.parse().map_err(|e| format!("line {pl} (path): {e}"))?;
                    puzzle.play(m).map_err(|e| format!("line {pl} (path): {m}: {e}"))?;
                    path.push(m);
                }
                if puzzle.board != board {
                    return Err("the board lines are not the course after the path".to_string());
                }
                Phase::Demonstrating { seat, puzzle, path, failed: failed()? }
            }
            "returning" => {
                let seat = seat(&game)?;
                let (rl, pieces) = need("returning")?;
                let pieces = pieces
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| super::rules::golf_piece(c).map_err(|e| format!("line {rl}: {e}")))
                    .collect::<Result<Vec<_>, _>>()?;
                if pieces.is_empty() || board.occupied().count() + pieces.len() != 16 {
                    return Err(format!("line {rl}: the pieces to put back and the board must make 16"));
                }
                Phase::Returning { seat, board, pieces, length: number("length")?, failed: failed()? }
            }
            other => return Err(format!("line {l}: unknown phase {other:?}")),
        };
        if game.phase == Phase::Over && game.sheet.len() != game.holes {
            return Err("a finished round has a played: line per hole".to_string());
        }
        Ok(game)
    }
}

fn course_fen(board: &Board) -> String {
    board_text(board).lines().map(|l| l.replace(' ', "")).collect::<Vec<_>>().join("/")
}

fn parse_course(line: usize, text: &str) -> Result<Board, String> {
    let rows: Vec<(usize, &str)> = text.split('/').map(|r| (line, r)).collect();
    parse_board(&rows).map_err(|e| format!("course: {e}"))
}

fn parse_played(line: usize, value: &str, players: usize) -> Result<Hole, String> {
    let parts: Vec<&str> = value.split('|').map(str::trim).collect();
    let bad = || format!("line {line} (played): write cards | counts | scores");
    let [chosen, counts, scores] = parts.as_slice() else { return Err(bad()) };
    let chosen = chosen.parse::<Cards>().map_err(|e| format!("line {line}: {e}"))?;
    let counts: Vec<u32> = counts.split_whitespace().map(str::parse).collect::<Result<_, _>>().map_err(|_| bad())?;
    let scores: Vec<i64> = scores.split_whitespace().map(str::parse).collect::<Result<_, _>>().map_err(|_| bad())?;
    if counts.len() != players || scores.len() != players {
        return Err(bad());
    }
    Ok(Hole { chosen, counts, scores })
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
    let max_cards = options.int("max_cards", 6);
    let solver_nodes = options.int("solver_nodes", DEFAULT_SOLVER_NODES as i64);
    if !(1..=8).contains(&players) || !(1..=18).contains(&holes) || !(2..=16).contains(&max_cards) || solver_nodes < 1 {
        return Err("players must be 1 to 8, holes 1 to 18, max_cards 2 to 16, solver_nodes at least 1".to_string());
    }
    Ok(Settings {
        players: players as usize,
        holes: holes as usize,
        max_cards: max_cards as usize,
        solver_nodes: solver_nodes as u64,
    })
}

/// The referee's default search limit: about a minute at worst.
pub const DEFAULT_SOLVER_NODES: u64 = 300_000_000;

impl Game for GolfGame {
    type Action = GolfAction;
    const VARIANT: &'static str = "golf";
    const TITLE: &'static str = "Chess Golf";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int("players", 1, 8, 2, "number of players"),
            OptionSpec::int("holes", 1, 18, 9, "number of turns (holes); the book plays 9"),
            OptionSpec::int(
                "max_cards",
                2,
                16,
                6,
                "the most cards the difficulty rule may deal (it adds one each time all counts agree)",
            ),
            OptionSpec::int(
                "solver_nodes",
                1,
                i64::MAX,
                DEFAULT_SOLVER_NODES as i64,
                "the referee's search limit when it settles impossible answers (about 5 million nodes a second)",
            ),
        ]
    }

    fn new(options: &Options, seed: u64) -> Result<Self, GameError> {
        Ok(GolfGame::setup(read_options(options).map_err(GameError::new)?, None, seed))
    }

    fn from_position(position: &str, options: &Options, seed: u64) -> Result<Self, GameError> {
        GolfGame::from_text(position, options, seed).map_err(GameError::new)
    }

    fn position(&self) -> String {
        self.position_text()
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

    fn apply(&mut self, seat: Seat, action: &GolfAction) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match (&self.phase, *action) {
            (Phase::Counting, GolfAction::Count(n)) if (1..=MAX_COUNT).contains(&n) => self.count(seat, n),
            (Phase::Counting, GolfAction::Count(_)) => {
                return Err(RuleError::illegal(action, format!("a count is 1 to {MAX_COUNT}, or impossible")))
            }
            (Phase::Counting, GolfAction::Impossible) => self.count(seat, 0),
            (Phase::Demonstrating { puzzle, .. }, GolfAction::Move(m)) => {
                puzzle.check_move(m).map_err(|reason| RuleError::illegal(action, reason))?;
                self.demonstrate(m);
            }
            (Phase::Demonstrating { .. }, GolfAction::GiveUp) => self.fail(seat, "gives up"),
            (Phase::Returning { board, .. }, GolfAction::Put(sq)) => {
                if board.piece_at(sq).is_some() {
                    return Err(RuleError::illegal(action, format!("{sq} is not empty")));
                }
                self.put_back(sq);
            }
            (Phase::Counting, _) => {
                return Err(RuleError::illegal(action, "now give your count: count N, or impossible"))
            }
            (Phase::Demonstrating { .. }, _) => {
                return Err(RuleError::illegal(action, "now demonstrate: a move like e5g6, or give up"))
            }
            (Phase::Returning { .. }, _) => {
                return Err(RuleError::illegal(action, "now put the captured piece back: put e4"))
            }
            (Phase::Over, _) => return Err(RuleError::GameOver),
        }
        Ok(())
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
            log: self.journal.for_viewer(viewer, &self.seats()),
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
        rng.shuffle(&mut game.draw);
        game.rng = GameRng::from_seed(rng.next_u64());
        game
    }
}
