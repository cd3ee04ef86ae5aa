//! Orthodox chess and Chess960 (rules.md, "Chess960"): the base most Chess
//! Kit games modify.
//!
//! Rulings: the referee claims draws for the players, so threefold
//! repetition, the fifty-move rule and insufficient material end the game
//! at once, as do checkmate and stalemate.

use chesskit_core::chess::chess960;
use chesskit_core::chess::eval;
use chesskit_core::chess::exchange::static_exchange;
use chesskit_core::chess::fen::{self, CastlingNotation, Markers, Validation};
use chesskit_core::chess::notation::{parse_san, to_san, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, PgnGame};
use chesskit_core::chess::{Bitboard, Board, Color, File, Geometry, Move, MoveList, Position, Rank, Role, Square};
use chesskit_core::game::{Game, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::rng::GameRng;
use chesskit_core::view::{BoardView, Journal, View};

/// What makes two positions "the same" for repetition: pieces, side to
/// move, castling rights and a usable en passant square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RepetitionKey {
    board: Board,
    turn: Color,
    castling: Bitboard,
    ep: Option<Square>,
}

impl RepetitionKey {
    pub fn of(pos: &Position) -> RepetitionKey {
        RepetitionKey {
            board: pos.board().clone(),
            turn: pos.turn(),
            castling: pos.castling_rooks(),
            ep: pos.legal_ep_square(),
        }
    }
}

/// The end of an orthodox game in `pos`, given the positions seen since the
/// last irreversible move (`pos` included): checkmate, stalemate,
/// insufficient material, the fifty-move rule, threefold repetition.
pub fn orthodox_outcome(pos: &Position, history: &[RepetitionKey]) -> Option<Outcome> {
    let winner_seat = |color: Color| color.fold_wb(0, 1);
    if !pos.has_legal_move() {
        return Some(if pos.is_check() {
            Outcome::win(vec![winner_seat(pos.turn().other())], "checkmate")
        } else {
            Outcome::draw("stalemate")
        });
    }
    if pos.is_insufficient_material() {
        return Some(Outcome::draw("insufficient material"));
    }
    if pos.halfmoves() >= 100 {
        return Some(Outcome::draw("fifty-move rule"));
    }
    if let Some(last) = history.last() {
        if history.iter().filter(|k| *k == last).count() >= 3 {
            return Some(Outcome::draw("threefold repetition"));
        }
    }
    None
}

/// A game of chess or Chess960.
#[derive(Debug, PartialEq)]
pub struct ChessGame {
    chess960: bool,
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// Positions since the last capture or pawn move, for repetition.
    repetition: Vec<RepetitionKey>,
    outcome: Option<Outcome>,
}

/// Written out for `clone_from`: the search rewrites one copy per child it
/// holds (crates/core/src/search_node.rs), and the move list and the
/// repetition history then reuse their allocations instead of new ones.
impl Clone for ChessGame {
    fn clone(&self) -> ChessGame {
        ChessGame {
            chess960: self.chess960,
            start: self.start.clone(),
            pos: self.pos.clone(),
            moves: self.moves.clone(),
            repetition: self.repetition.clone(),
            outcome: self.outcome.clone(),
        }
    }

    fn clone_from(&mut self, source: &ChessGame) {
        self.chess960 = source.chess960;
        self.start.clone_from(&source.start);
        self.pos.clone_from(&source.pos);
        self.moves.clone_from(&source.moves);
        self.repetition.clone_from(&source.repetition);
        self.outcome.clone_from(&source.outcome);
    }
}

impl ChessGame {
    pub fn from_start(start: Position, chess960: bool) -> ChessGame {
        let mut game = ChessGame {
            chess960,
            repetition: vec![RepetitionKey::of(&start)],
            pos: start.clone(),
            start,
            moves: Vec::new(),
            outcome: None,
        };
        game.outcome = orthodox_outcome(&game.pos, &game.repetition);
        game
    }

    pub fn position_now(&self) -> &Position {
        &self.pos
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn style(&self) -> CastlingStyle {
        if self.chess960 {
            CastlingStyle::KingTakesRook
        } else {
            CastlingStyle::Standard
        }
    }

    fn notation(&self) -> CastlingNotation {
        if self.chess960 {
            CastlingNotation::Shredder
        } else {
            CastlingNotation::XFen
        }
    }

    fn seat_of(color: Color) -> Seat {
        color.fold_wb(0, 1)
    }

    /// Play a legal move and record it. The SAN is written only for a
    /// journal that keeps it: a search's copies do not.
    fn play(&mut self, m: Move, story: &mut Journal) {
        story.public_with(Some(Self::seat_of(self.pos.turn())), || to_san(&self.pos, m));
        if m.is_zeroing() {
            self.repetition.clear();
        }
        self.pos.play_unchecked(m);
        self.moves.push(m);
        self.repetition.push(RepetitionKey::of(&self.pos));
        self.outcome = orthodox_outcome(&self.pos, &self.repetition);
    }

    fn result_token(&self) -> &'static str {
        pgn::result_token(self.outcome.as_ref())
    }
}

fn parse_start(text: &str, chess960: bool) -> Result<Position, GameError> {
    let (pos, markers) = fen::parse_fen_with(text, Geometry::ORTHODOX, Validation::ORTHODOX).map_err(GameError::new)?;
    if !markers.is_empty() {
        return Err(GameError::new("chess positions carry no {...} markers"));
    }
    if !chess960 {
        // Orthodox castling needs the king on e1/e8 and rooks in the corners.
        for color in Color::ALL {
            let rights = pos.castling_rooks() & Bitboard::from_rank(color.backrank());
            let king_home = Square::from_coords(chesskit_core::chess::File::E, color.backrank());
            if rights.any() && (pos.king_of(color) != Some(king_home) || !rights.is_subset(Bitboard::CORNERS)) {
                return Err(GameError::new(
                    "orthodox castling needs the king on the e-file and rooks in the corners; use chess960",
                ));
            }
        }
    }
    Ok(pos)
}

impl Game for ChessGame {
    type Action = UciAction;
    const VARIANT: &'static str = "chess";
    const TITLE: &'static str = "Chess";

    fn new(_options: &Options, _seed: u64) -> Result<Self, GameError> {
        Ok(ChessGame::from_start(Position::startpos(), false))
    }

    fn from_position(position: &str, _options: &Options, _seed: u64) -> Result<Self, GameError> {
        Ok(ChessGame::from_start(parse_start(position, false)?, false))
    }

    fn position(&self) -> String {
        fen::to_fen(&self.pos, self.notation())
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SeatInfo::white_black()
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(Self::seat_of(self.pos.turn())),
        }
    }

    fn first_to_act(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| Self::seat_of(self.pos.turn()))
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.first_to_act() == Some(seat)
    }

    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<UciAction>) {
        into.clear();
        if self.outcome.is_none() && seat == Self::seat_of(self.pos.turn()) {
            let mut moves = MoveList::new();
            self.pos.legal_moves_into(&mut moves);
            into.extend(moves.iter().map(|&m| UciAction::from_move(m, self.style())));
        }
    }

    fn apply_with(&mut self, seat: Seat, action: &UciAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        let m = self
            .pos
            .legal_move_from(action.from, |m| action.names(m))
            .ok_or_else(|| RuleError::illegal(action, "not a legal move in this position"))?;
        self.play(m, story);
        Ok(())
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        position_heuristic(&self.pos, seat)
    }

    fn is_noisy(&self, action: &UciAction) -> bool {
        is_capture_or_promotion(&self.pos, action)
    }

    fn position_hash(&self) -> Option<u64> {
        Some(self.pos.zobrist())
    }

    /// The board's static exchange: chess's captures are settled by the
    /// pieces that reach the square.
    fn exchange_value(&self, action: &UciAction) -> Option<f64> {
        Some(static_exchange(&self.pos, action.from, action.to, action.promotion))
    }

    fn in_check(&self) -> bool {
        self.outcome.is_none() && self.pos.is_check()
    }

    /// Not in check, and with a piece beside the king and pawns: endings
    /// of king and pawns are where zugzwang decides games.
    fn may_pass_in_search(&self) -> bool {
        self.outcome.is_none() && !self.pos.is_check() && has_a_piece(&self.pos)
    }

    fn pass_in_search(&mut self) -> bool {
        if !self.may_pass_in_search() {
            return false;
        }
        self.pos.pass_turn();
        // A pass repeats no position the search should count.
        self.repetition.clear();
        self.repetition.push(RepetitionKey::of(&self.pos));
        self.outcome = orthodox_outcome(&self.pos, &self.repetition);
        true
    }

    fn parse_action(&self, _seat: Seat, text: &str) -> Result<UciAction, RuleError> {
        let legal = self.pos.legal_moves();
        if let Ok(action) = text.trim().parse::<UciAction>() {
            // Normalise either castling style to this game's canonical one.
            return Ok(action.resolve(&legal).map_or(action, |m| UciAction::from_move(m, self.style())));
        }
        match parse_san(&self.pos, text) {
            Ok(m) => Ok(UciAction::from_move(m, self.style())),
            Err(reason) => Err(RuleError::malformed(text, format!("{reason}; write moves in UCI (e2e4) or SAN (Nf3)"))),
        }
    }

    fn view(&self, _viewer: Viewer) -> View {
        let mut view = View {
            board: Some(BoardView::from_board(self.pos.board(), self.pos.mask(), &|_| Vec::new())),
            ..View::default()
        };
        if let Some(&m) = self.moves.last() {
            view.last_move = vec![m.from().map(|s| s.to_string()).unwrap_or_default(), m.to().to_string()];
        }
        if self.pos.is_check() {
            view.check = self.pos.king_of(self.pos.turn()).map(|k| k.to_string());
            view.checkers = self.pos.checkers().into_iter().map(|s| s.to_string()).collect();
        }
        if self.outcome.is_none() {
            view.prompt = Some(format!("{} to move", fen::color_name(self.pos.turn())));
        }
        view
    }

    fn pgn(&self, _story: &Journal) -> Option<String> {
        let mut tags = pgn::seven_tag_roster("chesskit game", self.result_token());
        if self.chess960 {
            tags.push(("Variant", "Chess960".to_string()));
        }
        if self.chess960 || self.start != Position::startpos() {
            tags.push(("SetUp", "1".to_string()));
            tags.push(("FEN", fen::to_fen(&self.start, self.notation())));
        }
        Some(PgnGame { tags, start: self.start.clone(), moves: &self.moves, result: self.result_token() }.render())
    }
}

/// Read the FEN line of a game that keeps an en passant square through a
/// whole turn of several moves (the cooperative games): by the time the
/// text is written the square, or the one the pawn started from, may hold
/// a piece that moved there this turn, so only the rank and the double
/// stepped pawn just beyond are checked (the FEN reader would refuse it).
pub fn parse_fen_with_turn_ep(fen_line: &str, validation: Validation) -> Result<(Position, Markers), String> {
    let mut fields: Vec<&str> = fen_line.split_whitespace().collect();
    let ep = fields.get(3).copied().filter(|&field| field != "-");
    if ep.is_some() {
        fields[3] = "-";
    }
    let (mut pos, markers) = fen::parse_fen_with(&fields.join(" "), Geometry::ORTHODOX, validation)?;
    if let Some(field) = ep {
        let square = fen::parse_square(field).ok_or_else(|| format!("bad en passant square {field:?}"))?;
        let us = pos.turn();
        let pawn = square.offset(us.fold_wb(-8, 8)).and_then(|sq| pos.board().piece_at(sq));
        if square.rank() != us.fold_wb(Rank::Sixth, Rank::Third) || pawn != Some(Role::Pawn.of(us.other())) {
            return Err(format!("en passant square {square} does not follow a pawn's double step"));
        }
        pos.set_ep_square(Some(square));
    }
    Ok((pos, markers))
}

/// The colour a seat of a chess game moves: even seats play White (seat 0
/// of two, seats 0 and 2 of the four-seat team games), odd seats Black.
pub fn seat_color(seat: Seat) -> Color {
    if seat.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// The seat that plays `color` in a two-player game: White is seat 0,
/// Black seat 1 (the inverse of [`seat_color`] for two seats).
pub fn seat_of(color: Color) -> Seat {
    color.fold_wb(0, 1)
}

/// "white" or "black", for the sentences of a log or a prompt.
pub fn colour_word(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

/// Whether a move takes a piece (en passant included) or promotes: what a
/// search must look past the end of its depth at. Castling in the
/// king-takes-rook form lands on an own rook, which is no capture.
pub fn is_capture_or_promotion(pos: &Position, action: &UciAction) -> bool {
    takes_or_promotes(pos.board(), pos.ep_square(), action)
}

/// [`is_capture_or_promotion`] on a bare board, for the variants that keep
/// their own position: every game on a chess board uses it for
/// [`Game::is_noisy`] (a piece on the other side of Half Alice's mirror
/// counts too, which only makes the search look a little further).
/// Asked of every action listed at every node, so each test runs only
/// as far as it must: the piece's role only on the en passant square.
pub fn takes_or_promotes(board: &Board, ep_square: Option<Square>, action: &UciAction) -> bool {
    let takes = || {
        let victim = board.color_at(action.to);
        victim.is_some() && victim != board.color_at(action.from)
    };
    let en_passant = || ep_square == Some(action.to) && board.pawns().contains(action.from);
    action.promotion.is_some() || takes() || en_passant()
}

/// The squares of `set` and every square one king step from one of them:
/// the games whose pieces take extra king steps (Adrenaline, Booster) grow
/// their walks by it, a whole layer of squares at a time.
#[inline(always)]
pub fn one_step_around(set: Bitboard) -> Bitboard {
    let column = set | set.shift(8) | set.shift(-8);
    column | (column & !Bitboard::from_file(File::H)).shift(1) | (column & !Bitboard::from_file(File::A)).shift(-1)
}

/// Whether the side to move has a piece other than its king and pawns.
fn has_a_piece(pos: &Position) -> bool {
    let pieces = pos.board().by_color(pos.turn()) & !pos.board().pawns() & !pos.board().kings();
    pieces.any()
}

/// The chess evaluation of a position for a seat of a chess game (even
/// seats White, see [`seat_color`]): every variant on a chess board starts
/// its [`Game::heuristic`] here, from the sums its position keeps up to
/// date ([`eval::evaluate`]).
pub fn position_heuristic(pos: &Position, seat: Seat) -> Option<f64> {
    Some(eval::evaluate(pos, seat_color(seat)))
}

/// Chess960 (rules.md): a random back rank under Fischer's restrictions,
/// castling to the orthodox squares. The same referee as chess.
#[derive(Debug, PartialEq)]
pub struct Chess960Game(pub ChessGame);

/// [`ChessGame`]'s `clone_from`, kept.
impl Clone for Chess960Game {
    fn clone(&self) -> Chess960Game {
        Chess960Game(self.0.clone())
    }

    fn clone_from(&mut self, source: &Chess960Game) {
        self.0.clone_from(&source.0);
    }
}

impl Game for Chess960Game {
    type Action = UciAction;
    const VARIANT: &'static str = "chess960";
    const TITLE: &'static str = "Chess960";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int(
                "id",
                -1,
                959,
                -1,
                "start position number 0-959 (518 is the orthodox start); -1 draws one at random",
            )
            .label("Start position number"),
            OptionSpec::text(
                "cards",
                "",
                "eight cards that lay out the back rank, e.g. \"1 6 N R Q R N R\" (see docs/games/chess960.md)",
            )
            .label("Back rank from cards"),
        ]
    }

    fn new(options: &Options, seed: u64) -> Result<Self, GameError> {
        let cards = options.text("cards", "");
        let id = options.int("id", -1);
        let number = if !cards.is_empty() {
            if id >= 0 {
                return Err(GameError::new("give either the option id or the option cards, not both"));
            }
            let rank = chess960::from_cards(cards).map_err(GameError::new)?;
            chess960::number_of(&rank).expect("a valid card layout is a Chess960 start")
        } else if id >= 0 {
            id as u32
        } else {
            chess960::random_number(&mut GameRng::from_seed(seed))
        };
        let start =
            chess960::position(number).ok_or_else(|| GameError::new(format!("no Chess960 position {number}")))?;
        Ok(Chess960Game(ChessGame::from_start(start, true)))
    }

    fn from_position(position: &str, _options: &Options, _seed: u64) -> Result<Self, GameError> {
        Ok(Chess960Game(ChessGame::from_start(parse_start(position, true)?, true)))
    }

    fn position(&self) -> String {
        self.0.position()
    }

    fn seats(&self) -> Vec<SeatInfo> {
        self.0.seats()
    }

    fn to_act(&self) -> ToAct {
        self.0.to_act()
    }

    fn first_to_act(&self) -> Option<Seat> {
        self.0.first_to_act()
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.0.is_to_act(seat)
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        self.0.heuristic(seat)
    }

    fn is_noisy(&self, action: &UciAction) -> bool {
        self.0.is_noisy(action)
    }

    fn position_hash(&self) -> Option<u64> {
        self.0.position_hash()
    }

    fn exchange_value(&self, action: &UciAction) -> Option<f64> {
        self.0.exchange_value(action)
    }

    fn in_check(&self) -> bool {
        self.0.in_check()
    }

    fn may_pass_in_search(&self) -> bool {
        self.0.may_pass_in_search()
    }

    fn pass_in_search(&mut self) -> bool {
        self.0.pass_in_search()
    }

    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<UciAction>) {
        self.0.legal_actions_into(seat, into)
    }

    fn apply_with(&mut self, seat: Seat, action: &UciAction, story: &mut Journal) -> Result<(), RuleError> {
        self.0.apply_with(seat, action, story)
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<UciAction, RuleError> {
        self.0.parse_action(seat, text)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.0.view(viewer)
    }

    fn pgn(&self, story: &Journal) -> Option<String> {
        self.0.pgn(story)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesskit_core::Session;

    /// Every game's evaluation along seeded random games, after every
    /// action tried from every position on the way: those on a chess board
    /// evaluate through [`eval::evaluate`], whose debug assertion (on in
    /// tests) fails if the material and piece-square sums the position keeps
    /// differ from a recount of its board. So every way a game edits its
    /// board (moves, Zombie's risings, Masquerade's reveals, Booster's steps,
    /// Cloak and Dagger's placement, Adrenaline's checkers) is checked.
    #[test]
    fn every_games_kept_evaluation_sums_equal_a_recount_along_random_games() {
        let mut evaluated = 0;
        for variant in crate::names() {
            for seed in 0..2 {
                let mut game = crate::create(variant, Options::new(), seed, None).expect("default options");
                let mut rng = GameRng::from_seed(seed);
                for _ in 0..40 {
                    let ToAct::Seats(seats) = game.to_act() else { break };
                    let actions = game.legal_actions(seats[0]);
                    for action in &actions {
                        let mut child = game.clone_box();
                        if child.apply(seats[0], action).is_ok() {
                            evaluated += usize::from(child.heuristic(seats[0]).is_some());
                        }
                    }
                    let Some(action) = rng.choose(&actions) else { break };
                    game.apply(seats[0], action).expect("a legal action applies");
                }
            }
        }
        assert!(evaluated > 10_000, "{evaluated}");
    }

    fn play(game: &mut impl Game<Action = UciAction>, moves: &str) {
        for text in moves.split_whitespace() {
            let seat = game.to_act().seats()[0];
            let action = game.parse_action(seat, text).unwrap();
            game.apply(seat, &action).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }

    #[test]
    fn fools_mate_is_checkmate() {
        let mut game = ChessGame::new(&Options::new(), 0).unwrap();
        play(&mut game, "f3 e5 g4 Qh4");
        assert_eq!(game.to_act(), ToAct::Over(Outcome::win(vec![1], "checkmate")));
        assert!(game.pgn(&Journal::default()).unwrap().contains("1. f3 e5 2. g4 Qh4# 0-1"));
    }

    /// The search's questions (crates/core/src/search_node.rs) answered
    /// without building a list must agree with the list, the move list
    /// filled in place with the one returned, and a copy rewritten with
    /// `clone_from` with a fresh clone.
    #[test]
    fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
        let mut game = ChessGame::new(&Options::new(), 0).unwrap();
        let mut reused = ChessGame::new(&Options::new(), 0).unwrap();
        let mut listed = Vec::new();
        for text in "e4 e5 Nf3 Nc6 Bc4 Nd4 Nxe5 Qg5 Nxf7 Qxg2 Rf1 Qxe4 Be2 Nf3#".split_whitespace() {
            for seat in 0..2 {
                assert_eq!(game.is_to_act(seat), game.to_act().seats().contains(&seat), "{text}");
                game.legal_actions_into(seat, &mut listed);
                assert_eq!(listed, game.legal_actions(seat), "{text}");
            }
            assert_eq!(game.first_to_act(), game.to_act().seats().first().copied());
            play(&mut game, text);
            reused.clone_from(&game);
            assert_eq!(reused, game.clone(), "{text}");
        }
        assert!(game.to_act().is_over(), "checkmate");
        assert_eq!((game.first_to_act(), game.is_to_act(0), game.is_to_act(1)), (None, false, false));
        assert!(game.check_turn(0).is_err() && game.check_turn(2).is_err());
    }

    /// The view names the mated king and the piece that mates it, so the
    /// page can mark both beside the outcome.
    #[test]
    fn checkmate_view_names_the_king_in_check_and_the_piece_giving_check() {
        let mut game = ChessGame::new(&Options::new(), 0).unwrap();
        play(&mut game, "f3 e5 g4 Qh4");
        let view = game.view(Viewer::Spectator);
        assert_eq!(view.check.as_deref(), Some("e1"));
        assert_eq!(view.checkers, vec!["h4".to_string()]);
        let quiet = ChessGame::new(&Options::new(), 0).unwrap().view(Viewer::Spectator);
        assert!(quiet.check.is_none() && quiet.checkers.is_empty(), "no check, no checkers");
    }

    #[test]
    fn stalemate_is_a_draw() {
        let game = ChessGame::from_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &Options::new(), 0).unwrap();
        assert_eq!(game.to_act(), ToAct::Over(Outcome::draw("stalemate")));
    }

    #[test]
    fn threefold_repetition_ends_the_game() {
        let mut game = ChessGame::new(&Options::new(), 0).unwrap();
        play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert!(!game.to_act().is_over());
        play(&mut game, "Ng8");
        assert_eq!(game.to_act().outcome().unwrap().reason, "threefold repetition");
    }

    #[test]
    fn fifty_move_rule_and_insufficient_material() {
        let game = ChessGame::from_position("4k3/8/8/8/8/8/8/R3K3 w - - 100 80", &Options::new(), 0).unwrap();
        assert_eq!(game.to_act().outcome().unwrap().reason, "fifty-move rule");
        let game = ChessGame::from_position("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", &Options::new(), 0).unwrap();
        assert_eq!(game.to_act().outcome().unwrap().reason, "insufficient material");
    }

    #[test]
    fn en_passant_and_promotion() {
        let mut game = ChessGame::from_position("4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1", &Options::new(), 0).unwrap();
        play(&mut game, "e5d6 Kf7 b7b8n");
        assert_eq!(game.position(), "1N6/5k2/3P4/8/8/8/8/4K3 b - - 0 2");
    }

    #[test]
    fn illegal_and_out_of_turn_moves_change_nothing() {
        let mut session = Session::<ChessGame>::start(Options::new(), 0, None).unwrap();
        let before = session.game.clone();
        use chesskit_core::DynGame;
        assert!(matches!(session.apply(1, "e7e5"), Err(RuleError::NotYourTurn { seat: 1 })));
        assert!(matches!(session.apply(0, "e2e5"), Err(RuleError::Illegal { .. })));
        assert!(matches!(session.apply(0, "zz"), Err(RuleError::Malformed { .. })));
        assert_eq!(session.game, before);
        assert!(session.record().actions.is_empty());
    }

    #[test]
    fn chess960_book_example_castles_with_the_a_side_rook() {
        // rules.md: cards 1 6 N R Q R N R, then 1.e4 e5 2.Qe2 f6 3.O-O-O (king c1, rook d1).
        let options = Options::new().with("cards", "1 6 N R Q R N R");
        let mut game = Chess960Game::new(&options, 0).unwrap();
        play(&mut game, "e4 e5 Qe2 f6");
        let castle = game.parse_action(0, "O-O-O").unwrap();
        assert_eq!(castle.to_string(), "e1c1", "king takes rook: the king on e1, the rook on c1");
        game.apply(0, &castle).unwrap();
        assert!(game.position().starts_with("bnrqkbnr/pppp2pp/5p2/4p3/4P3/8/PPPPQPPP/BNKR1BNR b"));
        assert!(game.pgn(&Journal::default()).unwrap().contains("[Variant \"Chess960\"]"));
    }

    /// The part of a rules document that the in-app rules panel shows: the
    /// sections "The rules in our words" and "Rulings" (docs/api.md,
    /// `GET /api/variants/{name}/rules`: up to the next `## ` heading that
    /// is neither).
    fn player_sections(doc: &str) -> (Vec<&str>, String) {
        let mut headings = Vec::new();
        let mut text = String::new();
        let mut shown = false;
        for line in doc.lines() {
            if let Some(heading) = line.strip_prefix("## ") {
                shown = heading == "The rules in our words" || heading == "Rulings";
                if shown {
                    headings.push(heading);
                }
            }
            if shown {
                text.push_str(line);
                text.push('\n');
            }
        }
        (headings, text)
    }

    /// The rules panel reads for players: both sections are there, and they
    /// hold no code paths, no action syntax and no text positions.
    #[test]
    fn the_rules_panel_sections_of_the_duel_documents_read_for_players() {
        let docs = [
            ("chess", include_str!("../../../docs/games/chess.md")),
            ("chess960", include_str!("../../../docs/games/chess960.md")),
            ("cloak-and-dagger", include_str!("../../../docs/games/cloak-and-dagger.md")),
            ("masquerade", include_str!("../../../docs/games/masquerade.md")),
        ];
        for (name, doc) in docs {
            let (headings, text) = player_sections(doc);
            assert_eq!(headings, ["The rules in our words", "Rulings"], "{name}");
            for developer_only in ['`', '{', '|'] {
                assert!(!text.contains(developer_only), "{name}: {developer_only:?} in the player's part");
            }
            for word in ["crates/", ".rs", ".md", "FEN", "UCI", "e2e4", "seat 0", "place R", "guess c8", "assign K"] {
                assert!(!text.contains(word), "{name}: {word:?} in the player's part");
            }
        }
    }

    /// The search's null move (crates/ai/src/search.rs): allowed only out
    /// of check and with a piece beside king and pawns, and then the other
    /// side to move in the same position, en passant gone.
    #[test]
    fn a_pass_for_the_search_is_allowed_only_out_of_check_and_outside_king_and_pawn_endings() {
        let game = |fen: &str| ChessGame::from_position(fen, &Options::new(), 0).unwrap();
        let mut open = game("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
        assert!(open.may_pass_in_search() && !open.in_check());
        let before = open.clone();
        assert!(open.pass_in_search());
        assert_eq!(open.pos.turn(), Color::White);
        assert_eq!(open.pos.board(), before.pos.board());
        assert_eq!(open.pos.ep_square(), None, "the double step may be taken only at once");
        assert_ne!(open.position_hash(), before.position_hash());
        assert_eq!(open.first_to_act(), Some(0));
        let checked = game("rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2");
        let pawns = game("8/5k2/8/3K4/8/8/4P3/8 b - - 0 1");
        for mut refused in [checked.clone(), pawns.clone()] {
            assert!(!refused.may_pass_in_search());
            assert!(!refused.pass_in_search());
        }
        assert_eq!(pawns, game("8/5k2/8/3K4/8/8/4P3/8 b - - 0 1"), "refused, unchanged");
        assert!(checked.in_check() && !pawns.in_check());
    }

    #[test]
    fn orthodox_chess_refuses_a_chess960_castling_position() {
        let err =
            ChessGame::from_position("bnrqkbnr/pppppppp/8/8/8/8/PPPPPPPP/BNRQKBNR w KQkq - 0 1", &Options::new(), 0);
        assert!(err.is_err());
    }
}
