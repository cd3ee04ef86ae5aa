//! Cloak and Dagger Chess (new-rules-2025, "Cloak and Dagger"; offered as
//! experimental). Pawns are played as usual, but all other pieces are
//! replaced by numbered checkers. Players have to deduce which of their
//! opponent's pieces are which, and then capture the king.
//!
//! The module follows the book: Setup (the secret placement under the
//! Chess960 restrictions), Play (the guess at the start of a turn, the
//! regular move, the bonus move, uncloaking at the end of the turn,
//! captured checkers told), Game end (a captured king, a checkmated
//! uncloaked king, and the orthodox draws). The deduction grid is in
//! `knowledge`, the views in `view`, the text position in `text`.
//!
//! Rulings where the book is silent (docs/games/cloak-and-dagger.md):
//! * The referee knows every checker's identity and allows only the moves
//!   that identity can make (docs/games/cloak-and-dagger.md, "Rulings").
//! * Checkers stand in number order: checker 1 on the a-file to checker 8
//!   on the h-file, for both players. A placement names their identities in
//!   that order (`place RNBQKBNR`). Both players place at the same time.
//! * Check is what both players can see: a king is in check when an
//!   uncloaked piece or a pawn attacks it. An uncloaked king may not move
//!   into, stay in, or castle through such a check; a cloaked king may.
//!   Cloaked pieces capture by their true identity, so an uncloaked king
//!   that stands where a cloaked piece attacks it may be captured: capturing
//!   a king, cloaked or not, wins (a bonus pawn move can capture too).
//!   So check and the castling rule count only attacks by pieces both
//!   players can see, and no legal-move list reveals a cloaked identity
//!   (docs/games/cloak-and-dagger.md, "Rulings").
//! * A guess, its answer, every move (a cloaked checker's by number, not by
//!   kind), castling, uncloaking and the identity of a captured checker are
//!   public. A checker guessed right stays cloaked and may be guessed again.
//!   Any guess is allowed; one the guesser's grid rules out is marked so in
//!   its label ([`Note`]).
//! * Once the game is over every view shows every identity.
//! * Bonus moves are written `bonus e4e5` and `drop d2`. The guesser's
//!   bonus comes after the regular move and before uncloaking; the
//!   opponent's bonus (after a wrong guess) comes before their own guess and
//!   move, and is given up by guessing or moving first.
//! * A promoted pawn becomes an uncloaked piece. En passant is allowed only
//!   on the move right after the double step, bonus moves included.
//! * Game end: capturing a king wins at once; a player who must move with
//!   an uncloaked king in check and has no move (nor bonus move) that gets
//!   it out is checkmated; no move at all otherwise is stalemate, a draw.
//!   The referee also draws by threefold repetition, by the fifty-move rule
//!   (100 regular moves without a capture, pawn move or drop) and when only
//!   the two kings are left and nobody has a pawn to take back.

mod action;
mod knowledge;
mod text;
mod view;

#[cfg(test)]
mod tests;

use std::sync::{Arc, OnceLock};

use crate::chess::{colour_word, seat_color, seat_of};
use crate::clone_fields::clone_field_by_field;
use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::color_name;
use chesskit_core::chess::notation::{long_algebraic, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, PgnStart};
use chesskit_core::chess::CastlingNotation;
use chesskit_core::chess::{chess960, Bitboard, Board, Color, Geometry, Move, Position, Role, Square};
use chesskit_core::game::{Game, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::{describe, hash_of, SearchAction};
use chesskit_core::view::{ActionInfo, Journal, View};
use shakmaty::{attacks, ByColor, CastlingSide, File, MoveList};

pub use action::{CloakAction, Note};
use knowledge::in_likelihood_order;
pub use knowledge::{all_setups, check_setup, Cell, Clues, Setup, CHECKER_KINDS};

/// One numbered checker: where it stands, whether it is still cloaked, and
/// whether it has ever moved (what castling rights rest on). All public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Checker {
    /// `None` once captured.
    pub square: Option<Square>,
    pub cloaked: bool,
    pub moved: bool,
}

/// Where in a turn the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Both players place their checkers in secret, at the same time.
    Setup,
    /// The start of a turn: the bonus move a wrong guess earned (if any),
    /// a guess, or straight to the regular move.
    Start,
    /// A guess was made; now the regular move.
    Guessed { correct: bool },
    /// The guess was right and the regular move made: the bonus move.
    Bonus,
    /// The end of the turn: uncloak any number of checkers.
    Uncloak,
}

/// What makes two positions the same for repetition: everything on the
/// board as both players see it (pawns and promoted pieces; checkers by
/// number, cloaked or not, and whether they have moved, which is what
/// castling rests on), the side to move, en passant, pawns to take back and
/// a pending bonus move. A checker's number stands for its identity, so the
/// key stays valid when `sample_hidden` re-draws identities.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RepetitionKey {
    /// The pieces that are not checkers.
    others: Board,
    checkers: [[Checker; 8]; 2],
    turn: Color,
    ep: Option<Square>,
    hands: [u8; 2],
    bonus_for: Option<Color>,
}

/// A game of Cloak and Dagger Chess: the whole truth, as the referee knows it.
/// Where the PGN's start comes from. Play starts at every child of a
/// search at the placement, and the PGN is asked for once a game is over:
/// the game as play started is kept (shared by its copies), and its text
/// written only for the PGN.
#[derive(Clone, Debug, PartialEq)]
enum StartOfPlay {
    /// The game as play started, before its first turn.
    Game(Arc<CloakAndDagger>),
    /// Play started from a position text.
    Written(PgnStart),
}

impl StartOfPlay {
    fn pgn_start(&self) -> PgnStart {
        match self {
            StartOfPlay::Game(game) => PgnStart::new(&game.pos, CastlingNotation::XFen, &game.position()),
            StartOfPlay::Written(start) => start.clone(),
        }
    }
}

#[derive(Debug, PartialEq)]
pub struct CloakAndDagger {
    /// The board with every checker's true identity. The side to move is
    /// the side acting now, also during its bonus move and uncloaking.
    pos: Position,
    /// Each player's secret setup: the identities of checkers 1 to 8.
    placement: ByColor<Option<Setup>>,
    checkers: ByColor<[Checker; 8]>,
    /// What the game has made public about each player's checkers.
    clues: ByColor<Clues>,
    /// Pawns each player may take back: their own pawns the opponent captured.
    hands: ByColor<u8>,
    /// For each player, the turns they ended with cloaked checkers that the
    /// opponent's visible pieces attack: one bit per checker (bit 0 for
    /// checker 1). Public, and a hint: a player does not leave a cloaked
    /// king to be taken.
    left_in_reach: ByColor<Vec<u8>>,
    step: Step,
    /// The player owed a bonus move by the opponent's wrong guess.
    bonus_for: Option<Color>,
    /// The position play started from (after the placements), for the PGN.
    start: Option<StartOfPlay>,
    last_move: Vec<Square>,
    /// Positions at the start of each turn since the last irreversible change.
    repetition: Vec<RepetitionKey>,
    outcome: Option<Outcome>,
}

clone_field_by_field!(CloakAndDagger {
    pos,
    placement,
    checkers,
    clues,
    hands,
    left_in_reach,
    step,
    bonus_for,
    start,
    last_move,
    repetition,
    outcome,
});

/// The square where checker `index` (0 for checker 1) of `color` starts.
pub fn home_square(color: Color, index: usize) -> Square {
    Square::from_coords(File::new(index as u32), color.backrank())
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl CloakAndDagger {
    /// "Place all the pawns in their regular position, then ... write the
    /// numbers 1 to 8 on checkers for each player. Put the black checkers on
    /// black's back row and the light checkers on white's back row." The
    /// identities are not chosen yet; until they are, the board holds
    /// orthodox pieces as placeholders that nobody sees.
    fn table_before_setup() -> CloakAndDagger {
        let pos = Position::from_parts(Board::new(), Color::White, Bitboard::EMPTY, None, 0, 1, Geometry::ORTHODOX);
        let checkers = ByColor::new_with(|color| {
            std::array::from_fn(|i| Checker { square: Some(home_square(color, i)), cloaked: true, moved: false })
        });
        CloakAndDagger {
            pos,
            placement: ByColor::new_with(|_| None),
            checkers,
            clues: ByColor::new_with(|_| Clues::default()),
            hands: ByColor::new_with(|_| 0),
            left_in_reach: ByColor::new_with(|_| Vec::new()),
            step: Step::Setup,
            bonus_for: None,
            start: None,
            last_move: Vec::new(),
            repetition: Vec::new(),
            outcome: None,
        }
    }

    /// "Write two grids like this to secretly record your pieces": the
    /// player's secret setup, already checked against the restrictions.
    fn place(&mut self, color: Color, setup: Setup, story: &mut Journal) {
        self.assign(color, setup);
        story.public_with(Some(seat_of(color)), || {
            format!("{} has placed their checkers in secret.", color_name(color))
        });
        if self.placement.iter().all(Option::is_some) {
            self.begin_play(story);
        }
    }

    /// Give `color`'s checkers the identities of `setup` on the board.
    fn assign(&mut self, color: Color, setup: Setup) {
        *self.placement.get_mut(color) = Some(setup);
        for (i, checker) in self.checkers.get(color).iter().enumerate() {
            if let Some(square) = checker.square {
                self.pos.set_piece_at(square, setup[i].of(color));
            }
        }
        self.sync_castling();
    }

    fn begin_play(&mut self, story: &mut Journal) {
        self.step = Step::Start;
        story.public(None, "Both players have placed their checkers. White moves first.");
        self.start = Some(StartOfPlay::Game(Arc::new(self.clone())));
        self.repetition = vec![self.repetition_key()];
        self.judge_start_of_turn(story);
    }

    /// Castling rights, as in Chess960: each rook that has never moved, while
    /// the king has never moved. Kept in the position for the move generator.
    fn sync_castling(&mut self) {
        let mut rooks = Bitboard::EMPTY;
        for color in Color::ALL {
            let Some(setup) = self.placement.get(color) else { continue };
            let checkers = self.checkers.get(color);
            let king = checkers[index_of(setup, Role::King)];
            if king.moved || king.square.is_none() {
                continue;
            }
            for (i, checker) in checkers.iter().enumerate() {
                if setup[i] == Role::Rook && !checker.moved {
                    if let Some(square) = checker.square {
                        rooks.add(square);
                    }
                }
            }
        }
        self.pos.set_castling_rooks(rooks);
    }
}

fn index_of(setup: &Setup, role: Role) -> usize {
    setup.iter().position(|&r| r == role).expect("a checked setup has every kind")
}

// ----------------------------------------------------------------------
// What stands where
// ----------------------------------------------------------------------

impl CloakAndDagger {
    /// The checker of `color` on `square`, as an index (0 for checker 1).
    fn checker_at(&self, color: Color, square: Square) -> Option<usize> {
        self.checkers.get(color).iter().position(|c| c.square == Some(square))
    }

    /// The true identity of checker `index` of `color` (placed players only).
    fn identity(&self, color: Color, index: usize) -> Option<Role> {
        self.placement.get(color).map(|setup| setup[index])
    }

    fn cloaked_squares(&self, color: Color) -> Bitboard {
        self.checkers.get(color).iter().filter(|c| c.cloaked).filter_map(|c| c.square).collect()
    }

    fn king_is_cloaked(&self, color: Color) -> bool {
        match self.placement.get(color) {
            Some(setup) => self.checkers.get(color)[index_of(setup, Role::King)].cloaked,
            None => true,
        }
    }

    /// Pieces of `attacker` that both players can see attacking `square`:
    /// uncloaked pieces and pawns.
    fn visible_attackers(pos: &Position, square: Square, attacker: Color, hidden: Bitboard) -> Bitboard {
        pos.attackers_to(square, attacker, pos.board().occupied()) & !hidden
    }

    /// Whether `color`'s king is uncloaked and in check from a piece both
    /// players can see.
    fn in_visible_check(&self, color: Color) -> bool {
        if self.king_is_cloaked(color) {
            return false;
        }
        self.pos.king_of(color).is_some_and(|king| {
            Self::visible_attackers(&self.pos, king, color.other(), self.cloaked_squares(color.other())).any()
        })
    }

    /// Whether move `m` of the side to move would leave its uncloaked king
    /// in a check both players can see. A cloaked king "may move into
    /// check, stay in check", so nothing is ever refused for it.
    fn exposes_king(&self, m: Move) -> bool {
        let us = self.pos.turn();
        if self.king_is_cloaked(us) {
            return false;
        }
        let mut after = self.pos.clone();
        after.play_unchecked(m);
        let hidden = self.cloaked_squares(us.other());
        after.king_of(us).is_some_and(|king| Self::visible_attackers(&after, king, us.other(), hidden).any())
    }

    fn piece_count(&self, color: Color) -> usize {
        self.pos.board().by_color(color).count()
    }
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl CloakAndDagger {
    /// The regular moves of the side to move: pawns as usual, checkers as their
    /// true identity allows (docs/games/cloak-and-dagger.md, "Rulings"),
    /// castling as in Chess960.
    fn regular_moves(&self) -> MoveList {
        let mut moves = self.regular_candidates();
        moves.retain(|m| !self.exposes_king(*m));
        moves
    }

    /// The regular moves before the king's safety is asked: the search lists
    /// them at every node, and the end of a turn needs only to know whether
    /// one of them is legal, so each is tested for exposing the king only
    /// where it is needed. In the order of [`Self::regular_moves`].
    fn regular_candidates(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.regular_candidates_of(self.pos.board().by_color(self.pos.turn()), &mut moves);
        moves
    }

    /// [`Self::regular_candidates`] of the pieces on `from_set` alone (and
    /// castling, when the king is among them: castling is written from the
    /// king's square in either style), into `moves`, in the same order: an
    /// applied move is looked for among its own piece's moves, without
    /// castling's attack tests unless the king moves.
    fn regular_candidates_of(&self, from_set: Bitboard, moves: &mut MoveList) {
        self.board_moves_into(from_set, moves);
        if from_set.intersects(self.pos.board().kings()) {
            self.castling_moves_into(moves);
        }
    }

    /// Whether the side to move has a regular move: the first legal one
    /// found answers (a turn start asks, to find mate and stalemate). The
    /// candidates are generated piece by piece, castling last, so that the
    /// first piece with a legal move spares generating the others'; pawns
    /// first, as at the start of play only the pawns and knights can move
    /// and the back rank comes first in square order.
    fn has_regular_move(&self) -> bool {
        let mut moves = MoveList::new();
        let ours = self.pos.board().by_color(self.pos.turn());
        let pawns = ours & self.pos.board().pawns();
        for from in pawns.into_iter().chain(ours & !pawns) {
            moves.clear();
            self.board_moves_into(Bitboard::from_square(from), &mut moves);
            if moves.iter().any(|&m| !self.exposes_king(m)) {
                return true;
            }
        }
        moves.clear();
        self.castling_moves_into(&mut moves);
        moves.iter().any(|&m| !self.exposes_king(m))
    }

    /// The moves of the side to move's pieces on `from_set` by the board
    /// alone, castling aside, appended to `moves` (empty before): without
    /// an en passant capture of its own pawn, as a player keeps the turn
    /// after a double step made as a bonus move or before one, and en
    /// passant is allowed only on the opponent's move right after the
    /// double step.
    fn board_moves_into(&self, from_set: Bitboard, moves: &mut MoveList) {
        let us = self.pos.turn();
        let own_double_step = self
            .pos
            .ep_square()
            .is_some_and(|ep| ep.rank() == us.fold_wb(shakmaty::Rank::Third, shakmaty::Rank::Sixth));
        self.pos.piece_moves_into(from_set, moves);
        if own_double_step {
            moves.retain(|m| !m.is_en_passant());
        }
    }

    /// The regular moves that take or promote, before the king's safety is
    /// asked, in the order of [`Self::regular_candidates`] (castling does
    /// neither): generated to the opponent's squares and the last rank
    /// alone, en passant after them as [`Self::board_moves_into`] allows
    /// it. What the search's quiescence looks at, at nearly every node.
    fn capture_and_promotion_candidates_into(&self, moves: &mut MoveList) {
        let us = self.pos.turn();
        let board = self.pos.board();
        let last_rank = Bitboard::from_rank(us.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First));
        self.pos.pseudo_legal_moves_to(board.by_color(us.other()) | last_rank, moves);
        moves.retain(|m| m.is_capture() || m.is_promotion());
        if let Some(ep) = self.pos.ep_square() {
            let mut pawn_moves = MoveList::new();
            self.board_moves_into(attacks::pawn_attacks(us.other(), ep) & board.by_piece(us.pawn()), &mut pawn_moves);
            moves.extend(pawn_moves.iter().copied().filter(|m| m.is_en_passant()));
        }
    }

    /// "Castling is the same as in Chess 960: the king and rook end up on the
    /// same squares they do in standard chess. All spaces between their start
    /// position and their end position must be empty, except for the king and
    /// the castling rook. All spaces between the king's start and end
    /// positions must not be under attack, if the king is uncloaked." A
    /// cloaked king may "castle out of check". The position only offers
    /// castling to the true king and rook.
    fn castling_moves_into(&self, moves: &mut MoveList) {
        let us = self.pos.turn();
        let mut all = MoveList::new();
        self.pos.castling_moves(false, &mut all);
        if self.king_is_cloaked(us) {
            moves.extend(all);
            return;
        }
        let hidden = self.cloaked_squares(us.other());
        moves.extend(all.into_iter().filter(|&m| {
            let Move::Castle { king, rook } = m else { return false };
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            let king_to = side.king_to(us);
            let path = attacks::between(king, king_to).with(king).with(king_to);
            let occupied = self.pos.board().occupied().without(king).without(rook);
            let visible = self.pos.board().by_color(us.other()) & !hidden;
            !path.into_iter().any(|sq| (self.pos.attackers_to(sq, us.other(), occupied) & visible).any())
        }));
    }

    /// "Your bonus move may be either a regular pawn move or to take back a
    /// pawn that your opponent captured and drop it on an empty square in
    /// your second rank."
    fn bonus_moves(&self) -> Vec<Move> {
        let us = self.pos.turn();
        let mut pawn_moves = MoveList::new();
        self.board_moves_into(self.pos.board().pawns(), &mut pawn_moves);
        let mut moves: Vec<Move> = pawn_moves.to_vec();
        if *self.hands.get(us) > 0 {
            let second = Bitboard::from_rank(us.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh));
            for to in second & !self.pos.board().occupied() {
                moves.push(Move::Put { role: Role::Pawn, to });
            }
        }
        moves.retain(|&m| !self.exposes_king(m));
        moves
    }

    /// The guesses open to the side to move: any kind for any of the
    /// opponent's cloaked checkers. "You may guess the identity of one of
    /// your opponent's checkers" sets no limit, so a guess the guesser's own
    /// grid already rules out is offered too (it can only be wrong, and so
    /// give the opponent a bonus move); [`Self::note_for`] marks it. Not
    /// collected: the search lists them straight into its own list.
    fn guesses(&self) -> impl Iterator<Item = CloakAction> + '_ {
        let them = self.pos.turn().other();
        self.checkers
            .get(them)
            .iter()
            .filter(|c| c.cloaked)
            .filter_map(|c| c.square)
            .flat_map(|square| CHECKER_KINDS.iter().map(move |&role| CloakAction::Guess { square, role }))
    }

    /// Whether the side to move's own grid (public facts only, so the mark
    /// reveals nothing) already rules out the guess that the opponent's
    /// checker on `square` is a `role`.
    fn ruled_out(&self, square: Square, role: Role) -> bool {
        let them = self.pos.turn().other();
        let Some(index) = self.checkers.get(them).iter().position(|c| c.square == Some(square)) else { return false };
        let Some(row) = CHECKER_KINDS.iter().position(|&kind| kind == role) else { return false };
        self.clues.get(them).grid()[row][index] == Cell::Impossible
    }

    /// What taking an offered action costs now, for its label. A bonus move
    /// owed before the turn keeps the turn and the regular move (or a
    /// guess) gives it up, as the same pawn move may be offered both ways;
    /// after a right guess and the move, uncloaking or ending the turn gives
    /// up the bonus move.
    fn note_for(&self, action: &CloakAction) -> Note {
        let owed = self.step == Step::Start && self.bonus_for == Some(self.pos.turn());
        match action {
            CloakAction::Guess { square, role } if self.ruled_out(*square, *role) => Note::RuledOut,
            CloakAction::Guess { .. } | CloakAction::Move(_) if owed => Note::GivesUpBonus,
            CloakAction::Bonus(_) | CloakAction::Drop(_) if owed => Note::KeepsTurn,
            CloakAction::Uncloak(_) | CloakAction::Done if self.step == Step::Bonus => Note::GivesUpBonus,
            _ => Note::Plain,
        }
    }

    /// The checkers the side to move may uncloak now. Uncloaking the king
    /// while a visible piece attacks it would leave an uncloaked king in
    /// check, so the king then stays cloaked.
    fn uncloakable(&self) -> Vec<Square> {
        let us = self.pos.turn();
        let hidden = self.cloaked_squares(us.other());
        self.checkers
            .get(us)
            .iter()
            .filter(|c| c.cloaked)
            .filter_map(|c| c.square)
            .filter(|&sq| {
                self.pos.board().role_at(sq) != Some(Role::King)
                    || !Self::visible_attackers(&self.pos, sq, us.other(), hidden).any()
            })
            .collect()
    }

    /// "At the start of your turn, you may guess the identity of one of your
    /// opponent's checkers. If you guess correctly, you may make a bonus move
    /// after your regular move. ... If you guess incorrectly, your opponent
    /// may make the same kind of bonus move before their next turn."
    fn guess(&mut self, square: Square, role: Role, story: &mut Journal) {
        let us = self.pos.turn();
        let them = us.other();
        let index = self.checker_at(them, square).expect("a checked guess names a checker");
        let correct = self.identity(them, index) == Some(role);
        if correct {
            self.clues.get_mut(them).reveal(index, role);
        } else {
            self.clues.get_mut(them).rule_out(index, role);
        }
        story.public_with(Some(seat_of(us)), || {
            let answer = if correct {
                format!("right. {} may make a bonus move after their regular move.", color_name(us))
            } else {
                format!("wrong. {} may make a bonus move before their next turn.", color_name(them))
            };
            format!(
                "{} guesses that {}'s checker {} on {square} is a {}: {answer}",
                color_name(us),
                color_name(them),
                index + 1,
                role_name(role)
            )
        });
        self.bonus_for = if correct { None } else { Some(them) };
        self.step = Step::Guessed { correct };
    }

    /// The regular move. Guessing or moving gives up a bonus move the
    /// opponent's wrong guess earned.
    fn regular_move(&mut self, m: Move, story: &mut Journal) {
        let us = self.pos.turn();
        if self.bonus_for == Some(us) {
            self.bonus_for = None;
        }
        let earned_bonus = self.step == Step::Guessed { correct: true };
        self.play(m, false, story);
        if self.outcome.is_some() {
            return;
        }
        if earned_bonus && !self.bonus_moves().is_empty() {
            self.step = Step::Bonus;
        } else {
            self.enter_uncloaking(story);
        }
    }

    /// The bonus move a wrong guess of the opponent earned, before the turn.
    fn bonus_before_turn(&mut self, m: Move, story: &mut Journal) {
        self.bonus_for = None;
        self.play(m, true, story);
        if self.outcome.is_none() {
            self.judge_start_of_turn(story);
        }
    }

    /// The bonus move a right guess earned, after the regular move.
    fn bonus_after_move(&mut self, m: Move, story: &mut Journal) {
        self.play(m, true, story);
        if self.outcome.is_none() {
            self.enter_uncloaking(story);
        }
    }

    fn enter_uncloaking(&mut self, story: &mut Journal) {
        let us = self.pos.turn();
        if self.cloaked_squares(us).any() {
            self.step = Step::Uncloak;
        } else {
            self.end_turn(story);
        }
    }

    /// "At the end of your turn, you may replace any number of your checkers
    /// with their uncloaked chess pieces."
    fn uncloak(&mut self, square: Square, story: &mut Journal) {
        let us = self.pos.turn();
        let index = self.checker_at(us, square).expect("a checked uncloak names a checker");
        let role = self.identity(us, index).expect("placed");
        self.checkers.get_mut(us)[index].cloaked = false;
        self.clues.get_mut(us).reveal(index, role);
        self.repetition.clear();
        story.public_with(Some(seat_of(us)), || {
            format!("{} uncloaks checker {} on {square}: a {}.", color_name(us), index + 1, role_name(role))
        });
        self.step = Step::Uncloak;
        if self.cloaked_squares(us).is_empty() {
            self.end_turn(story);
        }
    }

    /// Hand the turn to the opponent and judge the position they face.
    fn end_turn(&mut self, story: &mut Journal) {
        let us = self.pos.turn();
        self.note_checkers_left_in_reach(us);
        let fullmoves = self.pos.fullmoves() + us.fold_wb(0, 1);
        let halfmoves = self.pos.halfmoves();
        set_clocks(&mut self.pos, us.other(), halfmoves, fullmoves);
        self.step = Step::Start;
        self.repetition.push(self.repetition_key());
        self.judge_start_of_turn(story);
    }

    /// Which of `us`'s cloaked checkers end the turn attacked by pieces of
    /// the opponent that both players see (pawns and uncloaked pieces).
    fn note_checkers_left_in_reach(&mut self, us: Color) {
        let hidden = self.cloaked_squares(us.other());
        let in_reach = self.checkers.get(us).iter().enumerate().fold(0u8, |bits, (index, checker)| {
            let attacked = checker.cloaked
                && checker.square.is_some_and(|sq| Self::visible_attackers(&self.pos, sq, us.other(), hidden).any());
            if attacked {
                bits | 1 << index
            } else {
                bits
            }
        });
        if in_reach != 0 {
            self.left_in_reach.get_mut(us).push(in_reach);
        }
    }

    /// Play a regular or bonus move of the side to move, who keeps the turn:
    /// the move is announced, what it shows about the moving checker is
    /// learnt, and a captured checker is told.
    fn play(&mut self, m: Move, bonus: bool, story: &mut Journal) {
        let us = self.pos.turn();
        let them = us.other();
        // Written before the move is played (it names the pieces as they
        // stood); a search's muted journal would drop it, so it is not written.
        let announcement = (!story.is_muted()).then(|| self.announce(m, bonus));
        self.learn_from_move(m);
        let captured_square = match m {
            Move::Normal { capture: Some(_), to, .. } => Some(to),
            Move::EnPassant { from, to } => Some(Square::from_coords(to.file(), from.rank())),
            _ => None,
        };
        if let Some(square) = captured_square {
            match self.checker_at(them, square) {
                // "If one of your checkers is captured, tell your opponent
                // which piece they captured."
                Some(index) => {
                    let role = self.identity(them, index).expect("placed");
                    self.checkers.get_mut(them)[index].square = None;
                    self.clues.get_mut(them).reveal(index, role);
                }
                None if self.pos.board().role_at(square) == Some(Role::Pawn) => *self.hands.get_mut(them) += 1,
                None => {}
            }
        }
        match m {
            Move::Normal { from, to, .. } => {
                if let Some(index) = self.checker_at(us, from) {
                    let checker = &mut self.checkers.get_mut(us)[index];
                    checker.square = Some(to);
                    checker.moved = true;
                }
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(rook.file() > king.file());
                let (k, r) = (self.checker_at(us, king), self.checker_at(us, rook));
                for (index, to) in [(k, side.king_to(us)), (r, side.rook_to(us))] {
                    let checker = &mut self.checkers.get_mut(us)[index.expect("the castling pieces are checkers")];
                    checker.square = Some(to);
                    checker.moved = true;
                }
            }
            Move::Put { .. } => *self.hands.get_mut(us) -= 1,
            Move::EnPassant { .. } => {}
        }
        let fullmoves = self.pos.fullmoves();
        self.pos.play_unchecked(m);
        let halfmoves = if m.is_zeroing() { 0 } else { self.pos.halfmoves() };
        set_clocks(&mut self.pos, us, halfmoves, fullmoves);
        self.sync_castling();
        if m.is_zeroing() {
            self.repetition.clear();
        }
        self.last_move = m.from().into_iter().chain([m.to()]).collect();
        match announcement {
            Some(announcement) if bonus => story.public(Some(seat_of(us)), announcement),
            Some(announcement) => story.public_move(seat_of(us), long_algebraic(m), announcement),
            None => {}
        }
        if m.capture() == Some(Role::King) {
            self.finish(Outcome::win(vec![seat_of(us)], "king captured"), story);
        }
    }

    /// What a move shows about the checker that made it: the kinds that can
    /// make that move from that square (castling shows the king and rook).
    fn learn_from_move(&mut self, m: Move) {
        let us = self.pos.turn();
        match m {
            Move::Normal { from, to, .. } => {
                if let Some(index) = self.checker_at(us, from) {
                    let occupied = self.pos.board().occupied();
                    let kinds = CHECKER_KINDS
                        .iter()
                        .filter(|&&role| self.pos.piece_attacks(from, role.of(us), occupied).contains(to))
                        .fold(chesskit_core::chess::RoleSet::EMPTY, |set, &role| set.with(role));
                    self.clues.get_mut(us).narrow(index, kinds);
                }
            }
            Move::Castle { king, rook } => {
                for (square, role) in [(king, Role::King), (rook, Role::Rook)] {
                    if let Some(index) = self.checker_at(us, square) {
                        self.clues.get_mut(us).reveal(index, role);
                    }
                }
            }
            _ => {}
        }
    }

    /// A piece as both players see it: a pawn, `checker 3`, `knight 7` (an
    /// uncloaked checker) or `queen` (a promoted pawn).
    fn public_name(&self, color: Color, square: Square) -> String {
        let role = self.pos.board().role_at(square).unwrap_or(Role::Pawn);
        match self.checker_at(color, square) {
            Some(index) if self.checkers.get(color)[index].cloaked => format!("checker {}", index + 1),
            Some(index) => format!("{} {}", role_name(role), index + 1),
            None => role_name(role).to_string(),
        }
    }

    /// The public announcement of a move, written before it is played (the
    /// log entry names the player): `e2-e4`, `checker 2 b1-c3`, `knight 7
    /// g1xe5, capturing Black's checker 3: it was the bishop`.
    fn announce(&self, m: Move, bonus: bool) -> String {
        let us = self.pos.turn();
        let them = us.other();
        let who = if bonus { "bonus move: " } else { "" };
        match m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(rook.file() > king.file());
                let number = |sq| self.checker_at(us, sq).map_or(0, |i| i + 1);
                format!(
                    "{who}castles {} side: checker {} is the king ({king}-{}), checker {} the rook ({rook}-{}).",
                    if side.is_king_side() { "king" } else { "queen" },
                    number(king),
                    side.king_to(us),
                    number(rook),
                    side.rook_to(us)
                )
            }
            Move::Put { to, .. } => format!("{who}takes back a pawn and drops it on {to}."),
            Move::EnPassant { from, to } => format!("{who}{from}x{to} en passant, capturing a pawn."),
            Move::Normal { from, to, capture, promotion, .. } => {
                let piece = match self.pos.board().role_at(from) {
                    Some(Role::Pawn) => String::new(),
                    _ => format!("{} ", self.public_name(us, from)),
                };
                let mut text = format!("{who}{piece}{from}{}{to}", if capture.is_some() { "x" } else { "-" });
                if let Some(role) = promotion {
                    text.push_str(&format!(", promoting to a {}", role_name(role)));
                }
                if capture.is_some() {
                    text.push_str(&format!(", capturing {}'s {}", color_name(them), self.public_name(them, to)));
                    if let Some(index) = self.checker_at(them, to).filter(|&i| self.checkers.get(them)[i].cloaked) {
                        let role = self.identity(them, index).expect("placed");
                        text.push_str(&format!(": it was the {}", role_name(role)));
                    }
                }
                text.push('.');
                text
            }
        }
    }
}

/// Give `pos` the side to move and clocks, in place: the board, and the
/// sums and key the position keeps of it, stay as the move left them
/// (building the position again from its parts counted them again at
/// every move).
fn set_clocks(pos: &mut Position, turn: Color, halfmoves: u32, fullmoves: u32) {
    pos.set_turn(turn);
    pos.set_halfmoves(halfmoves);
    pos.set_fullmoves(fullmoves);
}

// ----------------------------------------------------------------------
// Game end
// ----------------------------------------------------------------------

impl CloakAndDagger {
    /// At the start of a turn: "Win by capturing a cloaked king or putting an
    /// uncloaked king in checkmate" (a capture ends the game at once, in
    /// [`CloakAndDagger::play`]), and the orthodox draws.
    fn judge_start_of_turn(&mut self, story: &mut Journal) {
        let us = self.pos.turn();
        let can_bonus = self.bonus_for == Some(us) && !self.bonus_moves().is_empty();
        if !self.has_regular_move() && !can_bonus {
            let outcome = if self.in_visible_check(us) {
                Outcome::win(vec![seat_of(us.other())], "checkmate")
            } else {
                Outcome::draw("stalemate")
            };
            self.finish(outcome, story);
        } else if self.piece_count(Color::White) == 1
            && self.piece_count(Color::Black) == 1
            && self.hands.iter().all(|&n| n == 0)
        {
            self.finish(Outcome::draw("insufficient material"), story);
        } else if self.pos.halfmoves() >= 100 {
            self.finish(Outcome::draw("fifty-move rule"), story);
        } else if let Some(last) = self.repetition.last() {
            if self.repetition.iter().filter(|k| *k == last).count() >= 3 {
                self.finish(Outcome::draw("threefold repetition"), story);
            }
        }
    }

    fn finish(&mut self, outcome: Outcome, story: &mut Journal) {
        let text = match outcome.winners.first() {
            Some(&seat) => format!("{} wins: {}.", color_name(seat_color(seat)), outcome.reason),
            None => format!("Draw: {}.", outcome.reason),
        };
        story.public(None, text);
        self.outcome = Some(outcome);
    }

    fn repetition_key(&self) -> RepetitionKey {
        let us = self.pos.turn();
        // The en passant square counts only when a pawn could take there, as
        // both players can see.
        let ep = self
            .pos
            .ep_square()
            .filter(|&ep| (attacks::pawn_attacks(us.other(), ep) & self.pos.board().by_piece(us.pawn())).any());
        let mut others = self.pos.board().clone();
        for checker in self.checkers.iter().flat_map(|side| side.iter()) {
            if let Some(square) = checker.square {
                others.discard_piece_at(square);
            }
        }
        RepetitionKey {
            others,
            checkers: [*self.checkers.get(Color::White), *self.checkers.get(Color::Black)],
            turn: us,
            ep,
            hands: [*self.hands.get(Color::White), *self.hands.get(Color::Black)],
            bonus_for: self.bonus_for,
        }
    }
}

// ----------------------------------------------------------------------
// Checking actions
// ----------------------------------------------------------------------

impl CloakAndDagger {
    /// The regular move an action names, in either castling style.
    fn resolve_regular(&self, action: &CloakAction, uci: &UciAction) -> Result<Move, RuleError> {
        let mut candidates = MoveList::new();
        self.regular_candidates_of(Bitboard::from_square(uci.from), &mut candidates);
        find_move_where(&candidates, uci, |m| !self.exposes_king(m))
            .ok_or_else(|| RuleError::illegal(action, self.why_not_regular(uci)))
    }

    /// Why a regular move is refused, in words that reveal nothing the mover
    /// may not know.
    fn why_not_regular(&self, uci: &UciAction) -> String {
        let us = self.pos.turn();
        match self.pos.board().piece_at(uci.from) {
            None => format!("there is no piece on {}", uci.from),
            Some(piece) if piece.color != us => format!("the piece on {} is not yours", uci.from),
            Some(piece) => {
                let mut pseudo = self.pos.pseudo_legal_moves();
                pseudo.retain(|m| !m.is_castle());
                self.pos.castling_moves(false, &mut pseudo);
                match find_move(&pseudo, uci) {
                    Some(m) if m.is_castle() => {
                        "an uncloaked king may not castle out of, through or into check".to_string()
                    }
                    Some(_) => "it would leave your uncloaked king in check".to_string(),
                    None => {
                        let name = match self.checker_at(us, uci.from) {
                            Some(i) => format!("your checker {} (a {})", i + 1, role_name(piece.role)),
                            None => format!("your {}", role_name(piece.role)),
                        };
                        format!("{name} cannot move {}-{} here", uci.from, uci.to)
                    }
                }
            }
        }
    }

    fn resolve_bonus(&self, action: &CloakAction) -> Result<Move, RuleError> {
        let moves = self.bonus_moves();
        let found = match action {
            CloakAction::Bonus(uci) => find_move(&moves, uci),
            CloakAction::Drop(square) => moves.iter().copied().find(|m| m.is_put() && m.to() == *square),
            _ => None,
        };
        found.ok_or_else(|| {
            let reason = match action {
                CloakAction::Drop(square) => {
                    let us = self.pos.turn();
                    if *self.hands.get(us) == 0 {
                        "you have no captured pawn to take back".to_string()
                    } else if square.rank() != us.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh) {
                        format!("a pawn taken back is dropped on your second rank, not on {square}")
                    } else if self.pos.board().occupied().contains(*square) {
                        format!("{square} is not empty")
                    } else {
                        "it would leave your uncloaked king in check".to_string()
                    }
                }
                _ => "a bonus move is a regular pawn move (bonus e4e5) or taking back a pawn (drop d2)".to_string(),
            };
            RuleError::illegal(action, reason)
        })
    }

    fn check_guess(&self, action: &CloakAction, square: Square) -> Result<(), RuleError> {
        let us = self.pos.turn();
        let refuse = |reason: String| Err(RuleError::illegal(action, reason));
        let Some(piece) = self.pos.board().piece_at(square) else {
            return refuse(format!("there is no piece on {square}"));
        };
        if piece.color == us {
            return refuse(format!("the piece on {square} is your own: guess one of your opponent's checkers"));
        }
        match self.checker_at(us.other(), square) {
            None => refuse(format!("the {} on {square} is not a checker", role_name(piece.role))),
            Some(index) if !self.checkers.get(us.other())[index].cloaked => refuse(format!(
                "the {} on {square} (checker {}) is uncloaked: guess a cloaked checker",
                role_name(piece.role),
                index + 1
            )),
            Some(_) if !self.has_regular_move() => {
                refuse("you have no regular move to follow a guess; take your bonus move".to_string())
            }
            Some(_) => Ok(()),
        }
    }

    fn check_uncloak(&self, action: &CloakAction, square: Square) -> Result<(), RuleError> {
        let us = self.pos.turn();
        let refuse = |reason: String| Err(RuleError::illegal(action, reason));
        match (self.pos.board().piece_at(square), self.checker_at(us, square)) {
            (Some(piece), _) if piece.color != us => refuse(format!("the piece on {square} is not yours")),
            (None, _) => refuse(format!("there is no piece on {square}")),
            (Some(piece), None) => refuse(format!("your {} on {square} is not a checker", role_name(piece.role))),
            (Some(_), Some(index)) if !self.checkers.get(us)[index].cloaked => {
                refuse(format!("your checker {} on {square} is already uncloaked", index + 1))
            }
            _ if !self.uncloakable().contains(&square) => {
                refuse("your king is in check: an uncloaked king may not stand in check".to_string())
            }
            _ => Ok(()),
        }
    }

    /// Why `action` does not fit the step the turn is in.
    fn wrong_step(&self, action: &CloakAction) -> RuleError {
        let reason = match self.step {
            Step::Setup => "first place your checkers in secret, like place RNBQKBNR",
            Step::Start if matches!(action, CloakAction::Bonus(..) | CloakAction::Drop(..)) => {
                "you have no bonus move now: only a right guess, or the opponent's wrong one, earns one"
            }
            Step::Start => "at the start of your turn you may take a bonus move you are owed, guess, or move",
            Step::Guessed { .. } => "you have guessed: now make your regular move",
            Step::Bonus => "your guess was right: make your bonus move, uncloak checkers, or end your turn (done)",
            Step::Uncloak => "your move is made: uncloak checkers (uncloak c1) or end your turn (done)",
        };
        RuleError::illegal(action, reason)
    }
}

/// The move `uci` names: the exact text first (castling as the king taking
/// its rook), then the king's two-square form of castling.
fn find_move(moves: &[Move], uci: &UciAction) -> Option<Move> {
    find_move_where(moves, uci, |_| true)
}

/// [`find_move`] among the moves of `candidates` that pass `legal`, which
/// is asked only of the moves the action could name (a search applies an
/// action at every node; testing each candidate would cost a list).
/// Compared square by square, not as text.
fn find_move_where(candidates: &[Move], uci: &UciAction, legal: impl Fn(Move) -> bool) -> Option<Move> {
    let named = |style: CastlingStyle, m: Move| !m.is_put() && UciAction::from_move(m, style) == *uci;
    let first = |style: CastlingStyle, castles_only: bool| {
        candidates.iter().copied().find(|&m| (!castles_only || m.is_castle()) && named(style, m) && legal(m))
    };
    first(CastlingStyle::KingTakesRook, false).or_else(|| first(CastlingStyle::Standard, true))
}

fn move_action(m: Move) -> UciAction {
    UciAction::from_move(m, CastlingStyle::KingTakesRook)
}

fn bonus_action(m: Move) -> CloakAction {
    match m {
        Move::Put { to, .. } => CloakAction::Drop(to),
        m => CloakAction::Bonus(move_action(m)),
    }
}

// ----------------------------------------------------------------------
// The Game trait
// ----------------------------------------------------------------------

impl Game for CloakAndDagger {
    type Action = CloakAction;
    const VARIANT: &'static str = "cloak-and-dagger";
    const TITLE: &'static str = "Cloak and Dagger Chess";

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec::choice(
            "setup",
            &["choose", "random"],
            "choose",
            "choose: both players place their checkers in secret; random: the referee draws each player's \
             setup among the 960 at random and tells each player only their own",
        )
        .label("How the checkers are placed")]
    }

    /// What the start announces is written to `story`.
    fn open(options: &Options, seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => {
                let mut game = CloakAndDagger::table_before_setup();
                match options.text("setup", "choose") {
                    "choose" => {}
                    "random" => {
                        let mut rng = GameRng::from_seed(seed);
                        for color in Color::ALL {
                            let n = chess960::random_number(&mut rng);
                            let setup = chess960::back_rank(n).expect("a number below 960");
                            game.assign(color, setup);
                        }
                        story.public(None, "The referee has placed both players' checkers at random, in secret.");
                        game.begin_play(story);
                    }
                    other => {
                        return Err(GameError::new(format!("option setup must be choose or random, not {other:?}")))
                    }
                }
                Ok(game)
            }
            Some(position) => {
                let mut game = text::read_position(position, story).map_err(GameError::new)?;
                if game.step != Step::Setup {
                    game.start = Some(StartOfPlay::Written(PgnStart::new(&game.pos, CastlingNotation::XFen, position)));
                }
                Ok(game)
            }
        }
    }

    fn position(&self) -> String {
        text::write_position(self)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SeatInfo::white_black()
    }

    /// The game as PGN, from the position after both placements (which the
    /// FEN tag shows, checkers as the pieces they are): one regular move per
    /// turn, and guesses, bonus moves and uncloakings as comments. A game is
    /// exported only once it is over.
    fn pgn(&self, story: &Journal) -> Option<String> {
        let start = self.start.as_ref().map(StartOfPlay::pgn_start);
        Some(pgn::variant_pgn("Cloak and Dagger", start.as_ref(), vec![], story, self.outcome.as_ref()))
    }

    fn to_act(&self) -> ToAct {
        if let Some(outcome) = &self.outcome {
            return ToAct::Over(outcome.clone());
        }
        match self.step {
            Step::Setup => {
                ToAct::Seats(Color::ALL.into_iter().filter(|&c| self.placement.get(c).is_none()).map(seat_of).collect())
            }
            _ => ToAct::one(seat_of(self.pos.turn())),
        }
    }

    /// [`Game::to_act`]'s first seat without its list: in the setup, the
    /// first player still to place; then the side to move.
    fn first_to_act(&self) -> Option<Seat> {
        (0..2).find(|&seat| self.is_to_act(seat))
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        if self.outcome.is_some() || seat > 1 {
            return false;
        }
        match self.step {
            Step::Setup => self.placement.get(seat_color(seat)).is_none(),
            _ => seat == seat_of(self.pos.turn()),
        }
    }

    /// The actions written into the search's list, which every node keeps
    /// and reuses: the placement alone offers 960 of them.
    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<CloakAction>) {
        into.clear();
        if !self.is_to_act(seat) {
            return;
        }
        // By reference: `into_iter` would copy the whole 256-move array.
        fn moves(list: &MoveList) -> impl Iterator<Item = CloakAction> + '_ {
            list.iter().map(|&m| CloakAction::Move(move_action(m)))
        }
        let uncloaks = || self.uncloakable().into_iter().map(CloakAction::Uncloak);
        match self.step {
            Step::Setup => into.extend(all_setups().iter().map(|&s| CloakAction::Place(s))),
            Step::Start => {
                if self.bonus_for == Some(self.pos.turn()) {
                    into.extend(self.bonus_moves().into_iter().map(bonus_action));
                }
                let regular = self.regular_moves();
                if !regular.is_empty() {
                    into.extend(self.guesses());
                    into.extend(moves(&regular));
                }
            }
            Step::Guessed { .. } => into.extend(moves(&self.regular_moves())),
            Step::Bonus => {
                into.extend(self.bonus_moves().into_iter().map(bonus_action));
                into.extend(uncloaks());
                into.push(CloakAction::Done);
            }
            Step::Uncloak => into.extend(uncloaks().chain([CloakAction::Done])),
        }
    }

    fn describe_action(&self, _seat: Seat, action: &CloakAction) -> ActionInfo {
        action.info_with(self.note_for(action))
    }

    fn apply_with(&mut self, seat: Seat, action: &CloakAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        let us = seat_color(seat);
        match (self.step, action) {
            (Step::Setup, CloakAction::Place(setup)) => {
                check_setup(setup).map_err(|reason| RuleError::illegal(action, reason))?;
                self.place(us, *setup, story);
            }
            (Step::Start, CloakAction::Bonus(..) | CloakAction::Drop(..)) if self.bonus_for == Some(us) => {
                let m = self.resolve_bonus(action)?;
                self.bonus_before_turn(m, story);
            }
            (Step::Start, CloakAction::Guess { square, role, .. }) => {
                self.check_guess(action, *square)?;
                self.guess(*square, *role, story);
            }
            (Step::Start | Step::Guessed { .. }, CloakAction::Move(uci)) => {
                let m = self.resolve_regular(action, uci)?;
                self.regular_move(m, story);
            }
            (Step::Bonus, CloakAction::Bonus(..) | CloakAction::Drop(..)) => {
                let m = self.resolve_bonus(action)?;
                self.bonus_after_move(m, story);
            }
            (Step::Bonus | Step::Uncloak, CloakAction::Uncloak(square)) => {
                self.check_uncloak(action, *square)?;
                self.uncloak(*square, story);
            }
            (Step::Bonus | Step::Uncloak, CloakAction::Done) => self.end_turn(story),
            _ => return Err(self.wrong_step(action)),
        }
        Ok(())
    }

    /// Besides the canonical texts, a guess or an uncloaking may name the
    /// checker by its number (`guess 3 N`, `uncloak 5`), a placement may be a
    /// Chess960 number (`place 518`), and castling may be written with the
    /// king's two-square move (`e1g1`).
    fn parse_action(&self, seat: Seat, text: &str) -> Result<CloakAction, RuleError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let me = seat_color(seat);
        let by_number = |color: Color, word: &str| -> Result<Option<String>, RuleError> {
            match word.parse::<usize>() {
                Ok(n) => {
                    let index = knowledge::parse_checker_number(word).map_err(|e| RuleError::malformed(text, e))?;
                    match self.checkers.get(color)[index].square {
                        Some(square) => Ok(Some(square.to_string())),
                        None => Err(RuleError::illegal(text, format!("checker {n} has been captured"))),
                    }
                }
                Err(_) => Ok(None),
            }
        };
        let rewritten = match words.as_slice() {
            [verb, number, kind] if verb.eq_ignore_ascii_case("guess") => {
                by_number(me.other(), number)?.map(|square| format!("guess {square} {kind}"))
            }
            [verb, number] if verb.eq_ignore_ascii_case("uncloak") => {
                by_number(me, number)?.map(|square| format!("uncloak {square}"))
            }
            [verb, number] if verb.eq_ignore_ascii_case("place") && number.chars().all(|c| c.is_ascii_digit()) => {
                let setup = number
                    .parse::<u32>()
                    .ok()
                    .and_then(chess960::back_rank)
                    .ok_or_else(|| RuleError::malformed(text, "a Chess960 number is 0 to 959"))?;
                Some(format!("place {}", action::setup_letters(&setup)))
            }
            _ => None,
        };
        let action: CloakAction =
            rewritten.as_deref().unwrap_or(text).parse().map_err(|reason| RuleError::malformed(text, reason))?;
        if let CloakAction::Move(uci) = action {
            if self.step != Step::Setup && self.pos.turn() == me {
                if let Some(m) = find_move(&self.regular_moves(), &uci) {
                    return Ok(CloakAction::Move(move_action(m)));
                }
            }
        }
        Ok(action)
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        crate::chess::position_heuristic(&self.pos, seat)
    }

    /// The board's Zobrist key (true identities: a search runs on a drawn
    /// world) and the rest of what the rules read: the secret setups, the
    /// checkers, the clues, the hands, the turns left in reach, the step
    /// of the turn and a bonus owed. Left out, as in chess: the record
    /// (PGN start, last move) and the repetition history.
    fn position_hash(&self) -> Option<u64> {
        let table = (&self.placement, &self.checkers, &self.clues, &self.hands);
        let turn = (&self.left_in_reach, self.step, self.bonus_for, self.outcome.is_some());
        Some(self.pos.zobrist() ^ hash_of(&(table, turn)))
    }

    fn is_noisy(&self, action: &CloakAction) -> bool {
        match action {
            CloakAction::Move(m) => crate::chess::is_capture_or_promotion(&self.pos, m),
            _ => false,
        }
    }

    /// Only a regular move can be noisy, and only the start of a turn and
    /// the step after a guess offer one: the regular moves that take or
    /// promote (castling does neither), in the order of the whole list,
    /// each tested for exposing the king alone. The search's quiescence
    /// asks at nearly every node; the guesses, the quiet moves and the
    /// placement's 960 setups are not listed for it.
    fn noisy_actions_into(&self, seat: Seat, into: &mut Vec<CloakAction>) {
        into.clear();
        if !self.is_to_act(seat) || !matches!(self.step, Step::Start | Step::Guessed { .. }) {
            return;
        }
        let mut candidates = MoveList::new();
        self.capture_and_promotion_candidates_into(&mut candidates);
        let legal = candidates.iter().copied().filter(|&m| !self.exposes_king(m));
        into.extend(legal.map(|m| CloakAction::Move(move_action(m))));
    }

    /// At the placement the list is the 960 setups in Chess960 order at
    /// every node where a player places: described once, and kept.
    fn kept_search_actions(&self, seat: Seat) -> Option<&'static [SearchAction]> {
        static PLACEMENTS: OnceLock<Vec<SearchAction>> = OnceLock::new();
        let describe_each = || all_setups().iter().map(|&setup| describe(self, &CloakAction::Place(setup))).collect();
        (self.step == Step::Setup && self.is_to_act(seat)).then(|| PLACEMENTS.get_or_init(describe_each).as_slice())
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    /// Re-draw the opponent's secret setup among those that agree with
    /// every public clue (moves, castling, guesses answered, captures and
    /// uncloakings), and that leave the side to move a move, as it has.
    /// The moves the opponent did not make weigh in too: a setup whose king
    /// is a checker the opponent left to be taken by a visible piece is
    /// [`knowledge::KING_LEFT_IN_REACH`] times as likely for each such turn.
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let them = seat_color(seat).other();
        // Once the game is over nothing is hidden any more.
        if self.placement.get(them).is_none() || self.outcome.is_some() {
            return self.clone();
        }
        let left = self.left_in_reach.get(them);
        let times_king_left = |setup: &&Setup| {
            let king = index_of(setup, Role::King);
            left.iter().filter(|&&bits| bits & (1 << king) != 0).count()
        };
        let candidates = in_likelihood_order(self.clues.get(them).candidates(), times_king_left, rng);
        for setup in candidates {
            let mut sample = self.clone();
            sample.assign(them, *setup);
            if sample.can_go_on() {
                return sample;
            }
        }
        self.clone()
    }
}

impl CloakAndDagger {
    /// Whether the side that must make a regular move can make one: true of
    /// the real game whenever it is not over, so a sample must agree.
    fn can_go_on(&self) -> bool {
        if self.outcome.is_some() {
            return true;
        }
        match self.step {
            Step::Start => {
                self.has_regular_move() || (self.bonus_for == Some(self.pos.turn()) && !self.bonus_moves().is_empty())
            }
            Step::Guessed { .. } => self.has_regular_move(),
            _ => true,
        }
    }

    /// The current step of the turn.
    pub fn step(&self) -> Step {
        self.step
    }

    /// The public clues about `color`'s checkers.
    pub fn clues(&self, color: Color) -> &Clues {
        self.clues.get(color)
    }

    /// `color`'s secret setup, once placed.
    pub fn placement(&self, color: Color) -> Option<&Setup> {
        self.placement.get(color).as_ref()
    }

    pub fn checkers(&self, color: Color) -> &[Checker; 8] {
        self.checkers.get(color)
    }

    pub fn board(&self) -> &Board {
        self.pos.board()
    }
}
