//! Crowded House (rules.md and new-rules-2023a, "Crowded House";
//! docs/games/crowded-house.md, "Rulings").
//!
//! Two teams of two on one chess set: each player moves the pieces of
//! their colour on one half of the board, and may move only a piece that
//! starts or ends on that half. The order of play is king-side White,
//! king-side Black, queen-side White, queen-side Black. Legality is judged
//! against the next player alone: a move is illegal when the next player
//! could then capture the mover's king with a move they may make. The
//! board and its move generator live in [`house`]; this module is the
//! referee: setup, the turn, the end of the game, text positions, views
//! and PGN.
//!
//! A turn is one action: a move in UCI (`e2e4`, `e7e8q`, castling `e1g1`),
//! or `pass` when the player has no legal move. Talk is the table chat of
//! the session; with the `clock` option it costs coins ([`clock`]).

pub mod action;
pub mod clock;
pub mod house;
pub mod text;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use crate::chess::seat_color;
use crate::clone_fields::clone_field_by_field;
use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::to_fen;
use chesskit_core::chess::fen::CastlingNotation;
use chesskit_core::chess::notation::{long_algebraic, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, MovetextItem, PgnText, NULL_MOVE};
use chesskit_core::chess::{Bitboard, Color, MoveList, Square};
use chesskit_core::game::{Clocked, Game, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{BoardView, ClockView, Journal, Marker, MarkerDrawing, TableView, View};

pub use action::CrowdedAction;
use clock::{clock_text, Fall, Payment, TalkingClock};
use house::{allowed, next_seat};
pub use house::{Half, HousePosition, SEAT_NAMES};

/// Turns without a capture or a pawn move after which the game is drawn:
/// the fifty-move rule, fifty moves for each of the four players.
const FIFTY_MOVE_TURNS: u32 = 200;

/// A game of Crowded House.
#[derive(Debug, PartialEq)]
pub struct CrowdedHouseGame {
    house: HousePosition,
    /// Where the game started, for its PGN, when not from the orthodox start.
    start: Option<Start>,
    /// The squares of the last move, for the view (squares rather than
    /// text, so that copying a game allocates nothing).
    last_move: Option<(Square, Square)>,
    /// Turns (passes included) since the last capture or pawn move.
    quiet_turns: u32,
    /// Positions since the last capture or pawn move, for repetition.
    repetition: Vec<HousePosition>,
    outcome: Option<Outcome>,
    /// The talking clock, when the game is played with one (`clock`).
    clock: Option<TalkingClock>,
}

clone_field_by_field!(CrowdedHouseGame { house, start, last_move, quiet_turns, repetition, outcome, clock });

/// The options of the talking clock: "decide on an overall time, then
/// decide on a time cost for talking".
const CLOCK_OPTION: &str = "clock";
const TALK_OPTION: &str = "talk";
/// "A 2-minute bonus for each time your opponents talk."
const TALK_MINUTES: i64 = 2;

/// The talking clock the options ask for, if any.
fn clock_from(options: &Options) -> Option<TalkingClock> {
    let minutes = options.int(CLOCK_OPTION, 0);
    (minutes > 0).then(|| TalkingClock::new(minutes as u64, options.int(TALK_OPTION, TALK_MINUTES) as u64))
}

/// A team's number (0 White, 1 Black) and its name.
fn team_of(seat: Seat) -> usize {
    seat_color(seat).fold_wb(0, 1)
}

const TEAM_NAMES: [&str; 2] = ["White", "Black"];

/// A game started from a text position: the PGN's `SetUp`, `FEN` and
/// `ChesskitPosition` tags (the seat to move is more than the FEN says).
#[derive(Clone, Debug, PartialEq)]
struct Start {
    fen: String,
    position: String,
    fullmove: u32,
    to_move: Color,
}

impl Start {
    fn tags(&self) -> Vec<(&'static str, String)> {
        vec![
            ("SetUp", "1".to_string()),
            ("FEN", self.fen.clone()),
            ("ChesskitPosition", self.position.replace('\n', " / ")),
        ]
    }
}

/// The seats of a team: White's are 0 and 2, Black's 1 and 3.
fn team_seats(color: Color) -> Vec<Seat> {
    color.fold_wb(vec![0, 2], vec![1, 3])
}

fn seat_name(seat: Seat) -> &'static str {
    SEAT_NAMES.get(seat).copied().unwrap_or("nobody")
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl CrowdedHouseGame {
    /// The standard start; "white moves first", and "each king-side player
    /// takes the first move for their team".
    fn setup(clock: Option<TalkingClock>, story: &mut Journal) -> CrowdedHouseGame {
        CrowdedHouseGame::from_start(HousePosition::startpos(), None, 0, clock, story)
    }

    fn from_start(
        house: HousePosition,
        start: Option<Start>,
        quiet_turns: u32,
        clock: Option<TalkingClock>,
        story: &mut Journal,
    ) -> CrowdedHouseGame {
        let mut game = CrowdedHouseGame {
            repetition: vec![house.clone()],
            house,
            start,
            last_move: None,
            quiet_turns,
            outcome: None,
            clock,
        };
        game.judge(story);
        game
    }

    pub fn house(&self) -> &HousePosition {
        &self.house
    }

    /// The seat to move (also while the game is over: the one who would).
    fn mover(&self) -> Seat {
        self.house.seat()
    }

    /// The talking clock, if the game is played with one.
    pub fn talking_clock(&self) -> Option<&TalkingClock> {
        self.clock.as_ref()
    }
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl CrowdedHouseGame {
    /// A move: "you may only move a piece that either starts or ends on
    /// your side of the board", and the next player must not then be able
    /// to capture your king.
    fn make_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        // Only the named piece's moves: a search applies a move at every node.
        let Some(m) = action.resolve(&self.house.legal_moves_from(action.from)) else {
            return Err(RuleError::illegal(action, self.why_illegal(action, &self.house.legal_moves())));
        };
        let seat = self.mover();
        story.public_move_with(seat, || {
            let text = long_algebraic(m);
            let en_passant = if m.is_en_passant() { " e.p." } else { "" };
            (text.clone(), format!("{text}{en_passant}"))
        });
        self.quiet_turns = if m.is_zeroing() { 0 } else { self.quiet_turns + 1 };
        if m.is_zeroing() {
            self.repetition.clear();
        }
        self.house.play(m);
        self.team_moved(seat);
        let canonical = UciAction::from_move(m, CastlingStyle::Standard);
        self.last_move = Some((canonical.from, canonical.to));
        self.end_turn(story);
        Ok(())
    }

    /// "If a player has no pieces on their side and can't move any pieces
    /// to their side, they move nothing on that turn." By our ruling a
    /// player passes whenever no move is legal (and is checkmated if the
    /// pass leaves the king capturable, which ends the game first).
    fn pass(&mut self, story: &mut Journal) -> Result<(), RuleError> {
        if !self.house.legal_moves().is_empty() {
            return Err(RuleError::illegal(
                CrowdedAction::Pass,
                "you have a legal move: a player passes only when none of their moves is allowed",
            ));
        }
        let seat = self.mover();
        story.public_move(seat, NULL_MOVE, "passes: no legal move on their half");
        self.quiet_turns += 1;
        self.house.pass();
        self.team_moved(seat);
        self.last_move = None;
        self.end_turn(story);
        Ok(())
    }

    fn end_turn(&mut self, story: &mut Journal) {
        self.repetition.push(self.house.clone());
        self.judge(story);
    }

    /// Why a move that is not legal was refused, in the rules' words.
    fn why_illegal(&self, action: UciAction, legal: &MoveList) -> String {
        let us = self.house.turn();
        let seat = self.mover();
        let board = self.house.inner().board();
        let Some(piece) = board.piece_at(action.from).filter(|p| p.color == us) else {
            return format!("{} holds no piece of yours", action.from);
        };
        let what = format!("the {} on {}", role_name(piece.role), action.from);
        let mut castles = MoveList::new();
        self.house.inner().castling_moves(false, &mut castles);
        let mut pseudo = self.house.inner().pseudo_legal_moves();
        pseudo.retain(|m| !m.is_castle());
        pseudo.extend(castles);
        let Some(m) = action.resolve(&pseudo) else {
            return format!("{what} cannot move to {}", action.to);
        };
        let half = self.house.half();
        if !allowed(m, us, half) {
            let other = if half == Half::King { "queen" } else { "king" };
            return format!(
                "{what} would start and end on the {other} side: {} moves only pieces that start or end on the {} side (files {})",
                seat_name(seat),
                half.word(),
                if half == Half::King { "e-h" } else { "a-d" }
            );
        }
        debug_assert!(!legal.contains(&m));
        format!("{} could then capture your king", seat_name(next_seat(seat)))
    }
}

// ----------------------------------------------------------------------
// Talking (the talking clock)
// ----------------------------------------------------------------------

impl CrowdedHouseGame {
    /// "Once a team pays a coin, they can discuss as much as they want
    /// until they make a move": a move (or a pass) of `seat` ends its
    /// team's paid talk.
    fn team_moved(&mut self, seat: Seat) {
        if let Some(clock) = &mut self.clock {
            clock.moved(team_of(seat));
        }
    }

    /// "Whenever your team discusses a move, either move a coin from the
    /// centre to your opponents' pile or from your pile to the centre."
    /// Any line said by a seat of the team counts, whoever is to move:
    /// talk during the opponents' turn is discussing the team's next move.
    fn pay_for_talk(&mut self, seat: Seat, story: &mut Journal) {
        let Some(clock) = &mut self.clock else { return };
        let team = team_of(seat);
        let (us, them) = (TEAM_NAMES[team], TEAM_NAMES[1 - team]);
        let text = match clock.pay_for_talk(team) {
            Payment::AlreadyPaid => return,
            Payment::FromPile => format!("{us} pays for talk: a coin from its pile back to the centre"),
            Payment::ToOpponents => format!("{us} pays for talk: a coin from the centre to {them}'s pile"),
        };
        story.public(None, format!("{text} (talk is free until {us} moves)"));
    }

    /// Run the clock of the team to move up to `ms`. "If a team runs out of
    /// time, they can add 2 minutes for each coin in their pile and put
    /// their pile back in the centre"; with no coin, it loses on time.
    fn run_clock(&mut self, ms: u64, story: &mut Journal) {
        if self.outcome.is_some() {
            return;
        }
        let team = team_of(self.mover());
        let Some(clock) = &mut self.clock else { return };
        let falls = clock.run(team, ms);
        let name = TEAM_NAMES[team];
        for fall in falls {
            match fall {
                Fall::Bought { coins, ms, .. } => story.public(
                    None,
                    format!(
                        "{name}'s flag falls: its {coins} {} back to the centre for {} more",
                        if coins == 1 { "coin goes" } else { "coins go" },
                        clock_text(ms)
                    ),
                ),
                Fall::Lost { .. } => {
                    story.public(
                        None,
                        format!("game over: {name}'s flag falls with no coin to buy time: {name} loses on time"),
                    );
                    self.outcome = Some(Outcome::win(team_seats(seat_color(team).other()), TIME_FORFEIT));
                }
            }
        }
    }
}

/// The talking clock as the session sees it: the game, not the bare
/// [`TalkingClock`], because a fall and a payment are told in the game's
/// log, and a fall with no coin ends the game.
impl Clocked for CrowdedHouseGame {
    fn pass_time(&mut self, ms: u64, story: &mut Journal) {
        self.run_clock(ms, story);
    }

    fn deadline(&self) -> Option<u64> {
        if self.outcome.is_some() {
            return None;
        }
        self.clock.as_ref()?.deadline(team_of(self.mover()))
    }

    fn hear_talk(&mut self, seat: Seat, story: &mut Journal) {
        self.pay_for_talk(seat, story);
    }
}

/// The outcome reason of a team whose flag fell with an empty pile (the
/// PGN's termination word for it).
pub const TIME_FORFEIT: &str = "time forfeit";

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

impl CrowdedHouseGame {
    /// "Win by check mate, as usual, but remember that the next player on
    /// the attacking team has to be able to make the capture": a player
    /// with no legal move whose pass would leave the king capturable by the
    /// next player is checkmated, and their team loses. There is no
    /// stalemate (that player passes). The referee claims threefold
    /// repetition and the fifty-move rule (fifty turns for each player);
    /// no position is drawn for lack of material, since a king that may
    /// not move on its player's turn can be mated by a lone king.
    fn judge(&mut self, story: &mut Journal) {
        let seat = self.mover();
        // Check first: it is cheap, and without it no move list is needed.
        self.outcome = if self.house.in_check() && self.house.legal_moves().is_empty() {
            let loser = seat_color(seat);
            Some(Outcome::win(team_seats(loser.other()), "checkmate"))
        } else if self.quiet_turns >= FIFTY_MOVE_TURNS {
            Some(Outcome::draw("fifty-move rule"))
        } else if self.repetition.iter().filter(|p| same_position(p, &self.house)).count() >= 3 {
            Some(Outcome::draw("threefold repetition"))
        } else {
            None
        };
        if let Some(outcome) = &self.outcome {
            let text = match outcome.reason.as_str() {
                "checkmate" => format!("game over: {} is checkmated, their team loses", seat_name(seat)),
                reason => format!("game over: {reason}"),
            };
            story.public(None, text);
        }
    }
}

/// The same position for repetition: the same pieces, the same seat to
/// move, the same castling rights and en passant (the clocks aside).
fn same_position(a: &HousePosition, b: &HousePosition) -> bool {
    let (p, q) = (a.inner(), b.inner());
    a.seat() == b.seat()
        && p.board() == q.board()
        && p.castling_rooks() == q.castling_rooks()
        && p.ep_square() == q.ep_square()
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for CrowdedHouseGame {
    type Action = CrowdedAction;
    const VARIANT: &'static str = "crowded-house";
    const TITLE: &'static str = "Crowded House";

    /// The talking clock of new-rules-2023a: "decide on an overall time,
    /// then decide on a time cost for talking".
    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int(
                CLOCK_OPTION,
                0,
                600,
                0,
                "talking clock: minutes on each team's clock (0: no clock; the book's example is 30)",
            )
            .label("Minutes on each clock"),
            OptionSpec::int(
                TALK_OPTION,
                1,
                60,
                TALK_MINUTES,
                "talking clock: minutes a coin buys when a team's flag falls (the cost of talk)",
            )
            .label("Minutes a coin buys"),
        ]
    }

    /// What the start announces is written to `story`.
    fn open(options: &Options, _seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(CrowdedHouseGame::setup(clock_from(options), story)),
            Some(position) => {
                let (house, quiet_turns, lines) = text::read(position)?;
                let mut clock = clock_from(options);
                match &mut clock {
                    Some(clock) => lines.apply_to(clock),
                    None if !lines.is_empty() => {
                        return Err(GameError::new(
                            "the position has talking-clock lines (clock, coins, paid) but the game has no clock: set the clock option",
                        ))
                    }
                    None => {}
                }
                let start = Start {
                    fen: to_fen(house.inner(), CastlingNotation::XFen),
                    position: text::write(&house, quiet_turns),
                    fullmove: house.inner().fullmoves(),
                    to_move: house.turn(),
                };
                Ok(CrowdedHouseGame::from_start(house, Some(start), quiet_turns, clock, story))
            }
        }
    }

    fn position(&self) -> String {
        let mut text = text::write(&self.house, self.quiet_turns);
        if let Some(clock) = &self.clock {
            for line in text::write_clock(clock) {
                text.push('\n');
                text.push_str(&line);
            }
        }
        text
    }

    /// Seat order is the order of play; team 0 is White, team 1 Black.
    fn seats(&self) -> Vec<SeatInfo> {
        (0..4)
            .map(|seat| {
                let colour = seat_color(seat);
                SeatInfo::new(SEAT_NAMES[seat])
                    .with_colour(colour.fold_wb("white", "black"))
                    .with_team(colour.fold_wb(0, 1))
            })
            .collect()
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(self.mover()),
        }
    }

    /// Single-mover: the mover while the game goes on, without the list
    /// [`Game::to_act`] builds.
    fn first_to_act(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| self.mover())
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.first_to_act() == Some(seat)
    }

    /// The actions written into the search's list: the list every node
    /// keeps is reused rather than one allocated per node.
    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<CrowdedAction>) {
        into.clear();
        if !self.is_to_act(seat) {
            return;
        }
        let moves = self.house.legal_moves();
        if moves.is_empty() {
            into.push(CrowdedAction::Pass);
        }
        into.extend(moves.iter().map(|&m| CrowdedAction::Move(UciAction::from_move(m, CastlingStyle::Standard))));
    }

    fn apply_with(&mut self, seat: Seat, action: &CrowdedAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match action {
            CrowdedAction::Move(m) => self.make_move(*m, story),
            CrowdedAction::Pass => self.pass(story),
        }
    }

    /// `pass`, or a move in UCI (either castling style), SAN (`Nf3`,
    /// `O-O`) or long algebraic (`Ng1-f3`), read against this seat's legal
    /// moves.
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<CrowdedAction, RuleError> {
        if let Ok(action) = text.trim().parse::<CrowdedAction>() {
            return Ok(match action {
                CrowdedAction::Move(m) => CrowdedAction::Move(
                    m.resolve(&self.house.legal_moves())
                        .map_or(m, |m| UciAction::from_move(m, CastlingStyle::Standard)),
                ),
                pass => pass,
            });
        }
        match crate::half_alice::read_move(&self.house.legal_moves(), text) {
            Some(m) => Ok(CrowdedAction::Move(UciAction::from_move(m, CastlingStyle::Standard))),
            None => Err(RuleError::malformed(
                text,
                "not a legal move here; write `pass`, or a move in UCI (e2e4), SAN (Nf3) or long algebraic (Ng1-f3)",
            )),
        }
    }

    /// The game as PGN: the moves of the four players in turn, in long
    /// algebraic notation (they are chess moves, but their legality is
    /// not chess's), each followed by a comment naming the seat that made
    /// it; a pass is the null move `--`.
    fn pgn(&self, story: &Journal) -> Option<String> {
        let result = match &self.outcome {
            None => "*",
            Some(o) if o.winners == team_seats(Color::White) => "1-0",
            Some(o) if o.winners == team_seats(Color::Black) => "0-1",
            Some(_) => "1/2-1/2",
        };
        let mut tags = pgn::seven_tag_roster("chesskit Crowded House game", result);
        tags.retain(|(name, _)| !matches!(*name, "White" | "Black" | "Result"));
        tags.push(("White", format!("{} & {}", SEAT_NAMES[0], SEAT_NAMES[2])));
        tags.push(("Black", format!("{} & {}", SEAT_NAMES[1], SEAT_NAMES[3])));
        tags.push(("Result", result.to_string()));
        tags.push(("Variant", "Crowded House".to_string()));
        if let Some(start) = &self.start {
            tags.extend(start.tags());
        }
        if let Some(outcome) = &self.outcome {
            tags.push(("Termination", outcome.reason.clone()));
        }
        let mut movetext = Vec::new();
        for (_, entry, token) in story.entries() {
            match (token, entry.seat) {
                (Some(token), Some(seat)) => {
                    movetext.push(MovetextItem::Move(token.to_string()));
                    let what = if token == NULL_MOVE { " passes" } else { "" };
                    movetext.push(MovetextItem::Comment(format!("{}{what}", seat_name(seat))));
                }
                _ => movetext.push(MovetextItem::Comment(entry.text.clone())),
            }
        }
        let (first_fullmove, first_to_move) =
            self.start.as_ref().map_or((1, Color::White), |s| (s.fullmove, s.to_move));
        Some(PgnText { tags, first_fullmove, first_to_move, movetext, result }.render())
    }

    /// The talking clock, when the game is played with one (`clock`):
    /// without it the game is told no time and talk is free.
    fn clock(&self) -> Option<&dyn Clocked> {
        self.clock.is_some().then_some(self as &dyn Clocked)
    }

    fn clock_mut(&mut self) -> Option<&mut dyn Clocked> {
        match self.clock {
            Some(_) => Some(self as &mut dyn Clocked),
            None => None,
        }
    }

    // The key of everything the rules read: the pieces and the seat to
    // move, the fifty-move count, and the talking clock's time and coins.
    // The positions kept for repetition are left out, as every chess
    // engine's key leaves them.
    fn position_hash(&self) -> Option<u64> {
        let clock = self.clock.as_ref().map(|clock| (clock.left_ms, clock.piles, clock.paid));
        Some(self.house.zobrist() ^ hash_of(&(self.quiet_turns, &self.outcome, clock)))
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        crate::chess::position_heuristic(self.house.inner(), seat)
    }

    fn is_noisy(&self, action: &CrowdedAction) -> bool {
        match action {
            CrowdedAction::Move(m) => crate::chess::is_capture_or_promotion(self.house.inner(), m),
            CrowdedAction::Pass => false,
        }
    }

    fn view(&self, _viewer: Viewer) -> View {
        let house = self.house.inner();
        let half = self.house.half().squares();
        let over = self.outcome.is_some();
        // The dashed rectangle of the book: the half of the player to move.
        let markers = |square| {
            if !over && half.contains(square) {
                let tint = MarkerDrawing::Tint { fill: "#ffb300".to_string() };
                vec![Marker::new("zone").colour(seat_color(self.mover()).fold_wb("white", "black")).drawn(tint)]
            } else {
                Vec::new()
            }
        };
        let mut view = View {
            board: Some(BoardView::from_board(house.board(), Bitboard::FULL, &markers)),
            last_move: self.last_move.map_or_else(Vec::new, |(from, to)| vec![from.to_string(), to.to_string()]),
            ..View::default()
        };
        view.tables.push(self.seats_table());
        view.clocks = self.clock_views();
        if !over && self.house.in_check() {
            view.check = house.king_of(self.house.turn()).map(|k| k.to_string());
        }
        if !over {
            let seat = self.mover();
            let half = self.house.half();
            let files = if half == Half::King { "e-h" } else { "a-d" };
            view.prompt = Some(if self.house.legal_moves().is_empty() {
                format!("{} to move: no legal move on the {} side, so pass", seat_name(seat), half.word())
            } else {
                format!("{} to move (files {files})", seat_name(seat))
            });
        }
        view
    }
}

impl CrowdedHouseGame {
    /// The two teams' clocks with their coin piles, for every viewer (the
    /// clock and the coins are on the table for all to see).
    fn clock_views(&self) -> Vec<ClockView> {
        let Some(clock) = &self.clock else { return Vec::new() };
        let running = clock.now.is_some() && self.outcome.is_none();
        (0..2)
            .map(|team| ClockView {
                name: TEAM_NAMES[team].to_string(),
                seats: team_seats(seat_color(team)),
                remaining_ms: clock.left_ms[team],
                running: running && team_of(self.mover()) == team,
                coins: Some(clock.piles[team]),
                note: clock.paid[team].then(|| "talk paid until the team moves".to_string()),
            })
            .collect()
    }

    /// The order of play: who plays which half, and who is next.
    fn seats_table(&self) -> TableView {
        let rows = (0..4)
            .map(|seat| {
                let half = Half::of_seat(seat);
                let files = if half == Half::King { "e-h" } else { "a-d" };
                let turn = if self.outcome.is_none() && seat == self.mover() { "to move" } else { "" };
                vec![
                    seat_name(seat).to_string(),
                    format!("{} side ({files})", half.word()),
                    seat_color(seat).fold_wb("White", "Black").to_string(),
                    turn.to_string(),
                ]
            })
            .collect();
        TableView {
            title: "Order of play".to_string(),
            columns: ["seat", "half", "team", ""].map(String::from).to_vec(),
            rows,
            drawn_as: None,
        }
    }
}
