//! The search's estimate of a position: what the team may still score
//! ([`estimate`], the game's `heuristic`). The search values a game's end
//! by its score (running out of cards by 0), so the estimate is a score
//! too. Its parts were measured by paired deals at a fixed node budget
//! (docs/dev/engine-speed.md, "Cooperative Chess 2's estimate").

use super::line::TYPE_BONUS;
use super::{capture_cards, score, Cooperative2Game};
use chesskit_core::chess::{Board, Color, Role};

/// What the estimate counts for each card still to play, for the captures
/// it may bring: so that the search does not take a king while the cards
/// promise more. A point, as measured on 80 deals at a fixed node budget
/// (docs/dev/engine-speed.md, "a card's promise"): 46.0 points a game
/// against half a point's 42.8, better on 49.5 of the 80 deals; 1.5 and
/// 2 did no better than 1.
const CARD_PROMISE: f64 = 1.0;

/// What a piece type still on the board counts toward its ten points for
/// each of its pieces left: a type with one piece left counts half of
/// them, with two a quarter. So the search values the last pieces of a
/// type above a point each before it sees the type gone, and promoting
/// to a type nearly gone costs what it puts back.
const TYPE_LEFT_FACTOR: f64 = 0.5;

/// The cards left (hands and pile) below which, with no king capture set
/// up, the estimate falls in proportion toward the nothing that running
/// out of cards scores: a turn's card each turn leaves that many turns to
/// set one up. Holding a set-up capture costs captures: the colour whose
/// king it attacks may only move out of check. Each step later has
/// measured better (docs/dev/engine-speed.md): at eight the team ended 10 of
/// 40 deals under the 32 of a win (8 at 31) and at four 1, scoring 3.1
/// points a deal more (coop6); with a card's point, three against four
/// scored 47.7 points a game against 46.0 on 80 deals and did better on
/// 45.5 of them ("a card's promise").
const CARDS_TO_SET_UP_A_KING_CAPTURE: f64 = 3.0;

/// The score so far, the promise of the cards still to play and of the
/// types nearly gone; shrunk toward 0 as the last cards go unless a king
/// capture is set up to end the game with the points.
pub(super) fn estimate(game: &Cooperative2Game) -> f64 {
    let board = game.pos.board();
    let cards_left = game.cards_left() as f64;
    let hoped = f64::from(score(board)) + CARD_PROMISE * cards_left + types_in_reach(board);
    if king_capture_set_up(game) {
        hoped
    } else {
        hoped * (cards_left / CARDS_TO_SET_UP_A_KING_CAPTURE).min(1.0)
    }
}

/// The part of their ten points the piece types still on the board (the
/// kings aside) count for: [`TYPE_LEFT_FACTOR`] to the power of the
/// pieces left of each.
fn types_in_reach(board: &Board) -> f64 {
    [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|role| board.by_role(role).count() as i32)
        .filter(|&left| left > 0)
        .map(|left| f64::from(TYPE_BONUS) * TYPE_LEFT_FACTOR.powi(left))
        .sum()
}

/// Whether a king capture waits for the team: a piece attacks the other
/// colour's king and a card like it lies beside a card like that king in
/// the line, so its side may end the game on its turn.
fn king_capture_set_up(game: &Cooperative2Game) -> bool {
    let pos = &game.pos;
    let board = pos.board();
    Color::ALL.into_iter().any(|us| {
        let Some(king) = pos.king_of(us.other()) else { return false };
        let king_card = Role::King.of(us.other());
        pos.attackers_to(king, us, board.occupied())
            .into_iter()
            .filter_map(|square| board.role_at(square))
            .any(|role| capture_cards(&game.line, role.of(us), king_card) != 0)
    })
}
