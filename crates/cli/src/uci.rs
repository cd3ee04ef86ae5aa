//! `chesskit uci`: the computer as a UCI engine for chess and Chess960, so
//! that chess GUIs and match runners (cutechess-cli, fastchess, Arena) can
//! play it. The search is the level 4 to 8 player's (chesskit_ai::search),
//! on the chess referee of chesskit_games.
//!
//! Supported: `uci`, `isready`, `ucinewgame`, `setoption name UCI_Chess960
//! value true|false` and `name Move Overhead value <ms>`, `position
//! startpos|fen ... [moves ...]`, `go` with
//! `movetime`, `wtime`/`btime`/`winc`/`binc`/`movestogo`, `depth`, `nodes`
//! and `infinite`, `stop` and `quit`. A line the engine cannot use gets an
//! `info string` naming the problem, as the protocol asks engines to go on
//! after bad input. A refused `position` leaves the engine with no position
//! (the GUI thinks it moved on), and every `go` gets a `bestmove`, `0000`
//! when there is nothing to search.
//!
//! On a clock (`wtime`/`btime`) the engine plans its time as engines do
//! ([`TimePlan`], [`TimeManager`]): an even share of what is left, less the
//! move overhead, which it may overrun when the best move keeps changing
//! and cuts short when it stays put; a hard limit the search never passes;
//! and no iteration started that cannot finish before that limit.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use chesskit_ai::search::{analyse, Budget, Iteration};
use chesskit_core::{DynGame, Options};

/// The name the engine gives.
const NAME: &str = concat!("chesskit ", env!("CARGO_PKG_VERSION"));
/// Time kept in hand for the answer to travel, per move, unless the GUI
/// sets `Move Overhead`: Stockfish's default. With `go movetime 200` the
/// answer came 170 ms after the `go` at 30 ms kept in hand, so the search
/// stops within a few milliseconds of its budget; what is kept beyond
/// that is thinking time lost.
const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(10);
/// The most `Move Overhead` may be set to, in milliseconds.
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// The moves a clock without `movestogo` is shared out over.
const MOVES_TO_GO_GUESS: u64 = 30;
/// The hard limit, in even shares of the clock: a move in doubt may take
/// longer than its share, as far as this.
const HARD_TIMES_SHARE: u32 = 3;
/// `startpos`, written out for a Chess960 game (which has no start of its own).
const ORTHODOX_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The time a search takes when `go` names no limit at all.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// Shared output: the search thread and the main loop both write lines.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    if let Ok(mut out) = out.lock() {
        // A GUI that closed the pipe has gone: nothing left to tell.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// A search running on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// Set for `go infinite`: the best move waits for `stop`.
    infinite: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The engine's state between commands.
pub struct Engine {
    chess960: bool,
    /// The position to search; `None` after a refused `position` command,
    /// so that `go` does not answer for a position the GUI has left.
    game: Option<Box<dyn DynGame>>,
    /// Time kept in hand per move for the answer to reach the GUI's clock.
    overhead: Duration,
    out: Out,
    running: Option<Running>,
}

impl Engine {
    pub fn new(out: Box<dyn Write + Send>) -> Engine {
        let game = chesskit_games::create("chess", Options::new(), 0, None).expect("chess starts");
        Engine {
            chess960: false,
            game: Some(game),
            overhead: DEFAULT_MOVE_OVERHEAD,
            out: Arc::new(Mutex::new(out)),
            running: None,
        }
    }

    /// Read commands until `quit` or the end of input.
    pub fn run(&mut self, input: &mut dyn BufRead) -> Result<(), String> {
        self.run_lines(input.lines())
    }

    /// Obey each line until `quit` or the end of the lines.
    pub fn run_lines(&mut self, lines: impl Iterator<Item = std::io::Result<String>>) -> Result<(), String> {
        for line in lines {
            let line = line.map_err(|e| format!("cannot read input: {e}"))?;
            if !self.command(line.trim()) {
                break;
            }
        }
        self.stop_search();
        Ok(())
    }

    /// Obey one command; false for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => {
                say(&self.out, &format!("id name {NAME}"));
                say(&self.out, "id author the chesskit authors");
                say(&self.out, "option name UCI_Chess960 type check default false");
                say(
                    &self.out,
                    &format!(
                        "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
                        DEFAULT_MOVE_OVERHEAD.as_millis()
                    ),
                );
                say(&self.out, "uciok");
            }
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.set_position(&["startpos"]);
            }
            "setoption" => self.set_option(&rest),
            "position" => {
                self.stop_search();
                self.set_position(&rest);
            }
            "go" => self.go(&rest),
            "stop" => self.stop_search(),
            "ponderhit" | "debug" | "register" => {}
            "quit" => return false,
            other => say(&self.out, &format!("info string unknown command {other:?}")),
        }
        true
    }

    fn set_option(&mut self, words: &[&str]) {
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return say(&self.out, "info string setoption needs: name <id> value <x>");
        };
        let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
        match (name.trim(), value.trim()) {
            ("UCI_Chess960", "true") => self.chess960 = true,
            ("UCI_Chess960", "false") => self.chess960 = false,
            ("Move Overhead", value) if value.parse::<u64>().is_ok_and(|ms| ms <= MAX_MOVE_OVERHEAD_MS) => {
                self.overhead = Duration::from_millis(value.parse().unwrap_or_default());
            }
            (name, value) => say(&self.out, &format!("info string no option {name:?} with value {value:?}")),
        }
    }

    /// `position startpos|fen <fen> [moves m1 m2 ...]`. On any error the
    /// engine has no position until the next good one: the GUI believes it
    /// set a new position, and a move for the old one would be wrong there.
    fn set_position(&mut self, words: &[&str]) {
        match self.read_position(words) {
            Ok(game) => self.game = Some(game),
            Err(e) => {
                self.game = None;
                say(&self.out, &format!("info string position not set: {e}"));
            }
        }
    }

    fn read_position(&self, words: &[&str]) -> Result<Box<dyn DynGame>, String> {
        let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
        let (setup, moves) = (&words[..moves_at], words.get(moves_at + 1..).unwrap_or(&[]));
        let variant = if self.chess960 { "chess960" } else { "chess" };
        let fen = match setup {
            ["startpos"] => None,
            ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
            _ => return Err("expected startpos or fen <fen>".to_string()),
        };
        let start = fen.or_else(|| self.chess960.then(|| ORTHODOX_START.to_string()));
        let mut game = chesskit_games::create(variant, Options::new(), 0, start.as_deref()).map_err(|e| e.0)?;
        for m in moves {
            let seat = game.to_act().seats().first().copied().ok_or(format!("move {m} after the game ended"))?;
            game.apply(seat, m).map_err(|e| format!("move {m}: {e}"))?;
        }
        Ok(game)
    }

    /// Start a search. Every `go` gets a `bestmove`, `0000` when there is
    /// nothing to search, since a GUI waits for one.
    fn go(&mut self, words: &[&str]) {
        self.stop_search();
        let Some(game) = &self.game else {
            say(&self.out, "info string no position: the last position command was refused");
            return say(&self.out, "bestmove 0000");
        };
        let Some(&seat) = game.to_act().seats().first() else {
            say(&self.out, "info string the game is over");
            return say(&self.out, "bestmove 0000");
        };
        let limits = match GoLimits::read(words) {
            Ok(limits) => limits,
            Err(e) => {
                say(&self.out, &format!("info string go: {e}"));
                return say(&self.out, "bestmove 0000");
            }
        };
        let budget = limits.budget(seat, self.overhead);
        let lone_move = game.search_actions(seat).len() == 1;
        let mut manager = limits.time_plan(seat, self.overhead).map(|plan| TimeManager::new(plan, lone_move));
        let stop = Arc::new(AtomicBool::new(false));
        let infinite = Arc::new(AtomicBool::new(limits.infinite));
        let (game, out) = (game.clone_box(), self.out.clone());
        let (stop_flag, infinite_flag) = (stop.clone(), infinite.clone());
        let handle = std::thread::spawn(move || {
            let mut report = |it: &Iteration| {
                say(&out, &info_line(it));
                // The search stops at its next node, keeping this iteration's best.
                if manager.as_mut().is_some_and(|manager| manager.stop_after(it)) {
                    stop_flag.store(true, Ordering::Relaxed);
                }
            };
            let best = analyse(game.as_ref(), seat, budget, stop_flag.clone(), &mut report);
            // `go infinite` answers only once told to stop.
            while infinite_flag.load(Ordering::Relaxed) && !stop_flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            say(&out, &format!("bestmove {}", best.unwrap_or_else(|| "0000".to_string())));
        });
        self.running = Some(Running { stop, infinite, handle });
    }

    /// Wait for a running search to end by its own limits and give its
    /// `bestmove` (a test waits as a GUI does, without `stop`).
    #[cfg(test)]
    fn await_bestmove(&mut self) {
        if let Some(running) = self.running.take() {
            let _ = running.handle.join();
        }
    }

    /// Stop a running search and wait for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            running.infinite.store(false, Ordering::Relaxed);
            let _ = running.handle.join();
        }
    }
}

/// The `info` line of a finished iteration.
fn info_line(it: &Iteration) -> String {
    let score = match it.mate_in_plies() {
        Some(plies) => format!("mate {}", if plies > 0 { (plies + 1) / 2 } else { -((-plies + 1) / 2) }),
        None => format!("cp {}", (it.value * 100.0).round() as i64),
    };
    let millis = it.elapsed.as_millis().max(1);
    let nps = u128::from(it.nodes) * 1000 / millis;
    format!("info depth {} score {score} nodes {} nps {nps} time {millis} pv {}", it.depth, it.nodes, it.best)
}

/// What `go` asked for.
#[derive(Debug, Default, PartialEq)]
struct GoLimits {
    movetime: Option<u64>,
    time: [Option<u64>; 2],
    increment: [u64; 2],
    moves_to_go: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
}

impl GoLimits {
    fn read(words: &[&str]) -> Result<GoLimits, String> {
        let mut limits = GoLimits::default();
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            let number = || -> Result<u64, String> {
                let text = words.get(i + 1).ok_or(format!("{word} needs a number"))?;
                // Clocks may run below zero in some GUIs: that is no time left.
                text.parse::<i64>().map(|n| n.max(0) as u64).map_err(|_| format!("{word} needs a number, not {text:?}"))
            };
            match word {
                "infinite" => limits.infinite = true,
                "ponder" => {}
                "searchmoves" => return Err("searchmoves is not supported".to_string()),
                "movetime" => limits.movetime = Some(number()?),
                "wtime" => limits.time[0] = Some(number()?),
                "btime" => limits.time[1] = Some(number()?),
                "winc" => limits.increment[0] = number()?,
                "binc" => limits.increment[1] = number()?,
                "movestogo" => limits.moves_to_go = Some(number()?),
                "depth" => limits.depth = Some(number()?.clamp(1, 64) as u32),
                "nodes" => limits.nodes = Some(number()?.max(1)),
                "mate" => limits.depth = Some((number()?.clamp(1, 30) * 2) as u32),
                other => return Err(format!("unknown go parameter {other:?}")),
            }
            i += if matches!(word, "infinite" | "ponder") { 1 } else { 2 };
        }
        Ok(limits)
    }

    /// The search budget for the side in `seat` (0 White, 1 Black), keeping
    /// `overhead` in hand. On a clock the search may run to the plan's hard
    /// limit; the [`TimeManager`] stops it sooner.
    fn budget(&self, seat: usize, overhead: Duration) -> Budget {
        let least = Duration::from_millis(1);
        let time = if self.infinite || ((self.depth.is_some() || self.nodes.is_some()) && self.movetime.is_none()) {
            None
        } else if let Some(movetime) = self.movetime {
            Some(Duration::from_millis(movetime).saturating_sub(overhead).max(least))
        } else if let Some(plan) = self.time_plan(seat, overhead) {
            Some(plan.hard)
        } else {
            Some(DEFAULT_MOVE_TIME)
        };
        Budget {
            time,
            clock: chesskit_ai::search::Clock::Wall,
            // The search's first iteration may overrun `time`; never the clock.
            hard: time.filter(|_| self.movetime.is_some() || self.time[seat.min(1)].is_some()),
            nodes: self.nodes.unwrap_or(u64::MAX),
            max_depth: self.depth.unwrap_or(64),
            worlds: 1,
        }
    }

    /// How `seat` spends its clock on this move, when `go` gave its clock
    /// (and no `movetime`, `depth`, `nodes` or `infinite`, which say
    /// otherwise).
    fn time_plan(&self, seat: usize, overhead: Duration) -> Option<TimePlan> {
        let other_limit = self.infinite || self.movetime.is_some() || self.depth.is_some() || self.nodes.is_some();
        let left = self.time[seat.min(1)].filter(|_| !other_limit)?;
        Some(TimePlan::from_clock(left, self.increment[seat.min(1)], self.moves_to_go, overhead))
    }
}

/// A move's time on a clock, as engines plan it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimePlan {
    /// The even share of the time to come: what a move spends when its
    /// best move neither settles early nor keeps changing.
    soft: Duration,
    /// What the move never spends more than: a few shares, and never more
    /// than half of what is left (most of it before a time control's last
    /// move), the overhead kept in hand.
    hard: Duration,
}

impl TimePlan {
    /// From `left` ms on the clock, `increment` ms a move and `moves_to_go`
    /// before the next time control (None: the rest of the game, guessed
    /// at [`MOVES_TO_GO_GUESS`] moves). Each move to come loses `overhead`
    /// to the answer's travel, so the share is of what is left after them.
    fn from_clock(left: u64, increment: u64, moves_to_go: Option<u64>, overhead: Duration) -> TimePlan {
        let moves = moves_to_go.unwrap_or(MOVES_TO_GO_GUESS).max(1);
        let overhead = overhead.as_millis() as u64;
        let to_come = left.saturating_add(increment.saturating_mul(moves - 1));
        let share = to_come.saturating_sub(overhead.saturating_mul(moves)) / moves;
        let in_hand = left.saturating_sub(overhead);
        // The last move before a time control may use most of the clock:
        // the control refills it. Otherwise keep half for the moves after.
        let most = if moves == 1 { in_hand / 5 * 4 } else { in_hand / 2 };
        let hard = Duration::from_millis(share.saturating_mul(u64::from(HARD_TIMES_SHARE)).min(most).max(1));
        TimePlan { soft: Duration::from_millis(share.max(1)).min(hard), hard }
    }
}

/// How far the soft limit stretches by how many iterations in a row have
/// kept the same best move (0: it just changed): a move still in doubt
/// deserves more time, a settled one less.
const STABILITY_SCALE: [f64; 5] = [1.3, 1.0, 0.8, 0.65, 0.5];

/// How many times longer than the last iteration the next one is taken to
/// be, at the least, at the most, and before two iterations have been seen.
const GROWTH_RANGE: (f64, f64) = (1.5, 8.0);
const GROWTH_GUESS: f64 = 3.0;

/// Watches a clocked search's finished iterations and says when to stop
/// rather than start another: on a clock, time saved is time for later.
#[derive(Debug)]
struct TimeManager {
    plan: TimePlan,
    /// Only one legal move: nothing to choose, nothing to spend.
    lone_move: bool,
    /// The last iteration's best move and how many in a row named it.
    best: Option<(String, usize)>,
    /// The last two iterations' durations.
    last: Duration,
    before_last: Option<Duration>,
    /// When the last iteration ended.
    elapsed: Duration,
}

impl TimeManager {
    fn new(plan: TimePlan, lone_move: bool) -> TimeManager {
        TimeManager { plan, lone_move, best: None, last: Duration::ZERO, before_last: None, elapsed: Duration::ZERO }
    }

    /// Whether to stop after iteration `it` (its `elapsed` is the clock).
    fn stop_after(&mut self, it: &Iteration) -> bool {
        self.record(it);
        let stable = self.best.as_ref().map_or(0, |(_, repeats)| *repeats);
        let soft = self.plan.soft.mul_f64(STABILITY_SCALE[stable.min(STABILITY_SCALE.len() - 1)]);
        self.lone_move || it.elapsed >= soft || it.elapsed + self.next_iteration() > self.plan.hard
    }

    fn record(&mut self, it: &Iteration) {
        if self.best.is_some() {
            self.before_last = Some(self.last);
        }
        self.last = it.elapsed.saturating_sub(self.elapsed);
        self.elapsed = it.elapsed;
        self.best = match self.best.take() {
            Some((best, repeats)) if best == it.best => Some((best, repeats + 1)),
            _ => Some((it.best.clone(), 0)),
        };
    }

    /// The next iteration's expected duration: the last one's, grown as
    /// the last one grew over the one before.
    fn next_iteration(&self) -> Duration {
        let growth = match self.before_last {
            Some(before) if !before.is_zero() => {
                (self.last.as_secs_f64() / before.as_secs_f64()).clamp(GROWTH_RANGE.0, GROWTH_RANGE.1)
            }
            _ => GROWTH_GUESS,
        };
        self.last.mul_f64(growth)
    }
}

/// `chesskit uci`: speak UCI on standard input and output.
pub fn run() -> Result<(), String> {
    let mut engine = Engine::new(Box::new(std::io::stdout()));
    engine.run(&mut std::io::stdin().lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's whole output for `input`. A line `wait` is not sent:
    /// it waits for the running search to answer with its `bestmove`, as a
    /// GUI does before it says more (the searches waited for are bounded
    /// by depth or time, never `infinite`).
    fn session(input: &str) -> String {
        #[derive(Clone, Default)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let shared = Shared::default();
        let mut engine = Engine::new(Box::new(shared.clone()));
        // As `run_lines`, with `wait` between the commands.
        for line in input.lines() {
            if line == "wait" {
                engine.await_bestmove();
            } else if !engine.command(line.trim()) {
                break;
            }
        }
        engine.stop_search();
        let bytes = shared.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    fn bestmove(output: &str) -> &str {
        output.lines().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove line")
    }

    #[test]
    fn the_handshake_names_the_engine_and_its_options() {
        let out = session("uci\nisready\nquit\n");
        assert!(out.starts_with("id name chesskit"), "{out}");
        assert!(out.contains("option name UCI_Chess960 type check default false\n"), "{out}");
        assert!(
            out.contains("option name Move Overhead type spin default 10 min 0 max 5000\nuciok\nreadyok\n"),
            "{out}"
        );
    }

    #[test]
    fn it_finds_the_mate_after_a_move_list_and_reports_it() {
        // Fool's mate, Black to move: 1. f3 e5 2. g4 and Qh4 mates.
        let out = session("position startpos moves f2f3 e7e5 g2g4\ngo depth 3\nwait\nquit\n");
        assert_eq!(bestmove(&out), "d8h4", "{out}");
        assert!(out.contains("score mate 1"), "{out}");
    }

    #[test]
    fn go_from_a_fen_with_movetime_answers_in_time() {
        let out = session("position fen 4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1\ngo movetime 200\nwait\nquit\n");
        assert_eq!(bestmove(&out), "d2d5", "the free queen: {out}");
        // In time: the search is given the movetime less the answer's travel.
        let budget = GoLimits::read(&["movetime", "200"]).unwrap().budget(0, DEFAULT_MOVE_OVERHEAD);
        assert_eq!(budget.time, Some(Duration::from_millis(200) - DEFAULT_MOVE_OVERHEAD));
        assert_eq!(budget.hard, budget.time, "the first iteration may not overrun a movetime");
        assert_eq!((budget.nodes, budget.max_depth), (u64::MAX, 64), "movetime alone bounds the search");
    }

    #[test]
    fn chess960_castles_king_takes_rook() {
        // Chess960 position with the king on f1 and a rook on h1, castling
        // king-side only, the king's squares free: O-O is king takes rook.
        let out = session(
            "setoption name UCI_Chess960 value true\nposition fen 4k3/8/8/8/8/8/8/5K1R w H - 0 1 moves f1h1\nisready\nquit\n",
        );
        assert!(!out.contains("position not set"), "f1h1 is castling in Chess960: {out}");
    }

    #[test]
    fn bad_input_is_named_and_the_next_good_position_plays_on() {
        let out = session(
            "position startpos moves e2e5\nposition fen not-a-fen\nfoo\ngo wtime\nsetoption name Hash value 16\n\
             position startpos moves e2e4\ngo depth 1\nwait\nquit\n",
        );
        assert!(out.contains("info string position not set: move e2e5"), "{out}");
        assert!(out.contains("info string position not set:"), "{out}");
        assert!(out.contains("info string unknown command \"foo\""), "{out}");
        assert!(out.contains("info string no position: the last position command was refused"), "{out}");
        assert!(out.contains("info string no option \"Hash\""), "{out}");
        let mut after_e4 = chesskit_games::create("chess", Options::new(), 0, None).unwrap();
        after_e4.apply(0, "e2e4").unwrap();
        assert!(after_e4.legal_actions(1).contains(&bestmove(&out).to_string()), "Black answers e4: {out}");
    }

    #[test]
    fn after_a_refused_position_go_answers_no_move_rather_than_one_for_the_old_position() {
        let out = session("position startpos moves e2e4\nposition startpos moves e7e5\ngo depth 1\nwait\nquit\n");
        assert!(out.contains("info string position not set: move e7e5"), "{out}");
        assert!(out.contains("info string no position: the last position command was refused"), "{out}");
        assert_eq!(bestmove(&out), "0000", "{out}");
    }

    #[test]
    fn a_go_it_cannot_read_still_gets_a_bestmove() {
        let out = session("position startpos\ngo wtime\nquit\n");
        assert!(out.contains("info string go: wtime needs a number"), "{out}");
        assert_eq!(bestmove(&out), "0000", "{out}");
    }

    #[test]
    fn stop_ends_an_infinite_search_with_a_move() {
        let out = session("position startpos\ngo infinite\nstop\nquit\n");
        assert!(bestmove(&out).len() >= 4, "{out}");
    }

    #[test]
    fn clock_time_is_shared_out_over_the_moves_to_come() {
        let limits = GoLimits::read(&["wtime", "60000", "btime", "1000", "winc", "1000"]).unwrap();
        let white = limits.time_plan(0, DEFAULT_MOVE_OVERHEAD).unwrap().soft;
        let black = limits.time_plan(1, DEFAULT_MOVE_OVERHEAD).unwrap().soft;
        assert!(white > Duration::from_millis(2000) && white < Duration::from_millis(3500), "{white:?}");
        assert!(black < Duration::from_millis(500), "{black:?}");
        assert_eq!(GoLimits::read(&["depth", "5"]).unwrap().budget(0, DEFAULT_MOVE_OVERHEAD).time, None);
    }

    /// Every clock, increment, `movestogo` and overhead in a grid: the
    /// hard limit keeps the overhead in hand and half the rest (a fifth
    /// of it before a time control's last move), the share is within it,
    /// and the search is bounded by it.
    #[test]
    fn the_hard_limit_keeps_the_move_overhead_and_half_the_clock() {
        for left in [0, 1, 25, 40, 100, 1_000, 60_000, 3_600_000] {
            for increment in [0, 100, 2_000] {
                for moves_to_go in [None, Some(0), Some(1), Some(2), Some(40)] {
                    for overhead in [0, 30, 500] {
                        let overhead = Duration::from_millis(overhead);
                        let plan = TimePlan::from_clock(left, increment, moves_to_go, overhead);
                        let in_hand = Duration::from_millis(left).saturating_sub(overhead);
                        let most = if moves_to_go.unwrap_or(2) <= 1 { in_hand / 5 * 4 } else { in_hand / 2 };
                        let case = format!("{left} ms, +{increment}, to go {moves_to_go:?}, overhead {overhead:?}");
                        assert!(plan.hard <= most.max(Duration::from_millis(1)), "{case}: {plan:?}");
                        assert!(plan.soft <= plan.hard && !plan.soft.is_zero(), "{case}: {plan:?}");
                    }
                }
            }
        }
        let limits = GoLimits::read(&["wtime", "60000", "btime", "60000"]).unwrap();
        let (plan, budget) = (limits.time_plan(0, Duration::ZERO).unwrap(), limits.budget(0, Duration::ZERO));
        assert_eq!((budget.time, budget.hard), (Some(plan.hard), Some(plan.hard)));
        assert_eq!(plan.soft, Duration::from_millis(2000), "a thirtieth of the clock when no movestogo is given");
    }

    /// An iteration at each of `elapsed` milliseconds naming `best`: the
    /// number of the iteration after which the manager stops (None: never).
    fn stops_after(manager: &mut TimeManager, elapsed: &[u64], best: impl Fn(usize) -> &'static str) -> Option<usize> {
        elapsed.iter().enumerate().position(|(i, &ms)| {
            let it = Iteration {
                depth: i as u32 + 1,
                best: best(i).to_string(),
                value: 0.0,
                nodes: 0,
                elapsed: Duration::from_millis(ms),
            };
            manager.stop_after(&it)
        })
    }

    fn plan(soft: u64, hard: u64) -> TimePlan {
        TimePlan { soft: Duration::from_millis(soft), hard: Duration::from_millis(hard) }
    }

    #[test]
    fn the_best_move_staying_put_stops_the_search_before_its_share_of_the_clock() {
        // Iterations growing about 2.5 times, far within the hard limit.
        let elapsed = [10, 30, 80, 200, 520];
        let settled = stops_after(&mut TimeManager::new(plan(1000, 3000), false), &elapsed, |_| "e2e4");
        assert_eq!(settled, Some(4), "five iterations naming e2e4: half the share is enough");
        let in_doubt = ["e2e4", "d2d4"];
        let changing = stops_after(&mut TimeManager::new(plan(1000, 3000), false), &elapsed, |i| in_doubt[i % 2]);
        assert_eq!(changing, None, "a best move that keeps changing searches on past half its share");
        let share = stops_after(&mut TimeManager::new(plan(1000, 3000), false), &[200, 1400], |i| in_doubt[i % 2]);
        assert_eq!(share, Some(1), "beyond its share times 1.3 even in doubt");
    }

    #[test]
    fn no_iteration_starts_that_cannot_finish_before_the_hard_limit() {
        // 100 ms, then 300: the next is taken to last 900 ms, ending at 1300.
        let cannot_finish = stops_after(&mut TimeManager::new(plan(1000, 1200), false), &[100, 400], |_| "e2e4");
        assert_eq!(cannot_finish, Some(1), "1300 ms is past the hard limit of 1200");
        let can_finish = stops_after(&mut TimeManager::new(plan(1000, 3000), false), &[100, 400], |_| "e2e4");
        assert_eq!(can_finish, None, "1300 ms is within a hard limit of 3000");
    }

    #[test]
    fn a_lone_legal_move_on_a_clock_is_played_after_one_iteration() {
        // White's king on a1 in check from c1, b1 and b2 covered: Ka2 only.
        let out = session("position fen 1r5k/8/8/8/8/8/8/K1r5 w - - 0 1\ngo wtime 600000 btime 600000\nwait\nquit\n");
        assert_eq!(bestmove(&out), "a1a2", "{out}");
        let iterations = out.lines().filter(|l| l.starts_with("info depth")).count();
        assert_eq!(iterations, 1, "nothing to choose: no second iteration: {out}");
    }

    #[test]
    fn the_first_iteration_never_runs_past_the_hard_limit() {
        let game = chesskit_games::create("chess", Options::new(), 0, None).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let mut iterations = 0;
        // A minute of time, but the hard limit is now: the first iteration,
        // which may overrun the time, stops at the first look at the clock.
        let budget = Budget { hard: Some(Duration::ZERO), ..Budget::timed(Duration::from_secs(60), 1) };
        let budget = Budget { nodes: 50_000, ..budget };
        let best = analyse(game.as_ref(), 0, budget, stop, &mut |_| iterations += 1);
        assert_eq!(iterations, 0, "no iteration finished");
        assert!(best.is_some_and(|m| game.legal_actions(0).contains(&m)), "still a legal move");
    }

    #[test]
    fn move_overhead_is_an_option_kept_in_hand() {
        let out = session("uci\nsetoption name Move Overhead value 100\nsetoption name Move Overhead value -5\nquit\n");
        assert!(out.contains("option name Move Overhead type spin default 10 min 0 max 5000"), "{out}");
        assert!(out.contains("info string no option \"Move Overhead\" with value \"-5\""), "{out}");
        assert_eq!(out.matches("info string").count(), 1, "100 is taken: {out}");
        let mut engine = Engine::new(Box::new(std::io::sink()));
        engine.command("setoption name Move Overhead value 100");
        assert_eq!(engine.overhead, Duration::from_millis(100));
        let budget = GoLimits::read(&["movetime", "300"]).unwrap().budget(0, engine.overhead);
        assert_eq!(budget.time, Some(Duration::from_millis(200)));
    }
}
