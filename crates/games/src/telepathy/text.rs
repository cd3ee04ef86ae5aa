//! The text position of Telepathy Chess (docs/games/telepathy.md): a FEN
//! (its side to move is the team whose turn it is, or comes next while a
//! team removes a piece), then `key: value` lines for the part of the turn,
//! the coin on the trophy track, and each team's cards and predictor.
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
//! phase: move
//! trophy track: white side
//! white predictor: B
//! white face up: 2h
//! white hand: 8h 9h 10h qh kh 6h
//! black predictor: A
//! black face up: 2s
//! black face down: 8s
//! black hand: 9s 10s qs ks 6s
//! ```
//!
//! Cards are written as Appendix A playing cards (hearts for White's set,
//! spades for Black's) or by name (`knight`, `checker`). The hands may be
//! left out: they are always the team's seven less its cards on the table,
//! and are checked against that when given.

use std::collections::BTreeSet;

use chesskit_core::cards::Card;
use chesskit_core::chess::fen::{self, parse_fen_with, split_text_position, Validation};
use chesskit_core::chess::{Color, Geometry, Position};
use chesskit_core::game::GameError;

use super::{index, Coin, Phase, Team, TeamCard, TelepathyGame};

/// Everything a position holds.
pub struct Parts {
    pub pos: Position,
    pub teams: [Team; 2],
    pub coin: Coin,
    pub phase: Phase,
}

const KEYS: [&str; 10] = [
    "phase",
    "trophy track",
    "white predictor",
    "white face up",
    "white face down",
    "white hand",
    "black predictor",
    "black face up",
    "black face down",
    "black hand",
];

fn cards_text(cards: &[TeamCard], colour: Color) -> String {
    cards.iter().map(|c| c.card(colour).to_string()).collect::<Vec<_>>().join(" ")
}

pub fn write(game: &TelepathyGame) -> String {
    let phase = match game.phase {
        Phase::Predict => "predict".to_string(),
        Phase::Move => "move".to_string(),
        Phase::Remove(colour) => format!("remove {}", super::colour_word(colour)),
    };
    let mut lines = vec![
        fen::to_fen(&game.pos, fen::CastlingNotation::XFen),
        format!("phase: {phase}"),
        format!("trophy track: {}", game.coin.words()),
    ];
    for colour in Color::ALL {
        let word = super::colour_word(colour);
        let team = game.team(colour);
        lines.push(format!("{word} predictor: {}", if team.predictor < 2 { "A" } else { "B" }));
        lines.push(format!("{word} face up: {}", team.face_up.card(colour)));
        if let Some(card) = team.face_down {
            lines.push(format!("{word} face down: {}", card.card(colour)));
        }
        lines.push(format!("{word} hand: {}", cards_text(&team.hand(), colour)));
    }
    lines.join("\n")
}

fn bad(message: impl Into<String>) -> GameError {
    GameError::new(format!("bad Telepathy position: {}", message.into()))
}

/// One card of `colour`'s set, by name or as its playing card.
fn parse_card(key: &str, word: &str, colour: Color) -> Result<TeamCard, GameError> {
    let by_name = format!("predict {word}").parse::<super::TelepathyAction>();
    let card = match by_name {
        Ok(super::TelepathyAction::Predict(card)) => card,
        _ => return Err(bad(format!("{key}: {word:?} is not a card (a name like knight, or a card like 8h)"))),
    };
    if let Ok(face) = word.parse::<Card>() {
        if face != card.card(colour) {
            return Err(bad(format!(
                "{key}: the {face} is not in {}'s set ({})",
                super::colour_word(colour),
                cards_text(&TeamCard::SET, colour)
            )));
        }
    }
    Ok(card)
}

fn parse_phase(value: &str) -> Result<Phase, GameError> {
    match value.to_ascii_lowercase().split_whitespace().collect::<Vec<_>>().as_slice() {
        ["predict"] => Ok(Phase::Predict),
        ["move"] => Ok(Phase::Move),
        ["remove", "white"] => Ok(Phase::Remove(Color::White)),
        ["remove", "black"] => Ok(Phase::Remove(Color::Black)),
        _ => Err(bad(format!("phase: expected predict, move, remove white or remove black, not {value:?}"))),
    }
}

fn parse_coin(value: &str) -> Result<Coin, GameError> {
    match value.to_ascii_lowercase().as_str() {
        "middle" => Ok(Coin::Middle),
        "white side" | "white" => Ok(Coin::WhiteSide),
        "black side" | "black" => Ok(Coin::BlackSide),
        _ => Err(bad(format!("trophy track: expected middle, white side or black side, not {value:?}"))),
    }
}

pub fn read(text: &str) -> Result<Parts, GameError> {
    let (fen_line, keys) = split_text_position(text).map_err(bad)?;
    let validation = Validation { one_king_each: true, opponent_not_in_check: false, pawns_off_back_ranks: true };
    let (pos, markers) = parse_fen_with(fen_line, Geometry::ORTHODOX, validation).map_err(bad)?;
    if !markers.is_empty() {
        return Err(bad("Telepathy Chess puts nothing on the squares besides the pieces: no {...} markers"));
    }
    let fields = keys.fields(&KEYS).map_err(bad)?;
    let phase = fields.get("phase").map_or(Ok(Phase::Predict), |v| parse_phase(v))?;
    let coin = fields.get("trophy track").map_or(Ok(Coin::Middle), |v| parse_coin(v))?;
    let mut teams = [Team::start(0), Team::start(1)];
    for colour in Color::ALL {
        let word = super::colour_word(colour);
        let team = &mut teams[index(colour)];
        let key = format!("{word} predictor");
        team.predictor = match fields.get(key.as_str()).map(|v| v.to_ascii_uppercase()).as_deref() {
            None | Some("A") => index(colour),
            Some("B") => index(colour) + 2,
            Some(other) => return Err(bad(format!("{key}: expected A or B (the seat), not {other:?}"))),
        };
        let key = format!("{word} face up");
        if let Some(value) = fields.get(key.as_str()) {
            team.face_up = parse_card(&key, value, colour)?;
        }
        if team.face_up == TeamCard::Checker {
            return Err(bad(format!("{key}: the checker is never left face up (the mover always picks it up)")));
        }
        let key = format!("{word} face down");
        if let Some(value) = fields.get(key.as_str()) {
            let card = parse_card(&key, value, colour)?;
            if card == team.face_up {
                return Err(bad(format!("{key}: the {card} is already face up")));
            }
            team.face_down = Some(card);
        }
        let key = format!("{word} hand");
        if let Some(value) = fields.get(key.as_str()) {
            let given = value.split_whitespace().map(|w| parse_card(&key, w, colour)).collect::<Result<Vec<_>, _>>()?;
            let given_set: BTreeSet<TeamCard> = given.iter().copied().collect();
            let hand = team.hand();
            if given_set.len() != given.len() || given_set != hand.iter().copied().collect() {
                return Err(bad(format!(
                    "{key}: the hand holds the team's seven less its cards on the table: {}",
                    cards_text(&hand, colour)
                )));
            }
        }
    }
    let turn = pos.turn();
    for colour in Color::ALL {
        let down = teams[index(colour)].face_down.is_some();
        let expected = phase == Phase::Move && colour == turn;
        if down && !expected {
            return Err(bad(format!(
                "{} face down: a card lies face down only during its team's move",
                super::colour_word(colour)
            )));
        }
        if expected && !down {
            return Err(bad(format!(
                "phase move: {} has played no card face down (add `{} face down: CARD`)",
                super::colour_word(colour),
                super::colour_word(colour)
            )));
        }
    }
    if let Phase::Remove(colour) = phase {
        let board = pos.board();
        if (board.by_color(colour) & !board.kings()).is_empty() {
            return Err(bad(format!("phase: {} has nothing but its king to remove", super::colour_word(colour))));
        }
        if coin != Coin::Middle {
            return Err(bad("trophy track: the coin is back in the middle while a team removes a piece"));
        }
    }
    Ok(Parts { pos, teams, coin, phase })
}
