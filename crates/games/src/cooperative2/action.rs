//! The actions of Cooperative Chess 2 and their canonical texts:
//!
//! * `play 3h`: step 1, play a card from the hand to the end of the line;
//! * `c8e6`: a chess move in UCI (step 2, a non-capturing move, or step 3,
//!   a capture);
//! * `e6d5 x3h`: a capture names the captured piece's card it sends from
//!   the line to the discard pile (the choice matters when two such cards
//!   lie beside the capturer's);
//! * `e7e8q p4d @2`: a promotion names the pawn's card it discards and
//!   where the promoted piece's card goes in the line (`@0` is the end by
//!   the draw pile, `@n` after the first n cards);
//! * `end`: end the turn (step 4, the draw, follows by itself).

use std::fmt;
use std::str::FromStr;

use chesskit_core::cards::Card;
use chesskit_core::chess::notation::UciAction;
use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;

/// A chess move with the cards it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChessStep {
    pub uci: UciAction,
    /// The captured piece's card, leaving the line for the discard pile.
    pub captured_card: Option<Card>,
    /// A promotion: the pawn's card, leaving the line for the discard pile.
    pub pawn_card: Option<Card>,
    /// A promotion: how many line cards lie before the promoted piece's card.
    pub place: Option<usize>,
}

/// One step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Coop2Action {
    /// Step 1: a card from the hand to the end of the line.
    Play(Card),
    /// Step 2 or 3: a chess move.
    Move(ChessStep),
    /// The end of the moves of this turn.
    End,
}

impl fmt::Display for ChessStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.uci)?;
        if let Some(card) = self.captured_card {
            write!(f, " x{card}")?;
        }
        if let Some(card) = self.pawn_card {
            write!(f, " p{card}")?;
        }
        if let Some(place) = self.place {
            write!(f, " @{place}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Coop2Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Coop2Action::Play(card) => write!(f, "play {card}"),
            Coop2Action::Move(step) => step.fmt(f),
            Coop2Action::End => f.write_str("end"),
        }
    }
}

/// A card after its marker letter (`x3h`, `p4d`).
fn marked_card(word: &str, what: &str) -> Result<Card, String> {
    word[1..].parse::<Card>().map_err(|e| format!("the {what} card: {e}"))
}

impl FromStr for ChessStep {
    type Err = String;

    fn from_str(text: &str) -> Result<ChessStep, String> {
        let mut words = text.split_whitespace();
        let uci: UciAction = words.next().ok_or("empty move")?.parse()?;
        let mut step = ChessStep { uci, captured_card: None, pawn_card: None, place: None };
        for word in words {
            let first = word.chars().next().unwrap_or(' ');
            match first {
                'x' | 'X' if step.captured_card.is_none() => step.captured_card = Some(marked_card(word, "captured")?),
                'p' | 'P' if step.pawn_card.is_none() => step.pawn_card = Some(marked_card(word, "pawn's")?),
                '@' if step.place.is_none() => {
                    step.place = Some(word[1..].parse().map_err(|_| {
                        format!("{word:?}: the place in the line is @ and a number of cards, like @0 or @3")
                    })?)
                }
                _ => {
                    return Err(format!(
                        "{word:?}: after the move come x<card> (the captured card), p<card> (the pawn's card) \
                         and @<n> (where the promoted card goes), each at most once"
                    ))
                }
            }
        }
        Ok(step)
    }
}

impl FromStr for Coop2Action {
    type Err = String;

    fn from_str(text: &str) -> Result<Coop2Action, String> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        if matches!(lower.as_str(), "end" | "done" | "end turn") {
            return Ok(Coop2Action::End);
        }
        if let Some(card) = lower.strip_prefix("play ") {
            return card.trim().parse::<Card>().map(Coop2Action::Play);
        }
        text.parse::<ChessStep>()
            .map(Coop2Action::Move)
            .map_err(|e| format!("{e} (expected `play <card>` like play 9h, a move like c8e6 or e6d5 x3h, or `end`)"))
    }
}

impl GameAction for Coop2Action {
    fn info(&self) -> ActionInfo {
        match self {
            Coop2Action::Play(card) => ActionInfo {
                text: self.to_string(),
                card: Some(card.to_string()),
                label: Some(format!("Play {card} to the line")),
                ..ActionInfo::default()
            },
            Coop2Action::Move(step) => ActionInfo {
                text: self.to_string(),
                from: Some(step.uci.from.to_string()),
                to: Some(step.uci.to.to_string()),
                promotion: step.uci.promotion.map(|r| r.char().to_string()),
                ..ActionInfo::default()
            },
            Coop2Action::End => {
                ActionInfo { text: self.to_string(), label: Some("End the turn".to_string()), ..ActionInfo::default() }
            }
        }
    }
}
