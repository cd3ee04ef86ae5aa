//! The actions of Booster Chess and their canonical texts.

use std::fmt;
use std::str::FromStr;

use chesskit_core::cards::Card;
use chesskit_core::chess::fen::parse_square;
use chesskit_core::chess::notation::UciAction;
use chesskit_core::chess::Square;
use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;

/// One part of a Booster Chess turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoosterAction {
    /// The regular move in UCI: `e2e4`, `e7e8q`, `e1g1`.
    Move(UciAction),
    /// `step e5e6`: a booster move like a king, spending one checker.
    Step(UciAction),
    /// `stop`: spend no more boosters this turn.
    Stop,
    /// `play 9h e4`: play a card to add one of your checkers under the piece on e4.
    Play(Card, Square),
    /// `pass`: add no checker this turn.
    Pass,
}

impl fmt::Display for BoosterAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoosterAction::Move(m) => write!(f, "{m}"),
            BoosterAction::Step(m) => write!(f, "step {m}"),
            BoosterAction::Stop => f.write_str("stop"),
            BoosterAction::Play(card, sq) => write!(f, "play {card} {sq}"),
            BoosterAction::Pass => f.write_str("pass"),
        }
    }
}

const EXPECTED: &str = "expected a move like e2e4, `step e5e6`, `stop`, `play 9h e4` or `pass`";

impl FromStr for BoosterAction {
    type Err = String;

    fn from_str(text: &str) -> Result<BoosterAction, String> {
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["stop"] => Ok(BoosterAction::Stop),
            ["pass"] => Ok(BoosterAction::Pass),
            ["play", card, sq] => {
                let card: Card = card.parse()?;
                let sq = parse_square(sq).ok_or_else(|| format!("{sq:?} is not a square like e4"))?;
                Ok(BoosterAction::Play(card, sq))
            }
            ["play", ..] => Err("write a card play as `play 9h e4`: the card, then the piece's square".to_string()),
            ["step", m] => m
                .parse::<UciAction>()
                .map(BoosterAction::Step)
                .map_err(|_| format!("{m:?} is not a step like e5e6 (or e7e8q for a pawn that promotes)")),
            ["step", ..] => Err("write a booster move as `step e5e6`".to_string()),
            [single] => single
                .parse::<UciAction>()
                .map(BoosterAction::Move)
                .map_err(|_| format!("{EXPECTED}, not {:?}", text.trim())),
            _ => Err(format!("{EXPECTED}, not {:?}", text.trim())),
        }
    }
}

impl GameAction for BoosterAction {
    fn info(&self) -> ActionInfo {
        let text = self.to_string();
        match self {
            BoosterAction::Move(m) => ActionInfo { text, ..m.info() },
            BoosterAction::Step(m) => {
                ActionInfo { label: Some(format!("Booster move {}-{}", m.from, m.to)), text, ..m.info() }
            }
            BoosterAction::Stop => {
                ActionInfo { label: Some("Stop the booster moves".to_string()), text, ..ActionInfo::default() }
            }
            BoosterAction::Play(card, sq) => ActionInfo {
                square: Some(sq.to_string()),
                label: Some(format!("Play the {card} to add a checker under {sq}")),
                text,
                ..ActionInfo::default()
            },
            BoosterAction::Pass => {
                ActionInfo { label: Some("Add no checker".to_string()), text, ..ActionInfo::default() }
            }
        }
    }
}
