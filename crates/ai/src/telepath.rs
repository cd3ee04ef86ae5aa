//! The computer as Telepathy Chess's predictor: it foretells its partner's
//! move by asking its own player what it would play in the partner's
//! place, and plays that piece's card.
//!
//! The generic search cannot predict. In every world it draws, the card
//! lies open to the whole search, so it believes the mover will read it:
//! it picks the card whose best matching move looks best. The partner,
//! who cannot read it, then mostly makes another move, and the coin is
//! pulled towards its own team. Playing the card of the move the partner
//! would choose on its own turns the coin into a measure of chess sense
//! rather than of luck: a partner who plays like the predictor is
//! foretold.
//!
//! The partner's turn is judged from what the partner will know: the
//! board and the cards, everything but the face-down card, whose draw is
//! the partner's own (`sample_hidden` for the mover's seat). The predictor
//! sees all of that, so it reads nothing its seat may not see.

use chesskit_core::game::Seat;
use chesskit_core::session::Session;
use chesskit_core::DynGame;
use chesskit_games::telepathy::{Phase, TelepathyAction, TelepathyGame};

use crate::Player;

/// A player that predicts in Telepathy Chess by its own idea of the
/// partner's move, and leaves everything else (and every other game) to
/// `inner`.
pub struct Telepath {
    inner: Box<dyn Player>,
}

impl Telepath {
    pub fn new(inner: Box<dyn Player>) -> Telepath {
        Telepath { inner }
    }

    /// The card to play face down, or `None` when `seat` is not a
    /// Telepathy predictor about to play one.
    fn foretell(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        let telepathy = &game.as_any().downcast_ref::<Session<TelepathyGame>>()?.game;
        if telepathy.phase() != Phase::Predict || telepathy.seat() != seat {
            return None;
        }
        let cards = game.legal_actions(seat);
        // Any card will do: the partner's view does not show which lies face down.
        let mut partners_turn = game.clone_box();
        partners_turn.apply(seat, cards.first()?).ok()?;
        let mover = telepathy.team(telepathy.turn()).mover();
        let expected = self.inner.choose(partners_turn.as_ref(), mover)?;
        let prediction = TelepathyAction::Predict(telepathy.prediction_of(&expected)?).to_string();
        cards.contains(&prediction).then_some(prediction)
    }
}

impl Player for Telepath {
    fn choose(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        match self.foretell(game, seat) {
            Some(card) => Some(card),
            None => self.inner.choose(game, seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Budget, SearchPlayer};
    use chesskit_core::{GameRng, Options, ToAct};

    fn telepathy(position: &str) -> Box<dyn DynGame> {
        chesskit_games::create("telepathy", Options::new(), 0, Some(position)).unwrap()
    }

    fn searcher(seed: u64) -> Box<dyn Player> {
        Box::new(SearchPlayer::new(seed, Budget::nodes(4_000, 3)))
    }

    /// White's knight can take the undefended black queen: the partner
    /// takes it, and the predictor foretells the knight.
    #[test]
    fn the_predictor_plays_the_card_of_the_move_its_partner_will_make() {
        let game = telepathy("4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1");
        let mut predictor = Telepath::new(searcher(1));
        assert_eq!(predictor.choose(game.as_ref(), 0).as_deref(), Some("predict knight"));
        let mut partners_turn = game.clone_box();
        partners_turn.apply(0, "predict knight").unwrap();
        assert_eq!(searcher(2).choose(partners_turn.as_ref(), 2).as_deref(), Some("e3d5"));
    }

    /// A pawn takes the queen under the face-up pawn: the checker, its copy.
    #[test]
    fn a_move_of_the_face_up_cards_type_is_foretold_by_the_checker() {
        let game = telepathy("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1");
        let mut predictor = Telepath::new(searcher(1));
        assert_eq!(predictor.choose(game.as_ref(), 0).as_deref(), Some("predict checker"));
    }

    /// Once the card is down, the partner's move is the inner player's.
    #[test]
    fn every_other_decision_is_the_inner_players() {
        let mut game = telepathy("4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1");
        game.apply(0, "predict rook").unwrap();
        let mut mover = Telepath::new(searcher(1));
        assert_eq!(mover.choose(game.as_ref(), 2).as_deref(), Some("e3d5"));
    }

    /// Along random games, every prediction is the card of the move the
    /// same player makes as mover, whichever card lies face down when it
    /// does: the prediction reads nothing of the card.
    #[test]
    fn along_random_games_the_prediction_is_the_card_of_the_partners_own_choice() {
        let mut game = chesskit_games::create("telepathy", Options::new(), 3, None).unwrap();
        let mut rng = GameRng::from_seed(3);
        let mut checked = 0;
        for step in 0..80 {
            let ToAct::Seats(seats) = game.to_act() else { break };
            let seat = seats[0];
            let actions = game.legal_actions(seat);
            if step % 5 == 0 && actions[0].starts_with("predict") {
                let predicted = Telepath::new(searcher(step)).choose(game.as_ref(), seat).unwrap();
                let mut other_card = game.clone_box();
                other_card.apply(seat, actions.last().unwrap()).unwrap();
                let ToAct::Seats(movers) = other_card.to_act() else { panic!("the mover moves next") };
                let mover = movers[0];
                let moved = searcher(step).choose(other_card.as_ref(), mover).unwrap();
                let telepathy = &game.as_any().downcast_ref::<Session<TelepathyGame>>().unwrap().game;
                let card = telepathy.prediction_of(&moved).unwrap();
                assert_eq!(
                    predicted,
                    TelepathyAction::Predict(card).to_string(),
                    "step {step}: the partner plays {moved}"
                );
                checked += 1;
            }
            game.apply(seat, rng.choose(&actions).unwrap()).unwrap();
        }
        assert!(checked >= 5, "only {checked} predictions checked");
    }
}
