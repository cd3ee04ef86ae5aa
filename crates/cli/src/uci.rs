//! `chesskit uci`: the computer as a UCI engine for chess and Chess960, so
//! that chess GUIs and match runners (cutechess-cli, fastchess, Arena) can
//! play it. The search is the level 4 to 8 player's (chesskit_ai::search),
//! on the chess referee of chesskit_games.
//!
//! Supported: `uci`, `isready`, `ucinewgame`, `setoption name UCI_Chess960
//! value true|false`, `position startpos|fen ... [moves ...]`, `go` with
//! `movetime`, `wtime`/`btime`/`winc`/`binc`/`movestogo`, `depth`, `nodes`
//! and `infinite`, `stop` and `quit`. A line the engine cannot use gets an
//! `info string` naming the problem, as the protocol asks engines to go on
//! after bad input. A refused `position` leaves the engine with no position
//! (the GUI thinks it moved on), and every `go` gets a `bestmove`, `0000`
//! when there is nothing to search.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use chesskit_ai::search::{analyse, Budget, Iteration};
use chesskit_core::{DynGame, Options};

/// The name the engine gives.
const NAME: &str = concat!("chesskit ", env!("CARGO_PKG_VERSION"));
/// Time kept in hand for the answer to travel, per move.
const SAFETY: Duration = Duration::from_millis(30);
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
    out: Out,
    running: Option<Running>,
}

impl Engine {
    pub fn new(out: Box<dyn Write + Send>) -> Engine {
        let game = chesskit_games::create("chess", Options::new(), 0, None).expect("chess starts");
        Engine { chess960: false, game: Some(game), out: Arc::new(Mutex::new(out)), running: None }
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
        let budget = limits.budget(seat);
        let stop = Arc::new(AtomicBool::new(false));
        let infinite = Arc::new(AtomicBool::new(limits.infinite));
        let (game, out) = (game.clone_box(), self.out.clone());
        let (stop_flag, infinite_flag) = (stop.clone(), infinite.clone());
        let handle = std::thread::spawn(move || {
            let mut report = |it: &Iteration| say(&out, &info_line(it));
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

    /// The search budget for the side in `seat` (0 White, 1 Black).
    fn budget(&self, seat: usize) -> Budget {
        let time = if self.infinite || ((self.depth.is_some() || self.nodes.is_some()) && self.movetime.is_none()) {
            None
        } else if let Some(movetime) = self.movetime {
            Some(Duration::from_millis(movetime).saturating_sub(SAFETY).max(Duration::from_millis(1)))
        } else if let Some(left) = self.time[seat.min(1)] {
            let moves = self.moves_to_go.unwrap_or(30).max(1);
            let share = left / moves + self.increment[seat.min(1)] * 3 / 4;
            let most = left / 2;
            Some(Duration::from_millis(share.min(most)).saturating_sub(SAFETY).max(Duration::from_millis(1)))
        } else {
            Some(DEFAULT_MOVE_TIME)
        };
        Budget {
            time,
            clock: chesskit_ai::search::Clock::Wall,
            nodes: self.nodes.unwrap_or(u64::MAX),
            max_depth: self.depth.unwrap_or(64),
            worlds: 1,
        }
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
    fn the_handshake_names_the_engine_and_its_chess960_option() {
        let out = session("uci\nisready\nquit\n");
        assert!(out.starts_with("id name chesskit"), "{out}");
        assert!(out.contains("option name UCI_Chess960 type check default false\nuciok\nreadyok\n"), "{out}");
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
        let budget = GoLimits::read(&["movetime", "200"]).unwrap().budget(0);
        assert_eq!(budget.time, Some(Duration::from_millis(200) - SAFETY));
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
        let white = limits.budget(0).time.unwrap();
        let black = limits.budget(1).time.unwrap();
        assert!(white > Duration::from_millis(2000) && white < Duration::from_millis(3500), "{white:?}");
        assert!(black < Duration::from_millis(500), "{black:?}");
        assert_eq!(GoLimits::read(&["depth", "5"]).unwrap().budget(0).time, None);
    }
}
