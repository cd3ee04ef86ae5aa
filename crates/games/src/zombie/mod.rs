//! Zombie Chess (rules.md, "Zombie Chess"; docs/games/zombie.md, "Rulings").
//!
//! Chess where every captured piece is secretly buried under one of the
//! capturer's own pieces, and rises as its original owner's zombie when the
//! capturer moves a piece off that square. Zombies must keep moving, or they
//! are destroyed.
//!
//! A turn is several actions of the same seat (docs/games/zombie.md):
//! 1. `promote a1 q` for each zombie pawn that rose on its last rank;
//! 2. the regular move and the zombies' moves, in any order (`e2e4`);
//!    `done` ends this part early, destroying the zombies that did not
//!    move; it ends by itself when nothing is left to move;
//! 3. the end of the turn, by the referee: buried pieces rise on the
//!    squares left, idle zombies are destroyed;
//! 4. `bury c6` for each piece captured in the turn, in the order captured.

mod action;
mod export;
mod grid;
mod horde;
mod sample;
mod text;
mod turn;

#[cfg(test)]
mod tests;

use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::eval::role_value;
use chesskit_core::chess::fen;
use chesskit_core::chess::notation::{long_algebraic, parse_san, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{PgnStart, NULL_MOVE};
use chesskit_core::chess::{Bitboard, Board, Color, Move, MoveList, Piece, Position, Role, Square};
use chesskit_core::game::{Game, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{BoardView, Corner, Journal, Marker, MarkerDrawing, TableDrawing, TableView, View};

use crate::chess::{colour_word, seat_color, seat_of, RepetitionKey};
use crate::clone_fields::clone_field_by_field;

pub use action::ZombieAction;
use export::FirstTurn;
use sample::{sample_burials, Clue, ClueLog, MovesOffered};
pub use turn::Burials;
use turn::{DeadEnds, Table, TurnRules, PROMOTION_ROLES};

/// The part of a turn the player to move is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Promotions of risen pawns, then the regular move and the zombies' moves.
    Move,
    /// The moves are over: the pieces captured this turn wait to be buried.
    Bury,
}

/// The share of a buried piece's worth its original owner may count on
/// getting back as a zombie (see [`ZombieGame::undead`]).
const BURIED_SHARE: f64 = 0.3;
/// The share of a zombie's worth it loses for having to move every turn
/// and for never coming back once captured.
const ZOMBIE_DISCOUNT: f64 = 0.25;

/// A game of Zombie Chess: the whole truth, both players' secret burials included.
#[derive(Debug, PartialEq)]
pub struct ZombieGame {
    /// The "zombie turn" option: moving your zombies may be your whole turn.
    zombie_turn: bool,
    table: Table,
    step: Step,
    /// Each player's secret grid, indexed by the burier's seat.
    burials: [Burials; 2],
    /// The opponent's pieces captured this turn, waiting to be buried.
    to_bury: Vec<Role>,
    /// Destroyed pieces, in the order they arrived.
    dust_bin: Vec<Piece>,
    /// What is public about each player's burials, indexed by the burier's
    /// seat. Shared between copies (the computer searches many): a clue
    /// added in one copies none of the others.
    clues: [ClueLog; 2],
    /// Where the game started, for its PGN, when not from the orthodox start.
    start: Option<PgnStart>,
    /// The number of the first turn and its player, for the PGN.
    first_turn: FirstTurn,
    last_move: Vec<Square>,
    /// Positions at turn starts since the last irreversible turn.
    repetition: Vec<(RepetitionKey, Bitboard)>,
    outcome: Option<Outcome>,
}

clone_field_by_field!(ZombieGame {
    zombie_turn,
    table,
    step,
    burials,
    to_bury,
    dust_bin,
    clues,
    start,
    first_turn,
    last_move,
    repetition,
    outcome,
});

fn piece_words(piece: Piece) -> String {
    format!("{} {}", colour_word(piece.color), role_name(piece.role))
}

/// A move in long algebraic notation, for the log: `e5xd4`, `Nf3xd4`, `O-O`.
/// The letter of a piece buried under a square, in a badge of the buried
/// piece's colour with a grave-brown rim; top right, as the bottom right
/// corner holds the file letters on the first rank.
fn burial_marker(colour: &str, role: Role) -> Marker {
    let letter = role.upper_char().to_string();
    let badge = MarkerDrawing::badge(Corner::TopRight, colour, &letter).rim("#6d4c41");
    Marker::new("burial").colour(colour).text(&letter).drawn(badge)
}

fn move_text(m: Move, zombie: bool) -> String {
    let text = long_algebraic(m);
    let en_passant = if m.is_en_passant() { " e.p." } else { "" };
    if zombie {
        format!("zombie {text}{en_passant}")
    } else {
        format!("{text}{en_passant}")
    }
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl ZombieGame {
    /// "Set up the chess board normally": the grids, graveyard and dust bin are empty.
    fn setup(options: &Options, story: &mut Journal) -> ZombieGame {
        ZombieGame::assemble(
            options,
            Table::new(Position::startpos(), Bitboard::EMPTY),
            Step::Move,
            [Burials::new(), Burials::new()],
            Vec::new(),
            Vec::new(),
            story,
        )
    }

    /// A game in the given state. The opponent's existing burials (from a
    /// text position) may, as far as each player knows, be under any square.
    fn assemble(
        options: &Options,
        table: Table,
        step: Step,
        burials: [Burials; 2],
        to_bury: Vec<Role>,
        dust_bin: Vec<Piece>,
        story: &mut Journal,
    ) -> ZombieGame {
        let clues = [0, 1]
            .map(|seat| ClueLog::of(burials[seat].values().map(|&role| Clue::Buried { role, under: Bitboard::FULL })));
        // A position in the burial step, or after the regular move, starts
        // after the mover's move token: the first token is the opponent's.
        let moved = step == Step::Bury || table.regular_done;
        let first_turn = match (moved, table.us()) {
            (true, Color::White) => FirstTurn { fullmove: table.pos.fullmoves(), mover: Color::Black },
            (true, Color::Black) => FirstTurn { fullmove: table.pos.fullmoves() + 1, mover: Color::White },
            (false, mover) => FirstTurn { fullmove: table.pos.fullmoves(), mover },
        };
        let mut game = ZombieGame {
            zombie_turn: options.bool("zombie_turn", false),
            table,
            step,
            burials,
            to_bury,
            dust_bin,
            clues,
            start: None,
            first_turn,
            last_move: Vec::new(),
            repetition: Vec::new(),
            outcome: None,
        };
        if game.step == Step::Move && game.table.at_turn_start() {
            game.start_turn(story);
        }
        game
    }

    pub fn board(&self) -> &Board {
        self.table.board()
    }

    /// The squares of the zombies on the board, of both colours.
    pub fn zombies(&self) -> Bitboard {
        self.table.zombies
    }

    /// The secret burials of the player of `color`.
    pub fn burials_of(&self, color: Color) -> &Burials {
        &self.burials[seat_of(color)]
    }

    /// What `color`'s dead and undead are worth to it, in pawns, beyond
    /// the board's material. Its pieces buried by the opponent (and those
    /// just captured, waiting to be buried) may rise again as its zombies
    /// "when the capturer moves a piece off that square", which the
    /// capturer can put off but not always: a share of their worth. Its
    /// zombies on the board count as pieces, but less than full ones: they
    /// "must keep moving" or are destroyed, and a captured zombie goes to
    /// the dust bin for good.
    fn undead(&self, color: Color) -> f64 {
        let mut buried: f64 = self.burials[seat_of(!color)].values().map(|&role| role_value(role)).sum();
        if self.table.us() != color {
            buried += self.to_bury.iter().map(|&role| role_value(role)).sum::<f64>();
        }
        let board = self.board();
        let zombies = self.table.zombies & board.by_color(color);
        let zombie_material: f64 = zombies.into_iter().filter_map(|sq| board.role_at(sq)).map(role_value).sum();
        BURIED_SHARE * buried - ZOMBIE_DISCOUNT * zombie_material
    }

    pub fn step(&self) -> Step {
        self.step
    }

    /// The pieces in the graveyard: every buried piece and every piece
    /// captured this turn and not yet buried.
    pub fn graveyard(&self) -> Vec<Piece> {
        text::graveyard(&self.burials, &self.to_bury, self.mover())
    }

    pub fn dust_bin(&self) -> &[Piece] {
        &self.dust_bin
    }

    fn mover(&self) -> Color {
        self.table.us()
    }

    fn rules(&self) -> TurnRules<'_> {
        TurnRules { burials: &self.burials[seat_of(self.mover())], zombie_turn: self.zombie_turn }
    }

    /// The legal regular and zombie steps that `wanted` picks,
    /// appended to `into` as actions, in the order of the candidates.
    fn legal_steps_into(&self, wanted: impl Fn(Move) -> bool, into: &mut Vec<ZombieAction>) {
        let mut steps = MoveList::new();
        self.table.legal_moves_into(self.rules(), wanted, &mut steps);
        into.extend(steps.iter().map(|&m| ZombieAction::Move(UciAction::from_move(m, CastlingStyle::Standard))));
    }
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl ZombieGame {
    /// Step 1: a zombie pawn that rose on its last rank "promotes at once
    /// (the owner chooses the piece on their next turn, before moving it)".
    fn promote_risen_pawn(&mut self, square: Square, role: Role, story: &mut Journal) -> Result<(), RuleError> {
        let action = ZombieAction::Promote { square, role };
        if self.step != Step::Move || !self.table.pending_promotions().contains(square) {
            return Err(RuleError::illegal(action, format!("there is no zombie pawn of yours to promote on {square}")));
        }
        let mut next = self.table.clone();
        next.promote(square, role);
        if !next.can_complete(self.rules(), &mut DeadEnds::new()) {
            return Err(RuleError::illegal(
                action,
                "with that piece your turn could not be completed without leaving your king in check",
            ));
        }
        self.table = next;
        story.public_with(Some(seat_of(self.mover())), || {
            format!("the zombie pawn on {square} promotes to a {}", role_name(role))
        });
        Ok(())
    }

    /// Step 2: the regular move with a piece that is not a zombie, or one
    /// move of a zombie that has not moved this turn. "All the normal rules
    /// of Chess apply", and the move must leave the king out of check with
    /// the zombies it would reveal.
    fn make_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let shown = ZombieAction::Move(action);
        if self.step == Step::Bury {
            return Err(RuleError::illegal(shown, "the moves of this turn are over: bury the captured piece first"));
        }
        if let Some(square) = self.table.pending_promotions().first() {
            return Err(RuleError::illegal(
                shown,
                format!("first choose what your zombie pawn on {square} becomes: a queen, rook, bishop or knight"),
            ));
        }
        let mut candidates = MoveList::new();
        self.table.candidate_moves_of(action.from, &mut candidates);
        let Some(m) = action.resolve(&candidates) else {
            return Err(RuleError::illegal(shown, self.why_not_a_candidate(action)));
        };
        // Judged on the table after the step, which then stands: the step
        // is played once.
        let mut next = self.table.clone();
        let capture = next.play(m);
        if let Some(reason) = next.refusal_after_step(self.rules(), &mut DeadEnds::new()) {
            return Err(RuleError::illegal(shown, reason));
        }
        let zombie = self.table.is_zombie_move(m);
        let seat = seat_of(self.mover());
        if zombie {
            story.public_with(Some(seat), || move_text(m, true));
        } else {
            story.public_move_with(seat, || (long_algebraic(m), move_text(m, false)));
        }
        self.table = next;
        let canonical = UciAction::from_move(m, CastlingStyle::Standard);
        self.last_move.clear();
        self.last_move.extend([canonical.from, canonical.to]);
        if let Some(capture) = capture {
            self.capture(capture.piece, capture.zombie, story);
        }
        // The turn ends by itself only when no piece could even try to move
        // (a public fact). Whether a zombie's move is legal can depend on the
        // mover's secret burials, so ending on that would tell the opponent.
        if self.table.may_end(self.rules()) && self.no_piece_could_move() {
            self.end_of_turn(story);
        }
        Ok(())
    }

    /// Whether none of the mover's pieces could even try a step now. Asked
    /// after every step: once the regular move is made with no zombie left
    /// to move, nothing can, and no move need be generated.
    fn no_piece_could_move(&self) -> bool {
        if self.table.regular_done && self.table.idle_zombies().is_empty() {
            return true;
        }
        let mut candidates = MoveList::new();
        self.table.candidate_moves_into(&mut candidates);
        candidates.is_empty()
    }

    /// Why a move that is not among the candidates was refused.
    fn why_not_a_candidate(&self, action: UciAction) -> String {
        let own = self.board().by_color(self.mover());
        if !own.contains(action.from) {
            format!("{} holds no piece of yours", action.from)
        } else if self.table.zombies.contains(action.from) && self.table.moved.contains(action.from) {
            format!("the zombie on {} has already moved this turn", action.from)
        } else if !self.table.zombies.contains(action.from) && self.table.regular_done {
            "you have already made your regular move this turn; only zombies that have not moved may still move"
                .to_string()
        } else {
            "not a legal move in this position".to_string()
        }
    }

    /// "In addition to moving the captured piece to the graveyard ... you
    /// have to secretly bury it": the burial waits for the end of the turn.
    /// A captured zombie goes to the dust bin instead (docs/games/zombie.md, "Rulings").
    fn capture(&mut self, piece: Piece, zombie: bool, story: &mut Journal) {
        if zombie {
            self.dust_bin.push(piece);
            story.public_with(Some(seat_of(self.mover())), || {
                format!("the captured {} zombie goes to the dust bin", piece_words(piece))
            });
        } else {
            self.to_bury.push(piece.role);
        }
    }

    /// `done`: end the moves of the turn; the zombies that did not move are destroyed.
    fn done(&mut self, story: &mut Journal) -> Result<(), RuleError> {
        let action = ZombieAction::Done;
        if self.step == Step::Bury {
            return Err(RuleError::illegal(action, "the moves are over: bury the captured piece"));
        }
        if let Some(square) = self.table.pending_promotions().first() {
            return Err(RuleError::illegal(action, format!("first choose what your zombie pawn on {square} becomes")));
        }
        if !(self.table.regular_done || (self.zombie_turn && self.table.moved.any())) {
            let reason = if self.zombie_turn {
                "make your regular move, or move at least one zombie, first"
            } else {
                "make your regular move first"
            };
            return Err(RuleError::illegal(action, reason));
        }
        if !self.table.may_end(self.rules()) {
            return Err(RuleError::illegal(
                action,
                "ending the turn now would leave your king in check (the zombies that did not move are destroyed)",
            ));
        }
        story.public(Some(seat_of(self.mover())), "ends the moves of the turn");
        self.end_of_turn(story);
        Ok(())
    }

    /// Step 3, the end of the turn: buried pieces rise, idle zombies are
    /// destroyed, and the captured pieces are buried.
    fn end_of_turn(&mut self, story: &mut Journal) {
        if !self.table.regular_done {
            // The "zombie turn" option: the turn's move in the PGN is a null move.
            story.public_move(seat_of(self.mover()), NULL_MOVE, "moved only zombies this turn");
        }
        self.rise_zombies(story);
        self.destroy_idle_zombies(story);
        let table = &mut self.table;
        table.left = Bitboard::EMPTY;
        table.moved = Bitboard::EMPTY;
        table.regular_done = false;
        self.step = Step::Bury;
        self.bury_next_or_finish(story);
    }

    /// "At the end of your turn, check to see whether there was a piece
    /// buried under the piece you moved." Every square the player left this
    /// turn and that is still empty is checked (after castling, both).
    ///
    /// With none of the opponent's pieces in the graveyard nothing can rise,
    /// and the graveyard shows it to everyone: "no zombies anywhere" is said
    /// only where the book's example says it, in a turn that captured, just
    /// before the burial (so the piece just captured cannot rise at once),
    /// not after every move.
    fn rise_zombies(&mut self, story: &mut Journal) {
        let us = self.mover();
        let seat = seat_of(us);
        if self.burials[seat].is_empty() {
            if !self.to_bury.is_empty() {
                story.public(Some(seat), "no zombies anywhere");
            }
            return;
        }
        let checked = self.table.left & !self.board().occupied();
        for square in checked {
            match self.burials[seat].remove(&square) {
                Some(role) => {
                    let piece = role.of(us.other());
                    self.table.pos.set_piece_at(square, piece);
                    self.table.zombies.add(square);
                    self.reset_halfmoves();
                    story.public_with(Some(seat), || {
                        let promotes = role == Role::Pawn && square.rank() == us.backrank();
                        format!(
                            "a {} zombie {} rises on {square}{}",
                            colour_word(piece.color),
                            role_name(role),
                            if promotes { " and promotes: its owner chooses the piece" } else { "" }
                        )
                    });
                    self.add_clue(seat, Clue::Checked { square, rose: Some(role) });
                }
                None => {
                    story.public_with(Some(seat), || format!("no zombie at {square}"));
                    self.add_clue(seat, Clue::Checked { square, rose: None });
                }
            }
        }
    }

    /// "Check if you have any zombie pieces that you didn't move. If so,
    /// they are permanently destroyed, and moved to the dust bin."
    fn destroy_idle_zombies(&mut self, story: &mut Journal) {
        let seat = seat_of(self.mover());
        for square in self.table.idle_zombies() {
            let piece = self.board().piece_at(square).expect("a zombie stands there");
            self.table.pos.remove_piece_at(square);
            self.table.zombies.discard(square);
            self.dust_bin.push(piece);
            self.reset_halfmoves();
            story.public_with(Some(seat), || format!("the {} zombie on {square} is destroyed", piece_words(piece)));
        }
    }

    fn reset_halfmoves(&mut self) {
        let pos = &self.table.pos;
        self.table.pos = Position::from_parts(
            pos.board().clone(),
            pos.turn(),
            pos.castling_rooks(),
            pos.ep_square(),
            0,
            pos.fullmoves(),
            *pos.geometry(),
        );
    }

    /// Squares where the player to move may bury: under one of their
    /// pieces, one burial per square.
    fn free_burial_squares(&self) -> Bitboard {
        let used = self.burials[seat_of(self.mover())].squares();
        self.board().by_color(self.mover()) & !used
    }

    /// Step 4: wait for the next burial, or, when every piece of the player
    /// already has a burial under it, "move it directly to the dust bin and
    /// say, 'I cannot bury this piece.'" With nothing left to bury, the turn passes.
    fn bury_next_or_finish(&mut self, story: &mut Journal) {
        let seat = seat_of(self.mover());
        while let Some(&role) = self.to_bury.first() {
            if self.free_burial_squares().any() {
                return;
            }
            self.to_bury.remove(0);
            let piece = role.of(self.mover().other());
            self.dust_bin.push(piece);
            self.add_clue(seat, Clue::CannotBury { pieces: self.board().by_color(self.mover()) });
            story.public_with(Some(seat), || {
                format!("I cannot bury this piece: the {} goes to the dust bin", piece_words(piece))
            });
        }
        self.finish_turn(story);
    }

    /// `bury c6`: write the captured piece's letter in the secret grid under
    /// one of your own pieces. The opponent learns only that a burial happened.
    fn bury(&mut self, square: Square, story: &mut Journal) -> Result<(), RuleError> {
        let action = ZombieAction::Bury(square);
        let us = self.mover();
        let seat = seat_of(us);
        let Some(&role) = self.to_bury.first().filter(|_| self.step == Step::Bury) else {
            return Err(RuleError::illegal(
                action,
                "no burial is due now: you bury only after a capture, once the moves of the turn are over",
            ));
        };
        if self.board().color_at(square) != Some(us) {
            return Err(RuleError::illegal(
                action,
                format!("{square} holds no piece of yours: bury under one of your own pieces"),
            ));
        }
        if self.burials[seat].contains_key(&square) {
            return Err(RuleError::illegal(
                action,
                format!("you already have a burial under {square}: one per square"),
            ));
        }
        self.to_bury.remove(0);
        self.add_clue(seat, Clue::Buried { role, under: self.board().by_color(us) });
        self.burials[seat].insert(square, role);
        let piece = role.of(us.other());
        story.public_secret_choice_with(seat, || format!("buries the {}", piece_words(piece)));
        story.private_with(&[seat], Some(seat), || format!("you buried the {} under {square}", piece_words(piece)));
        self.bury_next_or_finish(story);
        Ok(())
    }

    /// The turn passes: the en passant right of the last double step, the
    /// clocks, and the next player's turn begins.
    fn finish_turn(&mut self, story: &mut Journal) {
        let us = self.mover();
        let pos = &self.table.pos;
        let ep = self.table.next_ep.filter(|&ep| {
            turn::ep_still_valid(pos.board(), ep, us)
                && (shakmaty::attacks::pawn_attacks(us, ep) & pos.board().by_piece(us.other().pawn())).any()
        });
        let fullmoves = pos.fullmoves() + u32::from(us == Color::Black);
        let mut next = pos.clone();
        next.set_turn(us.other());
        next.set_ep_square(ep);
        next.set_fullmoves(fullmoves);
        self.table = Table::new(next, self.table.zombies);
        self.step = Step::Move;
        self.start_turn(story);
    }
}

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

impl ZombieGame {
    /// At the start of each turn: "the goal is to checkmate your opponent's
    /// king". A player with no way to complete a legal turn (every sequence
    /// of steps leaves the king in check, revealed zombies included) is
    /// checkmated if in check, and stalemated otherwise. The referee also
    /// claims the orthodox draws: threefold repetition, the fifty-move rule
    /// (counted in turns), and insufficient material once the graveyard is
    /// empty (nothing can rise any more).
    fn start_turn(&mut self, story: &mut Journal) {
        if self.table.pos.halfmoves() == 0 {
            self.repetition.clear();
        }
        self.repetition.push((RepetitionKey::of(&self.table.pos), self.table.zombies));
        let us = self.mover();
        let winner = seat_of(us.other());
        let offered = self.moves_to_count();
        let completable =
            offered.as_ref().is_some_and(|legal| self.table.completes_by_a_chess_move(legal, self.rules()))
                || self.table.can_complete(self.rules(), &mut DeadEnds::new());
        self.outcome = if !completable {
            Some(if self.table.pos.is_check() {
                Outcome::win(vec![winner], "checkmate")
            } else {
                Outcome::draw("stalemate")
            })
        } else if self.table.pos.is_insufficient_material() && self.burials.iter().all(Burials::is_empty) {
            Some(Outcome::draw("insufficient material"))
        } else if self.table.pos.halfmoves() >= 100 {
            Some(Outcome::draw("fifty-move rule"))
        } else if self.repetition.iter().filter(|k| Some(*k) == self.repetition.last()).count() >= 3 {
            Some(Outcome::draw("threefold repetition"))
        } else {
            None
        };
        if story.is_muted() {
            // A search's copy: nothing below would be read.
        } else if self.outcome.as_ref().is_some_and(|o| o.reason == "stalemate") && self.has_a_zombie_step() {
            let name = fen::color_name(us);
            story.public(
                Some(seat_of(us)),
                format!(
                    "{name} can move zombies but cannot make a regular move, and moving zombies alone is not \
                     a turn (only with the \"zombie turn\" option): stalemate"
                ),
            );
        }
        if let Some(outcome) = &self.outcome {
            story.public(None, format!("game over: {}", outcome.reason));
        } else if let Some(legal) = offered {
            self.note_moves_offered(&legal);
        }
    }

    /// A public fact about the burials of `seat`.
    fn add_clue(&mut self, seat: Seat, clue: Clue) {
        self.clues[seat].push(clue);
    }

    /// For the opponent's inferences (see [`sample`]): the legal regular
    /// moves the mover has, counted by the square they leave. Counted on
    /// the board alone, as chess has it (the secret burials would tell which
    /// moves raise a zombie into check), so it is public. Only once the
    /// mover has buried something does it say anything.
    fn note_moves_offered(&mut self, legal: &MoveList) {
        let seat = seat_of(self.mover());
        let regular = self.board().by_color(self.mover()) & !self.table.zombies;
        let froms = legal.iter().filter_map(|m| m.from()).filter(|&sq| regular.contains(sq));
        self.add_clue(seat, Clue::Offered(MovesOffered::count(froms)));
    }

    /// Chess's legal moves at a turn start, when the moves on offer are to
    /// be counted ([`ZombieGame::note_moves_offered`]): once the mover has
    /// buried something. A player's first clue is always a burial (nothing
    /// rises, and "I cannot bury" is not said, before one): an empty list
    /// means nothing buried yet. The same list tells whether a turn that
    /// is a chess move can be completed.
    fn moves_to_count(&self) -> Option<MoveList> {
        if self.clues[seat_of(self.mover())].is_empty() {
            return None;
        }
        let mut legal = MoveList::new();
        self.table.pos.legal_moves_into(&mut legal);
        Some(legal)
    }

    /// Whether one of the mover's zombies may make a move that leaves the king out of check.
    fn has_a_zombie_step(&self) -> bool {
        let burials = self.rules().burials;
        self.table.candidate_moves().into_iter().filter(|&m| self.table.is_zombie_move(m)).any(|m| {
            let mut next = self.table.clone();
            next.play(m);
            next.king_safe(burials, false)
        })
    }
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for ZombieGame {
    type Action = ZombieAction;
    const VARIANT: &'static str = "zombie";
    const TITLE: &'static str = "Zombie Chess";

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec::bool(
            "zombie_turn",
            false,
            "house rule: moving your zombies may be your whole turn instead of the regular move",
        )
        .label("Zombie moves as a whole turn")]
    }

    /// What the start announces is written to `story`.
    fn open(options: &Options, _seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(ZombieGame::setup(options, story)),
            Some(position) => {
                let parts = text::read(position)?;
                let start = PgnStart::new(&parts.table.pos, fen::CastlingNotation::XFen, position);
                let mut game = ZombieGame::assemble(
                    options,
                    parts.table,
                    parts.step,
                    parts.burials,
                    parts.to_bury,
                    parts.dust_bin,
                    story,
                );
                game.start = Some(start);
                if game.outcome.is_none() && game.legal_actions(seat_of(game.mover())).is_empty() {
                    return Err(GameError::new("the turn in progress in this position cannot be completed legally"));
                }
                Ok(game)
            }
        }
    }

    fn position(&self) -> String {
        text::write(&text::Parts {
            table: self.table.clone(),
            step: self.step,
            burials: self.burials,
            to_bury: self.to_bury.clone(),
            dust_bin: self.dust_bin.clone(),
        })
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SeatInfo::white_black()
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(seat_of(self.mover())),
        }
    }

    /// Single-mover: the mover while the game goes on, without the list
    /// [`Game::to_act`] builds.
    fn first_to_act(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| seat_of(self.mover()))
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.first_to_act() == Some(seat)
    }

    /// The actions written into the search's list: the list every node
    /// keeps is reused rather than one allocated per node.
    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<ZombieAction>) {
        into.clear();
        if !self.is_to_act(seat) {
            return;
        }
        if self.step == Step::Bury {
            into.extend(self.free_burial_squares().into_iter().map(ZombieAction::Bury));
            return;
        }
        let rules = self.rules();
        let pending = self.table.pending_promotions();
        if pending.any() {
            let mut dead_ends = DeadEnds::new();
            into.extend(
                pending
                    .into_iter()
                    .flat_map(|square| PROMOTION_ROLES.map(|role| (square, role)))
                    .filter(|&(square, role)| {
                        let mut next = self.table.clone();
                        next.promote(square, role);
                        next.can_complete(rules, &mut dead_ends)
                    })
                    .map(|(square, role)| ZombieAction::Promote { square, role }),
            );
            return;
        }
        self.legal_steps_into(|_| true, into);
        if self.table.may_end(rules) {
            into.push(ZombieAction::Done);
        }
    }

    /// Only the captures and promotions among the legal steps: listing
    /// every step and dropping the quiet ones judged each quiet step by the
    /// rules first, at nearly every node of quiescence. Promotions of risen
    /// pawns, `done` and burials are never noisy.
    fn noisy_actions_into(&self, seat: Seat, into: &mut Vec<ZombieAction>) {
        into.clear();
        if !self.is_to_act(seat) || self.step == Step::Bury || self.table.pending_promotions().any() {
            return;
        }
        // What `is_noisy` says of each step's action, read off the move:
        // a pawn reaches the en passant square by taking en passant only.
        self.legal_steps_into(|m| m.is_capture() || m.is_promotion(), into);
    }

    /// One burial where the turn's rest is its burials: where a piece is
    /// buried changes nothing on the board until its burier moves off that
    /// square, far past quiescence's captures, and searching each capture
    /// once per free square multiplied its cost by a dozen or more.
    fn quiescence_rest_of_turn_into(&self, seat: Seat, into: &mut Vec<ZombieAction>) {
        self.legal_actions_into(seat, into);
        if self.step == Step::Bury {
            into.truncate(1);
        }
    }

    fn apply_with(&mut self, seat: Seat, action: &ZombieAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match *action {
            ZombieAction::Promote { square, role } => self.promote_risen_pawn(square, role, story),
            ZombieAction::Move(m) => self.make_move(m, story),
            ZombieAction::Done => self.done(story),
            ZombieAction::Bury(square) => self.bury(square, story),
        }
    }

    /// Moves in UCI (either castling style) or SAN; `bury c6`, `promote a1 q`, `done`.
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<ZombieAction, RuleError> {
        let candidates = self.table.candidate_moves();
        match text.parse::<ZombieAction>() {
            Ok(ZombieAction::Move(m)) => Ok(ZombieAction::Move(
                m.resolve(&candidates).map_or(m, |found| UciAction::from_move(found, CastlingStyle::Standard)),
            )),
            Ok(other) => Ok(other),
            Err(reason) => match parse_san(&self.table.pos, text) {
                Ok(m) if candidates.contains(&m) => {
                    Ok(ZombieAction::Move(UciAction::from_move(m, CastlingStyle::Standard)))
                }
                _ => Err(RuleError::malformed(text, reason)),
            },
        }
    }

    /// The game as PGN: one move per turn (`--` for a turn of zombie moves
    /// only), and as comments the zombies' moves (those before the regular
    /// move after the turn's number), risings and every burial, secret ones
    /// included: a game is exported only once it is over.
    fn pgn(&self, story: &Journal) -> Option<String> {
        Some(export::zombie_pgn(self.start.as_ref(), self.first_turn, story, self.outcome.as_ref()))
    }

    /// The chess evaluation plus what the dead are worth to each side (see
    /// [`ZombieGame::undead`]).
    fn heuristic(&self, seat: Seat) -> Option<f64> {
        let chess = crate::chess::position_heuristic(&self.table.pos, seat)?;
        let color = seat_color(seat);
        Some(chess + self.undead(color) - self.undead(!color))
    }

    /// The board's Zobrist key and the rest of what the rules read: the
    /// zombies, the progress of the turn, both players' secret burials
    /// (a search runs on a drawn world) and the pieces waiting to be
    /// buried. Left out, as in chess: the record (PGN start, last move,
    /// dust bin, public clues) and the repetition history.
    fn position_hash(&self) -> Option<u64> {
        let Table { pos, zombies, moved, left, regular_done, next_ep } = &self.table;
        let turn = (zombies, moved, left, regular_done, next_ep, self.step == Step::Bury, self.zombie_turn);
        let hidden = (&self.burials, &self.to_bury, self.outcome.is_some());
        Some(pos.zobrist() ^ hash_of(&(turn, hidden)))
    }

    fn is_noisy(&self, action: &ZombieAction) -> bool {
        match action {
            ZombieAction::Move(m) => crate::chess::takes_or_promotes(self.board(), self.table.pos.ep_square(), m),
            _ => false,
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        let own = viewer.seat().filter(|&s| s < 2);
        let zombies = self.table.zombies;
        let burials = own.map(|seat| &self.burials[seat]);
        let markers = |square: Square| {
            let mut markers = Vec::new();
            if zombies.contains(square) {
                // The gold coin under a zombie piece, bottom left.
                let coin = MarkerDrawing::badge(Corner::BottomLeft, "gold", "Z").rim("#7a5c00");
                markers.push(Marker::new("zombie").drawn(coin));
            }
            if let (Some(seat), Some(role)) = (own, burials.and_then(|b| b.get(&square))) {
                markers.push(burial_marker(colour_word(seat_color(seat).other()), *role));
            }
            markers
        };
        let mut view = View {
            board: Some(BoardView::from_board(self.board(), self.table.pos.mask(), &markers)),
            tables: vec![
                self.pieces_table("Graveyard", &self.graveyard()),
                self.pieces_table("Dust bin", &self.dust_bin),
            ],
            last_move: self.last_move.iter().map(ToString::to_string).collect(),
            ..View::default()
        };
        if let Some(seat) = own {
            view.notes.push(self.burial_note(seat));
        }
        view.check = Color::ALL
            .into_iter()
            .filter_map(|color| self.table.pos.king_of(color).filter(|&k| self.table.pos.is_attacked(k, color.other())))
            .map(|k| k.to_string())
            .next();
        if self.outcome.is_none() {
            view.prompt = Some(self.prompt(own == Some(seat_of(self.mover()))));
        }
        view
    }

    /// Re-draw the opponent's burials consistently with what `seat` has
    /// seen: the pieces each burial took (public), the squares of the
    /// burier's pieces at the time, and every square since announced empty
    /// or where a zombie rose.
    /// A draw that would leave the opponent, when it is their turn, without
    /// any legal action is drawn again, up to 20 times (the last draw then
    /// stands). The truth is never the fallback: should no draw come within
    /// the sampler's budget, the world has no burials of the opponent.
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        if seat >= 2 {
            return self.clone();
        }
        let opponent = 1 - seat;
        let mut sampled = self.clone();
        // Never the truth: a world that ignores a clue or strands the
        // opponent misleads the search a little; one read from the real
        // burials would let it peek.
        sampled.burials[opponent] = Burials::default();
        let clues = self.clues[opponent].to_vec();
        for _ in 0..20 {
            let Some(burials) = sample_burials(&clues, rng) else { break };
            sampled.burials[opponent] = burials;
            let stranded = sampled.to_act().seats() == [opponent] && sampled.legal_actions(opponent).is_empty();
            if !stranded {
                break;
            }
        }
        sampled
    }
}

// ----------------------------------------------------------------------
// Views
// ----------------------------------------------------------------------

impl ZombieGame {
    /// A pile of pieces beside the board, by colour, in FEN letters: drawn
    /// as the pieces themselves.
    fn pieces_table(&self, title: &str, pieces: &[Piece]) -> TableView {
        let rows = Color::ALL
            .into_iter()
            .map(|color| {
                let letters: Vec<String> =
                    pieces.iter().filter(|p| p.color == color).map(|p| p.char().to_string()).collect();
                vec![colour_word(color).to_string(), letters.join(" ")]
            })
            .collect();
        TableView::text(title, vec!["colour".to_string(), "pieces".to_string()], rows).drawn_as(TableDrawing::Pieces {
            columns: vec![1],
            headers: vec![],
            colour: None,
        })
    }

    /// The viewer's own secret grid, in words.
    fn burial_note(&self, seat: Seat) -> String {
        let burials = &self.burials[seat];
        if burials.is_empty() {
            return "Your grid is empty: you have buried nothing.".to_string();
        }
        let buried = seat_color(seat).other();
        let items: Vec<String> =
            burials.iter().map(|(sq, role)| format!("the {} under {sq}", piece_words(role.of(buried)))).collect();
        format!("You have buried {}", list_words(&items))
    }

    /// What the player to move must do, in words; others see only whose turn it is.
    fn prompt(&self, mine: bool) -> String {
        let name = fen::color_name(self.mover());
        if self.step == Step::Bury {
            let role = self.to_bury.first().copied().unwrap_or(Role::Pawn);
            let piece = piece_words(role.of(self.mover().other()));
            return if mine {
                format!("Choose one of your pieces to bury the captured {piece} under")
            } else {
                format!("{name} is burying the captured {piece}")
            };
        }
        if !mine {
            return format!("{name} to move");
        }
        if let Some(square) = self.table.pending_promotions().first() {
            return format!(
                "Your zombie pawn on {square} promotes: choose what it becomes (a queen, rook, bishop or knight)"
            );
        }
        let idle = self.table.idle_zombies();
        let squares: Vec<String> = idle.into_iter().map(|sq| sq.to_string()).collect();
        let (zombies, each) = match squares.len() {
            1 => (format!("your zombie on {}", squares[0]), "it is destroyed if it does not move"),
            _ => (format!("your zombies on {}", list_words(&squares)), "those that do not move are destroyed"),
        };
        let may_end = self.table.may_end(self.rules());
        if !self.table.regular_done && self.zombie_turn && self.table.moved.any() {
            let also = if idle.is_empty() { String::new() } else { format!(", move {zombies}") };
            let end = if may_end { ", or end the turn" } else { "" };
            return format!("Make your regular move{also}{end} (the zombie turn option)");
        }
        if self.table.regular_done {
            return match (idle.is_empty(), may_end) {
                (true, _) => "End the turn".to_string(),
                (false, true) => format!("Move {zombies}, or end the turn: {each}"),
                (false, false) => format!("Move {zombies}: ending the turn now would leave your king in check"),
            };
        }
        let regular = if self.zombie_turn {
            "make your regular move, or move only zombies (the zombie turn option)"
        } else {
            "make your regular move"
        };
        if idle.is_empty() {
            return format!("Your move: {regular}");
        }
        let may = if squares.len() == 1 { "may move once" } else { "may each move once" };
        format!("Your move: {regular}; {zombies} {may}, before or after it, and {each}")
    }
}

/// Items in words: `a`, `a and b`, `a, b and c`.
fn list_words(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
