//! The text position of Split-Brain Chess (docs/games/split-brain.md): a
//! FEN on the inner 6x6 (b2 to g7; no castling rights, no en passant, no
//! bishops), then `key: value` lines for the checker's corner and the move
//! in progress, secret circles included:
//!
//! ```text
//! 8/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/8 w - - 0 1
//! checker: king-side
//! chooser circle: c2
//! ```
//!
//! `checker` is `king-side` (the black king's corner, the default) or
//! `queen-side`. `chooser circle` and `mover circle` are the circles made
//! so far. `step` says where the move stands once both are made:
//! `correct piece` / `correct target` (the opponents' chooser breaks a tie
//! between nearest valid squares), `keep` (they keep the piece or the
//! target), `finish pair` / `finish piece` / `finish target` (equally close
//! moves to pick from); without it both circles are not yet made.

use chesskit_core::chess::fen::{self, Validation};
use chesskit_core::chess::{Position, Square};
use chesskit_core::game::GameError;

use super::{geometry, Partner, Route, Side, SplitBrainGame, Step};

const CHECKER: &str = "checker";
const CHOOSER_CIRCLE: &str = "chooser circle";
const MOVER_CIRCLE: &str = "mover circle";
const STEP: &str = "step";

/// What a text position holds.
pub struct Read {
    pub pos: Position,
    pub checker: Side,
    pub step: Step,
}

/// The text of a game's position, secrets included.
pub fn write(game: &SplitBrainGame) -> String {
    let mut lines = vec![fen::to_fen(&game.pos, fen::CastlingNotation::XFen)];
    lines.push(format!("{CHECKER}: {}", game.checker.word()));
    let (chooser, mover, step) = match game.step {
        Step::Circling { chooser, mover } => (chooser, mover, None),
        Step::Correcting { partner, chooser, mover } => {
            (Some(chooser), Some(mover), Some(format!("correct {}", partner.circle_word())))
        }
        Step::Keeping { piece, target } => (Some(piece), Some(target), Some("keep".to_string())),
        Step::Finishing { route, piece, target } => {
            (Some(piece), Some(target), Some(format!("finish {}", route.word())))
        }
    };
    if let Some(sq) = chooser {
        lines.push(format!("{CHOOSER_CIRCLE}: {sq}"));
    }
    if let Some(sq) = mover {
        lines.push(format!("{MOVER_CIRCLE}: {sq}"));
    }
    if let Some(step) = step {
        lines.push(format!("{STEP}: {step}"));
    }
    lines.join("\n")
}

/// Read a text position. What the circles must be for the step is checked
/// by [`check_step`] once the game is built.
pub fn read(text: &str) -> Result<Read, GameError> {
    let err = |m: String| GameError::new(m);
    let (fen_line, key_lines) = fen::split_text_position(text).map_err(err)?;
    let (pos, markers) = fen::parse_fen_with(fen_line, geometry(), Validation::ORTHODOX).map_err(|e| {
        if e.contains("outside the board") {
            err(format!("{e}: Split-Brain Chess is played on the inner 6x6, b2 to g7"))
        } else {
            err(e)
        }
    })?;
    if let Some((sq, marker)) = markers.iter().next() {
        return Err(err(format!("unknown marker {{{marker}}} on {sq}: Split-Brain Chess has no markers")));
    }
    if pos.board().bishops().any() {
        return Err(err("Los Alamos chess has no bishops".to_string()));
    }
    if pos.castling_rooks().any() {
        return Err(err("Los Alamos chess has no castling: the castling field must be -".to_string()));
    }
    if pos.ep_square().is_some() {
        return Err(err("Los Alamos pawns never step twice: the en passant field must be -".to_string()));
    }
    let fields = key_lines.fields(&[CHECKER, CHOOSER_CIRCLE, MOVER_CIRCLE, STEP]).map_err(err)?;
    let checker = match fields.get(CHECKER).copied() {
        None | Some("king-side") => Side::King,
        Some("queen-side") => Side::Queen,
        Some(other) => return Err(err(format!("bad checker {other:?}: expected king-side or queen-side"))),
    };
    let circle = |key: &str| -> Result<Option<Square>, GameError> {
        let Some(&value) = fields.get(key) else { return Ok(None) };
        let sq = fen::parse_square(value).ok_or_else(|| err(format!("bad {key} {value:?}: expected a square")))?;
        if !pos.mask().contains(sq) {
            return Err(err(format!("the {key} {sq} is off the 6x6 grid (b2 to g7)")));
        }
        Ok(Some(sq))
    };
    let (chooser, mover) = (circle(CHOOSER_CIRCLE)?, circle(MOVER_CIRCLE)?);
    let step = match fields.get(STEP).copied() {
        None => {
            if chooser.is_some() && mover.is_some() {
                return Err(err(
                    "both circles are made, so they are revealed: say which `step` the move has reached".to_string()
                ));
            }
            Step::Circling { chooser, mover }
        }
        Some(word) => {
            let (Some(chooser), Some(mover)) = (chooser, mover) else {
                return Err(err(format!("the step {word:?} needs both the chooser circle and the mover circle")));
            };
            match word {
                "correct piece" => Step::Correcting { partner: Partner::Chooser, chooser, mover },
                "correct target" => Step::Correcting { partner: Partner::Mover, chooser, mover },
                "keep" => Step::Keeping { piece: chooser, target: mover },
                "finish pair" => Step::Finishing { route: Route::Pair, piece: chooser, target: mover },
                "finish piece" => Step::Finishing { route: Route::Piece, piece: chooser, target: mover },
                "finish target" => Step::Finishing { route: Route::Target, piece: chooser, target: mover },
                other => {
                    return Err(err(format!(
                        "bad step {other:?}: expected correct piece, correct target, keep, finish pair, finish piece or finish target"
                    )))
                }
            }
        }
    };
    Ok(Read { pos, checker, step })
}

/// A move in progress must be one the rules can reach: a correction only
/// for an invalid circle with several nearest valid squares, a choice to
/// keep only when the valid circles make no legal move, a pick only among
/// several equally close moves.
pub fn check_step(game: &SplitBrainGame) -> Result<(), GameError> {
    let choices = game.choices();
    let valid_piece = |sq: Square| choices.valid_pieces().contains(sq);
    let valid_target = |sq: Square| choices.valid_targets().contains(sq);
    let problem = match game.step {
        Step::Circling { .. } => None,
        Step::Correcting { partner: Partner::Chooser, chooser, .. } if valid_piece(chooser) => {
            Some(format!("the chooser circle {chooser} is valid and needs no correction"))
        }
        Step::Correcting { partner: Partner::Mover, chooser, .. } if !valid_piece(chooser) => {
            Some(format!("the chooser circle {chooser} must be corrected before the mover's"))
        }
        Step::Correcting { partner: Partner::Mover, mover, .. } if valid_target(mover) => {
            Some(format!("the mover circle {mover} is valid and needs no correction"))
        }
        Step::Correcting { partner, chooser, mover } => {
            let n = game.correction_candidates(partner, chooser, mover).count();
            (n < 2).then(|| "only one valid square is nearest, so the correction needs no choice".to_string())
        }
        Step::Keeping { piece, target } | Step::Finishing { piece, target, .. }
            if !valid_piece(piece) || !valid_target(target) =>
        {
            Some(format!("the circles {piece} and {target} must both be valid at this step"))
        }
        Step::Keeping { piece, target } => {
            (!choices.pair(piece, target).is_empty()).then(|| format!("{piece} can move to {target}: nothing to keep"))
        }
        Step::Finishing { route, piece, target } => {
            let pair = !choices.pair(piece, target).is_empty();
            if pair != (route == Route::Pair) {
                Some(format!(
                    "the step `finish {}` does not follow from the circles {piece} and {target}",
                    route.word()
                ))
            } else if game.finishing_moves(route, piece, target).len() < 2 {
                Some("only one move is possible, so there is nothing to pick".to_string())
            } else {
                None
            }
        }
    };
    match problem {
        Some(problem) => Err(GameError::new(format!("impossible move in progress: {problem}"))),
        None => Ok(()),
    }
}
