//! Telepathy Chess (new-rules-2025, "Telepathy Chess"; docs/games/telepathy.md,
//! "Rulings"). Offered as experimental: the booklet's new games are
//! "in early development or playtesting".
//!
//! "Two players working together, and trying to predict what their partner
//! will do." Four seats in two teams; within each team the predictor and
//! the mover swap every turn. A team's turn (docs/games/telepathy.md):
//! 1. the predictor **plays a card face down** (`predict knight`), next to
//!    the team's face-up card;
//! 2. the mover **makes any legal chess move** (`e2e4`);
//! 3. the referee **flips the card** and moves the coin on the trophy
//!    track: towards the opponents when the moved piece matches the
//!    face-down card (the checker copies the face-up card), not at all when
//!    it matches the face-up card, towards the own team otherwise;
//! 4. the mover **takes the hand and picks up a card** (the checker if it
//!    is on the table, else the card that started the turn face up), and
//!    is the team's next predictor;
//! 5. if the coin ran off the track, the team on that side **removes one of
//!    its pieces** (`remove e4`), any but its king, and the coin returns to
//!    the middle.
//!
//! Capturing the king wins.

mod action;
mod text;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::chess::{colour_word, seat_color};
use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::{self, CastlingNotation};
use chesskit_core::chess::notation::{long_algebraic, parse_san, parse_san_among, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, MovetextItem, PgnText};
use chesskit_core::chess::{Bitboard, Color, Move, MoveList, Position, Role, Square};
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{ActionInfo, BoardView, CardZone, Journal, TableDrawing, TableView, View};

pub use action::{TeamCard, TelepathyAction};

/// The part of a team's turn still to be decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The predictor of the side to move plays a card face down.
    Predict,
    /// The mover of the side to move makes a chess move.
    Move,
    /// This team must remove one of its pieces (the side to move has
    /// already passed to the next team).
    Remove(Color),
}

/// Where the coin stands beside the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Coin {
    WhiteSide,
    Middle,
    BlackSide,
}

impl Coin {
    fn step(self) -> i8 {
        match self {
            Coin::WhiteSide => -1,
            Coin::Middle => 0,
            Coin::BlackSide => 1,
        }
    }

    fn from_step(step: i8) -> Option<Coin> {
        match step {
            -1 => Some(Coin::WhiteSide),
            0 => Some(Coin::Middle),
            1 => Some(Coin::BlackSide),
            _ => None,
        }
    }

    /// The step towards `colour`'s side of the board.
    fn towards(colour: Color) -> i8 {
        colour.fold_wb(-1, 1)
    }

    pub fn words(self) -> &'static str {
        match self {
            Coin::WhiteSide => "white side",
            Coin::Middle => "middle",
            Coin::BlackSide => "black side",
        }
    }
}

/// A team's cards on the table and who holds its hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Team {
    /// The card face up on the team's side of the board.
    pub face_up: TeamCard,
    /// The prediction, face down, between the predictor's card and the flip.
    pub face_down: Option<TeamCard>,
    /// The seat holding the hand: the predictor of the team's next (or
    /// current) turn. The other seat of the team moves.
    pub predictor: Seat,
}

impl Team {
    fn start(predictor: Seat) -> Team {
        // "The predictor for each team should take the cards in their
        // hand, and play the pawn face up on their side of the board."
        Team { face_up: TeamCard::Piece(Role::Pawn), face_down: None, predictor }
    }

    /// The hand: the team's seven less the cards on the table.
    pub fn hand(&self) -> Vec<TeamCard> {
        TeamCard::SET.into_iter().filter(|&c| c != self.face_up && Some(c) != self.face_down).collect()
    }

    pub fn mover(&self) -> Seat {
        partner(self.predictor)
    }
}

/// A game of Telepathy Chess.
#[derive(Clone, Debug, PartialEq)]
pub struct TelepathyGame {
    pub(crate) pos: Position,
    /// White's team, then Black's.
    pub(crate) teams: [Team; 2],
    pub(crate) coin: Coin,
    pub(crate) phase: Phase,
    start: Option<Arc<Start>>,
    last_move: Vec<Square>,
    outcome: Option<Outcome>,
}

/// Where a game read from a text position started, for its PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Start {
    fen: String,
    text: String,
    fullmove: u32,
    to_move: Color,
}

/// Seats 0 and 2 are White's team, 1 and 3 Black's; A predicts first.
pub const SEAT_NAMES: [&str; 4] = ["White A", "Black A", "White B", "Black B"];

fn index(colour: Color) -> usize {
    colour.fold_wb(0, 1)
}

/// The other seat of `seat`'s team.
fn partner(seat: Seat) -> Seat {
    seat ^ 2
}

/// The piece type a move moves, for the prediction: castling is a king
/// move (our ruling, docs/games/telepathy.md), a promotion or en passant a pawn move.
fn moved_role(m: Move) -> Role {
    match m {
        Move::Normal { role, .. } => role,
        Move::EnPassant { .. } => Role::Pawn,
        Move::Castle { .. } => Role::King,
        Move::Put { role, .. } => role,
    }
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl TelepathyGame {
    /// "Set up the chess pieces in the standard start position ... Place
    /// the coin or checker beside the board, halfway between the two
    /// teams." Seats A predict first (the teams decide by taking seats).
    fn setup() -> TelepathyGame {
        TelepathyGame {
            pos: Position::startpos(),
            teams: [Team::start(0), Team::start(1)],
            coin: Coin::Middle,
            phase: Phase::Predict,
            start: None,
            last_move: Vec::new(),
            outcome: None,
        }
    }

    pub fn team(&self, colour: Color) -> &Team {
        &self.teams[index(colour)]
    }

    pub fn coin(&self) -> Coin {
        self.coin
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn board(&self) -> &chesskit_core::chess::Board {
        self.pos.board()
    }

    /// The side whose turn it is (or, while a team removes a piece, whose
    /// turn comes next).
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The card that foretells `action`, a chess move of the side to move
    /// (in UCI or SAN): the moved piece's card, or the checker when the
    /// piece is of the face-up card's type, since the face-up card is not
    /// in the hand and the checker is its copy. `None` for anything that
    /// is not a legal move here. A computer predictor plays the card of
    /// the move it expects its partner to make.
    pub fn prediction_of(&self, action: &str) -> Option<TeamCard> {
        let legal = self.legal_moves();
        let m = match action.parse::<TelepathyAction>() {
            Ok(TelepathyAction::Move(uci)) => uci.resolve(&legal)?,
            _ => parse_san_among(&legal, action).ok()?,
        };
        let card = TeamCard::Piece(moved_role(m));
        Some(if card == self.team(self.turn()).face_up { TeamCard::Checker } else { card })
    }

    /// The seat that must act now.
    pub fn seat(&self) -> Seat {
        match self.phase {
            Phase::Predict => self.team(self.turn()).predictor,
            Phase::Move => self.team(self.turn()).mover(),
            Phase::Remove(colour) => self.team(colour).predictor,
        }
    }
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl TelepathyGame {
    /// Step 1: "the predictor will play a card face down, next to the
    /// face-up card." Any card of the hand, the checker included.
    fn predict(&mut self, card: TeamCard, story: &mut Journal) -> Result<(), RuleError> {
        let shown = TelepathyAction::Predict(card);
        if self.phase != Phase::Predict {
            return Err(RuleError::illegal(shown, "the prediction of this turn is already on the table"));
        }
        let team = &mut self.teams[index(self.pos.turn())];
        if team.face_up == card {
            return Err(RuleError::illegal(shown, format!("the {card} is the face-up card, not in your hand")));
        }
        team.face_down = Some(card);
        self.phase = Phase::Move;
        story.public_secret_choice(self.team(self.turn()).predictor, "plays a card face down");
        Ok(())
    }

    /// "Then the mover makes any legal chess move": the orthodox legal
    /// moves, and every capture of the enemy king (a removal may have left
    /// it en prise, and capturing it ends the game whatever it leaves).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// [`TelepathyGame::legal_moves`] into `moves`, cleared first.
    fn legal_moves_into(&self, moves: &mut MoveList) {
        self.pos.legal_moves_into(moves);
        let us = self.pos.turn();
        if let Some(king) = self.pos.king_of(us.other()) {
            if self.pos.is_attacked(king, us) {
                for m in self.pos.pseudo_legal_moves() {
                    if m.capture() == Some(Role::King) && !moves.contains(&m) {
                        moves.push(m);
                    }
                }
            }
        }
    }

    /// Whether [`TelepathyGame::legal_moves`] has a move (every turn start
    /// asks): a safe king step or any orthodox move answers, else a
    /// capture of the enemy king.
    fn has_legal_move(&self) -> bool {
        self.pos.has_legal_move() || self.can_take_king()
    }

    /// Whether the mover can capture the enemy king (see
    /// [`TelepathyGame::legal_moves`]).
    fn can_take_king(&self) -> bool {
        let us = self.pos.turn();
        self.pos.king_of(us.other()).is_some_and(|king| self.pos.is_attacked(king, us))
            && self.pos.pseudo_legal_moves().iter().any(|m| m.capture() == Some(Role::King))
    }

    /// Step 2, the move, then the flip, the pickup and the removal it forces.
    fn chess_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let shown = TelepathyAction::Move(action);
        if self.phase != Phase::Move {
            return Err(RuleError::illegal(shown, "the predictor plays a card face down before the move"));
        }
        let Some(m) = action.resolve(&self.legal_moves()) else {
            return Err(RuleError::illegal(shown, self.why_not_a_move(action)));
        };
        self.play_move(m, story);
        Ok(())
    }

    /// A legal move played: the board, the flip, then either the end of the
    /// game (a king taken) or the coin, the pickup and the next turn.
    fn play_move(&mut self, m: Move, story: &mut Journal) {
        let us = self.pos.turn();
        let seat = self.team(us).mover();
        self.pos.play_unchecked(m);
        story.public_move_with(seat, || {
            let token = long_algebraic(m);
            (token.clone(), token)
        });
        let canonical = UciAction::from_move(m, CastlingStyle::Standard);
        self.last_move = vec![canonical.from, canonical.to];
        let predicted = self.flip(us, moved_role(m), story);
        if m.capture() == Some(Role::King) {
            self.end(Outcome::win(self.team_seats(us), "king captured"), story);
            return;
        }
        self.move_coin(us, predicted, story);
        self.pick_up(us, story);
        self.after_turn(story);
    }

    fn why_not_a_move(&self, action: UciAction) -> String {
        let us = self.pos.turn();
        if self.pos.board().color_at(action.from) != Some(us) {
            return format!("{} holds no {} piece", action.from, colour_word(us));
        }
        if self.pos.is_check() {
            return "your king is in check: the move must get it out of check".to_string();
        }
        "not a legal chess move here".to_string()
    }

    /// Step 3: "The predictor flips the face-down card to show what they
    /// predicted." What the flip says about the moved piece: `Some(true)`
    /// when it matches the face-down card ("the checker card is like a
    /// copy of the face-up card"), `Some(false)` when it matches the
    /// face-up card, `None` when it matches neither.
    fn flip(&mut self, us: Color, moved: Role, story: &mut Journal) -> Option<bool> {
        let team = self.teams[index(us)];
        let down = team.face_down.expect("a card is face down during the move");
        let meant = if down == TeamCard::Checker { team.face_up } else { down };
        let result = if meant == TeamCard::Piece(moved) {
            Some(true)
        } else if team.face_up == TeamCard::Piece(moved) {
            Some(false)
        } else {
            None
        };
        let text = || {
            let copy =
                if down == TeamCard::Checker { format!(", a copy of the {}", team.face_up) } else { String::new() };
            let verdict = match result {
                Some(true) => "the prediction came true",
                Some(false) => "it matches the face-up card",
                None => "it matches neither card",
            };
            format!("flips the {}{copy} (face up: {}); the {} moved: {verdict}", down, team.face_up, role_name(moved))
        };
        story.public_with(Some(team.predictor), text);
        result
    }

    /// "If the mover moved a piece type to match the card that was face
    /// down, push the coin or checker toward your opponents. If they moved
    /// a piece type to match the card that was face up, do nothing. If
    /// they didn't match either piece type, pull the coin or checker
    /// towards you." Pushed or pulled beyond a side, "the losing team has
    /// to remove one of their pieces, and then place it back in the middle
    /// position".
    fn move_coin(&mut self, us: Color, predicted: Option<bool>, story: &mut Journal) {
        let step = match predicted {
            Some(true) => Coin::towards(us.other()),
            Some(false) => return,
            None => Coin::towards(us),
        };
        match Coin::from_step(self.coin.step() + step) {
            Some(coin) => {
                self.coin = coin;
                story.public_with(None, || format!("the coin moves to the {}", coin.words()));
            }
            None => {
                let loser = if step < 0 { Color::White } else { Color::Black };
                self.coin = Coin::Middle;
                self.phase = Phase::Remove(loser);
                story.public_with(None, || {
                    format!(
                        "the coin runs off the {} side: {} must remove a piece",
                        colour_word(loser),
                        colour_word(loser)
                    )
                });
            }
        }
    }

    /// Step 4: "the mover takes the hand of cards and picks up one of the
    /// cards from the table. If one of them is a checker card, pick it up.
    /// Otherwise, pick up the card that started the turn face up." The
    /// card left behind is the next face-up card, and the mover is the
    /// team's next predictor. (The checker is never left face up: it is
    /// only ever played face down, and then picked up.)
    fn pick_up(&mut self, us: Color, story: &mut Journal) {
        let team = &mut self.teams[index(us)];
        let down = team.face_down.take().expect("a card was face down");
        let picked =
            if down == TeamCard::Checker { TeamCard::Checker } else { std::mem::replace(&mut team.face_up, down) };
        team.predictor = team.mover();
        let seat = team.predictor;
        let face_up = team.face_up;
        story.public_with(Some(seat), || {
            format!("takes the hand and picks up the {picked}; the {face_up} stays face up")
        });
    }

    /// The pieces `colour` may remove: "any piece but its king"
    /// (docs/games/telepathy.md, "Rulings").
    pub fn removable(&self, colour: Color) -> Vec<Square> {
        self.removable_squares(colour).into_iter().collect()
    }

    /// [`TelepathyGame::removable`] as a set, for the checks made at every turn.
    fn removable_squares(&self, colour: Color) -> Bitboard {
        let board = self.pos.board();
        board.by_color(colour) & !board.kings()
    }

    /// Step 5: the team the coin ran off towards removes a piece of its
    /// choice, chosen by the team member holding its cards.
    fn remove(&mut self, sq: Square, story: &mut Journal) -> Result<(), RuleError> {
        let shown = TelepathyAction::Remove(sq);
        let Phase::Remove(colour) = self.phase else {
            return Err(RuleError::illegal(shown, "no team must remove a piece now"));
        };
        let Some(piece) = self.pos.board().piece_at(sq) else {
            return Err(RuleError::illegal(shown, format!("{sq} is empty")));
        };
        if piece.color != colour {
            return Err(RuleError::illegal(shown, format!("the piece on {sq} is not {}'s", colour_word(colour))));
        }
        if piece.role == Role::King {
            return Err(RuleError::illegal(shown, "a team removes any piece but its king"));
        }
        self.pos.remove_piece_at(sq);
        // A removed rook loses its castling right, and a removed pawn that
        // just advanced two squares can no longer be taken en passant.
        if self.pos.castling_rooks().contains(sq) {
            self.pos.set_castling_rooks(self.pos.castling_rooks().without(sq));
        }
        if self.pos.ep_square().is_some_and(|ep| ep.file() == sq.file() && ep.distance(sq) == 1) {
            self.pos.set_ep_square(None);
        }
        let seat = self.team(colour).predictor;
        story.public_with(Some(seat), || {
            format!("removes the {} {} on {sq}", colour_word(colour), role_name(piece.role))
        });
        self.say_check(story);
        self.phase = Phase::Predict;
        self.after_turn(story);
        Ok(())
    }

    /// The turn passes to the other team, unless a removal is still to be
    /// chosen; a team with nothing but its king has nothing to remove
    /// (our ruling, docs/games/telepathy.md) and the coin just returns to the middle.
    fn after_turn(&mut self, story: &mut Journal) {
        if let Phase::Remove(colour) = self.phase {
            if self.removable_squares(colour).any() {
                return;
            }
            story.public_with(None, || format!("{} has only its king: nothing is removed", colour_word(colour)));
        }
        self.phase = Phase::Predict;
        self.start_turn(story);
    }
}

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

impl TelepathyGame {
    /// The square of `colour`'s king when an enemy piece threatens it
    /// (check, or for the team not to move, a king a removal left open).
    fn open_king(&self, colour: Color) -> Option<Square> {
        self.pos.king_of(colour).filter(|&king| self.pos.is_attacked(king, colour.other()))
    }

    /// "You should still say 'check,' when a piece is threatening the
    /// king": after a removal, which may open either king, the log says so.
    fn say_check(&mut self, story: &mut Journal) {
        for colour in Color::ALL {
            if let Some(king) = self.open_king(colour) {
                story.public_with(None, || format!("check: the {} king on {king} is attacked", colour_word(colour)));
            }
        }
    }

    fn team_seats(&self, colour: Color) -> Vec<Seat> {
        let first = index(colour);
        vec![first, first + 2]
    }

    fn end(&mut self, outcome: Outcome, story: &mut Journal) {
        story.public_with(None, || format!("game over: {}", outcome.reason));
        self.outcome = Some(outcome);
    }

    /// "Capture the opponent's king to win the game" ends the game during
    /// a move. At the start of a turn (our ruling, docs/games/telepathy.md): a team with no legal
    /// move loses when its king is attacked (it cannot escape capture) and
    /// draws when not (stalemate, as in chess); the referee also ends the
    /// game drawn on material that could not mate in chess (insufficient
    /// material) or after fifty moves each without a capture or pawn move.
    /// Neither claim is made while the team to move can take the enemy
    /// king: "Because a piece is sometimes removed after the regular move,
    /// it may be possible to capture a king when they weren't in check",
    /// whatever material is left or however long the game has gone on.
    fn start_turn(&mut self, story: &mut Journal) {
        let us = self.pos.turn();
        let outcome = if !self.has_legal_move() {
            Some(if self.pos.is_check() {
                Outcome::win(self.team_seats(us.other()), "checkmate")
            } else {
                Outcome::draw("stalemate")
            })
        } else if self.open_king(us.other()).is_some() {
            None
        } else if self.pos.is_insufficient_material() {
            Some(Outcome::draw("insufficient material"))
        } else if self.pos.halfmoves() >= 100 {
            Some(Outcome::draw("fifty-move rule"))
        } else {
            None
        };
        if let Some(outcome) = outcome {
            self.end(outcome, story);
        }
    }
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for TelepathyGame {
    type Action = TelepathyAction;
    const VARIANT: &'static str = "telepathy";
    const TITLE: &'static str = "Telepathy Chess";

    /// What the start announces is written to `story`.
    fn open(_options: &Options, _seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(TelepathyGame::setup()),
            Some(position) => {
                let parts = text::read(position)?;
                let start = Arc::new(Start {
                    fen: fen::to_fen(&parts.pos, CastlingNotation::XFen),
                    text: position.trim().to_string(),
                    fullmove: parts.pos.fullmoves(),
                    to_move: parts.pos.turn(),
                });
                let mut game = TelepathyGame {
                    pos: parts.pos,
                    teams: parts.teams,
                    coin: parts.coin,
                    phase: parts.phase,
                    start: Some(start),
                    last_move: Vec::new(),
                    outcome: None,
                };
                if game.phase == Phase::Predict {
                    game.start_turn(story);
                } else if game.phase == Phase::Move && game.legal_moves().is_empty() {
                    return Err(GameError::new("bad Telepathy position: the mover has no legal move"));
                }
                Ok(game)
            }
        }
    }

    fn position(&self) -> String {
        text::write(self)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SEAT_NAMES
            .iter()
            .enumerate()
            .map(|(seat, name)| SeatInfo::new(name).with_colour(colour_word(seat_color(seat))).with_team(seat % 2))
            .collect()
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(self.seat()),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<TelepathyAction> {
        if self.outcome.is_some() || seat != self.seat() {
            return Vec::new();
        }
        match self.phase {
            Phase::Predict => self.team(self.turn()).hand().into_iter().map(TelepathyAction::Predict).collect(),
            Phase::Move => self
                .legal_moves()
                .into_iter()
                .map(|m| TelepathyAction::Move(UciAction::from_move(m, CastlingStyle::Standard)))
                .collect(),
            Phase::Remove(colour) => self.removable(colour).into_iter().map(TelepathyAction::Remove).collect(),
        }
    }

    /// Cards carry their face for the hand to offer; a removal names the piece.
    fn describe_action(&self, seat: Seat, action: &TelepathyAction) -> ActionInfo {
        let info = action.info();
        match *action {
            TelepathyAction::Predict(card) => {
                let face = card.card(seat_color(seat));
                ActionInfo { card: Some(face.to_string()), label: Some(format!("Predict: {card} ({face})")), ..info }
            }
            TelepathyAction::Remove(sq) => match self.pos.board().piece_at(sq) {
                Some(p) => ActionInfo {
                    label: Some(format!("Remove the {} {} on {sq}", colour_word(p.color), role_name(p.role))),
                    ..info
                },
                None => info,
            },
            TelepathyAction::Move(_) => info,
        }
    }

    fn apply_with(&mut self, seat: Seat, action: &TelepathyAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match *action {
            TelepathyAction::Predict(card) => self.predict(card, story),
            TelepathyAction::Move(m) => self.chess_move(m, story),
            TelepathyAction::Remove(sq) => self.remove(sq, story),
        }
    }

    /// Moves in UCI or SAN; a card written as a playing card must be one
    /// of the acting team's seven.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<TelepathyAction, RuleError> {
        let action = match text.parse::<TelepathyAction>() {
            Ok(TelepathyAction::Move(m)) => {
                let found = m.resolve(&self.legal_moves());
                TelepathyAction::Move(found.map_or(m, |f| UciAction::from_move(f, CastlingStyle::Standard)))
            }
            Ok(other) => other,
            Err(reason) => match parse_san(&self.pos, text) {
                Ok(m) => TelepathyAction::Move(UciAction::from_move(m, CastlingStyle::Standard)),
                Err(_) => return Err(RuleError::malformed(text, reason)),
            },
        };
        if let TelepathyAction::Predict(card) = action {
            let word = text.split_whitespace().nth(1).unwrap_or("");
            if let Ok(face) = word.parse::<chesskit_core::cards::Card>() {
                let colour = seat_color(seat);
                if face != card.card(colour) {
                    return Err(RuleError::malformed(
                        text,
                        format!(
                            "the {face} is not one of {}'s seven cards ({})",
                            colour_word(colour),
                            TeamCard::SET.map(|c| c.card(colour).to_string()).join(" ")
                        ),
                    ));
                }
            }
        }
        Ok(action)
    }

    /// The face-down card is known only to the predictor who played it:
    /// every other seat redraws it from the cards it could be (the
    /// predictor's hand and the face-down card together). Nothing else is
    /// hidden, and there is no deck.
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        for team in &mut game.teams {
            if let Some(down) = team.face_down {
                if team.predictor != seat {
                    let mut could_be: Vec<TeamCard> = team.hand();
                    could_be.push(down);
                    // In a fixed order: where the real card sat must not steer the draw.
                    could_be.sort();
                    team.face_down = Some(could_be[rng.below(could_be.len())]);
                }
            }
        }
        game
    }

    fn pgn(&self, story: &Journal) -> Option<String> {
        let result = pgn::result_token(self.outcome.as_ref());
        let mut tags = pgn::seven_tag_roster("chesskit telepathy game", result);
        tags.push(("Variant", "Telepathy".to_string()));
        for (seat, name) in SEAT_NAMES.iter().enumerate() {
            tags.push((["WhiteA", "BlackA", "WhiteB", "BlackB"][seat], name.to_string()));
        }
        if let Some(start) = &self.start {
            tags.push(("SetUp", "1".to_string()));
            tags.push(("FEN", start.fen.clone()));
            // A tag, not a comment: the text's lines would not read as movetext.
            tags.push(("ChesskitPosition", start.text.replace('\n', " / ")));
        }
        if let Some(outcome) = &self.outcome {
            tags.push(("Termination", outcome.reason.clone()));
        }
        let seat_name = |seat: Seat| SEAT_NAMES.get(seat).map_or_else(|| format!("Seat {seat}"), |n| n.to_string());
        let movetext: Vec<MovetextItem> = pgn::journal_movetext(story, &seat_name);
        let (first_fullmove, first_to_move) =
            self.start.as_ref().map_or((1, Color::White), |s| (s.fullmove, s.to_move));
        Some(PgnText { tags, first_fullmove, first_to_move, movetext, result }.render())
    }

    /// The board's material and position; the coin and the cards are left
    /// to the search, which sees the removals they bring.
    fn heuristic(&self, seat: Seat) -> Option<f64> {
        crate::chess::position_heuristic(&self.pos, seat)
    }

    /// The predictor's card foretells the partner's move
    /// (docs/games/telepathy.md, "The rules in our words").
    fn foretells(&self, seat: Seat) -> Option<Seat> {
        let predicting = self.phase == Phase::Predict && self.seat() == seat && self.check_turn(seat).is_ok();
        predicting.then(|| self.team(self.turn()).mover())
    }

    /// The card of the expected move ([`TelepathyGame::prediction_of`]).
    fn prediction_for(&self, seat: Seat, expected: &str) -> Option<TelepathyAction> {
        self.foretells(seat)?;
        Some(TelepathyAction::Predict(self.prediction_of(expected)?))
    }

    /// The board's Zobrist key and the rest of what the rules read: each
    /// team's cards (the prediction face down included: a search runs on
    /// a drawn world) and predictor, the coin and the phase of the turn.
    /// Left out: the record (PGN start, last move).
    fn position_hash(&self) -> Option<u64> {
        Some(self.pos.zobrist() ^ hash_of(&(self.teams, self.coin, self.phase, self.outcome.is_some())))
    }

    fn is_noisy(&self, action: &TelepathyAction) -> bool {
        match action {
            TelepathyAction::Move(m) => crate::chess::is_capture_or_promotion(&self.pos, m),
            _ => false,
        }
    }

    /// "You can decide how much talking to allow. Definitely none before
    /// your move, but it can be more fun to discuss what you thought your
    /// partner would do after they move and before your opponents move."
    /// The referee allows that much: the team whose turn it is (both the
    /// predictor and the mover, and from the moment the turn passes to it,
    /// a removal it must make first included) is silent until its move is
    /// made; the other team may talk.
    fn check_talk(&self, seat: Seat) -> Result<(), String> {
        let to_move = self.turn();
        if self.outcome.is_some() || seat_color(seat) != to_move {
            return Ok(());
        }
        Err(format!(
            "no talking before your move: {}'s team is to move (the book: \"Definitely none before your \
             move\"); talk after it, before your opponents move",
            fen::color_name(to_move)
        ))
    }

    /// Everything on the table but the face-down card, which only its
    /// predictor sees (not the partner, nor the team as a whole, nor the
    /// opponents). The hand that holds the rest of the predictor's cards
    /// is shown only to its holder while a card lies face down, since the
    /// hand would give the card away; otherwise it is the team's seven
    /// less the face-up card, which everyone knows.
    fn view(&self, viewer: Viewer) -> View {
        let mut zones = Vec::new();
        let mut notes = Vec::new();
        for colour in Color::ALL {
            let team = self.team(colour);
            let name = fen::color_name(colour);
            let holder = viewer.seat() == Some(team.predictor);
            let secret = team.face_down.is_some();
            let faces = |cards: &[TeamCard]| cards.iter().map(|c| c.card(colour).to_string()).collect::<Vec<_>>();
            let hand = team.hand();
            zones.push(CardZone {
                name: format!("{name} hand"),
                owner: Some(team.predictor),
                cards: if holder || !secret { faces(&hand) } else { Vec::new() },
                hidden: if holder || !secret { 0 } else { hand.len() },
            });
            zones.push(CardZone {
                name: format!("{name} face up"),
                owner: None,
                cards: faces(&[team.face_up]),
                hidden: 0,
            });
            zones.push(CardZone {
                name: format!("{name} face down"),
                owner: None,
                cards: match team.face_down {
                    Some(card) if holder => faces(&[card]),
                    _ => Vec::new(),
                },
                hidden: usize::from(secret && !holder),
            });
            if let (Some(card), true) = (team.face_down, holder) {
                notes.push(format!("Your face-down card: the {card} ({})", card.card(colour)));
            }
        }
        let tables = vec![self.trophy_track()];
        notes.push(format!("The coin is at the {}.", self.coin.words()));
        let mut view = View {
            board: Some(BoardView::from_board(self.pos.board(), self.pos.mask(), &|_| Vec::new())),
            zones,
            tables,
            notes,
            last_move: self.last_move.iter().map(ToString::to_string).collect(),
            ..View::default()
        };
        if self.outcome.is_none() {
            view.check = self.checked_king().map(|k| k.to_string());
        }
        if self.outcome.is_none() {
            view.prompt = Some(self.prompt(viewer.seat() == Some(self.seat())));
        }
        view
    }
}

impl TelepathyGame {
    /// The coin beside the board, in one of its three places: drawn as a
    /// track with the coin on it, and marked `●` in the text.
    fn trophy_track(&self) -> TableView {
        let places = [Coin::WhiteSide, Coin::Middle, Coin::BlackSide];
        let mark = |c: &Coin| if self.coin == *c { "●".to_string() } else { String::new() };
        let coin = places.iter().position(|&c| c == self.coin).unwrap_or(1);
        TableView::text(
            "Trophy track",
            vec!["White side".to_string(), "Middle".to_string(), "Black side".to_string()],
            vec![places.iter().map(mark).collect()],
        )
        .drawn_as(TableDrawing::Track { coin })
    }

    /// The king the view marks as in check: first a king the team to move
    /// may take (a removal left it open; taking it wins), else the king of
    /// the team to move if it is attacked. The view has room for one square;
    /// the log names every threatened king.
    fn checked_king(&self) -> Option<Square> {
        let us = self.turn();
        self.open_king(us.other()).or_else(|| self.open_king(us))
    }

    fn prompt(&self, mine: bool) -> String {
        let seat = SEAT_NAMES[self.seat()];
        match (self.phase, mine) {
            (Phase::Predict, true) => {
                "You predict: play a card face down, the piece you think your partner will move (the checker copies the face-up card)".to_string()
            }
            (Phase::Predict, false) => format!("{seat} is predicting"),
            (Phase::Move, true) if self.pos.is_check() => {
                "Your move: your partner has predicted it, and your king is in check".to_string()
            }
            (Phase::Move, true) => "Your move: your partner has played a card face down, predicting it".to_string(),
            (Phase::Move, false) => format!("{seat} to move"),
            (Phase::Remove(_), true) => "The coin ran off your side: remove one of your pieces (not the king)".to_string(),
            (Phase::Remove(c), false) => format!("{seat} removes a {} piece", colour_word(c)),
        }
    }
}
