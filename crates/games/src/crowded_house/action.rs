//! The action of a Crowded House turn: a move, or a pass when the player
//! has no legal move.

use std::fmt;
use std::str::FromStr;

use chesskit_core::chess::notation::UciAction;
use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;

/// One turn: `e2e4` (UCI, castling as the king's move `e1g1`) or `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrowdedAction {
    Move(UciAction),
    /// "They move nothing on that turn."
    Pass,
}

impl fmt::Display for CrowdedAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrowdedAction::Move(m) => m.fmt(f),
            CrowdedAction::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for CrowdedAction {
    type Err = String;

    fn from_str(text: &str) -> Result<CrowdedAction, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Ok(CrowdedAction::Pass);
        }
        text.parse::<UciAction>()
            .map(CrowdedAction::Move)
            .map_err(|_| format!("expected a move like e2e4 or e7e8q, or `pass`, not {text:?}"))
    }
}

impl GameAction for CrowdedAction {
    fn info(&self) -> ActionInfo {
        match self {
            CrowdedAction::Move(m) => m.info(),
            CrowdedAction::Pass => ActionInfo {
                label: Some("Pass (no legal move on your half)".to_string()),
                ..ActionInfo::text_only("pass".to_string())
            },
        }
    }
}
