//! The computer as a predictor, where a decision foretells another
//! seat's move (Telepathy Chess's predictor plays the card of the piece
//! its partner will move): it asks its own player what it would play in
//! the foretold seat's place, and plays the prediction of that
//! ([`DynGame::foretells`], [`DynGame::prediction_for`]).
//!
//! The generic search cannot predict. In every world it draws, the
//! prediction lies open to the whole search, so it believes the foretold
//! seat will read it: in Telepathy it picks the card whose best matching
//! move looks best. The partner, who cannot read it, then mostly makes
//! another move, and the coin is pulled towards its own team. Predicting
//! the move the partner would choose on its own turns the coin into a
//! measure of chess sense rather than of luck: a partner who plays like
//! the predictor is foretold.
//!
//! The foretold seat's turn is judged from what that seat will know,
//! after any one of the predictions (none is shown to it): the predictor
//! sees all of that, so it reads nothing its seat may not see.

use chesskit_core::game::Seat;
use chesskit_core::DynGame;

use crate::Player;

/// A player that predicts by its own idea of the foretold seat's move,
/// and leaves everything else (and every game without predictions) to
/// `inner`.
pub struct Predictor {
    inner: Box<dyn Player>,
}

impl Predictor {
    pub fn new(inner: Box<dyn Player>) -> Predictor {
        Predictor { inner }
    }

    /// The prediction to make, or `None` when `seat`'s decision is not a
    /// prediction.
    fn foretell(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        let foretold = game.foretells(seat)?;
        let predictions = game.legal_actions(seat);
        // Any prediction will do: the foretold seat's view does not show which was made.
        let mut foretold_turn = game.clone_box();
        foretold_turn.apply(seat, predictions.first()?).ok()?;
        let expected = self.inner.choose(foretold_turn.as_ref(), foretold)?;
        let prediction = game.prediction_for(seat, &expected)?;
        predictions.contains(&prediction).then_some(prediction)
    }
}

impl Player for Predictor {
    fn choose(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        match self.foretell(game, seat) {
            Some(prediction) => Some(prediction),
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
        let mut predictor = Predictor::new(searcher(1));
        assert_eq!(predictor.choose(game.as_ref(), 0).as_deref(), Some("predict knight"));
        let mut partners_turn = game.clone_box();
        partners_turn.apply(0, "predict knight").unwrap();
        assert_eq!(searcher(2).choose(partners_turn.as_ref(), 2).as_deref(), Some("e3d5"));
    }

    /// A pawn takes the queen under the face-up pawn: the checker, its copy.
    #[test]
    fn a_move_of_the_face_up_cards_type_is_foretold_by_the_checker() {
        let game = telepathy("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1");
        let mut predictor = Predictor::new(searcher(1));
        assert_eq!(predictor.choose(game.as_ref(), 0).as_deref(), Some("predict checker"));
    }

    /// Once the card is down, the partner's move is the inner player's.
    #[test]
    fn every_other_decision_is_the_inner_players() {
        let mut game = telepathy("4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1");
        game.apply(0, "predict rook").unwrap();
        let mut mover = Predictor::new(searcher(1));
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
                let predicted = Predictor::new(searcher(step)).choose(game.as_ref(), seat).unwrap();
                let mut other_card = game.clone_box();
                other_card.apply(seat, actions.last().unwrap()).unwrap();
                let ToAct::Seats(movers) = other_card.to_act() else { panic!("the mover moves next") };
                let mover = movers[0];
                let moved = searcher(step).choose(other_card.as_ref(), mover).unwrap();
                let card = game.prediction_for(seat, &moved).unwrap();
                assert_eq!(predicted, card, "step {step}: the partner plays {moved}");
                checked += 1;
            }
            game.apply(seat, rng.choose(&actions).unwrap()).unwrap();
        }
        assert!(checked >= 5, "only {checked} predictions checked");
    }
}
