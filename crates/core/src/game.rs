//! The referee contract: every game answers who acts, what they may do,
//! what happens when they do it, and what each viewer may see.

use std::fmt::{self, Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::options::{OptionSpec, Options};
use crate::rng::GameRng;
use crate::search_node::SearchAction;
use crate::view::{ActionInfo, Journal, View};

/// A seat at the table, numbered from 0. In two-player chess games seat 0 is White.
pub type Seat = usize;

/// Who sits in a seat: shown to players and used to group teams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct SeatInfo {
    /// A short name such as "White" or "King-side Black".
    pub name: String,
    /// The colour of pieces this seat moves, if any ("white" or "black").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// Seats with the same team number win and lose together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<usize>,
}

impl SeatInfo {
    pub fn new(name: &str) -> SeatInfo {
        SeatInfo { name: name.to_string(), colour: None, team: None }
    }

    pub fn with_colour(mut self, colour: &str) -> SeatInfo {
        self.colour = Some(colour.to_string());
        self
    }

    pub fn with_team(mut self, team: usize) -> SeatInfo {
        self.team = Some(team);
        self
    }

    /// White and Black, the seats of every two-player chess game.
    pub fn white_black() -> Vec<SeatInfo> {
        vec![SeatInfo::new("White").with_colour("white"), SeatInfo::new("Black").with_colour("black")]
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct Outcome {
    /// The seats that won; empty for a draw (or a shared loss).
    pub winners: Vec<Seat>,
    /// Why the game ended, in a word or two: "checkmate", "stalemate", "king captured".
    pub reason: String,
    /// Per-seat scores for games that keep score (Chess Golf, Cooperative Chess).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
}

impl Outcome {
    pub fn win(winners: Vec<Seat>, reason: &str) -> Outcome {
        Outcome { winners, reason: reason.to_string(), scores: None }
    }

    pub fn draw(reason: &str) -> Outcome {
        Outcome { winners: Vec::new(), reason: reason.to_string(), scores: None }
    }

    pub fn with_scores(mut self, scores: Vec<i64>) -> Outcome {
        self.scores = Some(scores);
        self
    }

    pub fn is_draw(&self) -> bool {
        self.winners.is_empty() && self.scores.is_none()
    }
}

/// Which way a game's scores count: a property of the game, declared by
/// [`Game::SCORE_ORDER`], so that a computer player knows what it plays
/// for without reading the outcome's words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreOrder {
    /// The highest score is best (most games that keep score).
    #[default]
    Highest,
    /// The lowest score is best (Chess Golf's total of moves).
    Lowest,
}

impl ScoreOrder {
    /// `score` as a value where more is better.
    pub fn value(self, score: f64) -> f64 {
        match self {
            ScoreOrder::Highest => score,
            ScoreOrder::Lowest => -score,
        }
    }
}

/// Who must decide now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToAct {
    /// These seats must act; more than one means simultaneous (secret) choices.
    Seats(Vec<Seat>),
    /// Nobody: the game is over.
    Over(Outcome),
}

impl ToAct {
    pub fn one(seat: Seat) -> ToAct {
        ToAct::Seats(vec![seat])
    }

    pub fn seats(&self) -> &[Seat] {
        match self {
            ToAct::Seats(seats) => seats,
            ToAct::Over(_) => &[],
        }
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            ToAct::Over(outcome) => Some(outcome),
            ToAct::Seats(_) => None,
        }
    }

    pub fn is_over(&self) -> bool {
        matches!(self, ToAct::Over(_))
    }
}

/// Who is looking: a seat, a whole team, or a spectator who sees only what is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    Seat(Seat),
    Team(usize),
    Spectator,
}

impl Viewer {
    /// The seat this viewer sits in, if it is a single seat.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(seat) => Some(seat),
            _ => None,
        }
    }

    /// Whether this viewer may see what `seat` sees, given the table's seats.
    pub fn includes(self, seat: Seat, seats: &[SeatInfo]) -> bool {
        match self {
            Viewer::Seat(s) => s == seat,
            Viewer::Team(team) => seats.get(seat).and_then(|info| info.team) == Some(team),
            Viewer::Spectator => false,
        }
    }
}

impl Display for Viewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Viewer::Seat(seat) => write!(f, "seat {seat}"),
            Viewer::Team(team) => write!(f, "team {team}"),
            Viewer::Spectator => f.write_str("spectator"),
        }
    }
}

/// Why an action was refused. The game is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not seat {seat}'s turn to act")]
    NotYourTurn { seat: Seat },
    #[error("there is no seat {seat}")]
    NoSuchSeat { seat: Seat },
    /// The action text could not be read at all.
    #[error("cannot read action {text:?}: {reason}")]
    Malformed { text: String, reason: String },
    /// The action was read but the rules forbid it.
    #[error("illegal action {action:?}: {reason}")]
    Illegal { action: String, reason: String },
}

impl RuleError {
    pub fn illegal(action: impl Display, reason: impl Into<String>) -> RuleError {
        RuleError::Illegal {
            action: shorten(&action.to_string(), QUOTED_INPUT),
            reason: shorten(&reason.into(), REASON),
        }
    }

    /// Input that cannot be read. The text is quoted back shortened, so that
    /// a megabyte of nonsense gets a one-line answer.
    pub fn malformed(text: impl Into<String>, reason: impl Into<String>) -> RuleError {
        RuleError::Malformed { text: shorten(&text.into(), QUOTED_INPUT), reason: shorten(&reason.into(), REASON) }
    }
}

/// How much of an input an error message quotes back.
const QUOTED_INPUT: usize = 80;
/// How long an error's reason may grow (it may quote the input too).
const REASON: usize = 400;

/// `text`, or its first `max_chars` characters and how long it was.
pub fn shorten(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}

/// Why a game could not be set up (bad options, bad position text, unknown variant).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GameError(pub String);

impl GameError {
    /// An error about a position or options; a message that quotes a long
    /// input is shortened.
    pub fn new(message: impl Into<String>) -> GameError {
        GameError(shorten(&message.into(), 2 * REASON))
    }
}

/// An action of a game: one step of a turn, with a canonical text form that is
/// typed in the terminal, sent over the wire, stored in the log and replayed.
pub trait GameAction: Clone + Eq + Hash + Debug + Display + FromStr<Err = String> + Send + Sync + 'static {
    /// The board geometry of the action, so a client can offer it by drag or click.
    fn info(&self) -> ActionInfo {
        ActionInfo::text_only(self.to_string())
    }
}

/// The referee of one game: a value that knows the whole truth and answers
/// the four questions of docs/architecture.md. Implementations must be deterministic:
/// all chance comes from the [`GameRng`] created from the seed.
pub trait Game: Clone + Debug + PartialEq + Send + Sync + 'static {
    type Action: GameAction;

    /// The registry name, such as "chess960".
    const VARIANT: &'static str;

    /// The game's name for people, such as "Zombie Chess".
    const TITLE: &'static str;

    /// Which way the scores of its [`Outcome`] count, for a game that
    /// keeps score.
    const SCORE_ORDER: ScoreOrder = ScoreOrder::Highest;

    /// A puzzle round: every seat solves the same puzzle for a score, and
    /// nobody plays against another side, so the session offers no
    /// resignation and no draw (issue 26: "Resign and Offer a draw do not
    /// appear in a puzzle round"); a round may still be aborted before
    /// another seat has acted.
    const PUZZLE: bool = false;

    /// The options this game accepts; any other option is refused.
    fn option_specs() -> Vec<OptionSpec> {
        Vec::new()
    }

    /// A fresh game. `seed` drives every shuffle and random setup.
    /// Provided on [`Game::open`], with the options checked against
    /// [`Game::option_specs`] and a [`Journal::muted`] story.
    fn new(options: &Options, seed: u64) -> Result<Self, GameError> {
        options.validate(&Self::option_specs())?;
        Self::open(options, seed, None, &mut Journal::muted())
    }

    /// The game as a session starts it: [`Game::new`], or
    /// [`Game::from_position`] when a position is given, with what the
    /// rules announce at the start (a deal, a layout) written to `story`.
    /// A game implements either this, or `new` and `from_position`
    /// (games that announce nothing before the first action): each side's
    /// default is built on the other, so a game must implement one side.
    ///
    /// `options` arrive checked against [`Game::option_specs`]: the
    /// session ([`crate::session::Session::start`], the one way the
    /// server, the terminal and the computer start a game) and the
    /// provided `new` and `from_position` check them first, so a game
    /// checks only what its specs cannot say (two options that exclude
    /// each other, a value its setup cannot use).
    fn open(options: &Options, seed: u64, position: Option<&str>, _story: &mut Journal) -> Result<Self, GameError> {
        match position {
            Some(text) => Self::from_position(text, options, seed),
            None => Self::new(options, seed),
        }
    }

    /// A game started from a text position (FEN plus the game's markers and
    /// `key: value` lines, documented per game). Provided on
    /// [`Game::open`], with the options checked as in [`Game::new`] and a
    /// [`Journal::muted`] story.
    fn from_position(position: &str, options: &Options, seed: u64) -> Result<Self, GameError> {
        options.validate(&Self::option_specs())?;
        Self::open(options, seed, Some(position), &mut Journal::muted())
    }

    /// The whole truth as a text position, secrets included: what
    /// [`Game::from_position`] reads back.
    fn position(&self) -> String;

    fn seats(&self) -> Vec<SeatInfo>;

    fn to_act(&self) -> ToAct;

    /// The first of the seats [`Game::to_act`] lists, None when the game
    /// is over: what the search asks at every node it visits. The default
    /// builds the list; a game overrides it to answer without allocating.
    fn first_to_act(&self) -> Option<Seat> {
        self.to_act().seats().first().copied()
    }

    /// Whether [`Game::to_act`] lists `seat`: what [`Game::check_turn`]
    /// asks before every action, the search's included. The default builds
    /// the list; a game overrides it to answer without allocating.
    fn is_to_act(&self, seat: Seat) -> bool {
        self.to_act().seats().contains(&seat)
    }

    /// The actions `seat` may take now; empty when the seat need not act.
    ///
    /// A game writes this or [`Game::legal_actions_into`] (each is the
    /// other's default; one of them must be the game's own): the list
    /// form where generation builds a fresh list anyway, the `_into` form
    /// where it can fill the search's reused list.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(seat, &mut actions);
        actions
    }

    /// [`Game::legal_actions`] written into `into` (emptied first), for
    /// the search, which lists the actions of every node it visits: a game
    /// whose move generation can fill a given list writes this instead, so
    /// that the list a search keeps for each node is reused, not allocated.
    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<Self::Action>) {
        *into = self.legal_actions(seat);
    }

    /// How `seat`'s legal `action` is offered to a client: its board
    /// geometry and label. The default is the action's own description; a
    /// game overrides it when the label depends on the state (what a choice
    /// costs now, a guess already ruled out), which the action value itself
    /// should not carry.
    fn describe_action(&self, _seat: Seat, action: &Self::Action) -> ActionInfo {
        action.info()
    }

    /// Apply one action of `seat`, writing to `story` what the rules
    /// announce (the move, a capture, a line to one seat alone). The
    /// session has recorded the action itself before this step, so a game
    /// that announces nothing still leaves the action in the history. On
    /// error the game must be unchanged; the session drops whatever it
    /// wrote to `story` before refusing.
    fn apply_with(&mut self, seat: Seat, action: &Self::Action, story: &mut Journal) -> Result<(), RuleError>;

    /// [`Game::apply_with`] telling nobody: for the copies a computer
    /// searches and plays out, and for tests that do not read the log.
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> Result<(), RuleError> {
        self.apply_with(seat, action, &mut Journal::muted())
    }

    /// [`Game::apply`] for a game whose action may start an expensive
    /// search (the Chess Golf referee settling a hole): it returns what the
    /// search concluded, a short text (the "finding") that the session
    /// stores with the action. On replay the session hands the stored
    /// finding back as `found`, and the game takes it instead of searching
    /// again, so a replay costs rule work only. A finding comes from the
    /// store and is trusted, but one the game cannot read, or that does not
    /// fit the action, is refused with an error and changes nothing.
    /// Games without such a search keep this default: no finding, and a
    /// stored one is refused.
    fn apply_found(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        found: Option<&str>,
        story: &mut Journal,
    ) -> Result<Option<String>, RuleError> {
        if let Some(found) = found {
            return Err(RuleError::illegal(
                action,
                format!("the stored finding {found:?} does not belong to {}: its actions find nothing", Self::TITLE),
            ));
        }
        self.apply_with(seat, action, story).map(|()| None)
    }

    /// What `viewer` may see, and nothing more, but for the log: the
    /// session fills that in from its journal, as it fills the generic
    /// parts (whose turn, legal actions, outcome); see [`crate::Session`].
    fn view(&self, viewer: Viewer) -> View;

    /// A game consistent with everything `seat` knows, with the hidden parts
    /// drawn at random: what an information-set search plays in. Games with
    /// no hidden information return a clone.
    fn sample_hidden(&self, _seat: Seat, _rng: &mut GameRng) -> Self {
        self.clone()
    }

    /// The game as PGN, for games that are chess with extras, with the
    /// movetext read from `story`, the journal the session kept of it.
    fn pgn(&self, _story: &Journal) -> Option<String> {
        None
    }

    /// Parse an action for `seat`: most games just use `FromStr`, but chess
    /// games also accept SAN and both castling notations.
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<Self::Action, RuleError> {
        text.trim().parse().map_err(|reason| RuleError::malformed(text, reason))
    }

    /// A static estimate of how well the game stands for `seat`, in pawns
    /// (a pawn is 1.0; a won game is far beyond any estimate), for the
    /// computer players' search. It may read the whole truth: the search
    /// calls it only on worlds drawn by [`Game::sample_hidden`]. None lets
    /// the players fall back on the material of the seat's view, which is
    /// slower.
    fn heuristic(&self, _seat: Seat) -> Option<f64> {
        None
    }

    /// The seat whose next action `seat`'s decision now foretells, when
    /// the decision is a prediction of another seat's move (Telepathy
    /// Chess's predictor): a computer player then predicts by choosing
    /// that seat's action itself, which a generic search cannot do.
    fn foretells(&self, _seat: Seat) -> Option<Seat> {
        None
    }

    /// `seat`'s action that predicts `expected`, an action the seat it
    /// [`Game::foretells`] may take next; None when no action of `seat`
    /// predicts it.
    fn prediction_for(&self, _seat: Seat, _expected: &str) -> Option<Self::Action> {
        None
    }

    /// The action the game's own solver advises `seat` now, searching at
    /// most `nodes` positions (never more than the game allows its own
    /// solver), for a decision the generic search cannot judge (Chess
    /// Golf's count, whose worth shows only after the reveal). An action
    /// that names an estimate misses the solver's by `miss`, clamped to
    /// what the rules allow, as a weaker player's would; other advice
    /// ignores it. None leaves the decision to the generic players.
    fn expert_action(&self, _seat: Seat, _nodes: u64, _miss: i64) -> Option<Self::Action> {
        None
    }

    /// A 64-bit key of the whole truth, secrets included (what
    /// [`Game::position`] writes, but for counters that change no rule),
    /// for the computer's transposition table: equal states must give
    /// equal keys, and different ones should differ. Cheaper than writing
    /// the position, which is what the search hashes when this is None.
    fn position_hash(&self) -> Option<u64> {
        None
    }

    /// Whether `action` changes the balance at once (a capture, a
    /// promotion): the search looks past the end of its depth at these
    /// only, so that it does not stop in the middle of an exchange.
    fn is_noisy(&self, _action: &Self::Action) -> bool {
        false
    }

    /// `seat`'s noisy legal actions ([`Game::is_noisy`]), in the order of
    /// [`Game::legal_actions`], written into `into` (emptied first). Past
    /// the end of its depth the search looks at these alone, at nearly
    /// every node it visits, so a game that can find them without listing
    /// every action (only the captures, or none at a step that offers no
    /// move) writes this.
    fn noisy_actions_into(&self, seat: Seat, into: &mut Vec<Self::Action>) {
        self.legal_actions_into(seat, into);
        into.retain(|action| self.is_noisy(action));
    }

    /// `seat`'s actions that the search's quiescence plays to finish a
    /// turn a noisy action began (it may not stop on the estimate in the
    /// middle of a turn: the other side's reply is still to come), written
    /// into `into` (emptied first). Every legal action, the default. A game
    /// whose choices at some step are alike for the balance until long
    /// after lists one of them there, so that each capture past the depth
    /// is not searched again for every such choice (Zombie Chess's burial
    /// square, which matters only once the burier leaves it).
    fn quiescence_rest_of_turn_into(&self, seat: Seat, into: &mut Vec<Self::Action>) {
        self.legal_actions_into(seat, into);
    }

    /// The material `action` wins for its mover, in pawns, once both
    /// sides have taken on its square for as long as taking pays (a static
    /// exchange: [`crate::chess::exchange`]); negative when it loses
    /// material. The search orders captures by it and leaves the losing
    /// ones out past its depth, so only a game whose captures are settled
    /// by the board alone (chess) answers it. None, the default: not
    /// known, and the search orders and searches as before.
    fn exchange_value(&self, _action: &Self::Action) -> Option<f64> {
        None
    }

    /// What the search knows of each action of the list
    /// [`Game::legal_actions_into`] writes for `seat`
    /// ([`crate::search_node::describe`] of each), when that list is always
    /// the same and the game keeps its descriptions: a search lists and
    /// orders every action of every node it visits, and a list of hundreds
    /// (a placement's 960 setups) hashed at each costs more than the rest
    /// of the node. None, the default: the search describes each action.
    fn kept_search_actions(&self, _seat: Seat) -> Option<&'static [SearchAction]> {
        None
    }

    /// Whether the seat to act must answer a threat at once (check, in
    /// the chess games): the search looks one action deeper there and
    /// never prunes on the estimate, which a threat makes worthless. A
    /// game that says nothing gets no such extension.
    fn in_check(&self) -> bool {
        false
    }

    /// Whether the search may assume here that the seat to act could do
    /// at least as well as by passing its turn (the null-move
    /// observation), and so prune a line where even a pass would be good
    /// enough (null-move pruning, and the same bound on the estimate near
    /// the leaves). Only the game can say: it fails in zugzwang, in turns
    /// of several actions and where a pass is no move at all. False, the
    /// default, leaves the search exact as before.
    fn may_pass_in_search(&self) -> bool {
        false
    }

    /// Gives the turn to the other side as if the seat to act had passed,
    /// for the search's null move only (never a legal action); false, the
    /// game unchanged, unless [`Game::may_pass_in_search`].
    fn pass_in_search(&mut self) -> bool {
        false
    }

    /// Why `seat` may not speak at the table now, if the rules limit talk
    /// (Telepathy silences the team to move until its move is made,
    /// Split-Brain the partners while they circle). Every game allows the
    /// table chat by default; see [`crate::session::ChatLine`]. It stays
    /// here rather than in [`Clocked`]: silence is a rule of play that
    /// needs no clock, and a question that changes nothing.
    fn check_talk(&self, _seat: Seat) -> Result<(), String> {
        Ok(())
    }

    /// The game's clock, when it is played on one ([`Clocked`]). Games
    /// without a clock keep this default; the session then treats an
    /// action's time as a stamp for the log and nothing more.
    fn clock(&self) -> Option<&dyn Clocked> {
        None
    }

    /// [`Game::clock`], to pass time and charge for talk. It must be Some
    /// exactly when [`Game::clock`] is.
    fn clock_mut(&mut self) -> Option<&mut dyn Clocked> {
        None
    }

    /// The standard checks before an action:    /// The standard checks before an action: the game is not over, the seat
    /// exists and must act now. A seat listed to act exists, so the list of
    /// seats (names written out) is read only to explain a refusal: a
    /// search checks a turn at every node it applies.
    fn check_turn(&self, seat: Seat) -> Result<(), RuleError> {
        if self.is_to_act(seat) {
            return Ok(());
        }
        match self.to_act() {
            ToAct::Seats(seats) if seats.contains(&seat) => Ok(()),
            _ if seat >= self.seats().len() => Err(RuleError::NoSuchSeat { seat }),
            ToAct::Over(_) => Err(RuleError::GameOver),
            ToAct::Seats(_) => Err(RuleError::NotYourTurn { seat }),
        }
    }
}

/// A game played on a clock: the capability a game opts into through
/// [`Game::clock`] (the talking clock of Crowded House is the one so far).
/// A game without one is never told the time, and the session copies
/// nothing to apply a timed action to it; see [`crate::DynGame::apply_at`]
/// for why a game with one is copied.
pub trait Clocked {
    /// Time: the session tells the game the time of the step it is about
    /// to take, in milliseconds since the game began (the log's `ms`
    /// stamp), before applying it. The clock of whoever acts runs up to
    /// it; a flag may fall here, which may end the game. Steps without a
    /// time leave the clocks as they are, so a log without times replays
    /// as if no time had passed. A fall's announcement is written to
    /// `story`, the session's journal.
    fn pass_time(&mut self, ms: u64, story: &mut Journal);

    /// The time (milliseconds since the game began) at which a flag falls
    /// if nobody acts before it: a server wakes up then and records the
    /// fall (the `flag` claim of [`crate::session`]). None when no clock
    /// runs (not yet started, or the game is over).
    fn deadline(&self) -> Option<u64>;

    /// A chat line of `seat` was accepted while the game runs: a clock
    /// that charges for talk takes its price here (the talking clock of
    /// Crowded House moves a coin). Called after [`Game::check_talk`]
    /// allowed it, with or without a time.
    /// A line the price calls for is written to `story`.
    fn hear_talk(&mut self, seat: Seat, story: &mut Journal);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_quote_a_long_input_shortened() {
        let huge = "a".repeat(1_000_000);
        let message = RuleError::malformed(huge.clone(), format!("unknown action {huge:?}")).to_string();
        assert!(message.len() < 1000, "{} bytes", message.len());
        assert!(message.contains("… (1000000 characters)"), "{message}");
        assert!(GameError::new(format!("bad position {huge}")).0.len() < 1000);
        assert_eq!(shorten("é".repeat(3).as_str(), 2), "éé… (3 characters)", "cut between characters");
        assert_eq!(shorten("short", 80), "short");
    }
}
