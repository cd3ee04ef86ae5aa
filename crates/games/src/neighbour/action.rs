//! The actions of Neighbour Chess Solitaire and their canonical text.

use std::fmt;
use std::str::FromStr;

use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;
use shakmaty::Square;

/// One decision of the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NeighbourAction {
    /// `add`: flip a card of each deck and add the piece where they say.
    Add,
    /// `place e4`: the square the flipped piece lands on when the position
    /// card sent it to an occupied square (one of the nearest empty ones).
    Place(Square),
    /// `stop`: stop adding and start moving the pieces into one group.
    Stop,
    /// `e4f6`: spend a card, then move the piece on the first square with a
    /// move borrowed from a same-coloured neighbour.
    Move { from: Square, to: Square },
}

impl fmt::Display for NeighbourAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NeighbourAction::Add => f.write_str("add"),
            NeighbourAction::Place(sq) => write!(f, "place {sq}"),
            NeighbourAction::Stop => f.write_str("stop"),
            NeighbourAction::Move { from, to } => write!(f, "{from}{to}"),
        }
    }
}

fn square(word: &str) -> Result<Square, String> {
    word.parse::<Square>().map_err(|_| format!("bad square {word:?}: write it like e4"))
}

/// A move written `e4f6`, `e4-f6` or `e4 f6`.
fn read_move(text: &str) -> Result<NeighbourAction, String> {
    let squares: String = text.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
    let bad = || format!("bad move {text:?}: write the from and to squares, like e4f6");
    if squares.len() != 4 || !squares.is_ascii() {
        return Err(bad());
    }
    let from = squares[..2].parse::<Square>().map_err(|_| bad())?;
    let to = squares[2..].parse::<Square>().map_err(|_| bad())?;
    Ok(NeighbourAction::Move { from, to })
}

impl FromStr for NeighbourAction {
    type Err = String;

    /// The canonical texts, case-insensitive; also `move e4f6`, `e4-f6`,
    /// `stop adding`.
    fn from_str(text: &str) -> Result<NeighbourAction, String> {
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["add"] => Ok(NeighbourAction::Add),
            ["stop"] | ["stop", "adding"] => Ok(NeighbourAction::Stop),
            ["place", sq] => square(sq).map(NeighbourAction::Place),
            ["move", rest @ ..] if !rest.is_empty() => read_move(&rest.join(" ")),
            [first, ..] if first.starts_with(|c: char| ('a'..='h').contains(&c)) => read_move(&lower),
            _ => Err(format!(
                "cannot read {:?}: the actions are add, place e4, stop, and a move like e4f6",
                chesskit_core::game::shorten(text, 40)
            )),
        }
    }
}

impl GameAction for NeighbourAction {
    fn info(&self) -> ActionInfo {
        let mut info = ActionInfo::text_only(self.to_string());
        match self {
            NeighbourAction::Add => info.label = Some("Add a piece".to_string()),
            NeighbourAction::Stop => info.label = Some("Stop adding".to_string()),
            NeighbourAction::Place(sq) => {
                info.square = Some(sq.to_string());
                info.label = Some(format!("Place it on {sq}"));
            }
            NeighbourAction::Move { from, to } => {
                info.from = Some(from.to_string());
                info.to = Some(to.to_string());
                info.label = Some(format!("Move from {from} to {to}"));
            }
        }
        info
    }
}
