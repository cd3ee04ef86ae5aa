//! A game with its history: the typed [`Session`] records every accepted
//! action and keeps the game's one [`Journal`], which it hands to each
//! step of the game to write what the rules announce, so no game can
//! forget an action and a copy of a game carries no history; and [`DynGame`] hides the game's type
//! behind action text for servers, protocols and generic players.
//!
//! The session also keeps the table: the steps every two-sided game shares
//! and no game module knows of ([`TableAction`]: resign, offer, accept or
//! decline a draw, abort). They are actions of the log like any move, so a
//! replay of the log ends exactly as the game did. So is the table chat
//! ([`ChatLine`], `say <text>`), which every game has.

use std::any::Any;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::{Game, GameError, Outcome, RuleError, ScoreOrder, Seat, SeatInfo, ToAct, Viewer};
use crate::options::Options;
use crate::search_node::{SearchNode, TypedNode};
use crate::view::{Journal, LogEntry, View};

/// One accepted action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRecord {
    pub seat: Seat,
    pub action: String,
    /// When it was taken, in milliseconds since the game began, if whoever
    /// applied it said so (a server, the terminal, a referee client): the
    /// clock of a game played on time runs by these stamps, so a replay
    /// reaches the same clocks. Logs from before times were kept have none
    /// and load as steps that took no time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    /// What the referee concluded from an expensive search the action
    /// started ([`Game::apply_found`]: a Chess Golf hole settled by the
    /// solver), so that a replay takes the conclusion instead of searching
    /// again. Most actions find nothing; logs from before findings were
    /// kept have none and search again on replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
}

impl ActionRecord {
    /// An action without a time.
    pub fn new(seat: Seat, action: impl Into<String>) -> ActionRecord {
        ActionRecord { seat, action: action.into(), ms: None, found: None }
    }

    /// An action taken at `ms` milliseconds after the game began.
    pub fn at(seat: Seat, action: impl Into<String>, ms: u64) -> ActionRecord {
        ActionRecord { seat, action: action.into(), ms: Some(ms), found: None }
    }

    /// The same action with the referee's finding.
    pub fn with_found(mut self, found: Option<String>) -> ActionRecord {
        self.found = found;
        self
    }
}

/// Everything needed to rebuild a game exactly: variant, options, seed,
/// starting position (if not the variant's own start) and the actions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub variant: String,
    #[serde(default)]
    pub options: Options,
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(default)]
    pub actions: Vec<ActionRecord>,
}

/// A step at the table rather than on the board: open to a game with
/// exactly two sides (two seats, or two teams), whatever the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableAction {
    /// The seat's side gives up; the other side wins.
    Resign,
    /// The seat's side proposes to end the game as a draw.
    OfferDraw,
    /// The other side's offer is taken: the game is drawn.
    AcceptDraw,
    /// The other side's offer is turned down.
    DeclineDraw,
    /// The game is called off before it really began: no winner.
    Abort,
}

impl TableAction {
    pub const ALL: [TableAction; 5] = [
        TableAction::Resign,
        TableAction::OfferDraw,
        TableAction::AcceptDraw,
        TableAction::DeclineDraw,
        TableAction::Abort,
    ];

    /// The canonical text, as sent, logged and replayed.
    pub fn text(self) -> &'static str {
        match self {
            TableAction::Resign => "resign",
            TableAction::OfferDraw => "offer draw",
            TableAction::AcceptDraw => "accept draw",
            TableAction::DeclineDraw => "decline draw",
            TableAction::Abort => "abort",
        }
    }

    /// Read a table action: its text in any case, words separated by any
    /// spacing. None for anything else (a move of the game).
    pub fn parse(text: &str) -> Option<TableAction> {
        let words: Vec<String> = text.split_whitespace().map(str::to_ascii_lowercase).collect();
        let text = words.join(" ");
        TableAction::ALL.into_iter().find(|a| a.text() == text)
    }
}

impl fmt::Display for TableAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// The outcome reasons of the table, exact strings of the contract.
pub const RESIGNATION: &str = "resignation";
pub const DRAW_AGREED: &str = "draw agreed";
pub const ABORTED: &str = "aborted";

/// The two sides of a table: each seat alone when there are two seats and
/// no teams, else the two teams when every seat has one of exactly two.
/// None when the game has any other shape (one player, three or more).
pub fn sides(seats: &[SeatInfo]) -> Option<[Vec<Seat>; 2]> {
    if seats.iter().all(|s| s.team.is_none()) {
        return (seats.len() == 2).then(|| [vec![0], vec![1]]);
    }
    let teams: Vec<usize> = seats.iter().map(|s| s.team).collect::<Option<Vec<_>>>()?;
    let mut distinct = teams.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let [first, second] = distinct[..] else { return None };
    let members = |team| teams.iter().enumerate().filter(|(_, &t)| t == team).map(|(seat, _)| seat).collect();
    Some([members(first), members(second)])
}

/// One line of the table chat: what a seat said aloud. Everyone at the
/// table reads it, spectators too: as the Crowded House rules put it, "the
/// other team is listening", so nothing said here is a secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChatLine {
    pub seat: Seat,
    pub text: String,
    /// The number of actions in the log before the line (the version it
    /// was said at), so a client can place it among the moves.
    pub at: usize,
}

/// The word that starts a chat line in the action log: `say <text>`.
pub const SAY: &str = "say";

/// The word of a flag claim in the action log: `flag`. Any seat claims
/// that a clock has run out; it is accepted only with a time at or after
/// the game's [`crate::game::Clocked::deadline`], and lets the game's
/// clock see that time (the flag falls: the side loses on time, or its coins buy more time). A
/// server records it when its timer finds a flag down, so that the log
/// replays to the same ending.
pub const FLAG: &str = "flag";

/// Whether a logged action is a flag claim.
pub fn is_flag(action: &str) -> bool {
    action.trim().eq_ignore_ascii_case(FLAG)
}

/// The longest chat line, in characters: a remark across the table, not a letter.
pub const MAX_CHAT_CHARS: usize = 300;

/// The text of a chat action `say <text>` (the word in any case), or None
/// when `action` is not one. The text is not yet checked (see [`chat_text`]).
pub fn parse_chat(action: &str) -> Option<&str> {
    let trimmed = action.trim_start();
    let word = trimmed.get(..SAY.len())?;
    let rest = &trimmed[SAY.len()..];
    let separated = rest.is_empty() || rest.starts_with(char::is_whitespace);
    (word.eq_ignore_ascii_case(SAY) && separated).then_some(rest)
}

/// Whether a logged action is a chat line rather than a step of the game.
pub fn is_chat(action: &str) -> bool {
    parse_chat(action).is_some()
}

/// A chat line's text made canonical (spacing collapsed), or why it
/// cannot be said: empty, too long, or holding control characters.
pub fn chat_text(raw: &str) -> Result<String, RuleError> {
    let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let refuse = |reason: &str| RuleError::illegal(format!("{SAY} {}", raw.trim()).trim_end(), reason);
    if text.is_empty() {
        return Err(refuse("say what? A chat line needs some text after \"say\""));
    }
    if text.chars().count() > MAX_CHAT_CHARS {
        return Err(refuse(&format!("a chat line holds at most {MAX_CHAT_CHARS} characters")));
    }
    if text.chars().any(char::is_control) {
        return Err(refuse("a chat line may not hold control characters"));
    }
    if text.chars().any(is_direction_control) {
        return Err(refuse(
            "a chat line may not hold direction controls (such as U+202E), which make text read other than it is",
        ));
    }
    Ok(text)
}

/// The invisible characters that change the direction text is shown in:
/// the embeddings and overrides (U+202A to U+202E), the isolates (U+2066
/// to U+2069) and the marks (U+200E, U+200F, U+061C). In a chat line they
/// could make a message show something other than what was typed, or run
/// on into what the client draws after it.
fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// What the table adds to the game: an open draw offer, the chat, and an
/// ending the game itself did not reach (resignation, agreement, abort).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Table {
    /// Everything said at the table, in order.
    chat: Vec<ChatLine>,
    /// The seat whose draw offer is open.
    draw_offer: Option<Seat>,
    /// How the table ended the game, and the line the log ends with.
    ended: Option<(Outcome, LogEntry)>,
    /// The version (number of actions) from which that line is in the log.
    ended_at: usize,
}

/// A game of any variant, spoken to in action text.
pub trait DynGame: Send + Sync {
    fn variant(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn record(&self) -> &GameRecord;
    fn seats(&self) -> Vec<SeatInfo>;
    /// Who acts, or the outcome: the table's ending (resignation, agreed
    /// draw, abort) if there was one, else the game's.
    fn to_act(&self) -> ToAct;
    /// The game's actions `seat` may take now (never the table's).
    fn legal_actions(&self, seat: Seat) -> Vec<String>;
    /// The view of `viewer` as a change from the version `since` it holds
    /// (a number of actions, at most the current one): the whole view but
    /// for its log and chat, which hold only the entries and lines added
    /// after `since`, so the cost does not grow with the game. Appended to
    /// the view of `since`, they give exactly the log and chat of
    /// [`DynGame::view`]. None when `since` is ahead of the game: send the
    /// whole view.
    fn view_since(&self, viewer: Viewer, since: usize) -> Option<View>;
    /// The game's legal actions for `seat`, each with whether it is noisy
    /// ([`Game::is_noisy`]), for the computer players' search.
    fn search_actions(&self, seat: Seat) -> Vec<(String, bool)>;
    /// The game's static estimate for `seat` ([`Game::heuristic`]).
    fn heuristic(&self, seat: Seat) -> Option<f64>;
    /// Which way the outcome's scores count ([`Game::SCORE_ORDER`]).
    fn score_order(&self) -> ScoreOrder;
    /// The seat whose next action `seat`'s decision foretells
    /// ([`Game::foretells`]).
    fn foretells(&self, seat: Seat) -> Option<Seat>;
    /// `seat`'s action text that predicts `expected` ([`Game::prediction_for`]).
    fn prediction_for(&self, seat: Seat, expected: &str) -> Option<String>;
    /// The game's own solver's advice for `seat` ([`Game::expert_action`]),
    /// as action text.
    fn expert_action(&self, seat: Seat, nodes: u64, miss: i64) -> Option<String>;
    /// Forget the log so far, on a copy for the computer's search: the
    /// recorded actions and the journal, which is muted from now on
    /// ([`Journal::muted`]), so that a node of a search costs the same at
    /// move 300 as at move 3 and words no line. The copy can no longer be
    /// replayed or exported.
    fn forget_history(&mut self);
    /// Apply an action given as text, a move of the game or a
    /// [`TableAction`]; returns its canonical text. On error nothing changes.
    /// It takes no time: see [`DynGame::apply_at`].
    fn apply(&mut self, seat: Seat, action: &str) -> Result<String, RuleError> {
        self.apply_at(seat, action, None)
    }
    /// [`DynGame::apply`] at a time, `ms` milliseconds after the game
    /// began, recorded with the action: a game on a clock ([`Game::clock`])
    /// charges the time since the last step to whoever was to act
    /// ([`crate::game::Clocked::pass_time`]). Refused when the time is
    /// before the last recorded one, and when a flag fell before it and
    /// ended the game: then only [`FLAG`] is taken, to record that ending.
    /// A game without a clock is applied to as by [`DynGame::apply`], in
    /// place, with the time kept in the log; a game with one is copied
    /// first, to be put back if the action is refused after its clock ran.
    fn apply_at(&mut self, seat: Seat, action: &str, ms: Option<u64>) -> Result<String, RuleError>;
    /// Apply a recorded action again (a replay, a copy catching up with
    /// the store): at its time, and with the referee's finding stored with
    /// it, which the game takes instead of searching again
    /// ([`Game::apply_found`]). A finding on a step of the table, or one
    /// the game refuses, is an error and changes nothing.
    fn apply_record(&mut self, record: &ActionRecord) -> Result<String, RuleError>;
    /// When a flag falls if nobody acts first
    /// ([`crate::game::Clocked::deadline`]), in milliseconds since the game
    /// began; None when no clock runs or the game is over.
    fn deadline(&self) -> Option<u64>;
    /// The game as its clocks stand at `ms` (a copy: nothing recorded),
    /// for a view that shows the time left now. A time before the last
    /// recorded one, or a game with no running clock, gives the game as
    /// it is.
    fn at_time(&self, ms: u64) -> Box<dyn DynGame>;
    /// The view of `viewer`, with whose turn, their legal actions, their
    /// table actions, any open draw offer and the outcome filled in.
    fn view(&self, viewer: Viewer) -> View;
    /// The table actions `seat` may take now. `Abort` is listed by the
    /// log alone (see [`DynGame::abort_waits_for`]); a server that knows
    /// who has come may allow it less often.
    fn table_actions(&self, seat: Seat) -> Vec<TableAction>;
    /// The seat whose draw offer is open.
    fn draw_offer(&self) -> Option<Seat>;
    /// How many lines of table chat the log holds: the log's length less
    /// this is the number of steps of play.
    fn chat_lines(&self) -> usize;
    /// The seats other than `seat` whose side has not acted at all yet:
    /// while there is one, `seat` may abort.
    fn abort_waits_for(&self, seat: Seat) -> Vec<Seat>;
    /// The whole truth as a text position, secrets included.
    fn position(&self) -> String;
    /// The game as PGN, ending as the table ended it.
    fn pgn(&self) -> Option<String>;
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// Whether two games are in the identical state (same type and same truth).
    fn same_state(&self, other: &dyn DynGame) -> bool;
    /// A game consistent with everything `seat` knows, hidden parts drawn
    /// at random from `seed` (see [`Game::sample_hidden`]).
    fn sample_hidden(&self, seat: Seat, seed: u64) -> Box<dyn DynGame>;
    /// The game as the computer's search walks it: the typed game alone,
    /// without the record and the table (see [`SearchNode`]).
    fn search_node(&self) -> Box<dyn SearchNode>;
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A typed game, its record, its journal and its table.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    pub game: G,
    record: GameRecord,
    table: Table,
    /// The game's story: the session writes nothing of its own here, and
    /// hands it to each step of the game ([`Game::apply_with`]).
    journal: Journal,
    /// Where each version's log ends in the journal.
    log_marks: LogMarks,
    /// The stored finding of the action being replayed, handed to the
    /// game with it (see [`DynGame::apply_record`]); None at rest.
    found_on_replay: Option<String>,
}

/// For each version (number of actions), the length the session's
/// journal had then: the entries added since a version are the journal's
/// from its mark on. The journal only grows (a refused step's lines are
/// dropped before the next mark), so the marks never go back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct LogMarks {
    /// `ends[v]`: the journal's length after `v` actions.
    ends: Vec<usize>,
}

impl LogMarks {
    fn new(journal: &Journal) -> LogMarks {
        LogMarks { ends: vec![journal.len()] }
    }

    /// The version whose action wrote the journal's `index`th entry (0 for
    /// the entries of the start).
    fn written_at(&self, index: usize) -> usize {
        self.ends.partition_point(|&end| end <= index)
    }

    /// Note the journal's length after one more action.
    fn push(&mut self, journal: &Journal) {
        self.ends.push(journal.len());
    }

    /// Where the entries added after version `since` begin; None when
    /// `since` is ahead of the game.
    fn since(&self, since: usize) -> Option<usize> {
        self.ends.get(since).copied()
    }
}

impl<G: Game> Session<G> {
    /// A new game, or one from a text position, with checked options.
    pub fn start(options: Options, seed: u64, position: Option<&str>) -> Result<Session<G>, GameError> {
        options.validate(&G::option_specs())?;
        let mut journal = Journal::default();
        let game = G::open(&options, seed, position, &mut journal)?;
        let record = GameRecord {
            variant: G::VARIANT.to_string(),
            options,
            seed,
            position: position.map(str::to_string),
            actions: Vec::new(),
        };
        let log_marks = LogMarks::new(&journal);
        Ok(Session { game, record, table: Table::default(), journal, log_marks, found_on_replay: None })
    }

    /// Apply a typed action and record it. A move by the side whose draw
    /// offer is open withdraws the offer.
    ///
    /// As OpenSpiel's base class does, the session records the action
    /// before the game's own step, which adds to the journal only what
    /// the rules announce: no game can leave an action out of the
    /// history. A step the game refuses is taken back from the record and
    /// the journal both.
    pub fn apply_action(&mut self, seat: Seat, action: &G::Action) -> Result<(), RuleError> {
        if self.table.ended.is_some() {
            return Err(RuleError::GameOver);
        }
        self.record.actions.push(ActionRecord::new(seat, action.to_string()));
        let written = self.journal.len();
        let found = self.found_on_replay.take();
        match self.game.apply_found(seat, action, found.as_deref(), &mut self.journal) {
            Ok(found) => self.record.actions.last_mut().expect("recorded above").found = found,
            Err(refused) => {
                self.record.actions.pop();
                self.journal.truncate(written);
                return Err(refused);
            }
        }
        self.log_marks.push(&self.journal);
        if self.table.draw_offer.is_some_and(|offered| self.same_side(offered, seat)) {
            self.table.draw_offer = None;
        }
        Ok(())
    }

    /// Take a table action for `seat` and record it. Refused, changing
    /// nothing, when the game has not two sides, is over, or the action
    /// does not fit the moment (see [`Session::table_actions`]).
    pub fn apply_table_action(&mut self, seat: Seat, action: TableAction) -> Result<(), RuleError> {
        let seats = self.game.seats();
        if seat >= seats.len() {
            return Err(RuleError::NoSuchSeat { seat });
        }
        let Some(sides) = sides(&seats) else {
            return Err(RuleError::illegal(action, format!("{} is not played by two sides", G::TITLE)));
        };
        if self.to_act().is_over() {
            return Err(RuleError::GameOver);
        }
        if G::PUZZLE && action != TableAction::Abort {
            return Err(RuleError::illegal(
                action,
                format!("{} is a puzzle round: nobody plays against a side, so nobody resigns or draws", G::TITLE),
            ));
        }
        let mine = if sides[0].contains(&seat) { 0 } else { 1 };
        let others = sides[1 - mine].clone();
        let name = |s: Seat| seats[s].name.clone();
        let offer = self.table.draw_offer;
        match action {
            TableAction::Resign => {
                let line = LogEntry::new(Some(seat), format!("{} resigns.", name(seat)));
                self.table.ended = Some((Outcome::win(others, RESIGNATION), line));
                self.table.draw_offer = None;
            }
            TableAction::OfferDraw => match offer {
                Some(o) if self.same_side(o, seat) => {
                    return Err(RuleError::illegal(action, format!("{}'s draw offer is still open", name(o))))
                }
                Some(o) => {
                    return Err(RuleError::illegal(
                        action,
                        format!("{} has offered a draw: accept or decline it", name(o)),
                    ))
                }
                None => self.table.draw_offer = Some(seat),
            },
            TableAction::AcceptDraw | TableAction::DeclineDraw => match offer {
                None => return Err(RuleError::illegal(action, "no draw offer is open")),
                Some(o) if self.same_side(o, seat) => {
                    return Err(RuleError::illegal(
                        action,
                        "the draw offer is your own side's; the other side answers it",
                    ))
                }
                Some(_) if action == TableAction::DeclineDraw => self.table.draw_offer = None,
                Some(_) => {
                    let line = LogEntry::new(None, "Draw agreed.");
                    self.table.ended = Some((Outcome::draw(DRAW_AGREED), line));
                    self.table.draw_offer = None;
                }
            },
            TableAction::Abort => {
                if self.abort_waits_for(seat).is_empty() {
                    return Err(RuleError::illegal(
                        action,
                        "a game is aborted only while the other side has not yet acted",
                    ));
                }
                let line = LogEntry::new(Some(seat), format!("{} aborts the game.", name(seat)));
                self.table.ended = Some((Outcome::draw(ABORTED), line));
                self.table.draw_offer = None;
            }
        }
        // The ending's line ("White resigns.") is no move: it stands at no action (`LogEntry::at`).
        if self.table.ended.is_some() {
            self.table.ended_at = self.record.actions.len() + 1;
        }
        self.record(ActionRecord::new(seat, action.text()));
        Ok(())
    }

    /// Say `raw` at the table for `seat`, and record it as `say <text>`;
    /// returns that canonical action. Any seat may speak at any time, the
    /// game over included ("good game"), unless the game itself forbids it
    /// now ([`Game::check_talk`]: the talking clock of Crowded House).
    pub fn say(&mut self, seat: Seat, raw: &str) -> Result<String, RuleError> {
        if seat >= self.game.seats().len() {
            return Err(RuleError::NoSuchSeat { seat });
        }
        let text = chat_text(raw)?;
        if let Some(reason) = self.talk_refused(seat) {
            return Err(RuleError::illegal(format!("{SAY} {text}"), reason));
        }
        let action = format!("{SAY} {text}");
        let running = !self.to_act().is_over();
        if let Some(clock) = self.game.clock_mut().filter(|_| running) {
            clock.hear_talk(seat, &mut self.journal);
        }
        self.table.chat.push(ChatLine { seat, text, at: self.record.actions.len() });
        self.record(ActionRecord::new(seat, action.clone()));
        Ok(action)
    }

    /// Record an accepted action, and where the log stands after it.
    fn record(&mut self, action: ActionRecord) {
        self.record.actions.push(action);
        self.log_marks.push(&self.journal);
    }

    /// The table actions `seat` may take now: none unless the game has two
    /// sides and runs, and only aborting in a puzzle round ([`Game::PUZZLE`]).
    pub fn table_actions(&self, seat: Seat) -> Vec<TableAction> {
        let seats = self.game.seats();
        if seat >= seats.len() || sides(&seats).is_none() || self.to_act().is_over() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        if !G::PUZZLE {
            actions.push(TableAction::Resign);
            match self.table.draw_offer {
                None => actions.push(TableAction::OfferDraw),
                Some(o) if !self.same_side(o, seat) => {
                    actions.extend([TableAction::AcceptDraw, TableAction::DeclineDraw]);
                }
                Some(_) => {}
            }
        }
        if !self.abort_waits_for(seat).is_empty() {
            actions.push(TableAction::Abort);
        }
        actions
    }

    /// The seats other than `seat` whose side has no action in the log.
    pub fn abort_waits_for(&self, seat: Seat) -> Vec<Seat> {
        let Some(sides) = sides(&self.game.seats()) else { return Vec::new() };
        sides
            .iter()
            .filter(|side| {
                !self
                    .record
                    .actions
                    .iter()
                    .any(|a| side.contains(&a.seat) && !is_chat(&a.action) && !is_flag(&a.action))
            })
            .flatten()
            .copied()
            .filter(|&s| s != seat)
            .collect()
    }

    /// Whether two seats are on the same side (the same seat, or team mates).
    fn same_side(&self, a: Seat, b: Seat) -> bool {
        match sides(&self.game.seats()) {
            Some(sides) => sides.iter().any(|side| side.contains(&a) && side.contains(&b)),
            None => a == b,
        }
    }

    /// Who acts, or the outcome: the table's ending first.
    pub fn to_act(&self) -> ToAct {
        match &self.table.ended {
            Some((outcome, _)) => ToAct::Over(outcome.clone()),
            None => self.game.to_act(),
        }
    }

    /// Complete a game's own view with the generic parts.
    pub fn full_view(&self, viewer: Viewer) -> View {
        // The journal's lines are placed among the actions (`LogEntry::at`).
        let mut view = View { log: self.placed_log(0, viewer), ..self.game.view(viewer) };
        self.complete(&mut view, viewer);
        if let Some((_, line)) = &self.table.ended {
            view.log.push(line.clone());
        }
        view.chat = self.table.chat.clone();
        view
    }

    /// The view of `viewer` with only the log entries and chat lines added
    /// after version `since`: see [`DynGame::view_since`].
    pub fn view_since(&self, viewer: Viewer, since: usize) -> Option<View> {
        let from = self.log_marks.since(since)?;
        let mut view = self.game.view(viewer);
        self.complete(&mut view, viewer);
        view.log = self.placed_log(from, viewer);
        if let Some((_, line)) = self.table.ended.as_ref().filter(|_| self.table.ended_at > since) {
            view.log.push(line.clone());
        }
        // A line said at version `at` is in the views from `at + 1` on.
        let said = self.table.chat.partition_point(|line| line.at < since);
        view.chat = self.table.chat[said..].to_vec();
        Some(view)
    }

    /// The journal's entries from the `from`th on that `viewer` may read,
    /// each with the number of actions after which it was written
    /// ([`LogEntry::at`]).
    fn placed_log(&self, from: usize, viewer: Viewer) -> Vec<LogEntry> {
        self.journal
            .indexed_for_viewer_from(from, viewer, &self.game.seats())
            .into_iter()
            .map(|(index, entry)| LogEntry { at: Some(self.log_marks.written_at(index)), ..entry })
            .collect()
    }

    /// Fill in the generic parts of a view, all but the log and the chat.
    fn complete(&self, view: &mut View, viewer: Viewer) {
        view.variant = G::VARIANT.to_string();
        view.viewer = Some(viewer);
        view.seats = self.game.seats();
        let to_act = self.to_act();
        view.to_act = to_act.seats().to_vec();
        view.outcome = to_act.outcome().cloned();
        view.actions = match viewer {
            Viewer::Seat(seat) if to_act.seats().contains(&seat) => {
                self.game.legal_actions(seat).iter().map(|a| self.game.describe_action(seat, a)).collect()
            }
            _ => Vec::new(),
        };
        if self.table.ended.is_some() {
            // The game's own prompt ("your move") no longer applies.
            view.prompt = None;
        }
        view.session_actions = match viewer {
            Viewer::Seat(seat) => self.table_actions(seat).iter().map(|a| a.text().to_string()).collect(),
            _ => Vec::new(),
        };
        view.draw_offer = self.table.draw_offer;
        view.chat_closed = match viewer {
            Viewer::Seat(seat) => self.talk_refused(seat),
            _ => None,
        };
    }

    /// Why `seat` may not speak now, if the game forbids it: only while the
    /// game runs ("good game" is always allowed).
    fn talk_refused(&self, seat: Seat) -> Option<String> {
        if self.to_act().is_over() {
            return None;
        }
        self.game.check_talk(seat).err()
    }

    /// The game's PGN, with the result, termination and a closing comment
    /// of the table's ending when the table ended it.
    pub fn pgn(&self) -> Option<String> {
        let text = self.game.pgn(&self.journal)?;
        Some(match &self.table.ended {
            None => text,
            Some((outcome, line)) => {
                let result =
                    if outcome.reason == ABORTED { "*" } else { crate::chess::pgn::result_token(Some(outcome)) };
                let text = crate::chess::pgn::set_tag(&text, "Termination", &outcome.reason);
                crate::chess::pgn::end_with(&text, &line.text, result)
            }
        })
    }
}

impl<G: Game> Session<G> {
    /// The time of the last action recorded with one.
    pub fn last_time(&self) -> Option<u64> {
        self.record.actions.iter().rev().find_map(|a| a.ms)
    }

    /// Apply an action given as text, taking no time.
    fn apply_untimed(&mut self, seat: Seat, text: &str) -> Result<String, RuleError> {
        if is_flag(text) {
            return Err(RuleError::illegal(FLAG, "a flag claim needs the time it is made at"));
        }
        if let Some(said) = parse_chat(text) {
            return self.say(seat, said);
        }
        if let Some(action) = TableAction::parse(text) {
            self.apply_table_action(seat, action)?;
            return Ok(action.text().to_string());
        }
        if self.table.ended.is_some() {
            return Err(RuleError::GameOver);
        }
        self.game.check_turn(seat)?;
        let action = self.game.parse_action(seat, text)?;
        self.apply_action(seat, &action)?;
        Ok(action.to_string())
    }
}

impl<G: Game> Session<G> {
    /// Record a [`FLAG`] claim at `ms`: accepted only when a running clock
    /// reached zero by then. The clock then runs up to `ms` (the fall is
    /// the game's to judge: the side loses, or buys time), in place: a
    /// claim that is refused is refused before anything moves.
    fn claim_flag(&mut self, seat: Seat, ms: u64) -> Result<String, RuleError> {
        let deadline = DynGame::deadline(self);
        if deadline.is_none_or(|d| d > ms) {
            return Err(RuleError::illegal(
                FLAG,
                match deadline {
                    Some(d) => format!("no flag has fallen: the running clock reaches zero at {d} ms, not by {ms} ms"),
                    None => format!("no clock is running in this {}", G::TITLE),
                },
            ));
        }
        if seat >= self.game.seats().len() {
            return Err(RuleError::NoSuchSeat { seat });
        }
        if let Some(clock) = self.game.clock_mut() {
            clock.pass_time(ms, &mut self.journal);
        }
        self.record(ActionRecord::at(seat, FLAG, ms));
        Ok(FLAG.to_string())
    }

    /// Apply an action at `ms` to a game on a clock: its clock runs up to
    /// `ms` first, and the action is judged in the game as it stands then.
    /// Passing time changes the game (the clocks, a fall's line in the
    /// log, perhaps the outcome) before the action is judged, and an
    /// action refused then (a flag fell first and ended the game, or the
    /// rules refuse it) must leave everything as it was. A game has no
    /// undo, so it is copied before the clock runs and put back on a
    /// refusal: the one copy a timed action costs, and only a game with a
    /// clock pays it.
    fn apply_on_the_clock(&mut self, seat: Seat, text: &str, ms: u64) -> Result<String, RuleError> {
        let deadline = DynGame::deadline(self);
        let running = !self.game.to_act().is_over();
        let (before, written) = (self.game.clone(), self.journal.len());
        if let Some(clock) = self.game.clock_mut() {
            clock.pass_time(ms, &mut self.journal);
        }
        let result = if running && self.game.to_act().is_over() && self.table.ended.is_none() {
            Err(RuleError::illegal(
                text.trim(),
                format!("a flag fell at {} ms, before this action: record it with `{FLAG}`", deadline.unwrap_or(ms)),
            ))
        } else {
            self.apply_untimed(seat, text)
        };
        if result.is_err() {
            self.game = before;
            self.journal.truncate(written);
        }
        result
    }
}

impl<G: Game> DynGame for Session<G> {
    fn variant(&self) -> &'static str {
        G::VARIANT
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn record(&self) -> &GameRecord {
        &self.record
    }

    fn seats(&self) -> Vec<SeatInfo> {
        self.game.seats()
    }

    fn to_act(&self) -> ToAct {
        Session::to_act(self)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        if self.table.ended.is_some() {
            return Vec::new();
        }
        self.game.legal_actions(seat).iter().map(ToString::to_string).collect()
    }

    fn search_actions(&self, seat: Seat) -> Vec<(String, bool)> {
        if self.table.ended.is_some() {
            return Vec::new();
        }
        self.game.legal_actions(seat).iter().map(|a| (a.to_string(), self.game.is_noisy(a))).collect()
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        self.game.heuristic(seat)
    }

    fn score_order(&self) -> ScoreOrder {
        G::SCORE_ORDER
    }

    fn foretells(&self, seat: Seat) -> Option<Seat> {
        self.game.foretells(seat)
    }

    fn prediction_for(&self, seat: Seat, expected: &str) -> Option<String> {
        self.game.prediction_for(seat, expected).map(|action| action.to_string())
    }

    fn expert_action(&self, seat: Seat, nodes: u64, miss: i64) -> Option<String> {
        self.game.expert_action(seat, nodes, miss).map(|action| action.to_string())
    }

    fn forget_history(&mut self) {
        self.record.actions = Vec::new();
        self.journal = Journal::muted();
        self.log_marks = LogMarks::new(&self.journal);
    }

    fn apply_at(&mut self, seat: Seat, text: &str, ms: Option<u64>) -> Result<String, RuleError> {
        let Some(ms) = ms else { return self.apply_untimed(seat, text) };
        if let Some(last) = self.last_time().filter(|&last| ms < last) {
            return Err(RuleError::illegal(
                text.trim(),
                format!("its time {ms} ms is before the last action's {last} ms: time only goes forward"),
            ));
        }
        if is_flag(text) {
            return self.claim_flag(seat, ms);
        }
        let action = match self.game.clock() {
            None => self.apply_untimed(seat, text)?,
            Some(_) => self.apply_on_the_clock(seat, text, ms)?,
        };
        if let Some(last) = self.record.actions.last_mut() {
            last.ms = Some(ms);
        }
        Ok(action)
    }

    fn apply_record(&mut self, record: &ActionRecord) -> Result<String, RuleError> {
        let Some(found) = &record.found else { return self.apply_at(record.seat, &record.action, record.ms) };
        let text = &record.action;
        if is_chat(text) || is_flag(text) || TableAction::parse(text).is_some() {
            return Err(RuleError::illegal(
                text.trim(),
                format!("a step of the table finds nothing, yet the finding {found:?} is stored with it"),
            ));
        }
        self.found_on_replay = Some(found.clone());
        let applied = self.apply_at(record.seat, text, record.ms);
        self.found_on_replay = None;
        applied
    }

    fn deadline(&self) -> Option<u64> {
        if self.to_act().is_over() {
            return None;
        }
        self.game.clock()?.deadline()
    }

    fn at_time(&self, ms: u64) -> Box<dyn DynGame> {
        let mut copy = self.clone();
        // Only a running clock moves: one that has not started stays so.
        if self.deadline().is_some() && self.last_time().is_none_or(|last| last <= ms) {
            if let Some(clock) = copy.game.clock_mut() {
                clock.pass_time(ms, &mut copy.journal);
            }
        }
        Box::new(copy)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.full_view(viewer)
    }

    fn view_since(&self, viewer: Viewer, since: usize) -> Option<View> {
        Session::view_since(self, viewer, since)
    }

    fn table_actions(&self, seat: Seat) -> Vec<TableAction> {
        Session::table_actions(self, seat)
    }

    fn draw_offer(&self) -> Option<Seat> {
        self.table.draw_offer
    }

    fn chat_lines(&self) -> usize {
        self.table.chat.len()
    }

    fn abort_waits_for(&self, seat: Seat) -> Vec<Seat> {
        Session::abort_waits_for(self, seat)
    }

    fn position(&self) -> String {
        self.game.position()
    }

    fn pgn(&self) -> Option<String> {
        Session::pgn(self)
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn same_state(&self, other: &dyn DynGame) -> bool {
        other.as_any().downcast_ref::<Session<G>>().is_some_and(|o| o.game == self.game && o.table == self.table)
    }

    fn sample_hidden(&self, seat: Seat, seed: u64) -> Box<dyn DynGame> {
        let mut rng = crate::rng::GameRng::from_seed(seed);
        let game = self.game.sample_hidden(seat, &mut rng);
        Box::new(Session {
            game,
            record: self.record.clone(),
            table: self.table.clone(),
            journal: self.journal.clone(),
            log_marks: self.log_marks.clone(),
            found_on_replay: None,
        })
    }

    fn search_node(&self) -> Box<dyn SearchNode> {
        Box::new(TypedNode::new(self.game.clone()))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameAction;
    use crate::options::OptionSpec;

    /// A tiny game for the table's tests: seats take turns saying "step";
    /// after six steps the first seat wins. With the option `teams` it has
    /// four seats in two teams (0 and 2, 1 and 3); with `solo`, one seat.
    #[derive(Clone, Debug, PartialEq)]
    struct Steps {
        seats: usize,
        teams: bool,
        steps: usize,
    }

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Step;

    impl fmt::Display for Step {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("step")
        }
    }

    impl std::str::FromStr for Step {
        type Err = String;
        fn from_str(s: &str) -> Result<Step, String> {
            (s == "step").then_some(Step).ok_or_else(|| format!("unknown action {s:?}"))
        }
    }

    impl GameAction for Step {}

    impl Game for Steps {
        type Action = Step;
        const VARIANT: &'static str = "steps";
        const TITLE: &'static str = "Steps";

        fn option_specs() -> Vec<OptionSpec> {
            vec![
                OptionSpec::bool("teams", false, "four seats in two teams"),
                OptionSpec::bool("solo", false, "one seat"),
            ]
        }

        fn new(options: &Options, _seed: u64) -> Result<Steps, GameError> {
            let teams = options.bool("teams", false);
            let seats = if teams {
                4
            } else if options.bool("solo", false) {
                1
            } else {
                2
            };
            Ok(Steps { seats, teams, steps: 0 })
        }

        fn from_position(_: &str, options: &Options, seed: u64) -> Result<Steps, GameError> {
            Steps::new(options, seed)
        }

        fn position(&self) -> String {
            self.steps.to_string()
        }

        fn seats(&self) -> Vec<SeatInfo> {
            (0..self.seats)
                .map(|s| {
                    let info = SeatInfo::new(&format!("S{s}"));
                    if self.teams {
                        info.with_team(s % 2)
                    } else {
                        info
                    }
                })
                .collect()
        }

        fn to_act(&self) -> ToAct {
            if self.steps >= 6 {
                ToAct::Over(Outcome::win(vec![0], "finished"))
            } else {
                ToAct::one(self.steps % self.seats)
            }
        }

        fn legal_actions(&self, seat: Seat) -> Vec<Step> {
            if self.to_act().seats().contains(&seat) {
                vec![Step]
            } else {
                Vec::new()
            }
        }

        /// Each step, in public, and to the stepping seat alone its count.
        fn apply_with(&mut self, seat: Seat, _: &Step, story: &mut Journal) -> Result<(), RuleError> {
            self.check_turn(seat)?;
            self.steps += 1;
            story.public(Some(seat), format!("S{seat} steps"));
            story.private(&[seat], None, format!("that was step {}", self.steps));
            Ok(())
        }

        fn view(&self, _: Viewer) -> View {
            View { prompt: Some("step on".into()), ..View::default() }
        }
    }

    fn game(options: Options) -> Box<dyn DynGame> {
        Box::new(Session::<Steps>::start(options, 0, None).unwrap())
    }

    fn two() -> Box<dyn DynGame> {
        game(Options::new())
    }

    fn replayed(game: &dyn DynGame) -> Box<dyn DynGame> {
        let mut again = two_like(game);
        for a in &game.record().actions {
            again.apply_at(a.seat, &a.action, a.ms).unwrap();
        }
        again
    }

    fn two_like(game: &dyn DynGame) -> Box<dyn DynGame> {
        Box::new(Session::<Steps>::start(game.record().options.clone(), 0, None).unwrap())
    }

    fn texts(actions: Vec<TableAction>) -> Vec<&'static str> {
        actions.into_iter().map(TableAction::text).collect()
    }

    /// Two seats solve one puzzle side by side: each steps once, then the
    /// round is over. Declared a puzzle round ([`Game::PUZZLE`]).
    #[derive(Clone, Debug, PartialEq)]
    struct Puzzle {
        stepped: [bool; 2],
    }

    impl Game for Puzzle {
        type Action = Step;
        const VARIANT: &'static str = "puzzle";
        const TITLE: &'static str = "Puzzle";
        const PUZZLE: bool = true;

        fn new(_: &Options, _: u64) -> Result<Puzzle, GameError> {
            Ok(Puzzle { stepped: [false; 2] })
        }
        fn from_position(_: &str, options: &Options, seed: u64) -> Result<Puzzle, GameError> {
            Puzzle::new(options, seed)
        }
        fn position(&self) -> String {
            format!("{:?}", self.stepped)
        }
        fn seats(&self) -> Vec<SeatInfo> {
            vec![SeatInfo::new("S0"), SeatInfo::new("S1")]
        }
        fn to_act(&self) -> ToAct {
            let waiting: Vec<Seat> = (0..2).filter(|&s| !self.stepped[s]).collect();
            if waiting.is_empty() {
                ToAct::Over(Outcome::win(vec![0, 1], "solved"))
            } else {
                ToAct::Seats(waiting)
            }
        }
        fn legal_actions(&self, seat: Seat) -> Vec<Step> {
            if self.to_act().seats().contains(&seat) {
                vec![Step]
            } else {
                Vec::new()
            }
        }
        fn apply_with(&mut self, seat: Seat, _: &Step, _: &mut Journal) -> Result<(), RuleError> {
            self.check_turn(seat)?;
            self.stepped[seat] = true;
            Ok(())
        }
        fn view(&self, _: Viewer) -> View {
            View::default()
        }
    }

    /// Issue 26: "Resign and Offer a draw do not appear in a puzzle round":
    /// neither is offered nor taken (refused, changing nothing); the round
    /// may still be aborted before the other seat has acted.
    #[test]
    fn resign_and_offer_a_draw_do_not_appear_in_a_puzzle_round() {
        let mut g: Box<dyn DynGame> = Box::new(Session::<Puzzle>::start(Options::new(), 0, None).unwrap());
        assert_eq!(texts(g.table_actions(0)), ["abort"]);
        assert_eq!(g.view(Viewer::Seat(1)).session_actions, ["abort"]);
        for refused in ["resign", "offer draw", "accept draw", "decline draw"] {
            let error = g.apply(0, refused).unwrap_err().to_string();
            assert!(error.contains("puzzle round"), "{refused}: {error}");
        }
        assert!(g.record().actions.is_empty(), "a refused table action changes nothing");
        g.apply(0, "step").unwrap();
        assert_eq!(texts(g.table_actions(0)), ["abort"], "S1 has not acted yet");
        assert!(texts(g.table_actions(1)).is_empty(), "S0 has acted: S1 may no longer abort");
    }

    #[test]
    fn table_actions_are_read_in_any_case_and_spacing_and_nothing_else() {
        assert_eq!(TableAction::parse(" Offer   DRAW "), Some(TableAction::OfferDraw));
        assert_eq!(TableAction::parse("resign"), Some(TableAction::Resign));
        assert_eq!(TableAction::parse("offerdraw"), None);
        assert_eq!(TableAction::parse("step"), None);
    }

    #[test]
    fn a_copy_for_the_search_forgets_the_record_and_plays_on_alike() {
        let mut g = two();
        g.apply(0, "step").unwrap();
        g.apply(1, "step").unwrap();
        let mut copy = g.clone_box();
        copy.forget_history();
        assert!(copy.record().actions.is_empty(), "nothing of the log is carried into the search");
        assert_eq!(copy.to_act(), g.to_act());
        assert_eq!(copy.legal_actions(0), g.legal_actions(0));
        assert!(copy.same_state(&*g), "the game itself is unchanged");
        copy.apply(0, "step").unwrap();
        assert!(copy.view(Viewer::Seat(0)).log.is_empty(), "a searched copy's journal records nothing");
        assert_eq!(g.view(Viewer::Seat(0)).log.len(), 3, "the game's own journal is its own");
    }

    /// The session records an action before the game's own step, as
    /// OpenSpiel's base class does: a game that announces nothing (the
    /// puzzle's step) still leaves its action in the history, and each
    /// version of the log can be told as a change.
    #[test]
    fn the_session_records_an_action_even_if_the_game_writes_nothing() {
        let mut g: Box<dyn DynGame> = Box::new(Session::<Puzzle>::start(Options::new(), 0, None).unwrap());
        g.apply(0, "step").unwrap();
        assert_eq!(g.record().actions, [ActionRecord::new(0, "step")]);
        assert!(g.view(Viewer::Seat(1)).log.is_empty(), "the puzzle announced nothing");
        let change = g.view_since(Viewer::Seat(1), 1).expect("version 1 is a version of the log");
        assert!(change.log.is_empty());
        assert!(g.view_since(Viewer::Seat(1), 2).is_none(), "and version 2 is not yet");
    }

    /// What a test game changes in [`Steps`], each a hook that does
    /// nothing unless the game says otherwise: [`Twisted`] plays the steps
    /// with it, so that a test game writes only what it changes.
    trait Twist: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
        const VARIANT: &'static str;
        const TITLE: &'static str;

        fn new(options: &Options) -> Self;

        fn option_specs() -> Vec<OptionSpec> {
            Vec::new()
        }

        /// Called before the steps' rules judge each step.
        fn before_step(&mut self, _seat: Seat, _story: &mut Journal) {}

        fn check_talk(&self, _seat: Seat) -> Result<(), String> {
            Ok(())
        }

        fn clock(&self) -> Option<&dyn crate::game::Clocked> {
            None
        }

        fn clock_mut(&mut self) -> Option<&mut dyn crate::game::Clocked> {
            None
        }
    }

    /// [`Steps`] with a [`Twist`].
    #[derive(Clone, Debug, PartialEq)]
    struct Twisted<T> {
        steps: Steps,
        twist: T,
    }

    impl<T: Twist> Game for Twisted<T> {
        type Action = Step;
        const VARIANT: &'static str = T::VARIANT;
        const TITLE: &'static str = T::TITLE;
        fn option_specs() -> Vec<OptionSpec> {
            T::option_specs()
        }
        fn new(o: &Options, seed: u64) -> Result<Twisted<T>, GameError> {
            Ok(Twisted { steps: Steps::new(o, seed)?, twist: T::new(o) })
        }
        fn from_position(p: &str, o: &Options, seed: u64) -> Result<Twisted<T>, GameError> {
            Ok(Twisted { steps: Steps::from_position(p, o, seed)?, twist: T::new(o) })
        }
        fn position(&self) -> String {
            self.steps.position()
        }
        fn seats(&self) -> Vec<SeatInfo> {
            self.steps.seats()
        }
        fn to_act(&self) -> ToAct {
            self.steps.to_act()
        }
        fn legal_actions(&self, seat: Seat) -> Vec<Step> {
            self.steps.legal_actions(seat)
        }
        fn apply_with(&mut self, seat: Seat, a: &Step, story: &mut Journal) -> Result<(), RuleError> {
            self.twist.before_step(seat, story);
            self.steps.apply_with(seat, a, story)
        }
        fn view(&self, v: Viewer) -> View {
            self.steps.view(v)
        }
        fn check_talk(&self, seat: Seat) -> Result<(), String> {
            self.twist.check_talk(seat)
        }
        fn clock(&self) -> Option<&dyn crate::game::Clocked> {
            self.twist.clock()
        }
        fn clock_mut(&mut self) -> Option<&mut dyn crate::game::Clocked> {
            self.twist.clock_mut()
        }
    }

    /// [`Steps`] that announces each attempt before its rules judge it.
    #[derive(Clone, Debug, PartialEq)]
    struct Hasty;

    impl Twist for Hasty {
        const VARIANT: &'static str = "hasty";
        const TITLE: &'static str = "Hasty";
        fn new(_: &Options) -> Hasty {
            Hasty
        }
        fn before_step(&mut self, seat: Seat, story: &mut Journal) {
            story.public(Some(seat), format!("S{seat} tries to step"));
        }
    }

    /// "On error the game must be unchanged": what a refused step wrote
    /// before its rules refused it is taken back with the action.
    #[test]
    fn a_refused_action_leaves_neither_its_record_nor_its_lines() {
        let mut g = Session::<Twisted<Hasty>>::start(Options::new(), 0, None).unwrap();
        assert_eq!(g.apply_action(1, &Step), Err(RuleError::NotYourTurn { seat: 1 }));
        assert!(g.record().actions.is_empty());
        assert!(g.full_view(Viewer::Spectator).log.is_empty(), "the refused attempt's line is gone");
        g.apply_action(0, &Step).unwrap();
        let texts: Vec<String> = g.full_view(Viewer::Spectator).log.into_iter().map(|e| e.text).collect();
        assert_eq!(texts, ["S0 tries to step", "S0 steps"]);
        assert_eq!(g.full_view(Viewer::Spectator).log[0].at, Some(1), "placed after the action that wrote it");
    }

    #[test]
    fn resigning_gives_the_other_side_the_win_and_ends_the_game() {
        let mut g = two();
        g.apply(0, "step").unwrap();
        assert_eq!(g.apply(0, "Resign").unwrap(), "resign");
        assert_eq!(g.to_act(), ToAct::Over(Outcome::win(vec![1], "resignation")));
        assert!(g.legal_actions(1).is_empty());
        assert_eq!(g.apply(1, "step"), Err(RuleError::GameOver));
        assert_eq!(g.apply(1, "resign"), Err(RuleError::GameOver), "a game over takes no table action");
        let view = g.view(Viewer::Seat(1));
        assert!(view.session_actions.is_empty() && view.actions.is_empty() && view.prompt.is_none());
        assert_eq!(view.log.last().unwrap().text, "S0 resigns.");
        assert_eq!(g.record().actions.last().unwrap(), &ActionRecord::new(0, "resign"));
        assert!(replayed(&*g).same_state(&*g), "the log replays to the same ending");
    }

    #[test]
    fn any_seat_may_say_something_at_the_table_out_of_turn_and_everyone_reads_it() {
        let mut g = game(Options::new().with("teams", true));
        g.apply(0, "step").unwrap();
        assert_eq!(g.apply(3, "  SAY   knight   to f3? ").unwrap(), "say knight to f3?", "spacing collapsed");
        let line = ChatLine { seat: 3, text: "knight to f3?".into(), at: 1 };
        for viewer in [Viewer::Seat(0), Viewer::Team(1), Viewer::Spectator] {
            assert_eq!(g.view(viewer).chat, vec![line.clone()], "{viewer} reads the chat");
        }
        assert_eq!(g.to_act(), ToAct::one(1), "talking is not a move");
        assert_eq!((g.record().actions.len(), g.chat_lines()), (2, 1), "one move, one line of chat");
        assert_eq!(g.record().actions.last().unwrap(), &ActionRecord::new(3, "say knight to f3?"));
        assert!(replayed(&*g).same_state(&*g), "the chat replays from the log");
    }

    #[test]
    fn a_chat_line_may_not_turn_text_around_with_direction_controls() {
        let mut g = two();
        for bad in ["say \u{202E}evil", "say abc\u{2067}def", "say left\u{200F}right", "say x\u{061C}"] {
            let refused = g.apply(0, bad).unwrap_err().to_string();
            assert!(refused.contains("direction controls"), "{bad:?}: {refused}");
        }
        assert!(g.view(Viewer::Spectator).chat.is_empty(), "nobody was shown any of them");
        assert_eq!(
            g.apply(0, "say שלום and مرحبا").unwrap(),
            "say שלום and مرحبا",
            "right-to-left text itself is fine"
        );
    }

    #[test]
    fn a_chat_line_must_hold_some_short_plain_text() {
        let mut g = two();
        let long = "a".repeat(MAX_CHAT_CHARS + 1);
        for bad in ["say", "say    ", &format!("say {long}"), "say tab\u{7}bell"] {
            let before = g.clone_box();
            assert!(matches!(g.apply(0, bad), Err(RuleError::Illegal { .. })), "{bad:?} is refused");
            assert!(g.same_state(&*before) && g.record() == before.record(), "{bad:?} changed nothing");
        }
        assert_eq!(g.apply(5, "say hi"), Err(RuleError::NoSuchSeat { seat: 5 }));
        assert!(g.apply(0, "sayonara").is_err(), "a word that only starts with say is no chat");
    }

    #[test]
    fn chat_does_not_count_as_acting_so_a_silent_opponent_can_still_be_aborted_on() {
        let mut g = two();
        g.apply(1, "say hello?").unwrap();
        assert_eq!(g.abort_waits_for(0), vec![1], "seat 1 only talked");
        g.apply(0, "abort").unwrap();
        assert_eq!(g.to_act().outcome().unwrap().reason, ABORTED);
        g.apply(1, "say good game").expect("talk goes on after the end");
    }

    /// [`Steps`] that counts how often it is copied, to check what the
    /// session's timed actions cost; with the option `clocked` it has a
    /// clock that notes each time and each talk it is told of.
    #[derive(Debug)]
    struct Counted {
        copies: std::sync::Arc<std::sync::atomic::AtomicUsize>,
        clock: Option<Noted>,
    }

    /// What a [`Counted`] clock was told.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Noted {
        times: Vec<u64>,
        talkers: Vec<Seat>,
    }

    impl Counted {
        fn copies(&self) -> usize {
            self.copies.load(std::sync::atomic::Ordering::Relaxed)
        }
    }

    /// Copied with the game: each copy of the game counts.
    impl Clone for Counted {
        fn clone(&self) -> Counted {
            self.copies.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Counted { copies: self.copies.clone(), clock: self.clock.clone() }
        }
    }

    impl PartialEq for Counted {
        fn eq(&self, other: &Counted) -> bool {
            self.clock == other.clock
        }
    }

    impl crate::game::Clocked for Counted {
        fn pass_time(&mut self, ms: u64, _: &mut Journal) {
            self.clock.as_mut().expect("told the time only with a clock").times.push(ms);
        }
        fn deadline(&self) -> Option<u64> {
            None
        }
        fn hear_talk(&mut self, seat: Seat, _: &mut Journal) {
            self.clock.as_mut().expect("told of talk only with a clock").talkers.push(seat);
        }
    }

    impl Twist for Counted {
        const VARIANT: &'static str = "counted";
        const TITLE: &'static str = "Counted";
        fn option_specs() -> Vec<OptionSpec> {
            vec![OptionSpec::bool("clocked", false, "played on a clock")]
        }
        fn new(o: &Options) -> Counted {
            Counted { copies: Default::default(), clock: o.bool("clocked", false).then(Noted::default) }
        }
        fn clock(&self) -> Option<&dyn crate::game::Clocked> {
            self.clock.is_some().then_some(self as &dyn crate::game::Clocked)
        }
        fn clock_mut(&mut self) -> Option<&mut dyn crate::game::Clocked> {
            match self.clock {
                Some(_) => Some(self as &mut dyn crate::game::Clocked),
                None => None,
            }
        }
    }

    /// Times are only stamps to a game without a clock: nothing in it can
    /// fall or be undone, so the session applies a timed action to the
    /// game itself, as an untimed one, and copies nothing.
    #[test]
    fn a_game_without_a_clock_is_not_copied_to_apply_a_timed_action() {
        let mut g = Session::<Twisted<Counted>>::start(Options::new(), 0, None).unwrap();
        g.apply_at(0, "step", Some(1_000)).unwrap();
        g.apply_at(1, "say hi", Some(2_000)).unwrap();
        g.apply_at(1, "step", Some(3_000)).unwrap();
        assert!(g.apply_at(1, "step", Some(4_000)).is_err(), "not seat 1's turn");
        g.apply_at(0, "offer draw", Some(5_000)).unwrap();
        assert_eq!(g.game.twist.copies(), 0, "no copy of the game was made");
        let ms: Vec<Option<u64>> = g.record().actions.iter().map(|a| a.ms).collect();
        assert_eq!(ms, [Some(1_000), Some(2_000), Some(3_000), Some(5_000)], "each action keeps its time");
        assert_eq!(g.game.steps.steps, 2);
    }

    /// A game on a clock is told the time of each timed action before it
    /// is applied, and each line of talk; an action it refuses leaves the
    /// clock as it was, which costs one copy of the game per timed action.
    #[test]
    fn a_game_with_a_clock_is_told_each_time_and_each_talk() {
        let mut g = Session::<Twisted<Counted>>::start(Options::new().with("clocked", true), 0, None).unwrap();
        g.apply_at(0, "step", Some(1_000)).unwrap();
        g.apply_at(1, "say hi", Some(2_000)).unwrap();
        g.apply(0, "say untimed").unwrap();
        assert!(g.apply_at(0, "step", Some(3_000)).is_err(), "not seat 0's turn");
        let noted = g.game.twist.clock.clone().unwrap();
        assert_eq!(noted.times, [1_000, 2_000], "the refused action's time was taken back");
        assert_eq!(noted.talkers, [1, 0], "timed or not, talk is heard");
        assert_eq!(g.game.twist.copies(), 3, "one copy for each timed action, to put back on a refusal");
        g.apply_at(1, "flag", Some(4_000)).unwrap_err();
        assert_eq!(g.game.twist.copies(), 3, "a flag claim is judged before anything moves: no copy");
    }

    #[test]
    fn a_game_may_forbid_talk_and_says_why() {
        #[derive(Clone, Debug, PartialEq)]
        struct Quiet;
        // Steps with a rule of silence for seat 1: the talking clock's hook.
        impl Twist for Quiet {
            const VARIANT: &'static str = "quiet";
            const TITLE: &'static str = "Quiet";
            fn new(_: &Options) -> Quiet {
                Quiet
            }
            fn check_talk(&self, seat: Seat) -> Result<(), String> {
                if seat == 1 {
                    Err("seat 1 has not paid for talk".into())
                } else {
                    Ok(())
                }
            }
        }
        let mut g: Box<dyn DynGame> = Box::new(Session::<Twisted<Quiet>>::start(Options::new(), 0, None).unwrap());
        let error = g.apply(1, "say psst").unwrap_err().to_string();
        assert!(error.contains("has not paid for talk"), "{error}");
        assert!(g.record().actions.is_empty());
        assert_eq!(g.view(Viewer::Seat(1)).chat_closed.as_deref(), Some("seat 1 has not paid for talk"));
        assert_eq!(g.view(Viewer::Seat(0)).chat_closed, None, "seat 0 may talk");
        assert_eq!(g.view(Viewer::Spectator).chat_closed, None, "a spectator has no chat to close");
        g.apply(0, "say fine").unwrap();
    }

    #[test]
    fn a_seat_may_resign_out_of_turn() {
        let mut g = two();
        g.apply(1, "resign").unwrap();
        assert_eq!(g.to_act().outcome().unwrap().winners, vec![0]);
    }

    #[test]
    fn a_draw_offer_is_answered_by_the_other_side() {
        let mut g = two();
        assert_eq!(texts(g.table_actions(1)), ["resign", "offer draw", "abort"]);
        g.apply(1, "offer draw").unwrap();
        assert_eq!(g.draw_offer(), Some(1));
        assert_eq!(g.view(Viewer::Seat(0)).draw_offer, Some(1));
        assert_eq!(g.view(Viewer::Spectator).draw_offer, Some(1), "an offer is public");
        assert_eq!(texts(g.table_actions(0)), ["resign", "accept draw", "decline draw"]);
        assert_eq!(texts(g.table_actions(1)), ["resign", "abort"], "seat 0 has not acted yet");
        // The other side moving does not answer the offer.
        g.apply(0, "step").unwrap();
        assert_eq!(g.draw_offer(), Some(1));
        g.apply(0, "accept draw").unwrap();
        assert_eq!(g.to_act(), ToAct::Over(Outcome::draw("draw agreed")));
        assert_eq!(g.draw_offer(), None);
        assert_eq!(g.view(Viewer::Spectator).log.last().unwrap().text, "Draw agreed.");
        assert!(replayed(&*g).same_state(&*g));
    }

    #[test]
    fn a_declined_offer_closes_and_may_be_made_again() {
        let mut g = two();
        g.apply(0, "offer draw").unwrap();
        g.apply(1, "decline draw").unwrap();
        assert_eq!(g.draw_offer(), None);
        assert!(!g.to_act().is_over());
        g.apply(0, "offer draw").unwrap();
        assert_eq!(g.draw_offer(), Some(0));
    }

    #[test]
    fn an_offer_lapses_when_its_side_moves() {
        let mut g = two();
        g.apply(0, "offer draw").unwrap();
        g.apply(0, "step").unwrap();
        assert_eq!(g.draw_offer(), None);
        assert_eq!(g.apply(1, "accept draw"), Err(RuleError::illegal("accept draw", "no draw offer is open")));
        assert!(replayed(&*g).same_state(&*g));
    }

    #[test]
    fn wrong_answers_to_offers_are_refused_and_change_nothing() {
        let mut g = two();
        let before = g.clone();
        let error = g.apply(1, "decline draw").unwrap_err().to_string();
        assert!(error.contains("no draw offer is open"), "{error}");
        g.apply(0, "offer draw").unwrap();
        let open = g.clone();
        let error = g.apply(0, "accept draw").unwrap_err().to_string();
        assert!(error.contains("the other side answers it"), "{error}");
        let error = g.apply(0, "offer draw").unwrap_err().to_string();
        assert!(error.contains("S0's draw offer is still open"), "{error}");
        let error = g.apply(1, "offer draw").unwrap_err().to_string();
        assert!(error.contains("S0 has offered a draw: accept or decline it"), "{error}");
        assert!(g.same_state(&*open) && g.record() == open.record());
        assert!(!before.same_state(&*open));
        assert_eq!(g.apply(2, "resign"), Err(RuleError::NoSuchSeat { seat: 2 }));
    }

    #[test]
    fn abort_only_while_the_other_side_has_not_acted() {
        let mut g = two();
        assert_eq!(g.abort_waits_for(0), vec![1]);
        g.apply(0, "step").unwrap();
        // Seat 1 has not acted: seat 0 may still abort, seat 1 may not.
        assert_eq!(g.abort_waits_for(0), vec![1]);
        assert!(g.abort_waits_for(1).is_empty());
        let error = g.apply(1, "abort").unwrap_err().to_string();
        assert!(error.contains("only while the other side has not yet acted"), "{error}");
        g.apply(0, "abort").unwrap();
        assert_eq!(g.to_act(), ToAct::Over(Outcome::draw("aborted")));
        assert!(replayed(&*g).same_state(&*g));
    }

    #[test]
    fn a_draw_offer_counts_as_acting_for_abort() {
        let mut g = two();
        g.apply(1, "offer draw").unwrap();
        assert!(g.abort_waits_for(0).is_empty());
        assert!(!texts(g.table_actions(0)).contains(&"abort"));
    }

    #[test]
    fn teams_are_the_sides() {
        let mut g = game(Options::new().with("teams", true));
        // Seat 2 offers for team 0; its team mate cannot answer, an opponent can.
        g.apply(2, "offer draw").unwrap();
        assert!(g.apply(0, "accept draw").is_err());
        assert_eq!(texts(g.table_actions(3)), ["resign", "accept draw", "decline draw", "abort"]);
        // A move by the offering side's other seat withdraws the offer.
        g.apply(0, "step").unwrap();
        assert_eq!(g.draw_offer(), None);
        assert_eq!(g.abort_waits_for(0), vec![1, 3], "team 1 has not acted");
        g.apply(3, "resign").unwrap();
        assert_eq!(g.to_act().outcome().unwrap(), &Outcome::win(vec![0, 2], "resignation"));
    }

    #[test]
    fn games_without_two_sides_have_no_table() {
        let mut g = game(Options::new().with("solo", true));
        assert!(g.table_actions(0).is_empty());
        let error = g.apply(0, "resign").unwrap_err().to_string();
        assert!(error.contains("Steps is not played by two sides"), "{error}");
        assert!(g.record().actions.is_empty());
        let odd = [SeatInfo::new("a").with_team(0), SeatInfo::new("b")];
        assert_eq!(sides(&odd), None, "a seat with no team among teams");
        let three = [SeatInfo::new("a"), SeatInfo::new("b"), SeatInfo::new("c")];
        assert_eq!(sides(&three), None);
    }

    #[test]
    fn a_game_that_ended_by_itself_takes_no_table_action() {
        let mut g = two();
        for s in 0..6 {
            g.apply(s % 2, "step").unwrap();
        }
        assert!(g.to_act().is_over());
        assert_eq!(g.apply(0, "offer draw"), Err(RuleError::GameOver));
        assert!(g.view(Viewer::Seat(0)).session_actions.is_empty());
    }

    #[test]
    fn the_view_lists_the_seat_s_table_actions_only() {
        let g = two();
        assert_eq!(g.view(Viewer::Seat(0)).session_actions, ["resign", "offer draw", "abort"]);
        assert!(g.view(Viewer::Spectator).session_actions.is_empty());
        let json = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
        assert!(json.get("session_actions").is_none() && json.get("draw_offer").is_none(), "{json}");
    }

    #[test]
    fn an_action_applied_at_a_time_is_logged_with_it_and_time_only_goes_forward() {
        let mut g = two();
        g.apply_at(0, "step", Some(1_500)).unwrap();
        g.apply_at(1, "say hm", Some(2_000)).unwrap();
        g.apply(1, "step").unwrap();
        let ms: Vec<Option<u64>> = g.record().actions.iter().map(|a| a.ms).collect();
        assert_eq!(ms, [Some(1_500), Some(2_000), None]);
        let before = g.clone();
        let error = g.apply_at(0, "step", Some(1_999)).unwrap_err().to_string();
        assert!(error.contains("before the last action's 2000 ms"), "{error}");
        assert!(g.same_state(&*before) && g.record() == before.record(), "a refused time changes nothing");
        let json = serde_json::to_string(&g.record().actions[2]).unwrap();
        assert_eq!(json, r#"{"seat":1,"action":"step"}"#, "no time, no field");
        assert!(replayed(&*g).same_state(&*g));
    }

    #[test]
    fn a_log_written_before_times_were_kept_still_loads() {
        let old = r#"{"variant":"steps","seed":0,"actions":[{"seat":0,"action":"step"},{"seat":1,"action":"say hi"}]}"#;
        let record: GameRecord = serde_json::from_str(old).unwrap();
        assert_eq!(record.actions, [ActionRecord::new(0, "step"), ActionRecord::new(1, "say hi")]);
    }

    #[test]
    fn a_stored_finding_on_a_game_whose_actions_find_nothing_is_refused() {
        // Game::apply_found: only a game whose action searched has a
        // finding to take back; any other stored finding is an error.
        let mut g = two();
        let step = ActionRecord::new(0, "step").with_found(Some("impossible".into()));
        let error = g.apply_record(&step).unwrap_err().to_string();
        assert!(error.contains("does not belong to Steps"), "{error}");
        let table = ActionRecord::new(0, "offer draw").with_found(Some("impossible".into()));
        assert!(g.apply_record(&table).unwrap_err().to_string().contains("a step of the table finds nothing"));
        assert!(g.same_state(&*two()) && g.record().actions.is_empty(), "nothing changed");
        g.apply_record(&ActionRecord::at(0, "step", 5)).unwrap();
        assert_eq!(g.record().actions, [ActionRecord::at(0, "step", 5)], "no finding, no field");
    }

    #[test]
    fn a_flag_claim_needs_a_time_and_a_clock_that_ran_out() {
        let mut g = two();
        let error = g.apply(0, "flag").unwrap_err().to_string();
        assert!(error.contains("needs the time"), "{error}");
        let error = g.apply_at(0, "flag", Some(10)).unwrap_err().to_string();
        assert!(error.contains("no clock is running in this Steps"), "{error}");
        assert!(g.record().actions.is_empty());
        assert_eq!(g.deadline(), None);
    }

    /// The view of `viewer` since `since`, caught up onto the view it held then.
    fn caught_up(game: &dyn DynGame, viewer: Viewer, held: &View, since: usize) -> View {
        let mut view = game.view_since(viewer, since).expect("a journal game tells changes");
        view.log = [held.log.clone(), view.log].concat();
        view.chat = [held.chat.clone(), view.chat].concat();
        view
    }

    #[test]
    fn a_change_since_a_version_holds_only_the_new_lines_each_viewer_may_read() {
        let mut g = two();
        g.apply(0, "step").unwrap();
        let (held, since) = (g.view(Viewer::Seat(1)), g.record().actions.len());
        g.apply(1, "step").unwrap();
        g.apply(0, "say hello").unwrap();
        let change = g.view_since(Viewer::Seat(1), since).unwrap();
        let texts: Vec<&str> = change.log.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["S1 steps", "that was step 2"], "only what was added, and S0's secret is not among it");
        assert_eq!(change.chat.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["hello"]);
        assert_eq!(caught_up(&*g, Viewer::Seat(1), &held, since), g.view(Viewer::Seat(1)));
        let spectator = g.view_since(Viewer::Spectator, since).unwrap();
        assert_eq!(spectator.log.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(), ["S1 steps"]);
        let now = g.record().actions.len();
        assert!(g.view_since(Viewer::Seat(0), now).unwrap().log.is_empty(), "nothing new since now");
        assert!(g.view_since(Viewer::Seat(0), now + 1).is_none(), "a version ahead of the game is no change");
    }

    /// Each line of the log says after how many actions it was written, so
    /// a client steps through the moves and not through the table's other
    /// actions: a draw offer and a chat line are actions that write no
    /// line, and the line of a resignation stands at no move.
    #[test]
    fn each_log_line_is_placed_after_the_action_that_wrote_it() {
        let mut g = two();
        g.apply(0, "step").unwrap(); // action 1
        g.apply(1, "offer draw").unwrap(); // action 2, no line
        g.apply(0, "say hi").unwrap(); // action 3, no line
        g.apply(1, "step").unwrap(); // action 4
        g.apply(1, "resign").unwrap(); // action 5
        let placed = |v: &View| v.log.iter().map(|e| (e.text.clone(), e.at)).collect::<Vec<_>>();
        let spectator = g.view(Viewer::Spectator);
        assert_eq!(
            placed(&spectator),
            [("S0 steps".into(), Some(1)), ("S1 steps".into(), Some(4)), ("S1 resigns.".into(), None)]
        );
        let seat0 = g.view(Viewer::Seat(0));
        assert_eq!(
            seat0.log[1],
            LogEntry { seat: None, text: "that was step 1".into(), at: Some(1), secret_choice: false }
        );
        let change = g.view_since(Viewer::Seat(0), 3).unwrap();
        assert_eq!(
            change.log.iter().map(|e| e.at).collect::<Vec<_>>(),
            [Some(4), None],
            "S1's step, and the resignation, which is no move"
        );
    }

    #[test]
    fn the_line_a_table_ending_adds_comes_once_in_the_changes() {
        let mut g = two();
        g.apply(0, "step").unwrap();
        let (held, since) = (g.view(Viewer::Spectator), g.record().actions.len());
        g.apply(1, "resign").unwrap();
        let ended = g.record().actions.len();
        let change = g.view_since(Viewer::Spectator, since).unwrap();
        assert_eq!(change.log.last().unwrap().text, "S1 resigns.");
        assert_eq!(caught_up(&*g, Viewer::Spectator, &held, since), g.view(Viewer::Spectator));
        let held = g.view(Viewer::Spectator);
        g.apply(0, "say good game").unwrap();
        let change = g.view_since(Viewer::Spectator, ended).unwrap();
        assert!(change.log.is_empty(), "the resignation is not told twice: {:?}", change.log);
        assert_eq!(caught_up(&*g, Viewer::Spectator, &held, ended), g.view(Viewer::Spectator));
    }
}
