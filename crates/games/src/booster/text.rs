//! The text position of Booster Chess (docs/games/booster.md): a FEN whose
//! pieces may carry checkers, `N{+2}` for two of the owner's checkers
//! (boosted), `N{-1}` for one of the opponent's (hobbled), then `key: value`
//! lines for the phase of the turn, the hands, the piles and the checkers
//! in front of each player.
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/4N{+2}3/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1
//! phase: move
//! white hand: 9h 2s 6d 10h
//! black hand: 3c 4s 8s qs 6c 5c
//! draw pile: 2h 3h
//! discard pile: 6h
//! white checkers: 4
//! black checkers: 6
//! ```

use std::collections::BTreeSet;

use chesskit_core::cards::{Card, Deck};
use chesskit_core::chess::fen::{self, parse_fen_with, parse_square, CastlingNotation, Markers, Validation};
use chesskit_core::chess::{Bitboard, Color, Geometry, Position, Rank, Square};
use chesskit_core::game::GameError;

use super::table::Stacks;
use super::{colour_word, BoosterGame, Phase, Setup};

/// Everything a position holds.
pub struct Parts {
    pub pos: Position,
    pub stacks: Stacks,
    pub reserve: [u32; 2],
    pub hands: [Vec<Card>; 2],
    pub deck: Deck,
    pub discard: Vec<Card>,
    pub phase: Phase,
    pub mover: Color,
}

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
}

pub fn write(game: &BoosterGame) -> String {
    let mut pos = game.pos.clone();
    pos.set_turn(game.mover);
    let mut markers = Markers::new();
    for sq in game.stacks.loaded() {
        let Some(color) = pos.board().color_at(sq) else { continue };
        let own = game.stacks.get(sq, color);
        let opp = game.stacks.get(sq, color.other());
        markers.insert(sq, if own > 0 { format!("+{own}") } else { format!("-{opp}") });
    }
    let phase = match game.phase {
        Phase::Move => "move".to_string(),
        Phase::Spend(sq) => format!("spend {sq}"),
        Phase::Add => "add".to_string(),
    };
    // After the move (spending or adding) the board's en passant square
    // is the opponent's, which the FEN, its side to move being the mover,
    // cannot hold: it gets a line of its own.
    let opponents_ep = if game.phase == Phase::Move { None } else { pos.ep_square() };
    // At the start of a turn the FEN gives the square when Booster's own
    // rules let the mover take on it (a hobbled rook pins nothing, so the
    // orthodox test would drop some).
    let movers_ep = pos.ep_square().filter(|_| game.phase == Phase::Move && game.may_take_en_passant());
    pos.set_ep_square(movers_ep);
    let fen_line = fen::text_position_fen(&pos, &markers, CastlingNotation::XFen);
    let mut lines = vec![fen_line, format!("phase: {phase}")];
    if let Some(square) = opponents_ep {
        lines.push(format!("en passant: {square}"));
    }
    // A board study has no cards in play and no card line (an empty one
    // would claim the deck and be refused).
    let cards_in_play =
        game.hands.iter().any(|hand| !hand.is_empty()) || !game.deck.cards().is_empty() || !game.discard.is_empty();
    if cards_in_play {
        lines.push(format!("white hand: {}", cards_text(&game.hands[0])));
        lines.push(format!("black hand: {}", cards_text(&game.hands[1])));
        lines.push(format!("draw pile: {}", cards_text(game.deck.cards())));
        lines.push(format!("discard pile: {}", cards_text(&game.discard)));
    }
    lines.push(format!("white checkers: {}", game.reserve[0]));
    lines.push(format!("black checkers: {}", game.reserve[1]));
    lines.join("\n").replace(": \n", ":\n").trim_end().to_string()
}

fn bad(message: impl Into<String>) -> GameError {
    GameError::new(format!("bad Booster position: {}", message.into()))
}

fn parse_cards(key: &str, value: &str, seen: &mut BTreeSet<Card>) -> Result<Vec<Card>, GameError> {
    let mut cards = Vec::new();
    for word in value.split_whitespace() {
        let card: Card = word.parse().map_err(|e: String| bad(format!("{key}: {e}")))?;
        if card.meaning().is_none() {
            return Err(bad(format!("{key}: the {card} is not in the Booster deck")));
        }
        if !seen.insert(card) {
            return Err(bad(format!("the {card} appears twice")));
        }
        cards.push(card);
    }
    Ok(cards)
}

/// Read a position for a game played with `setup` (the options: checkers
/// each, checker cards in the deck), refusing any position that cannot
/// occur in such a game.
/// "Place 6 light checkers in front of White and 6 dark checkers in front
/// of Black" (or as the options say): checkers never leave the game (spent,
/// cancelled and far-rank checkers go back in front of their owner, a
/// captured piece's checkers stay under the capturer), so those in front of
/// a player and those on the board always make the number they started
/// with. Without a `checkers` line, the rest are in front of the player.
fn checkers_in_front(color: Color, given: Option<u32>, stacks: &Stacks, setup: &Setup) -> Result<u32, GameError> {
    let total = setup.checkers(color);
    let on_board = stacks.on_board(color);
    let name = colour_word(color);
    if on_board > total {
        return Err(bad(format!(
            "{on_board} {name} checkers on the board, but {name} plays with {total} checkers in all"
        )));
    }
    match given {
        None => Ok(total - on_board),
        Some(n) if n + on_board == total => Ok(n),
        Some(n) => Err(bad(format!(
            "{name} checkers: {n} in front of {name} and {on_board} on the board make {}, but {name} plays with {total} \
             checkers in all",
            n + on_board
        ))),
    }
}

/// "Shuffle the deck": a position that lists cards accounts for every card
/// of the deck (the 32 piece cards and the checker cards the options put
/// in, the four 6s by default), each once, in a hand or a pile. (A
/// position without any card line is a board study with no cards in play,
/// as the move-count tests and benchmarks use.)
fn check_deck(seen: &BTreeSet<Card>, setup: &Setup) -> Result<(), GameError> {
    let deck: BTreeSet<Card> = setup.deck().into_iter().collect();
    if let Some(extra) = seen.iter().find(|c| !deck.contains(c)) {
        return Err(bad(format!(
            "the {extra} is not in this game's deck (the 32 piece cards and {} checker cards)",
            setup.checker_cards
        )));
    }
    let missing: Vec<String> = deck.difference(seen).map(Card::to_string).collect();
    if !missing.is_empty() {
        return Err(bad(format!(
            "the cards do not add up to the {}-card deck: {} missing ({}); every card is in a hand, the draw pile \
             or the discard pile",
            deck.len(),
            missing.len(),
            missing.join(" ")
        )));
    }
    Ok(())
}

/// "Draw cards until you have the same number of cards as checkers off
/// the board", and "always deal one card for each checker": a card leaves
/// a hand only with a checker (playing it adds one to the board) and
/// checkers come back without cards, so a hand never holds more cards than
/// checkers in front of its player. And at the start of a turn the player
/// who just drew holds exactly that many: the piles never run out together
/// (at most 24 of the 32 or more cards fit in two hands of at most 12).
fn check_hand(
    color: Color,
    hands: &[Vec<Card>; 2],
    reserve: [u32; 2],
    phase: Phase,
    mover: Color,
) -> Result<(), GameError> {
    let i = color.fold_wb(0, 1);
    let (held, front) = (hands[i].len(), reserve[i] as usize);
    let name = colour_word(color);
    if held > front {
        return Err(bad(format!(
            "{name} hand: {held} cards, but only {front} checkers in front of {name}: a player never holds more \
             cards than checkers off the board"
        )));
    }
    if phase == Phase::Move && color != mover && held < front {
        return Err(bad(format!(
            "{name} hand: {held} cards, but {name} drew at the end of the last turn up to {front}, one per checker \
             in front of {name}"
        )));
    }
    Ok(())
}

/// The `en passant` line, checked: the square `mover`'s pawn just crossed
/// by a regular move of two squares this turn (so it stands just beyond,
/// and the square and the one behind are empty).
fn opponents_ep(pos: &Position, ep: Option<Square>, mover: Color) -> Result<Option<Square>, GameError> {
    let Some(square) = ep else { return Ok(None) };
    let board = pos.board();
    let pawn = square.offset(mover.fold_wb(8, -8)).and_then(|sq| board.piece_at(sq));
    let origin = square.offset(mover.fold_wb(-8, 8));
    let empty = !board.occupied().contains(square) && origin.is_some_and(|sq| !board.occupied().contains(sq));
    if square.rank() != mover.fold_wb(Rank::Third, Rank::Sixth) || pawn != Some(mover.pawn()) || !empty {
        return Err(bad(format!(
            "en passant: {square} does not follow a two-square move of a {} pawn",
            colour_word(mover)
        )));
    }
    Ok(Some(square))
}

/// "A pawn that moves to the back rank immediately promotes", but a
/// boosted pawn's king steps may take it back to its own first rank, so
/// only the last rank is refused.
fn check_no_pawn_on_its_last_rank(pos: &Position) -> Result<(), GameError> {
    for color in Color::ALL {
        let last = Bitboard::from_rank(color.other().backrank());
        if let Some(sq) = (pos.board().by_piece(color.pawn()) & last).first() {
            return Err(bad(format!("a pawn on {sq} stands on its last rank: it would have promoted")));
        }
    }
    Ok(())
}

pub fn read(text: &str, setup: &Setup) -> Result<Parts, GameError> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let fen_line = lines.next().ok_or_else(|| bad("empty: expected a FEN line"))?;
    let validation = Validation { one_king_each: true, opponent_not_in_check: false, pawns_off_back_ranks: false };
    let (mut pos, markers) = parse_fen_with(fen_line, Geometry::ORTHODOX, validation).map_err(bad)?;
    check_no_pawn_on_its_last_rank(&pos)?;
    let mover = pos.turn();
    let mut stacks = Stacks::default();
    for (sq, marker) in &markers {
        let Some(color) = pos.board().color_at(*sq) else {
            return Err(bad(format!("checkers on the empty square {sq}: checkers stand under pieces")));
        };
        let (sign, number) = marker.split_at(marker.len().min(1));
        let n: u32 = number.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
            bad(format!("marker {{{marker}}} on {sq}: expected +N (own checkers) or -N (opponent's)"))
        })?;
        match sign {
            "+" => stacks.add(*sq, color, n),
            "-" => stacks.add(*sq, color.other(), n),
            _ => return Err(bad(format!("marker {{{marker}}} on {sq}: expected +N or -N"))),
        };
    }
    let mut phase = Phase::Move;
    let mut ep = None;
    let mut hands = [Vec::new(), Vec::new()];
    let mut deck = Vec::new();
    let mut discard = Vec::new();
    let mut reserve: [Option<u32>; 2] = [None, None];
    let mut seen = BTreeSet::new();
    let mut keys = BTreeSet::new();
    for line in lines {
        let (key, value) = line.split_once(':').ok_or_else(|| bad(format!("expected `key: value`, not {line:?}")))?;
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        if !keys.insert(key.clone()) {
            return Err(bad(format!("{key} is given twice")));
        }
        match key.as_str() {
            "phase" => {
                let words: Vec<&str> = value.split_whitespace().collect();
                phase = match words.as_slice() {
                    ["move"] => Phase::Move,
                    ["add"] => Phase::Add,
                    ["spend", sq] => {
                        let sq = parse_square(sq).ok_or_else(|| bad(format!("phase: {sq:?} is not a square")))?;
                        if pos.board().color_at(sq) != Some(mover) || stacks.get(sq, mover) == 0 {
                            return Err(bad(format!("phase: no boosted piece of the mover on {sq}")));
                        }
                        Phase::Spend(sq)
                    }
                    _ => return Err(bad(format!("phase: expected move, spend SQUARE or add, not {value:?}"))),
                }
            }
            "en passant" => {
                ep = Some(parse_square(value).ok_or_else(|| bad(format!("en passant: {value:?} is not a square")))?);
            }
            "white hand" => hands[0] = parse_cards(&key, value, &mut seen)?,
            "black hand" => hands[1] = parse_cards(&key, value, &mut seen)?,
            "draw pile" => deck = parse_cards(&key, value, &mut seen)?,
            "discard pile" => discard = parse_cards(&key, value, &mut seen)?,
            "white checkers" | "black checkers" => {
                let n: u32 = value.parse().map_err(|_| bad(format!("{key}: expected a number, not {value:?}")))?;
                reserve[usize::from(key.starts_with("black"))] = Some(n);
            }
            _ => return Err(bad(format!("unknown line {key:?}"))),
        }
    }
    let reserve = [
        checkers_in_front(Color::White, reserve[0], &stacks, setup)?,
        checkers_in_front(Color::Black, reserve[1], &stacks, setup)?,
    ];
    let card_lines = ["white hand", "black hand", "draw pile", "discard pile"];
    if card_lines.iter().any(|line| keys.contains(*line)) {
        check_deck(&seen, setup)?;
        for color in Color::ALL {
            check_hand(color, &hands, reserve, phase, mover)?;
        }
    }
    if phase != Phase::Move {
        pos.set_turn(mover.other());
        pos.set_ep_square(opponents_ep(&pos, ep, mover)?);
    } else if ep.is_some() {
        return Err(bad("en passant: only after the move (phase spend or add); at phase move the FEN gives it"));
    } else {
        let game_probe = (pos.clone(), stacks.clone());
        if let Some(king) = game_probe.0.king_of(mover.other()) {
            if super::table::attacked(&game_probe.0, &game_probe.1, king, mover) {
                return Err(bad(format!(
                    "{} is to move but could capture the {} king",
                    fen::color_name(mover),
                    super::colour_word(mover.other())
                )));
            }
        }
    }
    Ok(Parts { pos, stacks, reserve, hands, deck: Deck::new(deck), discard, phase, mover })
}
