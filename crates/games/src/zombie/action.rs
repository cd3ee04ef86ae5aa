//! The actions of Zombie Chess and their canonical texts.

use std::fmt;
use std::str::FromStr;

use chesskit_core::chess::fen::{parse_square, role_from_letter};
use chesskit_core::chess::notation::UciAction;
use chesskit_core::chess::{Role, Square};
use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;

/// One step of a Zombie Chess turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZombieAction {
    /// A move in UCI, `e2e4`, `e7e8q`, `e1g1`: the regular move or a zombie's
    /// move (the referee knows which pieces are zombies).
    Move(UciAction),
    /// `promote a1 q`: the piece a zombie pawn that rose on its last rank becomes.
    Promote { square: Square, role: Role },
    /// `bury c6`: bury the captured piece under your piece on that square.
    Bury(Square),
    /// `done`: end the turn; zombies that have not moved are destroyed.
    Done,
}

impl fmt::Display for ZombieAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZombieAction::Move(m) => write!(f, "{m}"),
            ZombieAction::Promote { square, role } => write!(f, "promote {square} {}", role.char()),
            ZombieAction::Bury(square) => write!(f, "bury {square}"),
            ZombieAction::Done => f.write_str("done"),
        }
    }
}

impl FromStr for ZombieAction {
    type Err = String;

    fn from_str(text: &str) -> Result<ZombieAction, String> {
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let square = |word: &str| parse_square(word).ok_or_else(|| format!("{word:?} is not a square like c6"));
        match words.as_slice() {
            ["done"] => Ok(ZombieAction::Done),
            ["bury", sq] => Ok(ZombieAction::Bury(square(sq)?)),
            ["bury", ..] => Err("write a burial as `bury c6`".to_string()),
            ["promote", sq, role] => {
                let role = match role.chars().collect::<Vec<_>>().as_slice() {
                    [c] => role_from_letter(*c).filter(|r| !matches!(r, Role::Pawn | Role::King)),
                    _ => None,
                }
                .ok_or_else(|| format!("{role:?} is not a piece to promote to: use q, r, b or n"))?;
                Ok(ZombieAction::Promote { square: square(sq)?, role })
            }
            ["promote", ..] => Err("write a promotion as `promote a1 q`".to_string()),
            [single] => single.parse::<UciAction>().map(ZombieAction::Move).map_err(|_| {
                format!("expected a move like e2e4, `bury c6`, `promote a1 q` or `done`, not {:?}", text.trim())
            }),
            _ => Err(format!("expected a move like e2e4, `bury c6`, `promote a1 q` or `done`, not {:?}", text.trim())),
        }
    }
}

impl GameAction for ZombieAction {
    fn info(&self) -> ActionInfo {
        let text = self.to_string();
        match self {
            ZombieAction::Move(m) => ActionInfo { text, ..m.info() },
            ZombieAction::Promote { square, role } => ActionInfo {
                square: Some(square.to_string()),
                promotion: Some(role.char().to_string()),
                label: Some(format!(
                    "Promote the zombie pawn on {square} to a {}",
                    chesskit_core::chess::diagram::role_name(*role)
                )),
                text,
                ..ActionInfo::default()
            },
            ZombieAction::Bury(square) => ActionInfo {
                square: Some(square.to_string()),
                label: Some(format!("Bury it under your piece on {square}")),
                text,
                ..ActionInfo::default()
            },
            ZombieAction::Done => ActionInfo { label: Some("End the turn".to_string()), text, ..ActionInfo::default() },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip() {
        for text in ["e2e4", "e7e8q", "promote a1 q", "promote h8 n", "bury c6", "done"] {
            let action: ZombieAction = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
        assert_eq!("  Bury C6 ".parse::<ZombieAction>().unwrap().to_string(), "bury c6");
    }

    #[test]
    fn bad_texts_say_what_is_expected() {
        assert!("bury z9".parse::<ZombieAction>().unwrap_err().contains("not a square"));
        assert!("promote a1 k".parse::<ZombieAction>().unwrap_err().contains("q, r, b or n"));
        assert!("bury".parse::<ZombieAction>().unwrap_err().contains("bury c6"));
        assert!("hello world".parse::<ZombieAction>().unwrap_err().contains("expected a move"));
    }

    #[test]
    fn info_gives_geometry_for_drag_and_click() {
        let info = "e2e4".parse::<ZombieAction>().unwrap().info();
        assert_eq!((info.from.as_deref(), info.to.as_deref()), (Some("e2"), Some("e4")));
        let info = "bury c6".parse::<ZombieAction>().unwrap().info();
        assert_eq!(info.square.as_deref(), Some("c6"));
        let info = "promote a1 q".parse::<ZombieAction>().unwrap().info();
        assert_eq!((info.square.as_deref(), info.promotion.as_deref()), (Some("a1"), Some("q")));
    }
}
