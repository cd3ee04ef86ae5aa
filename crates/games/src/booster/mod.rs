//! Booster Chess (rules.md, "Booster Chess"; docs/games/booster.md, "Rulings").
//! Offered as experimental: the 2025 booklet lists it among the broken games.
//!
//! "Start every game with a booster pack of cards to make your pieces
//! better or hobble your opponent's pieces." A turn has up to four parts
//! (docs/games/booster.md):
//! 1. **move** a chess piece (`e2e4`);
//! 2. if it is boosted, **spend** checkers on king steps (`step e4e5`) or `stop`;
//! 3. **add** a checker by playing a card (`play 9h e4`), or `pass`;
//! 4. **draw** cards until you hold one per checker in front of you (done
//!    by the referee).

mod action;
pub mod table;
mod text;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use crate::chess::{colour_word, seat_of};
use crate::clone_fields::clone_field_by_field;
use chesskit_core::cards::{checker_cards, piece_deck, Card, Deck, Meaning};
use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::eval::role_value;
use chesskit_core::chess::fen::{self, CastlingNotation};
use chesskit_core::chess::notation::{long_algebraic, parse_san, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, PgnStart};
use chesskit_core::chess::{Bitboard, Color, Move, MoveList, Position, Role, Square};
use chesskit_core::game::{Game, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{BoardView, CardZone, Journal, Marker, View};
use shakmaty::attacks;
use shakmaty::CastlingSide;

pub use action::BoosterAction;
pub use table::Stacks;

/// The part of the turn the player to move is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// "You must move a chess piece."
    Move,
    /// The boosted piece on this square may spend checkers on king steps.
    Spend(Square),
    /// "You may add a checker, by playing a card."
    Add,
}

/// What one checker under an own piece is worth, in pawns: an extra king
/// step whenever that piece moves.
const BOOST_WORTH: f64 = 0.25;
/// What a playable card is worth, in pawns: a checker to come, not yet
/// placed, so less than one on the board.
const CARD_WORTH: f64 = 0.1;

/// What hobbling an enemy piece of `role` is worth, in pawns: most of what
/// its own moves were worth beyond a pawn's. A hobbled king can hardly flee.
fn hobble_worth(role: Role) -> f64 {
    match role {
        Role::Pawn => 0.3,
        Role::King => 0.5,
        other => 0.4 * (role_value(other) - 1.0),
    }
}

/// A game of Booster Chess.
#[derive(Debug, PartialEq)]
pub struct BoosterGame {
    pub(crate) pos: Position,
    pub(crate) stacks: Stacks,
    /// The checkers in front of each player (off the board), White first.
    pub(crate) reserve: [u32; 2],
    /// Each player's cards, White first.
    pub(crate) hands: [Vec<Card>; 2],
    pub(crate) deck: Deck,
    pub(crate) discard: Vec<Card>,
    pub(crate) phase: Phase,
    /// The side whose turn it is (the position's turn passes with the regular move).
    pub(crate) mover: Color,
    /// Shuffles the discard pile when the draw pile runs out. Shared until
    /// used, so that the copies the search makes do not copy it.
    rng: std::sync::Arc<GameRng>,
    start: Option<PgnStart>,
    /// The squares of the last move, for the view (squares rather than
    /// text, so that copying a game allocates nothing).
    last_move: Option<(Square, Square)>,
    outcome: Option<Outcome>,
}

clone_field_by_field!(BoosterGame {
    pos,
    stacks,
    reserve,
    hands,
    deck,
    discard,
    phase,
    mover,
    rng,
    start,
    last_move,
    outcome,
});

fn index(color: Color) -> usize {
    color.fold_wb(0, 1)
}

fn checkers_word(n: u32) -> String {
    if n == 1 {
        "1 checker".to_string()
    } else {
        format!("{n} checkers")
    }
}

/// The options: "Make the game more predictable by using fewer checkers
/// cards in the deck or fewer checkers during setup. Make it less
/// predictable by using more. Handicap a player by giving them fewer
/// checkers than their opponent."
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub white_checkers: u32,
    pub black_checkers: u32,
    /// Checker cards in the deck: the four 6s by default, up to the 7s too.
    pub checker_cards: u32,
}

impl Setup {
    fn from_options(options: &Options) -> Setup {
        let each = options.int("checkers", 6);
        Setup {
            white_checkers: options.int("white_checkers", each) as u32,
            black_checkers: options.int("black_checkers", each) as u32,
            checker_cards: options.int("checker_cards", 4) as u32,
        }
    }

    /// The checkers `color` plays with.
    pub fn checkers(&self, color: Color) -> u32 {
        color.fold_wb(self.white_checkers, self.black_checkers)
    }

    /// The deck: "one card to represent each piece, as shown in appendix A
    /// ... add the sixes": 36 cards; more or fewer checker cards by option
    /// (the 6s first, then the 7s), keeping both colours as even as possible.
    pub fn deck(&self) -> Vec<Card> {
        let mut cards = piece_deck();
        cards.extend(checker_cards(true).into_iter().take(self.checker_cards as usize));
        cards
    }
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl BoosterGame {
    /// "Set up the chess pieces in the standard start position ... Place 6
    /// light checkers in front of White and 6 dark checkers in front of
    /// Black. Shuffle the deck and deal 6 cards to each player" ("always
    /// deal one card for each checker").
    fn setup(setup: Setup, seed: u64, story: &mut Journal) -> BoosterGame {
        let mut rng = GameRng::from_seed(seed);
        let mut deck = Deck::shuffled(setup.deck(), &mut rng);
        let white = deck.deal(setup.white_checkers as usize);
        let black = deck.deal(setup.black_checkers as usize);
        let mut game = BoosterGame {
            pos: Position::startpos(),
            stacks: Stacks::default(),
            reserve: [setup.white_checkers, setup.black_checkers],
            hands: [white, black],
            deck,
            discard: Vec::new(),
            phase: Phase::Move,
            mover: Color::White,
            rng: std::sync::Arc::new(rng),
            start: None,
            last_move: None,
            outcome: None,
        };
        game.start_turn(story);
        game
    }

    pub fn stacks(&self) -> &Stacks {
        &self.stacks
    }

    pub fn position_board(&self) -> &chesskit_core::chess::Board {
        self.pos.board()
    }

    /// What `color`'s checkers and cards are worth to it, in pawns. A
    /// checker under its own piece boosts it ("you may move it again one
    /// square in any direction"); one under an enemy piece hobbles that
    /// piece ("a hobbled pawn cannot move at all, and any other hobbled piece
    /// moves like a pawn"), which takes away most of a strong piece's worth
    /// and "more checkers hobble no worse"; and a card in hand with a checker
    /// in front of the player to play it is a boost or a hobble to come.
    fn boost(&self, color: Color) -> f64 {
        let board = self.pos.board();
        let stacks = &self.stacks;
        let holding = stacks.holding(color);
        let boosts: u32 = (holding & board.by_color(color)).into_iter().map(|sq| stacks.get(sq, color)).sum();
        let hobbles: f64 =
            (holding & board.by_color(!color)).into_iter().filter_map(|sq| board.role_at(sq)).map(hobble_worth).sum();
        let to_play = self.hands[index(color)].len().min(self.reserve[index(color)] as usize);
        BOOST_WORTH * f64::from(boosts) + hobbles + CARD_WORTH * to_play as f64
    }

    pub fn hand(&self, color: Color) -> &[Card] {
        &self.hands[index(color)]
    }

    pub fn reserve(&self, color: Color) -> u32 {
        self.reserve[index(color)]
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn deck_len(&self) -> usize {
        self.deck.len()
    }

    fn seat(&self) -> Seat {
        seat_of(self.mover)
    }

    /// Return cancelled pairs to their owners.
    fn add_checkers(&mut self, sq: Square, color: Color, n: u32) {
        let pairs = self.stacks.add(sq, color, n);
        self.reserve[0] += pairs;
        self.reserve[1] += pairs;
    }

    /// Put the checkers a move or step returned in front of their owners,
    /// and tell the table when hobble checkers left on the far rank.
    fn settle(&mut self, arrival: &table::Arrival, story: &mut Journal) {
        self.reserve[0] += arrival.returned[0];
        self.reserve[1] += arrival.returned[1];
        if arrival.far_rank > 0 {
            story.public_with(None, || {
                format!("{} leaves {} on the far rank", checkers_word(arrival.far_rank), arrival.to)
            });
        }
    }

    /// Whether the mover may take en passant now (the text position
    /// writes the square only then, as a FEN does).
    pub(crate) fn may_take_en_passant(&self) -> bool {
        self.legal_moves().iter().any(|m| matches!(m, Move::EnPassant { .. }))
    }

    /// The Zobrist key of the pieces, castling and en passant; at the
    /// start of a turn an en passant square the mover cannot use counts
    /// as none, as the text position writes it: the two are one state.
    fn board_key(&self) -> u64 {
        let unusable_ep = self.phase == Phase::Move && self.pos.ep_square().is_some() && !self.may_take_en_passant();
        if !unusable_ep {
            return self.pos.zobrist();
        }
        let mut pos = self.pos.clone();
        pos.set_ep_square(None);
        pos.zobrist()
    }

    /// Whether `color`'s king is attacked, booster moves included.
    pub fn king_attacked(&self, color: Color) -> bool {
        table::king_attacked(&self.pos, &self.stacks, color)
    }
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl BoosterGame {
    /// The regular moves of the mover, castling included, not yet checked
    /// for the king's safety.
    fn move_candidates(&self) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.move_candidates_into(&mut moves, None);
        moves.into_iter().collect()
    }

    /// [`BoosterGame::move_candidates`] into a list the caller owns.
    /// `safety`, when given, answers for castling's path where it can.
    fn move_candidates_into(&self, moves: &mut MoveList, safety: Option<&table::Safety>) {
        moves.clear();
        if self.pos.turn() == self.mover {
            table::regular_moves_into(&self.pos, &self.stacks, moves);
        } else {
            moves.extend(table::regular_moves(&self.pos, &self.stacks, self.mover));
        }
        let first_castle = moves.len();
        self.pos.castling_moves(false, moves);
        let mut i = first_castle;
        while i < moves.len() {
            if self.castling_allowed(moves[i], safety) {
                i += 1;
            } else {
                moves.remove(i);
            }
        }
    }

    /// "You may not castle, if either the king or the rook is boosted.
    /// During castling, you may not move your king through squares that
    /// could be attacked by booster moves." A hobbled king moves like a
    /// pawn, so it does not castle either (our ruling, docs/games/booster.md); a hobbled rook
    /// does, taking its checkers along.
    fn castling_allowed(&self, m: Move, safety: Option<&table::Safety>) -> bool {
        let Move::Castle { king, rook } = m else { return false };
        if !self.castling_pieces_allowed(king, rook) {
            return false;
        }
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let to = side.king_to(self.mover);
        let path = attacks::between(king, to) | Bitboard::from_square(king) | Bitboard::from_square(to);
        !path.into_iter().any(|sq| {
            safety
                .and_then(|safety| safety.attacked_now(&self.pos, sq))
                .unwrap_or_else(|| table::attacked(&self.pos, &self.stacks, sq, self.mover.other()))
        })
    }

    /// The legal regular moves: "You may not move a piece to reveal a check
    /// on your king, even if you then use a booster move to block the check
    /// again."
    ///
    /// With no checker on the board this is orthodox chess exactly, so the
    /// orthodox generator answers: no piece is boosted or hobbled, so every
    /// piece moves and attacks as in chess; no move can put a checker on
    /// the board (captures take over checkers, there are none), so after
    /// any move no enemy piece has booster steps and the extended attack is
    /// the orthodox attack; castling needs the king and rook unboosted
    /// (they are) and a path no enemy piece attacks (the orthodox test; a
    /// line through the king or rook to a path square passes the king's own
    /// square first, so leaving them on the board changes nothing). With a
    /// king on the board, that is `Position::legal_moves`. Otherwise each
    /// candidate is played on a trial copy of the board and its checkers
    /// only (the cards and log play no part in the king's safety).
    ///
    /// The trial board is the last resort: [`table::Safety`] judges most
    /// moves from checks, pins and a bound on the enemy's booster steps.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves.into_iter().collect()
    }

    /// Whether the mover has a legal regular move (the start of each turn
    /// asks, for mate and stalemate): as [`BoosterGame::legal_moves`]
    /// decides, without listing the moves where it can note them (stopping
    /// at the first found), and in orthodox chess by a safe king step
    /// where there is one.
    fn has_legal_move(&self) -> bool {
        if self.is_orthodox_now() {
            return self.pos.has_legal_move();
        }
        let safety = table::Safety::new(&self.pos, &self.stacks, self.mover);
        match &safety {
            Some(safety) if self.pos.turn() == self.mover && !safety.overflow() => {
                let mut any = table::AnyMove::default();
                self.safe_moves(safety, &mut any);
                any.0
            }
            _ => {
                let mut moves = MoveList::new();
                self.move_candidates_into(&mut moves, safety.as_ref());
                moves.iter().any(|m| self.candidate_is_legal(*m, safety.as_ref()))
            }
        }
    }

    /// [`BoosterGame::legal_moves`] into a list the caller owns, cleared first.
    fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        if self.is_orthodox_now() {
            self.pos.legal_moves_into(moves);
            return;
        }
        let safety = table::Safety::new(&self.pos, &self.stacks, self.mover);
        match &safety {
            Some(safety) if self.pos.turn() == self.mover && !safety.overflow() => self.safe_moves(safety, moves),
            _ => {
                self.move_candidates_into(moves, safety.as_ref());
                moves.retain(|m| self.candidate_is_legal(*m, safety.as_ref()));
            }
        }
    }

    /// No checker on the board and the mover's king on it: chess exactly
    /// (see [`BoosterGame::legal_moves`]).
    fn is_orthodox_now(&self) -> bool {
        self.stacks.loaded().is_empty() && self.pos.turn() == self.mover && self.pos.king_of(self.mover).is_some()
    }

    /// The legal regular moves, into `out` (listed or counted), when
    /// `safety` holds (the mover's turn, its king on the board).
    ///
    /// Most moves are plain (see [`table::Safety`]) and generated as chess
    /// generates legal moves, to the squares a mask allows: the king's
    /// steps square by square, every other unhobbled piece to its check
    /// and pin mask and, where its leaving could let a walker reach the
    /// king, to the squares where its arrival stops it. The rest are
    /// listed and judged one by one: moves onto squares where the arrival
    /// itself might help a walker (`touchy`), captures of pieces with
    /// checkers, en passant, the hobbled pieces' moves; castling last.
    /// Stops between these once `out` has enough.
    fn safe_moves<O: table::Out>(&self, safety: &table::Safety, out: &mut O) {
        let (pos, stacks, us) = (&self.pos, &self.stacks, self.mover);
        let board = pos.board();
        let ours = board.by_color(us);
        let hobbled = ours & stacks.holding(us.other());
        let loaded = stacks.loaded();
        let king = safety.king();
        let touchy = safety.touchy() & !loaded;
        let open = !ours & pos.mask() & !loaded & !touchy;
        if !hobbled.contains(king) {
            let steps = attacks::king_attacks(king) & open;
            out.piece(board, Role::King, king, safety.king_steps(pos, stacks, steps, stacks.get(king, us)));
        }
        if out.has_enough() {
            return;
        }
        let movers = ours.without(king) & !hobbled;
        let free = safety.free(stacks, ours) & movers;
        table::gen_moves(
            pos,
            free,
            safety.check_mask() & open,
            movers & !free,
            |from| safety.targets(pos, stacks, from) & open,
            out,
        );
        if out.has_enough() {
            return;
        }
        let mut rest = MoveList::new();
        self.judged_candidates_into(safety, movers, &mut rest);
        for &m in rest.iter() {
            if self.candidate_is_legal(m, Some(safety)) {
                out.one(m);
            }
        }
        if out.has_enough() {
            return;
        }
        if self.pos.castling_rooks().intersects(ours) {
            rest.clear();
            self.pos.castling_moves(false, &mut rest);
            for &m in rest.iter() {
                if self.castle_is_legal(m, safety) {
                    out.one(m);
                }
            }
        }
    }

    /// Whether the king on `king` and the rook on `rook` may castle as far
    /// as their checkers go: neither boosted, the king not hobbled either
    /// (see [`BoosterGame::castling_allowed`]).
    fn castling_pieces_allowed(&self, king: Square, rook: Square) -> bool {
        !self.stacks.loaded().contains(king) && self.stacks.get(rook, self.mover) == 0
    }

    /// Whether castling `m` is legal: by `safety` where it can tell, else
    /// square by square and on a trial board. `safety`'s castling tests
    /// assume the rook carries no checkers; a hobbled rook's checkers
    /// change hands where it lands, so that castling is played out.
    fn castle_is_legal(&self, m: Move, safety: &table::Safety) -> bool {
        let Move::Castle { king, rook } = m else { return false };
        if !self.castling_pieces_allowed(king, rook) {
            return false;
        }
        if self.stacks.loaded().contains(rook) {
            return self.castling_allowed(m, Some(safety)) && self.move_keeps_king_safe(m);
        }
        match safety.castle(&self.pos, king, rook) {
            Some(verdict) => verdict,
            None => self.castling_allowed(m, Some(safety)) && self.candidate_is_legal(m, Some(safety)),
        }
    }

    /// The moves [`BoosterGame::safe_moves`] judges one by one, into `rest`
    /// (not yet judged). `movers` are the mover's unhobbled pieces other
    /// than the king.
    fn judged_candidates_into(&self, safety: &table::Safety, movers: Bitboard, rest: &mut MoveList) {
        let board = self.pos.board();
        let ours = board.by_color(self.mover);
        let hobbled = ours & self.stacks.holding(self.mover.other());
        let loaded = self.stacks.loaded();
        let king = safety.king();
        // Captures of pieces with checkers: only the pieces that attack
        // one of them are asked.
        let loaded_enemies = loaded & board.by_color(self.mover.other());
        if loaded_enemies.any() {
            let capturers = loaded_enemies
                .into_iter()
                .fold(Bitboard::EMPTY, |set, sq| set | self.pos.attackers_to(sq, self.mover, board.occupied()));
            table::push_moves_to(&self.pos, capturers & !hobbled, |_| loaded_enemies, rest);
        }
        // Arrivals that might help a walker.
        let touchy = safety.touchy() & !loaded;
        if touchy.any() {
            table::push_moves_to(&self.pos, movers, |from| safety.allowed(from) & touchy, rest);
            if !hobbled.contains(king) {
                table::push_moves_to(&self.pos, Bitboard::from_square(king), |_| touchy, rest);
            }
        }
        if let Some(ep) = self.pos.ep_square().filter(|&ep| !board.occupied().contains(ep)) {
            for from in attacks::pawn_attacks(self.mover.other(), ep) & board.pawns() & ours & !hobbled {
                rest.push(Move::EnPassant { from, to: ep });
            }
        }
        for from in hobbled & !board.pawns() {
            table::push_hobbled_moves(board, from, self.mover, rest);
        }
    }

    /// Whether the candidate regular move `m` leaves the mover's king
    /// safe: by `safety` where it can tell, else on a trial board.
    fn candidate_is_legal(&self, m: Move, safety: Option<&table::Safety>) -> bool {
        let quick = match (m, safety) {
            (Move::Normal { role, from, to, .. }, Some(safety)) => {
                let double_step = role == Role::Pawn && (from as i32 - to as i32).abs() == 16;
                let plain = table::Plain {
                    from,
                    to,
                    carried: self.stacks.get(from, self.mover),
                    ep: if double_step { from.offset(self.mover.fold_wb(8, -8)) } else { None },
                };
                safety.quick(&self.pos, &self.stacks, plain)
            }
            (Move::Castle { king, rook }, Some(safety)) if !self.stacks.loaded().contains(rook) => {
                safety.castle_safe(&self.pos, king, rook)
            }
            _ => None,
        };
        quick.unwrap_or_else(|| self.move_keeps_king_safe(m))
    }

    /// Whether the regular move `m` leaves the mover's king unattacked, on a
    /// trial board.
    fn move_keeps_king_safe(&self, m: Move) -> bool {
        let (mut pos, mut stacks) = (self.pos.clone(), self.stacks.clone());
        table::play_move(&mut pos, &mut stacks, m, self.mover);
        !table::king_attacked(&pos, &stacks, self.mover)
    }

    /// Step 1, the move: "it brings any checkers along with it", and
    /// "your piece keeps any checkers that the captured piece was stacked on".
    /// A copy, for the reference rules the tests compare with; the referee
    /// plays in place ([`BoosterGame::make_move`]) once the move is known to
    /// be legal.
    #[cfg(test)]
    fn after_move(&self, m: Move, story: &mut Journal) -> BoosterGame {
        let mut next = self.clone();
        if matches!(m, Move::Put { .. }) {
            return next;
        }
        next.make_move(m, story);
        next
    }

    /// Play the regular move `m` in place (see `after_move`).
    fn make_move(&mut self, m: Move, story: &mut Journal) {
        if !self.moves_checkers(m) {
            // No checker moves, none is gained or returned, and the piece
            // arrives unboosted.
            self.pos.play_unchecked(m);
            self.phase = Phase::Add;
            return;
        }
        let arrival = table::play_move(&mut self.pos, &mut self.stacks, m, self.mover);
        self.settle(&arrival, story);
        self.set_phase_after(arrival.to);
    }

    /// Whether the regular move `m` moves, gains or cancels checkers: its
    /// piece or its victim has some (castling: a hobbled rook's).
    fn moves_checkers(&self, m: Move) -> bool {
        let loaded = self.stacks.loaded();
        match m {
            Move::Normal { from, to, .. } => loaded.contains(from) || loaded.contains(to),
            Move::EnPassant { from, to } => {
                loaded.contains(from) || loaded.contains(Square::from_coords(to.file(), from.rank()))
            }
            Move::Castle { king, rook } => loaded.contains(king) || loaded.contains(rook),
            Move::Put { .. } => true,
        }
    }

    /// After a piece arrives on `to`: it may spend if it is boosted.
    fn set_phase_after(&mut self, to: Square) {
        self.phase = if table::boosts(self.pos.board(), &self.stacks, to) > 0
            && self.pos.board().color_at(to) == Some(self.mover)
        {
            Phase::Spend(to)
        } else {
            Phase::Add
        };
    }

    fn regular_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let shown = BoosterAction::Move(action);
        if self.phase != Phase::Move {
            return Err(RuleError::illegal(shown, "the move of this turn is made"));
        }
        let mut candidates = MoveList::new();
        self.move_candidates_into(&mut candidates, None);
        let Some(m) = action.resolve(&candidates) else {
            return Err(RuleError::illegal(shown, self.why_not_a_move(action)));
        };
        if !self.move_keeps_king_safe(m) {
            return Err(RuleError::illegal(
                shown,
                "that would leave your king where an enemy piece could capture it next turn (booster moves included)",
            ));
        }
        let seat = self.seat();
        self.make_move(m, story);
        story.public_move_with(seat, || {
            let text = long_algebraic(m);
            let en_passant = if m.is_en_passant() { " e.p." } else { "" };
            (text.clone(), format!("{text}{en_passant}"))
        });
        let canonical = UciAction::from_move(m, CastlingStyle::Standard);
        self.last_move = Some((canonical.from, canonical.to));
        self.after_action(story);
        Ok(())
    }

    fn why_not_a_move(&self, action: UciAction) -> String {
        let board = self.pos.board();
        if board.color_at(action.from) != Some(self.mover) {
            return format!("{} holds no piece of yours", action.from);
        }
        if table::hobbled(board, &self.stacks, action.from) {
            return if board.role_at(action.from) == Some(Role::Pawn) {
                format!("the pawn on {} is hobbled: it cannot move at all", action.from)
            } else {
                format!(
                    "the piece on {} is hobbled: it moves like a pawn, one square forward or capturing diagonally forward",
                    action.from
                )
            };
        }
        if board.kings().contains(action.from) && action.from.distance(action.to) > 1 {
            return "you may not castle now: not with a boosted or hobbled king nor a boosted rook, nor through a square booster \
                    moves could attack"
                .to_string();
        }
        "not a legal move in this position".to_string()
    }

    /// The booster king steps the piece on `sq` may take (not yet checked
    /// for the king's safety).
    fn step_candidates(&self, sq: Square) -> Vec<UciAction> {
        let board = self.pos.board();
        let Some(piece) = board.piece_at(sq) else { return Vec::new() };
        let mut steps = Vec::new();
        for to in attacks::king_attacks(sq) & !board.by_color(self.mover) {
            if piece.role == Role::Pawn
                && to.rank() == self.mover.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First)
            {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    steps.push(UciAction { from: sq, to, promotion: Some(role) });
                }
            } else {
                steps.push(UciAction { from: sq, to, promotion: None });
            }
        }
        steps
    }

    /// Step 2, spending: "you may move it like a king, one space in any
    /// direction. If you make the king's move, remove the checker and place
    /// it in front of you." A booster step never takes en passant and gives
    /// no en passant square; a pawn reaching the back rank promotes and may
    /// go on spending.
    fn take_step(&mut self, step: UciAction, story: &mut Journal) {
        let arrival = table::play_step(&mut self.pos, &mut self.stacks, step, self.mover);
        self.settle(&arrival, story);
        self.set_phase_after(arrival.to);
    }

    /// [`BoosterGame::take_step`] on a copy, for the reference rules.
    #[cfg(test)]
    fn after_step(&self, step: UciAction, story: &mut Journal) -> BoosterGame {
        let mut next = self.clone();
        next.take_step(step, story);
        next
    }

    /// Whether the booster step leaves the mover's king unattacked, on a
    /// trial board.
    fn step_keeps_king_safe(&self, step: UciAction) -> bool {
        let (mut pos, mut stacks) = (self.pos.clone(), self.stacks.clone());
        table::play_step(&mut pos, &mut stacks, step, self.mover);
        !table::king_attacked(&pos, &stacks, self.mover)
    }

    pub fn legal_steps(&self) -> Vec<UciAction> {
        let Phase::Spend(sq) = self.phase else { return Vec::new() };
        let safety = table::Safety::new(&self.pos, &self.stacks, self.mover);
        self.step_candidates(sq)
            .into_iter()
            .filter(|&s| {
                let plain = table::Plain {
                    from: s.from,
                    to: s.to,
                    carried: self.stacks.get(s.from, self.mover).saturating_sub(1),
                    ep: None,
                };
                let quick = safety.as_ref().and_then(|safety| safety.quick(&self.pos, &self.stacks, plain));
                quick.unwrap_or_else(|| self.step_keeps_king_safe(s))
            })
            .collect()
    }

    fn spend(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let shown = BoosterAction::Step(action);
        let Phase::Spend(sq) = self.phase else {
            return Err(RuleError::illegal(shown, "no boosted piece of yours may step now"));
        };
        if action.from != sq {
            return Err(RuleError::illegal(shown, format!("only the boosted piece that moved, on {sq}, may step")));
        }
        if !self.step_candidates(sq).contains(&action) {
            let reason = if action.from.distance(action.to) != 1 {
                "a booster move is one step like a king".to_string()
            } else if self.pos.board().color_at(action.to) == Some(self.mover) {
                format!("{} holds your own piece", action.to)
            } else {
                "a pawn stepping onto its last rank promotes: name the piece, as in e7e8q; no other step names one"
                    .to_string()
            };
            return Err(RuleError::illegal(shown, reason));
        }
        if !self.step_keeps_king_safe(action) {
            return Err(RuleError::illegal(
                shown,
                "that would leave your king where an enemy piece could capture it next turn (booster moves included)",
            ));
        }
        let capture = self.pos.board().color_at(action.to).is_some();
        self.take_step(action, story);
        story.public_with(Some(self.seat()), || {
            format!("booster move {}{}{}", action.from, if capture { 'x' } else { '-' }, action.to)
        });
        self.last_move = Some((action.from, action.to));
        self.after_action(story);
        Ok(())
    }

    fn stop(&mut self, story: &mut Journal) -> Result<(), RuleError> {
        let Phase::Spend(sq) = self.phase else {
            return Err(RuleError::illegal(BoosterAction::Stop, "there are no booster moves to stop now"));
        };
        story.public_with(Some(self.seat()), || {
            format!("stops, keeping {} on {sq}", checkers_word(self.stacks.get(sq, self.mover)))
        });
        self.phase = Phase::Add;
        self.after_action(story);
        Ok(())
    }

    /// "You may add one to a piece that matches the card. Checkers cards
    /// match any piece of that colour ... If there are no pieces left on the
    /// board to match a card, you may use it to add one of your checkers to
    /// any piece of the card's colour, just like a checkers card."
    ///
    /// The squares of the pieces `card` matches, as one set: the listing
    /// asks for every card in hand, which square by square cost a lookup
    /// each (the reference rules keep the square-by-square reading).
    fn matching_squares(&self, card: Card) -> Bitboard {
        let board = self.pos.board();
        match card.meaning() {
            Some(Meaning::Checker(colour)) => board.by_color(colour),
            Some(Meaning::Piece(wanted)) => {
                let same = board.by_color(wanted.color) & board.by_role(wanted.role);
                if same.any() {
                    same
                } else {
                    board.by_color(wanted.color)
                }
            }
            None => Bitboard::EMPTY,
        }
    }

    /// Play `card` to put one of the mover's checkers under the piece on
    /// `sq` (checked before).
    fn put_checker(&mut self, card: Card, sq: Square) {
        let us = self.mover;
        let hand = &mut self.hands[index(us)];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
        }
        self.discard.push(card);
        self.reserve[index(us)] -= 1;
        self.add_checkers(sq, us, 1);
    }

    /// [`BoosterGame::put_checker`] on a copy, for the reference rules.
    #[cfg(test)]
    fn after_play(&self, card: Card, sq: Square) -> BoosterGame {
        let mut next = self.clone();
        next.put_checker(card, sq);
        next
    }

    /// Whether one more checker of the mover under `sq` leaves the mover's
    /// king unattacked, on a trial copy of the checkers.
    fn play_keeps_king_safe(&self, sq: Square) -> bool {
        let mut stacks = self.stacks.clone();
        stacks.add(sq, self.mover, 1);
        !table::king_attacked(&self.pos, &stacks, self.mover)
    }

    /// The card plays open now: a card in hand, a matching piece, a checker
    /// in front of the player, and the king still safe afterwards (a hobble
    /// checker makes a piece attack like a pawn).
    pub fn legal_plays(&self) -> Vec<(Card, Square)> {
        self.plays().collect()
    }

    /// Whether a card play is open now: the first one found answers
    /// (asked after every move and step, to end the turn when none is), the
    /// cards tried as they lie in the hand, without a sorted copy of it.
    fn has_legal_play(&self) -> bool {
        self.may_play_a_card() && self.plays_of(self.hands[index(self.mover)].iter().copied()).next().is_some()
    }

    /// Whether it is time to play a card and a checker is there to add.
    fn may_play_a_card(&self) -> bool {
        self.phase == Phase::Add && self.reserve[index(self.mover)] > 0
    }

    /// The card plays of [`Self::legal_plays`], in its order (by card,
    /// then square), found as they are asked for.
    fn plays(&self) -> impl Iterator<Item = (Card, Square)> + '_ {
        let mut cards: Vec<Card> =
            if self.may_play_a_card() { self.hands[index(self.mover)].clone() } else { Vec::new() };
        cards.sort();
        cards.dedup();
        self.plays_of(cards)
    }

    /// The plays of `cards`, card by card, then square by square. A
    /// square's king safety is the same for every card that matches it, so
    /// it is tested once.
    fn plays_of<'a>(&'a self, cards: impl IntoIterator<Item = Card> + 'a) -> impl Iterator<Item = (Card, Square)> + 'a {
        let safe_squares = std::cell::Cell::new(Bitboard::EMPTY);
        let unsafe_squares = std::cell::Cell::new(Bitboard::EMPTY);
        let keeps_king_safe = move |sq: Square| {
            if safe_squares.get().contains(sq) || unsafe_squares.get().contains(sq) {
                return safe_squares.get().contains(sq);
            }
            let safe = self.play_keeps_king_safe(sq);
            let known = if safe { &safe_squares } else { &unsafe_squares };
            known.set(known.get().with(sq));
            safe
        };
        cards
            .into_iter()
            .flat_map(move |card| self.matching_squares(card).into_iter().map(move |sq| (card, sq)))
            .filter(move |&(_, sq)| keeps_king_safe(sq))
    }

    fn play_card(&mut self, card: Card, sq: Square, story: &mut Journal) -> Result<(), RuleError> {
        let shown = BoosterAction::Play(card, sq);
        if self.phase != Phase::Add {
            return Err(RuleError::illegal(shown, "cards are played after the move and the booster moves"));
        }
        if !self.hands[index(self.mover)].contains(&card) {
            return Err(RuleError::illegal(shown, format!("you hold no {card}")));
        }
        if self.reserve[index(self.mover)] == 0 {
            return Err(RuleError::illegal(shown, "you have no checker in front of you to add"));
        }
        if !self.matching_squares(card).contains(sq) {
            let what = match self.pos.board().piece_at(sq) {
                None => format!("{sq} is empty"),
                Some(p) => {
                    format!("the {} {} on {sq} does not match the card", colour_word(p.color), role_name(p.role))
                }
            };
            return Err(RuleError::illegal(shown, what));
        }
        if !self.play_keeps_king_safe(sq) {
            return Err(RuleError::illegal(shown, "that checker would let an enemy piece capture your king next turn"));
        }
        story.public_with(Some(self.seat()), || {
            let piece = self.pos.board().piece_at(sq).expect("matched");
            format!(
                "plays the {card} and adds a {} checker under the {} {} on {sq}",
                colour_word(self.mover),
                colour_word(piece.color),
                role_name(piece.role)
            )
        });
        self.put_checker(card, sq);
        self.end_turn(story);
        Ok(())
    }

    fn pass(&mut self, story: &mut Journal) -> Result<(), RuleError> {
        if self.phase != Phase::Add {
            return Err(RuleError::illegal(BoosterAction::Pass, "there is no card play to pass now"));
        }
        self.end_turn(story);
        Ok(())
    }

    /// After each move or step: with nothing to spend and no card to play,
    /// the turn ends by itself.
    fn after_action(&mut self, story: &mut Journal) {
        if self.phase == Phase::Add && !self.has_legal_play() {
            self.end_turn(story);
        }
    }

    /// Step 4, drawing: "draw cards until you have the same number of cards
    /// as checkers off the board" (in front of you), shuffling the discard
    /// pile into a new draw pile when it runs out.
    fn draw_cards(&mut self, story: &mut Journal) {
        let us = index(self.mover);
        while (self.hands[us].len() as u32) < self.reserve[us] {
            if self.deck.is_empty() {
                if self.discard.is_empty() {
                    break;
                }
                let cards = std::mem::take(&mut self.discard);
                self.deck = Deck::shuffled(cards, std::sync::Arc::make_mut(&mut self.rng));
                story.public(None, "the discard pile is shuffled into a new draw pile");
            }
            let card = self.deck.draw().expect("not empty");
            self.hands[us].push(card);
        }
    }

    fn end_turn(&mut self, story: &mut Journal) {
        self.hand_over(story);
        self.start_turn(story);
    }

    /// Draw, then the turn passes to the opponent (not yet judged).
    fn hand_over(&mut self, story: &mut Journal) {
        self.draw_cards(story);
        self.mover = self.mover.other();
        self.pos.set_turn(self.mover);
        self.phase = Phase::Move;
    }
}

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

impl BoosterGame {
    /// "Win by checkmate, as in regular chess, but you may use booster
    /// moves to threaten the king." No legal move: checkmate when the king
    /// is attacked (booster moves included), else stalemate. The referee
    /// also claims the fifty-move rule and bare kings without checkers.
    fn start_turn(&mut self, story: &mut Journal) {
        if self.phase != Phase::Move {
            return;
        }
        let can_move = self.has_legal_move();
        self.judge(can_move, story);
    }

    /// The game end at the start of a turn, given whether the mover has a
    /// legal move.
    fn judge(&mut self, can_move: bool, story: &mut Journal) {
        let winner = seat_of(self.mover.other());
        let board = self.pos.board();
        let bare = board.occupied() == board.kings() && self.stacks.loaded().is_empty();
        self.outcome = if !can_move {
            Some(if self.king_attacked(self.mover) {
                Outcome::win(vec![winner], "checkmate")
            } else {
                Outcome::draw("stalemate")
            })
        } else if bare {
            Some(Outcome::draw("insufficient material"))
        } else if self.pos.halfmoves() >= 100 {
            Some(Outcome::draw("fifty-move rule"))
        } else {
            None
        };
        if let Some(outcome) = &self.outcome {
            story.public(None, format!("game over: {}", outcome.reason));
        }
    }
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for BoosterGame {
    type Action = BoosterAction;
    const VARIANT: &'static str = "booster";
    const TITLE: &'static str = "Booster Chess";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int("checkers", 0, 12, 6, "Checkers each player starts with (and cards dealt)")
                .label("Checkers each"),
            OptionSpec::int("white_checkers", 0, 12, 6, "Handicap: White's checkers (overrides the number above)")
                .label("White's checkers")
                .advanced(),
            OptionSpec::int("black_checkers", 0, 12, 6, "Handicap: Black's checkers (overrides the number above)")
                .label("Black's checkers")
                .advanced(),
            OptionSpec::int("checker_cards", 0, 8, 4, "Checker cards in the deck: the 6s, then the 7s")
                .label("Checker cards"),
        ]
    }

    /// What the start announces is written to `story`.
    fn open(options: &Options, seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(BoosterGame::setup(Setup::from_options(options), seed, story)),
            Some(position) => {
                let parts = text::read(position, &Setup::from_options(options))?;
                let start = PgnStart::new(&parts.pos, CastlingNotation::XFen, position);
                let mut game = BoosterGame {
                    pos: parts.pos,
                    stacks: parts.stacks,
                    reserve: parts.reserve,
                    hands: parts.hands,
                    deck: parts.deck,
                    discard: parts.discard,
                    phase: parts.phase,
                    mover: parts.mover,
                    rng: std::sync::Arc::new(GameRng::from_seed(seed)),
                    start: Some(start),
                    last_move: None,
                    outcome: None,
                };
                game.start_turn(story);
                if game.outcome.is_none() && game.legal_actions(game.seat()).is_empty() {
                    return Err(GameError::new("the turn in progress in this position cannot be completed legally"));
                }
                Ok(game)
            }
        }
    }

    fn position(&self) -> String {
        text::write(self)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SeatInfo::white_black()
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(self.seat()),
        }
    }

    /// Single-mover: the mover while the game goes on, without the list
    /// [`Game::to_act`] builds.
    fn first_to_act(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| self.seat())
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.first_to_act() == Some(seat)
    }

    /// The actions written into the search's list: the list every node
    /// keeps is reused rather than one allocated per node.
    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<BoosterAction>) {
        into.clear();
        if !self.is_to_act(seat) {
            return;
        }
        match self.phase {
            Phase::Move => {
                let mut moves = MoveList::new();
                self.legal_moves_into(&mut moves);
                into.extend(
                    moves.iter().map(|&m| BoosterAction::Move(UciAction::from_move(m, CastlingStyle::Standard))),
                );
            }
            Phase::Spend(_) => {
                into.extend(self.legal_steps().into_iter().map(BoosterAction::Step));
                into.push(BoosterAction::Stop);
            }
            Phase::Add => {
                into.extend(self.plays().map(|(c, s)| BoosterAction::Play(c, s)));
                into.push(BoosterAction::Pass);
            }
        }
    }

    fn apply_with(&mut self, seat: Seat, action: &BoosterAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match *action {
            BoosterAction::Move(m) => self.regular_move(m, story),
            BoosterAction::Step(m) => self.spend(m, story),
            BoosterAction::Stop => self.stop(story),
            BoosterAction::Play(card, sq) => self.play_card(card, sq, story),
            BoosterAction::Pass => self.pass(story),
        }
    }

    /// Moves in UCI or SAN; while spending, a bare `e5e6` is the step `step e5e6`.
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<BoosterAction, RuleError> {
        match text.parse::<BoosterAction>() {
            Ok(BoosterAction::Move(m)) if matches!(self.phase, Phase::Spend(_)) => Ok(BoosterAction::Step(m)),
            Ok(BoosterAction::Move(m)) => {
                let candidates = self.move_candidates();
                Ok(BoosterAction::Move(
                    m.resolve(&candidates).map_or(m, |found| UciAction::from_move(found, CastlingStyle::Standard)),
                ))
            }
            Ok(other) => Ok(other),
            Err(reason) => match parse_san(&self.pos, text) {
                Ok(m) if self.phase == Phase::Move => {
                    Ok(BoosterAction::Move(UciAction::from_move(m, CastlingStyle::Standard)))
                }
                _ => Err(RuleError::malformed(text, reason)),
            },
        }
    }

    /// "Look at your cards, but don't show them to your opponent": the
    /// opponent's hand and the draw pile's order are redrawn from the cards
    /// this seat has not seen, keeping every count.
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        let other = if seat == 0 { 1 } else { 0 };
        let mut unseen: Vec<Card> = game.hands[other].clone();
        unseen.extend_from_slice(game.deck.cards());
        // In a canonical order before the shuffle: where the unseen cards
        // really lie must not steer the draw (the computer players would
        // read it through their choices).
        unseen.sort();
        rng.shuffle(&mut unseen);
        let n = game.hands[other].len();
        game.hands[other] = unseen.split_off(unseen.len() - n);
        game.deck = Deck::new(unseen);
        game.rng = std::sync::Arc::new(GameRng::from_seed(rng.next_u64()));
        game
    }

    fn pgn(&self, story: &Journal) -> Option<String> {
        Some(pgn::variant_pgn("Booster", self.start.as_ref(), vec![], story, self.outcome.as_ref()))
    }

    // The key of everything the rules read, the hidden cards included
    // (the search plays drawn worlds): pieces, checkers, reserves, hands,
    // draw and discard piles, the step of the turn.
    fn position_hash(&self) -> Option<u64> {
        let cards = (&self.hands, self.deck.cards(), &self.discard);
        let rest = (&self.stacks, self.reserve, cards, self.phase, self.mover, &self.outcome);
        Some(self.board_key() ^ hash_of(&rest))
    }

    /// The chess evaluation plus each side's checkers and cards (see
    /// [`BoosterGame::boost`]).
    fn heuristic(&self, seat: Seat) -> Option<f64> {
        let chess = crate::chess::position_heuristic(&self.pos, seat)?;
        let color = crate::chess::seat_color(seat);
        Some(chess + self.boost(color) - self.boost(!color))
    }

    fn is_noisy(&self, action: &BoosterAction) -> bool {
        match action {
            BoosterAction::Move(m) => crate::chess::is_capture_or_promotion(&self.pos, m),
            BoosterAction::Step(m) => crate::chess::takes_or_promotes(self.pos.board(), None, m),
            _ => false,
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        let stacks = &self.stacks;
        let markers = |sq: Square| {
            let mut m = Vec::new();
            for color in Color::ALL {
                let n = stacks.get(sq, color);
                if n > 0 {
                    m.push(Marker::checkers(colour_word(color), n));
                }
            }
            m
        };
        let mut zones = Vec::new();
        for color in Color::ALL {
            let seat = seat_of(color);
            let hand = &self.hands[index(color)];
            let mine = viewer.seat() == Some(seat);
            zones.push(CardZone {
                name: format!("{} hand", fen::color_name(color)),
                owner: Some(seat),
                cards: if mine { hand.iter().map(Card::to_string).collect() } else { Vec::new() },
                hidden: if mine { 0 } else { hand.len() },
            });
        }
        zones.push(CardZone { name: "draw pile".to_string(), owner: None, cards: Vec::new(), hidden: self.deck.len() });
        zones.push(CardZone {
            name: "discard pile".to_string(),
            owner: None,
            cards: self.discard.iter().map(Card::to_string).collect(),
            hidden: 0,
        });
        let mut view = View {
            board: Some(BoardView::from_board(self.pos.board(), self.pos.mask(), &markers)),
            zones,
            notes: vec![format!(
                "Checkers in front of the players: White {}, Black {}",
                self.reserve[0], self.reserve[1]
            )],
            last_move: self.last_move.map_or_else(Vec::new, |(from, to)| vec![from.to_string(), to.to_string()]),
            ..View::default()
        };
        if self.phase == Phase::Move && self.king_attacked(self.mover) {
            view.check = self.pos.king_of(self.mover).map(|k| k.to_string());
        }
        if self.outcome.is_none() {
            view.prompt = Some(self.prompt(viewer.seat() == Some(self.seat())));
        }
        view
    }
}

impl BoosterGame {
    fn prompt(&self, mine: bool) -> String {
        let name = fen::color_name(self.mover);
        if !mine {
            return match self.phase {
                Phase::Move => format!("{name} to move"),
                Phase::Spend(_) => format!("{name} is making booster moves"),
                Phase::Add => format!("{name} may play a card to add a checker"),
            };
        }
        match self.phase {
            Phase::Move if self.king_attacked(self.mover) => "Your move: your king is in check".to_string(),
            Phase::Move => "Your move".to_string(),
            Phase::Spend(sq) => format!(
                "Your piece on {sq} is boosted with {}: move it one more step like a king (spending one), or stop",
                checkers_word(self.stacks.get(sq, self.mover))
            ),
            Phase::Add => "You may play a card to add one of your checkers under a matching piece, or pass".to_string(),
        }
    }
}
