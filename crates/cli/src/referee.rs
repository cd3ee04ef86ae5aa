//! `chesskit referee`: a line protocol for programs. One JSON object per
//! line in, one per line out; documented in docs/protocol.md. Any error is
//! `{"ok":false,"error":"..."}` and leaves the game unchanged.

use std::io::{BufRead, Write};

use serde_json::{json, Map, Value};

use chesskit_core::chess::pgn::{date_tag, set_tag};
use chesskit_core::game::{ToAct, Viewer};
use chesskit_core::session::GameRecord;
use chesskit_core::{DynGame, Options};

/// The protocol's state: at most one game at a time, and when it was
/// begun here (unix seconds), the default date of its PGN.
#[derive(Default)]
pub struct Referee {
    game: Option<Box<dyn DynGame>>,
    started: i64,
}

type Reply = Result<Map<String, Value>, String>;

impl Referee {
    /// Answer one request line.
    pub fn handle_line(&mut self, line: &str) -> Value {
        let reply = match serde_json::from_str::<Value>(line) {
            Err(e) => Err(format!("not a JSON object: {e}")),
            Ok(Value::Object(request)) => self.handle(&request),
            Ok(_) => Err("a request must be a JSON object such as {\"cmd\":\"variants\"}".to_string()),
        };
        match reply {
            Ok(mut fields) => {
                let mut out = Map::new();
                out.insert("ok".into(), Value::Bool(true));
                out.append(&mut fields);
                Value::Object(out)
            }
            Err(error) => json!({"ok": false, "error": error}),
        }
    }

    fn handle(&mut self, request: &Map<String, Value>) -> Reply {
        let cmd = request.get("cmd").and_then(Value::as_str).ok_or("missing \"cmd\" (a string)")?;
        check_fields(request, cmd)?;
        match cmd {
            "variants" => Ok(fields(json!({"variants": chesskit_games::variants()}))),
            "new" => self.new_game(request),
            "replay" => self.replay(request),
            "status" => Ok(status(self.game()?)),
            "legal" => {
                let seat = seat_field(request, "seat")?;
                let game = self.game()?;
                check_seat(game, seat)?;
                Ok(fields(json!({"seat": seat, "actions": game.legal_actions(seat)})))
            }
            "act" => self.act(request),
            "think" => self.think(request),
            "view" => {
                let viewer = viewer_field(request)?;
                let game = self.game()?;
                match viewer {
                    Viewer::Seat(seat) => check_seat(game, seat)?,
                    Viewer::Team(team) => check_team(game, team)?,
                    Viewer::Spectator => {}
                }
                Ok(fields(json!({"view": game.view(viewer)})))
            }
            "log" => Ok(fields(json!({"actions": self.game()?.record().actions}))),
            "record" => Ok(fields(json!({"record": self.game()?.record()}))),
            "position" => Ok(fields(json!({"position": self.game()?.position()}))),
            "pgn" => self.pgn(request),
            "help" => Ok(fields(json!({"commands": COMMANDS}))),
            other => Err(format!("unknown cmd {other:?} (known: {})", COMMANDS.join(", "))),
        }
    }

    fn game(&self) -> Result<&dyn DynGame, String> {
        self.game.as_deref().ok_or_else(|| "no game: send {\"cmd\":\"new\",\"variant\":\"chess\"} first".to_string())
    }

    fn new_game(&mut self, request: &Map<String, Value>) -> Reply {
        let variant = request.get("variant").and_then(Value::as_str).ok_or("missing \"variant\" (a string)")?;
        let seed = match request.get("seed") {
            None | Some(Value::Null) => 0,
            Some(v) => v.as_u64().ok_or("\"seed\" must be a non-negative whole number")?,
        };
        let options = Options::from_json(request.get("options").unwrap_or(&Value::Null)).map_err(|e| e.0)?;
        let position = match request.get("position") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(text.as_str()),
            Some(_) => return Err("\"position\" must be a string".to_string()),
        };
        let game = chesskit_games::create(variant, options, seed, position).map_err(|e| e.0)?;
        let mut reply = status(game.as_ref());
        reply.insert("variant".into(), json!(game.variant()));
        reply.insert("seats".into(), json!(game.seats()));
        self.game = Some(game);
        self.started = unix_now();
        Ok(reply)
    }

    fn replay(&mut self, request: &Map<String, Value>) -> Reply {
        let record = request.get("record").ok_or("missing \"record\" (variant, options, seed, position, actions)")?;
        let record: GameRecord = serde_json::from_value(record.clone()).map_err(|e| format!("bad record: {e}"))?;
        let game = chesskit_games::replay(&record).map_err(|e| e.0)?;
        let reply = status(game.as_ref());
        self.game = Some(game);
        self.started = unix_now();
        Ok(reply)
    }

    /// The game's PGN, with its `Date` (given, else the day the game was
    /// begun here) and its players' names (given, else `?`, PGN's unknown:
    /// the referee does not know who plays). It holds every secret, as
    /// `position` and `record` do: this protocol is for the program that
    /// runs the game (docs/protocol.md).
    fn pgn(&self, request: &Map<String, Value>) -> Reply {
        let game = self.game()?;
        let mut pgn = game.pgn().ok_or_else(|| format!("{} has no PGN form", game.variant()))?;
        let date = match text_field(request, "date")? {
            Some(date) if is_pgn_date(date) => date.to_string(),
            Some(date) => return Err(format!("bad \"date\" {date:?}: expected YYYY.MM.DD (? for an unknown part)")),
            None => date_tag(self.started),
        };
        pgn = set_tag(&pgn, "Date", &date);
        for (field, tag) in [("white", "White"), ("black", "Black")] {
            pgn = set_tag(&pgn, tag, text_field(request, field)?.unwrap_or("?"));
        }
        Ok(fields(json!({"pgn": pgn})))
    }

    /// The computer's choice for a seat that must act, not played: a hint,
    /// or a move for a program that runs the game. The player sees only
    /// what the seat may see (it searches worlds drawn from its knowledge).
    fn think(&self, request: &Map<String, Value>) -> Reply {
        let seat = seat_field(request, "seat")?;
        let game = self.game()?;
        check_seat(game, seat)?;
        let level = text_field(request, "level")?.unwrap_or(DEFAULT_THINK_LEVEL);
        let time = match request.get("ms") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(ms) if (1..=MAX_THINK_MS).contains(&ms) => Some(std::time::Duration::from_millis(ms)),
                _ => {
                    return Err(format!(
                        "\"ms\" must be a whole number of milliseconds from 1 to {MAX_THINK_MS}, not {v}"
                    ))
                }
            },
        };
        let seed = match request.get("seed") {
            None | Some(Value::Null) => 0,
            Some(v) => v.as_u64().ok_or("\"seed\" must be a non-negative whole number")?,
        };
        match game.to_act() {
            ToAct::Over(_) => return Err("the game is over: nobody has anything to think about".to_string()),
            ToAct::Seats(seats) if !seats.contains(&seat) => {
                return Err(format!("seat {seat} need not act now (to act: {seats:?})"))
            }
            ToAct::Seats(_) => {}
        }
        let mut player = chesskit_ai::player_with_time(level, seed, time)?;
        let action = player.choose(game, seat).ok_or("the computer found no action")?;
        Ok(fields(json!({"seat": seat, "level": level, "action": action})))
    }

    fn act(&mut self, request: &Map<String, Value>) -> Reply {
        let seat = seat_field(request, "seat")?;
        let action = request.get("action").and_then(Value::as_str).ok_or("missing \"action\" (a string)")?;
        let game = self.game.as_deref_mut().ok_or("no game: send {\"cmd\":\"new\",\"variant\":\"chess\"} first")?;
        let ms = match request.get("ms") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().ok_or("\"ms\" must be a non-negative whole number of milliseconds")?),
        };
        let canonical = game.apply_at(seat, action, ms).map_err(|e| e.to_string())?;
        let mut reply = status(game);
        reply.insert("action".into(), json!(canonical));
        if let Some(deadline) = game.deadline() {
            reply.insert("deadline".into(), json!(deadline));
        }
        Ok(reply)
    }
}

/// The level `think` plays when none is named: the lobby's "medium".
const DEFAULT_THINK_LEVEL: &str = "level4";
/// The longest `think` may be asked to take: a minute.
const MAX_THINK_MS: u64 = 60_000;

const COMMANDS: [&str; 13] = [
    "variants", "new", "replay", "status", "legal", "act", "think", "view", "log", "record", "position", "pgn", "help",
];

/// The fields each command reads besides "cmd"; any other field is a
/// mistake (a misspelt "seed" would otherwise silently start game 0).
fn known_fields(cmd: &str) -> &'static [&'static str] {
    match cmd {
        "new" => &["variant", "seed", "options", "position"],
        "replay" => &["record"],
        "legal" => &["seat"],
        "act" => &["seat", "action", "ms"],
        "think" => &["seat", "level", "ms", "seed"],
        "view" => &["viewer"],
        "pgn" => &["white", "black", "date"],
        _ => &[],
    }
}

fn check_fields(request: &Map<String, Value>, cmd: &str) -> Result<(), String> {
    if !COMMANDS.contains(&cmd) {
        return Ok(()); // answered as an unknown command
    }
    let known = known_fields(cmd);
    match request.keys().find(|key| *key != "cmd" && !known.contains(&key.as_str())) {
        None => Ok(()),
        Some(key) if known.is_empty() => Err(format!("unknown field {key:?}: {cmd:?} takes no fields")),
        Some(key) => Err(format!("unknown field {key:?} for {cmd:?} (known: {})", known.join(", "))),
    }
}

fn fields(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn status(game: &dyn DynGame) -> Map<String, Value> {
    let to_act = game.to_act();
    let outcome = match &to_act {
        ToAct::Over(outcome) => json!(outcome),
        ToAct::Seats(_) => Value::Null,
    };
    fields(json!({"over": to_act.is_over(), "to_act": to_act.seats(), "outcome": outcome}))
}

/// An optional text field.
fn text_field<'a>(request: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, String> {
    match request.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(other) => Err(format!("\"{name}\" must be a string, not {other}")),
    }
}

/// A PGN date: `YYYY.MM.DD`, any part of which may be question marks.
fn is_pgn_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 3
        && parts.iter().zip([4, 2, 2]).all(|(part, len)| {
            part.len() == len && (part.bytes().all(|b| b.is_ascii_digit()) || part.bytes().all(|b| b == b'?'))
        })
}

fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

fn seat_field(request: &Map<String, Value>, name: &str) -> Result<usize, String> {
    let value = request.get(name).ok_or_else(|| format!("missing \"{name}\" (a seat number from 0)"))?;
    value.as_u64().map(|n| n as usize).ok_or_else(|| format!("\"{name}\" must be a seat number from 0, not {value}"))
}

fn check_team(game: &dyn DynGame, team: usize) -> Result<(), String> {
    if game.seats().iter().any(|s| s.team == Some(team)) {
        Ok(())
    } else {
        Err(format!("there is no team {team} in {}", game.variant()))
    }
}

fn check_seat(game: &dyn DynGame, seat: usize) -> Result<(), String> {
    let seats = game.seats().len();
    if seat >= seats {
        return Err(format!("there is no seat {seat}: {} has seats 0 to {}", game.variant(), seats - 1));
    }
    Ok(())
}

/// A viewer: a seat number, "spectator", {"team": N} or "team:N".
fn viewer_field(request: &Map<String, Value>) -> Result<Viewer, String> {
    let value = request.get("viewer").ok_or("missing \"viewer\" (a seat number, \"spectator\" or {\"team\":N})")?;
    let bad = || format!("bad viewer {value}: expected a seat number, \"spectator\", {{\"team\":N}} or \"team:N\"");
    match value {
        Value::Number(n) => n.as_u64().map(|s| Viewer::Seat(s as usize)).ok_or_else(bad),
        Value::String(s) if s == "spectator" => Ok(Viewer::Spectator),
        Value::String(s) => {
            s.strip_prefix("team:").and_then(|t| t.trim().parse().ok()).map(Viewer::Team).ok_or_else(bad)
        }
        Value::Object(map) => map.get("team").and_then(Value::as_u64).map(|t| Viewer::Team(t as usize)).ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// Serve the protocol on stdin and stdout until end of input.
pub fn serve() -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut referee = Referee::default();
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes).map_err(|e| format!("cannot read input: {e}"))? == 0 {
            return Ok(());
        }
        let reply = match std::str::from_utf8(&bytes) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => referee.handle_line(line),
            Err(e) => json!({"ok": false, "error": format!("the line is not valid UTF-8 ({e})")}),
        };
        writeln!(stdout, "{reply}").and_then(|_| stdout.flush()).map_err(|e| format!("cannot write output: {e}"))?;
    }
}
