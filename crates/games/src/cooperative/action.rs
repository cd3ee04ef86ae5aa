//! The actions of Cooperative Chess and their canonical texts.

use std::fmt;
use std::str::FromStr;

use chesskit_core::cards::Card;
use chesskit_core::chess::notation::UciAction;
use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;

/// One step of a Cooperative Chess turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoopAction {
    /// A chess move in UCI (`e2e4`, `e7e8q`, `e1g1`): the non-capturing move
    /// of step 1, or a capture of step 3.
    Move(UciAction),
    /// `play 9h`: step 2, play a card from your hand to your discard stack.
    Play(Card),
    /// `stop`: make no more captures this turn (then the referee draws for you).
    Stop,
}

impl fmt::Display for CoopAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoopAction::Move(m) => write!(f, "{m}"),
            CoopAction::Play(card) => write!(f, "play {card}"),
            CoopAction::Stop => f.write_str("stop"),
        }
    }
}

const EXPECTED: &str = "expected a move like e2e4, `play 9h` or `stop`";

impl FromStr for CoopAction {
    type Err = String;

    fn from_str(text: &str) -> Result<CoopAction, String> {
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["stop"] => Ok(CoopAction::Stop),
            ["play", card] => card.parse::<Card>().map(CoopAction::Play),
            ["play", ..] => Err("write a card play as `play 9h`: the card from your hand".to_string()),
            [single] => single
                .parse::<UciAction>()
                .map(CoopAction::Move)
                .map_err(|_| format!("{EXPECTED}, not {:?}", text.trim())),
            _ => Err(format!("{EXPECTED}, not {:?}", text.trim())),
        }
    }
}

impl GameAction for CoopAction {
    fn info(&self) -> ActionInfo {
        let text = self.to_string();
        match self {
            CoopAction::Move(m) => ActionInfo { text, ..m.info() },
            CoopAction::Play(card) => ActionInfo {
                card: Some(card.to_string()),
                label: Some(format!("Play the {card}")),
                text,
                ..ActionInfo::default()
            },
            CoopAction::Stop => ActionInfo { label: Some("Stop capturing".to_string()), text, ..ActionInfo::default() },
        }
    }
}
