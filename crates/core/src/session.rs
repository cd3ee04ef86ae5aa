//! A game with its history: the typed [`Session`] records every accepted
//! action, so no game can forget one, and [`DynGame`] hides the game's type
//! behind action text for servers, protocols and generic players.

use std::any::Any;

use serde::{Deserialize, Serialize};

use crate::game::{Game, GameError, RuleError, Seat, SeatInfo, ToAct, Viewer};
use crate::options::Options;
use crate::view::View;

/// One accepted action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRecord {
    pub seat: Seat,
    pub action: String,
}

/// Everything needed to rebuild a game exactly: variant, options, seed,
/// starting position (if not the variant's own start) and the actions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub variant: String,
    #[serde(default)]
    pub options: Options,
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(default)]
    pub actions: Vec<ActionRecord>,
}

/// A game of any variant, spoken to in action text.
pub trait DynGame: Send + Sync {
    fn variant(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn record(&self) -> &GameRecord;
    fn seats(&self) -> Vec<SeatInfo>;
    fn to_act(&self) -> ToAct;
    fn legal_actions(&self, seat: Seat) -> Vec<String>;
    /// Apply an action given as text; returns its canonical text. On error nothing changes.
    fn apply(&mut self, seat: Seat, action: &str) -> Result<String, RuleError>;
    /// The view of `viewer`, with whose turn, their legal actions and the outcome filled in.
    fn view(&self, viewer: Viewer) -> View;
    /// The whole truth as a text position, secrets included.
    fn position(&self) -> String;
    fn pgn(&self) -> Option<String>;
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// Whether two games are in the identical state (same type and same truth).
    fn same_state(&self, other: &dyn DynGame) -> bool;
    /// A game consistent with everything `seat` knows, hidden parts drawn
    /// at random from `seed` (see [`Game::sample_hidden`]).
    fn sample_hidden(&self, seat: Seat, seed: u64) -> Box<dyn DynGame>;
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A typed game and its record.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    pub game: G,
    record: GameRecord,
}

impl<G: Game> Session<G> {
    /// A new game, or one from a text position, with checked options.
    pub fn start(options: Options, seed: u64, position: Option<&str>) -> Result<Session<G>, GameError> {
        options.validate(&G::option_specs())?;
        let game = match position {
            Some(text) => G::from_position(text, &options, seed)?,
            None => G::new(&options, seed)?,
        };
        let record = GameRecord {
            variant: G::VARIANT.to_string(),
            options,
            seed,
            position: position.map(str::to_string),
            actions: Vec::new(),
        };
        Ok(Session { game, record })
    }

    /// Apply a typed action and record it.
    pub fn apply_action(&mut self, seat: Seat, action: &G::Action) -> Result<(), RuleError> {
        self.game.apply(seat, action)?;
        self.record.actions.push(ActionRecord { seat, action: action.to_string() });
        Ok(())
    }

    /// Complete a game's own view with the generic parts.
    pub fn full_view(&self, viewer: Viewer) -> View {
        let mut view = self.game.view(viewer);
        view.variant = G::VARIANT.to_string();
        view.viewer = Some(viewer);
        view.seats = self.game.seats();
        let to_act = self.game.to_act();
        view.to_act = to_act.seats().to_vec();
        view.outcome = to_act.outcome().cloned();
        view.actions = match viewer {
            Viewer::Seat(seat) if to_act.seats().contains(&seat) => {
                self.game.legal_actions(seat).iter().map(|a| self.game.describe_action(seat, a)).collect()
            }
            _ => Vec::new(),
        };
        view
    }
}

impl<G: Game> DynGame for Session<G> {
    fn variant(&self) -> &'static str {
        G::VARIANT
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn record(&self) -> &GameRecord {
        &self.record
    }

    fn seats(&self) -> Vec<SeatInfo> {
        self.game.seats()
    }

    fn to_act(&self) -> ToAct {
        self.game.to_act()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        self.game.legal_actions(seat).iter().map(ToString::to_string).collect()
    }

    fn apply(&mut self, seat: Seat, text: &str) -> Result<String, RuleError> {
        self.game.check_turn(seat)?;
        let action = self.game.parse_action(seat, text)?;
        self.apply_action(seat, &action)?;
        Ok(action.to_string())
    }

    fn view(&self, viewer: Viewer) -> View {
        self.full_view(viewer)
    }

    fn position(&self) -> String {
        self.game.position()
    }

    fn pgn(&self) -> Option<String> {
        self.game.pgn()
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn same_state(&self, other: &dyn DynGame) -> bool {
        other.as_any().downcast_ref::<Session<G>>().is_some_and(|o| o.game == self.game)
    }

    fn sample_hidden(&self, seat: Seat, seed: u64) -> Box<dyn DynGame> {
        let mut rng = crate::rng::GameRng::from_seed(seed);
        let game = self.game.sample_hidden(seat, &mut rng);
        Box::new(Session { game, record: self.record.clone() })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
