//! The actions of Telepathy Chess and their canonical texts.

use std::fmt;
use std::str::FromStr;

use chesskit_core::cards::{Card, Meaning};
use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::parse_square;
use chesskit_core::chess::notation::UciAction;
use chesskit_core::chess::{Color, Role, Square};
use chesskit_core::game::GameAction;
use chesskit_core::view::ActionInfo;

/// One of the seven cards each team holds: "pawn, knight, bishop, rook,
/// queen, king, and checker".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TeamCard {
    Piece(Role),
    /// "The checker card is like a copy of the face-up card."
    Checker,
}

impl TeamCard {
    /// A team's set of seven, in the order the book lists them.
    pub const SET: [TeamCard; 7] = [
        TeamCard::Piece(Role::Pawn),
        TeamCard::Piece(Role::Knight),
        TeamCard::Piece(Role::Bishop),
        TeamCard::Piece(Role::Rook),
        TeamCard::Piece(Role::Queen),
        TeamCard::Piece(Role::King),
        TeamCard::Checker,
    ];

    /// The Appendix A playing card that stands for this card in `colour`'s
    /// set: hearts for White, spades for Black (the suits holding a queen
    /// and a king of each colour), the 6 as the checker.
    pub fn card(self, colour: Color) -> Card {
        match self {
            TeamCard::Piece(role) => Card::for_piece(role.of(colour)),
            TeamCard::Checker => {
                Card::new(6, colour.fold_wb(chesskit_core::cards::Suit::Hearts, chesskit_core::cards::Suit::Spades))
            }
        }
    }

    /// The team card a playing card stands for, and the colour of its set.
    pub fn from_card(card: Card) -> Option<(TeamCard, Color)> {
        match card.meaning()? {
            Meaning::Piece(piece) => Some((TeamCard::Piece(piece.role), piece.color)),
            Meaning::Checker(colour) => Some((TeamCard::Checker, colour)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TeamCard::Piece(role) => role_name(role),
            TeamCard::Checker => "checker",
        }
    }

    fn from_word(word: &str) -> Option<TeamCard> {
        Some(match word {
            "pawn" | "p" => TeamCard::Piece(Role::Pawn),
            "knight" | "n" => TeamCard::Piece(Role::Knight),
            "bishop" | "b" => TeamCard::Piece(Role::Bishop),
            "rook" | "r" => TeamCard::Piece(Role::Rook),
            "queen" | "q" => TeamCard::Piece(Role::Queen),
            "king" | "k" => TeamCard::Piece(Role::King),
            "checker" | "copy" | "c" => TeamCard::Checker,
            _ => return None,
        })
    }
}

impl fmt::Display for TeamCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a team's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TelepathyAction {
    /// `predict knight`: the predictor plays a card face down.
    Predict(TeamCard),
    /// The mover's chess move in UCI: `e2e4`, `e7e8q`, `e1g1`.
    Move(UciAction),
    /// `remove e4`: the team the coin ran off towards removes this piece.
    Remove(Square),
}

impl fmt::Display for TelepathyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TelepathyAction::Predict(card) => write!(f, "predict {card}"),
            TelepathyAction::Move(m) => write!(f, "{m}"),
            TelepathyAction::Remove(sq) => write!(f, "remove {sq}"),
        }
    }
}

const EXPECTED: &str = "expected `predict knight` (or a card: `predict 8h`), a move like e2e4, or `remove e4`";

impl FromStr for TelepathyAction {
    type Err = String;

    fn from_str(text: &str) -> Result<TelepathyAction, String> {
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["predict", word] => match TeamCard::from_word(word) {
                Some(card) => Ok(TelepathyAction::Predict(card)),
                None => {
                    let card: Card = word.parse().map_err(|_| {
                        format!("{word:?} is not a card: name one (pawn, knight, bishop, rook, queen, king, checker) or write it as 8h")
                    })?;
                    TeamCard::from_card(card)
                        .map(|(c, _)| TelepathyAction::Predict(c))
                        .ok_or_else(|| format!("the {card} stands for no piece or checker (Appendix A)"))
                }
            },
            ["predict", ..] => Err("write a prediction as `predict knight`: one card".to_string()),
            ["remove", sq] => {
                parse_square(sq).map(TelepathyAction::Remove).ok_or_else(|| format!("{sq:?} is not a square like e4"))
            }
            ["remove", ..] => Err("write a removal as `remove e4`: the square of the piece".to_string()),
            [single] => single
                .parse::<UciAction>()
                .map(TelepathyAction::Move)
                .map_err(|_| format!("{EXPECTED}, not {:?}", text.trim())),
            _ => Err(format!("{EXPECTED}, not {:?}", text.trim())),
        }
    }
}

impl GameAction for TelepathyAction {
    fn info(&self) -> ActionInfo {
        let text = self.to_string();
        match self {
            TelepathyAction::Move(m) => ActionInfo { text, ..m.info() },
            TelepathyAction::Predict(card) => {
                ActionInfo { label: Some(format!("Predict: {card}")), text, ..ActionInfo::default() }
            }
            TelepathyAction::Remove(sq) => ActionInfo {
                square: Some(sq.to_string()),
                label: Some(format!("Remove the piece on {sq}")),
                text,
                ..ActionInfo::default()
            },
        }
    }
}
