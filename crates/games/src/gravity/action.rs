//! The actions of a turn: one piece moved at a time, a piece that stays,
//! the addition of the flipped piece.

use std::fmt;
use std::str::FromStr;

use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;
use shakmaty::{Role, Square};

/// One step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GravityAction {
    /// Move one active piece down (or capture along its row).
    Move { from: Square, to: Square },
    /// A piece that cannot move now gives up its move for this turn.
    Stay(Square),
    /// Add the flipped card's piece on the top row.
    Add { role: Role, to: Square },
}

impl fmt::Display for GravityAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GravityAction::Move { from, to } => write!(f, "{from}{to}"),
            GravityAction::Stay(square) => write!(f, "{square} stays"),
            GravityAction::Add { role, to } => write!(f, "{}@{to}", role.upper_char()),
        }
    }
}

impl FromStr for GravityAction {
    type Err = String;

    /// `e7f6` (also `e7-f6`, `e7xf6`), `e8 stays`, `R@c8`.
    fn from_str(text: &str) -> Result<GravityAction, String> {
        let text = text.trim();
        let square = |s: &str| s.parse::<Square>().map_err(|_| format!("{s:?} is not a square like e4"));
        if let Some(at) = text.strip_suffix("stays").or_else(|| text.strip_suffix("stay")) {
            return Ok(GravityAction::Stay(square(at.trim())?));
        }
        if let Some((role, to)) = text.split_once('@') {
            let mut chars = role.trim().chars();
            let role = match (chars.next(), chars.next()) {
                (Some(c), None) => Role::from_char(c.to_ascii_lowercase())
                    .ok_or_else(|| format!("{c:?} is not a piece letter (P, N, B, R, Q, K)"))?,
                _ => return Err(format!("expected a piece letter before @, like R@c8, in {text:?}")),
            };
            return Ok(GravityAction::Add { role, to: square(to.trim())? });
        }
        let compact: String = text.chars().filter(|c| !matches!(c, '-' | 'x' | ' ')).collect();
        if compact.len() == 4 && compact.is_ascii() {
            return Ok(GravityAction::Move { from: square(&compact[..2])?, to: square(&compact[2..])? });
        }
        Err(format!("unknown action {text:?}: expected a move like e7f6, a piece that stays like `e8 stays`, or an addition like R@c8"))
    }
}

impl GameAction for GravityAction {
    fn info(&self) -> ActionInfo {
        let mut info = ActionInfo::text_only(self.to_string());
        match *self {
            GravityAction::Move { from, to } => {
                info.from = Some(from.to_string());
                info.to = Some(to.to_string());
            }
            GravityAction::Stay(square) => {
                info.square = Some(square.to_string());
                info.label = Some(format!("The piece on {square} cannot move: it stays"));
            }
            GravityAction::Add { to, .. } => {
                info.square = Some(to.to_string());
                info.label = Some(format!("Add the piece on {to}"));
            }
        }
        info
    }
}
