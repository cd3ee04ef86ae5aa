//! `chesskit play VARIANT`: play any registered game in the terminal, each
//! seat a person at this keyboard or a computer player.

use std::io::{BufRead, IsTerminal, Write};

use chesskit_ai::{player_for_level, Player};
use chesskit_core::game::{Seat, Viewer};
use chesskit_core::{DynGame, Options};

/// Who sits in a seat.
pub enum SeatKind {
    Human,
    /// A computer player and its level, for the PGN's player names.
    Computer(Box<dyn Player>, String),
}

impl SeatKind {
    fn computer(level: &str, seed: u64) -> Result<SeatKind, String> {
        Ok(SeatKind::Computer(player_for_level(level, seed)?, level.to_string()))
    }

    /// The player's name in the PGN: "Human", or "Computer (LEVEL)".
    fn player_name(&self) -> String {
        match self {
            SeatKind::Human => "Human".to_string(),
            SeatKind::Computer(_, level) => format!("Computer ({level})"),
        }
    }
}

/// Parse `human,computer:level1,random`: one entry per seat; missing
/// seats after the first are computer players.
pub fn parse_seats(text: Option<&str>, seats: usize, seed: u64) -> Result<Vec<SeatKind>, String> {
    let names: Vec<String> = match text {
        Some(t) => t.split(',').map(|s| s.trim().to_ascii_lowercase()).collect(),
        None => {
            std::iter::once("human".to_string()).chain(std::iter::repeat_n("computer".to_string(), seats - 1)).collect()
        }
    };
    if names.len() != seats {
        let named = match names.len() {
            1 => "1 seat".to_string(),
            n => format!("{n} seats"),
        };
        return Err(format!("--seats names {named} but this game has {seats}"));
    }
    names
        .iter()
        .enumerate()
        .map(|(i, name)| match name.as_str() {
            "human" | "person" => Ok(SeatKind::Human),
            "computer" => SeatKind::computer("level4", seed + i as u64),
            "random" => SeatKind::computer("random", seed + i as u64),
            other => match other.strip_prefix("computer:") {
                Some(level) => SeatKind::computer(level, seed + i as u64),
                None => Err(format!("bad seat {other:?}: expected human, computer, computer:LEVEL or random")),
            },
        })
        .collect()
}

/// Parse `key=value` options; values are JSON where they parse as JSON
/// (numbers, true, false), else text.
pub fn parse_options(pairs: &[String]) -> Result<Options, String> {
    let mut options = Options::new();
    for pair in pairs {
        let (key, value) = pair.split_once('=').ok_or_else(|| format!("bad option {pair:?}: expected key=value"))?;
        let value = serde_json::from_str(value).unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
        options = options.with(key.trim(), value);
    }
    Ok(options)
}

const HELP: &str =
    "Type an action (as listed), or: help, actions, hint, board, log, pgn, say TEXT (to the table), resign, draw (to offer one), quit";

/// The level that gives hints: the lobby's "medium".
const HINT_LEVEL: &str = "level4";

/// Clears the screen and the scrollback and homes the cursor (xterm, tmux
/// and compatible terminals): written before the keyboard is passed on
/// from a screen that holds a secret, so that the next person can neither
/// see it nor scroll back to it.
const CLEAR_SCREEN_AND_SCROLLBACK: &str = "\x1b[2J\x1b[3J\x1b[H";

pub struct Play {
    pub game: Box<dyn DynGame>,
    pub seats: Vec<SeatKind>,
    pub hidden_information: bool,
}

/// When this process started: the time stamped on every action taken at
/// the keyboard is measured from it (a game on a clock runs by it).
fn process_ms() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_millis() as u64
}

impl Play {
    /// Apply `seat`'s action now, stamped with the wall clock's time.
    fn apply_now(&mut self, seat: Seat, action: &str) -> Result<String, chesskit_core::RuleError> {
        self.game.apply_at(seat, action, Some(process_ms()))
    }

    /// If a flag has fallen since the last step, record it (the `flag`
    /// claim) and say what it did: the terminal has no timer, so the clock
    /// is looked at whenever an input comes. Returns whether the game
    /// changed.
    fn claim_flag(&mut self, out: &mut dyn Write) -> Result<bool, String> {
        let now = process_ms();
        if self.game.deadline().is_none_or(|d| d > now) {
            return Ok(false);
        }
        let seat = self.game.to_act().seats().first().copied().unwrap_or(0);
        self.game.apply_at(seat, chesskit_core::session::FLAG, Some(now)).map_err(|e| format!("flag: {e}"))?;
        let log = self.game.view(Viewer::Spectator).log;
        if let Some(entry) = log.last() {
            writeln!(out, "{}", entry.text).map_err(|e| format!("cannot write: {e}"))?;
        }
        Ok(true)
    }

    /// The computer in `seat` chooses. While its side's clock runs it
    /// thinks for a share of the time left rather than its level's own
    /// time, as the server's computers do (docs/api.md, seat kinds), so it
    /// does not lose on time while it has a move.
    fn computer_choice(&mut self, seat: Seat) -> Result<String, String> {
        let deadline = self.game.deadline();
        let SeatKind::Computer(player, level) = &mut self.seats[seat] else { unreachable!("a computer seat") };
        let choice = match deadline {
            Some(deadline) => {
                let left = std::time::Duration::from_millis(deadline.saturating_sub(process_ms()));
                let seed = self.game.record().actions.len() as u64;
                chesskit_ai::player_on_game_clock(level, seed, left)?.choose(self.game.as_ref(), seat)
            }
            None => player.choose(self.game.as_ref(), seat),
        };
        choice.ok_or_else(|| "the computer player found no action".to_string())
    }

    /// Run until the game ends or input ends.
    pub fn run(mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), String> {
        let io = |e: std::io::Error| format!("cannot write: {e}");
        let humans = self.seats.iter().filter(|s| matches!(s, SeatKind::Human)).count();
        let mut last_human: Option<Seat> = None;
        // Whether the screen (or its scrollback) shows something the next
        // person at the keyboard may not see.
        let mut secret_on_screen = false;
        loop {
            let to_act = self.game.to_act();
            if to_act.is_over() {
                let viewer = last_human.map_or(Viewer::Spectator, Viewer::Seat);
                write!(out, "{}", self.render(viewer)).map_err(io)?;
                return Ok(());
            }
            if let Some(seat) = self.computer_to_act(to_act.seats()) {
                let action = self.computer_choice(seat)?;
                if self.claim_flag(out)? {
                    continue;
                }
                let canonical = self.apply_now(seat, &action).map_err(|e| format!("computer player erred: {e}"))?;
                let shown = if self.hidden_information && humans > 0 { "moves" } else { canonical.as_str() };
                writeln!(out, "{} {shown}", self.seat_name(seat)).map_err(io)?;
                continue;
            }
            let seat = to_act.seats()[0];
            if humans > 1 && self.hidden_information && last_human != Some(seat) {
                // Whatever the output is: a pipe to a pager or `tee` is
                // read by the same people at the same screen.
                if std::mem::take(&mut secret_on_screen) {
                    write!(out, "{CLEAR_SCREEN_AND_SCROLLBACK}").map_err(io)?;
                }
                writeln!(out, "\nPass the keyboard to {} and press Enter.", self.seat_name(seat)).map_err(io)?;
                if read_line(input)?.is_none() {
                    return Err("input ended".to_string());
                }
                if std::io::stdout().is_terminal() {
                    write!(out, "\x1b[2J\x1b[H").map_err(io)?;
                }
            }
            last_human = Some(seat);
            write!(out, "{}", self.render(Viewer::Seat(seat))).map_err(io)?;
            secret_on_screen |= self.shows_more_than_the_spectator(seat);
            let public_log = self.game.view(Viewer::Spectator).log.len();
            if let Some(action) = self.human_turn(seat, input, out)? {
                secret_on_screen |= !self.told_in_public(&action, public_log);
            }
        }
    }

    /// Whether `seat`'s screen shows something a spectator's would not: a
    /// hand, a private note, a secret marker. The prompt and the legal
    /// actions are left out of the comparison: they always differ, in
    /// words, between a seat and a spectator.
    fn shows_more_than_the_spectator(&self, seat: Seat) -> bool {
        let own = self.game.view(Viewer::Seat(seat));
        let public = self.game.view(Viewer::Spectator);
        (&own.board, &own.zones, &own.tables, &own.log, &own.notes)
            != (&public.board, &public.zones, &public.tables, &public.log, &public.notes)
    }

    /// Whether the spectator's log, from entry `from` on, tells `action`:
    /// every word of it appears there, letters and digits compared without
    /// case or punctuation ("g1f3" in "Ng1-f3", "keep piece" in "keeps the
    /// piece"). An action the log does not tell is secret ("predict knight"
    /// logged as "plays a card face down", "circle c3" as "has circled a
    /// square"), so the line typed for it must not be left on screen.
    fn told_in_public(&self, action: &str, from: usize) -> bool {
        let log = self.game.view(Viewer::Spectator).log;
        let told: String = log.get(from..).unwrap_or(&log).iter().map(|e| letters_and_digits(&e.text)).collect();
        action.split_whitespace().all(|word| told.contains(&letters_and_digits(word)))
    }

    fn computer_to_act(&self, acting: &[Seat]) -> Option<Seat> {
        acting.iter().copied().find(|&s| matches!(self.seats[s], SeatKind::Computer(..)))
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.game.seats().get(seat).map_or(format!("seat {seat}"), |s| s.name.clone())
    }

    fn render(&self, viewer: Viewer) -> String {
        let view = self.game.view(viewer);
        let flipped = viewer.seat().and_then(|s| view.seats.get(s)).and_then(|s| s.colour.as_deref()) == Some("black");
        crate::render::render(&view, self.game.title(), flipped)
    }

    /// Read lines until the seat's action is accepted; returns the action
    /// as the game wrote it, or `None` when the turn ended otherwise (a
    /// fallen flag, an agreed draw).
    fn human_turn(
        &mut self,
        seat: Seat,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Option<String>, String> {
        let io = |e: std::io::Error| format!("cannot write: {e}");
        loop {
            write!(out, "{}> ", self.seat_name(seat)).map_err(io)?;
            out.flush().map_err(io)?;
            let Some(line) = read_line(input)? else { return Err("input ended".to_string()) };
            let line = line.trim();
            // A flag that fell before this input: a lost game ends here; coins
            // that bought time let the input count.
            if self.claim_flag(out)? && self.game.to_act().is_over() {
                return Ok(None);
            }
            match line {
                "" => continue,
                "quit" | "exit" => return Err("quit".to_string()),
                "help" => writeln!(out, "{HELP}").map_err(io)?,
                "actions" | "?" => writeln!(out, "{}", self.game.legal_actions(seat).join("  ")).map_err(io)?,
                "board" => write!(out, "{}", self.render(Viewer::Seat(seat))).map_err(io)?,
                "hint" => writeln!(out, "{}", self.hint(seat)).map_err(io)?,
                "log" => {
                    let view = self.game.view(Viewer::Seat(seat));
                    for entry in view.log {
                        writeln!(out, "  {}", entry.text).map_err(io)?;
                    }
                }
                "pgn" => {
                    writeln!(out, "{}", self.pgn().unwrap_or_else(|| "this game has no PGN form".into())).map_err(io)?
                }
                "draw" | "offer draw" => {
                    if self.offer_draw(seat, input, out)? {
                        return Ok(None);
                    }
                }
                "abort" => writeln!(
                    out,
                    "Everyone is at this keyboard, so there is nobody to wait for: type resign to give up."
                )
                .map_err(io)?,
                chat if chesskit_core::session::is_chat(chat) => match self.apply_now(seat, chat) {
                    Ok(said) => {
                        let text = chesskit_core::session::parse_chat(&said).unwrap_or_default().trim();
                        writeln!(out, "{} says: {text}", self.seat_name(seat)).map_err(io)?
                    }
                    Err(e) => writeln!(out, "{e}.").map_err(io)?,
                },
                action => match self.apply_now(seat, action) {
                    Ok(canonical) => return Ok(Some(canonical)),
                    Err(e) => writeln!(out, "{e}. {HELP}").map_err(io)?,
                },
            }
        }
    }
}

impl Play {
    /// What the computer would play for `seat`, in words. It thinks at
    /// level 4 in worlds drawn from what the seat knows, so a hint gives
    /// away nothing the seat may not see.
    fn hint(&self, seat: Seat) -> String {
        let seed = self.game.record().actions.len() as u64;
        match chesskit_ai::player_with_time(HINT_LEVEL, seed, None).map(|mut p| p.choose(self.game.as_ref(), seat)) {
            Ok(Some(action)) => format!("The computer ({HINT_LEVEL}) would play: {action}"),
            Ok(None) => "The computer sees nothing to play here.".to_string(),
            Err(e) => format!("No hint: {e}"),
        }
    }

    /// The game's PGN dated today, its players named by who sits where.
    fn pgn(&self) -> Option<String> {
        use chesskit_core::chess::pgn::{date_tag, set_tag};
        let mut pgn = self.game.pgn()?;
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        pgn = set_tag(&pgn, "Date", &date_tag(now));
        for (tag, kind) in ["White", "Black"].into_iter().zip(&self.seats) {
            pgn = set_tag(&pgn, tag, &kind.player_name());
        }
        Some(pgn)
    }

    /// `seat` offers a draw, and the other side answers at once: a
    /// computer declines (it plays on), a person at this keyboard is asked.
    /// Returns whether the game ended (the draw was agreed).
    fn offer_draw(&mut self, seat: Seat, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<bool, String> {
        let io = |e: std::io::Error| format!("cannot write: {e}");
        if let Err(e) = self.apply_now(seat, "offer draw") {
            writeln!(out, "{e}.").map_err(io)?;
            return Ok(false);
        }
        let seats = self.game.seats();
        let Some(other) = chesskit_core::session::sides(&seats)
            .and_then(|sides| sides.into_iter().find(|side| !side.contains(&seat)))
            .and_then(|side| side.first().copied())
        else {
            return Ok(false);
        };
        let answer = match self.seats[other] {
            SeatKind::Computer(..) => "decline draw",
            SeatKind::Human => loop {
                write!(
                    out,
                    "{} offers a draw. {}, do you accept (yes or no)? ",
                    self.seat_name(seat),
                    self.seat_name(other)
                )
                .map_err(io)?;
                out.flush().map_err(io)?;
                let Some(line) = read_line(input)? else { return Err("input ended".to_string()) };
                match line.trim().to_ascii_lowercase().as_str() {
                    "yes" | "y" | "accept" | "accept draw" => break "accept draw",
                    "no" | "n" | "decline" | "decline draw" => break "decline draw",
                    _ => continue,
                }
            },
        };
        self.apply_now(other, answer).map_err(|e| format!("the answer to the draw offer was refused: {e}"))?;
        if answer == "decline draw" {
            writeln!(out, "{} declines the draw; {} plays on.", self.seat_name(other), self.seat_name(seat))
                .map_err(io)?;
        }
        Ok(self.game.to_act().is_over())
    }
}

/// `text` lower-cased with everything but letters and digits left out.
fn letters_and_digits(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// The next line typed; bytes that are not UTF-8 become U+FFFD, so the
/// line is refused like any other unreadable action and the game goes on.
fn read_line(input: &mut dyn BufRead) -> Result<Option<String>, String> {
    let mut bytes = Vec::new();
    match input.read_until(b'\n', &mut bytes) {
        Ok(0) => Ok(None),
        Ok(_) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) => Err(format!("cannot read input: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(variant: &str, seats: &str, input: &str) -> (Result<(), String>, String) {
        let game = chesskit_games::create(variant, Options::new(), 1, None).unwrap();
        let n = game.seats().len();
        let play = Play { game, seats: parse_seats(Some(seats), n, 1).unwrap(), hidden_information: false };
        let mut out = Vec::new();
        let result = play.run(&mut input.as_bytes(), &mut out);
        (result, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_computer_on_the_clock_spends_a_share_of_its_time_and_moves_before_its_flag() {
        // Black's team, two computers at level 8, has 0.7 s: less than level
        // 8's own time a decision (0.9 s), so a fixed level time would flag.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nclock: 60000 700";
        let options = parse_options(&["clock=1".to_string()]).unwrap();
        let game = chesskit_games::create("crowded-house", options, 1, Some(start)).unwrap();
        let seats = parse_seats(Some("human,computer:level8,human,computer:level8"), 4, 1).unwrap();
        let play = Play { game, seats, hidden_information: false };
        let mut out = Vec::new();
        assert_eq!(play.run(&mut "e4\n".as_bytes(), &mut out), Err("input ended".to_string()));
        let out = String::from_utf8(out).unwrap();
        assert!(!out.contains("loses on time"), "{out}");
        assert!(out.contains("King-side Black ") || out.contains("Queen-side Black "), "Black moved: {out}");
    }

    #[test]
    fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
        let game = chesskit_games::create("chess", Options::new(), 1, None).unwrap();
        let play = Play { game, seats: parse_seats(Some("human,human"), 2, 1).unwrap(), hidden_information: false };
        let mut out = Vec::new();
        let input: &[u8] = b"f3\n\xff\xfe\ne5\ng4\nQh4#\n";
        assert_eq!(play.run(&mut &input[..], &mut out), Ok(()));
        assert!(String::from_utf8_lossy(&out).contains("checkmate"), "{}", String::from_utf8_lossy(&out));
    }

    #[test]
    fn two_people_play_fools_mate() {
        let (result, out) = play("chess", "human,human", "f3\ne5\ng4\nQh4#\n");
        assert_eq!(result, Ok(()));
        assert!(out.contains("Game over: Black won (checkmate)"), "{out}");
    }

    #[test]
    fn saying_something_at_the_table_is_not_a_move_and_shows_in_the_chat() {
        let (result, out) = play("chess", "human,human", "say your move, partner\nsay\nf3\ne5\ng4\nQh4#\n");
        assert_eq!(result, Ok(()));
        assert!(out.contains("White says: your move, partner"), "{out}");
        assert!(out.contains("say what?"), "an empty line is refused: {out}");
        assert!(out.contains("Talk: White: your move, partner"), "the board shows the chat: {out}");
        assert!(out.contains("Game over: Black won (checkmate)"), "White still had to move: {out}");
    }

    #[test]
    fn a_hint_names_the_computers_choice_and_plays_nothing() {
        let game =
            chesskit_games::create("chess", Options::new(), 1, Some("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1")).unwrap();
        let play = Play { game, seats: parse_seats(Some("human,human"), 2, 1).unwrap(), hidden_information: false };
        let mut out = Vec::new();
        let result = play.run(&mut "hint\n".as_bytes(), &mut out);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(result, Err("input ended".to_string()));
        assert!(out.contains("The computer (level4) would play: e1e8"), "{out}");
    }

    #[test]
    fn illegal_input_is_explained_and_asked_again() {
        let (result, out) = play("chess", "human,computer", "e2e5\nhelp\ne2e4\n");
        assert_eq!(result, Err("input ended".to_string()));
        assert!(out.contains("illegal action \"e2e5\""), "{out}");
        assert!(out.contains("Black "), "the computer answered: {out}");
    }

    #[test]
    fn a_player_resigns() {
        let (result, out) = play("chess", "human,human", "e4\nresign\n");
        assert_eq!(result, Ok(()));
        assert!(out.contains("Game over: White won (resignation)"), "{out}");
    }

    #[test]
    fn a_draw_offered_at_the_keyboard_is_asked_of_the_other_player() {
        let (result, out) = play("chess", "human,human", "draw\nmaybe\nno\ne4\ndraw\nyes\n");
        assert_eq!(result, Ok(()));
        assert!(out.contains("White offers a draw. Black, do you accept (yes or no)?"), "{out}");
        assert!(out.contains("Black declines the draw; White plays on."), "{out}");
        assert!(out.contains("Black offers a draw. White, do you accept"), "{out}");
        assert!(out.contains("Game over: no winner (draw agreed)"), "{out}");
    }

    #[test]
    fn the_computer_declines_a_draw_and_abort_is_not_for_the_keyboard() {
        let (result, out) = play("chess", "human,computer", "draw\nabort\n");
        assert_eq!(result, Err("input ended".to_string()));
        assert!(out.contains("Black declines the draw; White plays on."), "{out}");
        assert!(out.contains("nobody to wait for"), "{out}");
    }

    #[test]
    fn the_pgn_names_the_players_and_the_date() {
        let (_, out) = play("chess", "human,computer:level3", "pgn\n");
        assert!(out.contains("[White \"Human\"]\n[Black \"Computer (level3)\"]"), "{out}");
        assert!(!out.contains("[Date \"????.??.??\"]"), "{out}");
    }

    #[test]
    fn seat_lists_are_checked() {
        assert!(parse_seats(Some("human"), 2, 0).is_err());
        assert!(parse_seats(Some("human,robot"), 2, 0).is_err());
        assert!(parse_seats(None, 4, 0).is_ok());
        assert!(parse_options(&["zombie_turn=true".into()]).unwrap().bool("zombie_turn", false));
        assert!(parse_options(&["nonsense".into()]).is_err());
    }
}
