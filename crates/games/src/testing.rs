//! Helpers shared by the games' unit tests: naming a square, playing an
//! action by its text, and checking that a refused action says why and
//! changes nothing. One copy here rather than one per game, so that every
//! game's tests hold refusals to the same standard.

use chesskit_core::chess::Square;
use chesskit_core::game::{Game, RuleError, Seat};

/// The square named `name` ("e4"); a misspelt name is a mistake in the test.
pub fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{name:?} names no square: {e:?}"))
}

/// The seat whose action comes next: the first of the seats to act, or
/// seat 0 once the game is over (every seat is then refused alike).
pub fn mover<G: Game>(game: &G) -> Seat {
    game.to_act().seats().first().copied().unwrap_or(0)
}

/// Play `text` as `seat`'s action, read as the game reads a player's text.
pub fn try_act_as<G: Game>(game: &mut G, seat: Seat, text: &str) -> Result<(), RuleError> {
    let action = game.parse_action(seat, text)?;
    game.apply(seat, &action)
}

/// Play `text` as the next mover's action.
pub fn try_act<G: Game>(game: &mut G, text: &str) -> Result<(), RuleError> {
    try_act_as(game, mover(game), text)
}

/// Play `text` as `seat`'s action, which the test expects to be legal.
pub fn act_as<G: Game>(game: &mut G, seat: Seat, text: &str) {
    try_act_as(game, seat, text).unwrap_or_else(|e| panic!("seat {seat} {text}: {e}"));
}

/// Play `text` as the next mover's action, which the test expects to be legal.
pub fn act<G: Game>(game: &mut G, text: &str) {
    act_as(game, mover(game), text);
}

/// Why `seat`'s action `text` is refused (unreadable or against the
/// rules), checking that the refusal left the game as it was.
pub fn refused_as<G: Game>(game: &mut G, seat: Seat, text: &str) -> String {
    let before = game.clone();
    let err = try_act_as(game, seat, text).expect_err(&format!("{text} should be refused"));
    assert_eq!(*game, before, "refusing {text} changed the game");
    err.to_string()
}

/// Why the next mover's action `text` is refused; the game is unchanged.
pub fn refused<G: Game>(game: &mut G, text: &str) -> String {
    refused_as(game, mover(game), text)
}

/// The next mover's action `text` is refused for a reason that mentions
/// `needle`, and the game is unchanged.
pub fn refused_for<G: Game>(game: &mut G, text: &str, needle: &str) {
    let reason = refused(game, text);
    assert!(reason.contains(needle), "{text} was refused, but not for {needle:?}: {reason}");
}
