//! The actions of Adrenaline Chess and their canonical texts.

use std::fmt;
use std::str::FromStr;

use chesskit_core::chess::fen::parse_square;
use chesskit_core::chess::notation::UciAction;
use chesskit_core::chess::Square;
use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;

/// One step of an Adrenaline Chess turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AdrenalineAction {
    /// The regular move in UCI: `e2e4`, `e7e8q`, `e1g1`.
    Move(UciAction),
    /// `step e5e6`: an extra king step of the piece that moved, spending
    /// one of its checkers; `step e7e8q` when a pawn steps onto its last rank.
    Step(UciAction),
    /// `stop`: make no more extra steps this turn.
    Stop,
    /// `checker h7`: the adrenaline rush, a checker under the enemy piece on h7.
    Checker(Square),
}

impl fmt::Display for AdrenalineAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdrenalineAction::Move(m) => write!(f, "{m}"),
            AdrenalineAction::Step(m) => write!(f, "step {m}"),
            AdrenalineAction::Stop => f.write_str("stop"),
            AdrenalineAction::Checker(square) => write!(f, "checker {square}"),
        }
    }
}

const EXPECTED: &str = "expected a move like e2e4, `step e5e6`, `stop` or `checker h7`";

impl FromStr for AdrenalineAction {
    type Err = String;

    fn from_str(text: &str) -> Result<AdrenalineAction, String> {
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["stop"] | ["done"] => Ok(AdrenalineAction::Stop),
            ["checker", sq] => {
                parse_square(sq).map(AdrenalineAction::Checker).ok_or_else(|| format!("{sq:?} is not a square like h7"))
            }
            ["checker", ..] => Err("write a checker placement as `checker h7`".to_string()),
            ["step", m] => m
                .parse::<UciAction>()
                .map(AdrenalineAction::Step)
                .map_err(|_| format!("{m:?} is not a step like e5e6 (or e7e8q for a pawn that promotes)")),
            ["step", ..] => Err("write an extra step as `step e5e6`".to_string()),
            [single] => single
                .parse::<UciAction>()
                .map(AdrenalineAction::Move)
                .map_err(|_| format!("{EXPECTED}, not {:?}", text.trim())),
            _ => Err(format!("{EXPECTED}, not {:?}", text.trim())),
        }
    }
}

impl GameAction for AdrenalineAction {
    fn info(&self) -> ActionInfo {
        let text = self.to_string();
        match self {
            AdrenalineAction::Move(m) => ActionInfo { text, ..m.info() },
            AdrenalineAction::Step(m) => {
                ActionInfo { label: Some(format!("Extra move {}-{}", m.from, m.to)), text, ..m.info() }
            }
            AdrenalineAction::Stop => {
                ActionInfo { label: Some("Stop the extra moves".to_string()), text, ..ActionInfo::default() }
            }
            AdrenalineAction::Checker(square) => ActionInfo {
                square: Some(square.to_string()),
                label: Some(format!("Put a checker under {square}")),
                text,
                ..ActionInfo::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip() {
        for text in ["e2e4", "e7e8q", "e1g1", "step e5e6", "step e7e8n", "stop", "checker h7"] {
            let action: AdrenalineAction = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
        assert_eq!(" Checker H7 ".parse::<AdrenalineAction>().unwrap().to_string(), "checker h7");
        assert_eq!("done".parse::<AdrenalineAction>().unwrap(), AdrenalineAction::Stop);
    }

    #[test]
    fn bad_texts_say_what_is_expected() {
        assert!("checker z9".parse::<AdrenalineAction>().unwrap_err().contains("not a square"));
        assert!("step".parse::<AdrenalineAction>().unwrap_err().contains("step e5e6"));
        assert!("step e5".parse::<AdrenalineAction>().unwrap_err().contains("not a step"));
        assert!("hello world".parse::<AdrenalineAction>().unwrap_err().contains("expected a move"));
    }

    #[test]
    fn info_gives_geometry_for_drag_and_click() {
        let info = "step e5e6".parse::<AdrenalineAction>().unwrap().info();
        assert_eq!((info.from.as_deref(), info.to.as_deref()), (Some("e5"), Some("e6")));
        assert_eq!(info.text, "step e5e6");
        let info = "checker h7".parse::<AdrenalineAction>().unwrap().info();
        assert_eq!(info.square.as_deref(), Some("h7"));
    }
}
