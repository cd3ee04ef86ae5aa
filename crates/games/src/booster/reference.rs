//! A deliberately simple second legality test, for the property test that
//! checks the fast one (`table::attacked`, the orthodox shortcut of
//! `BoosterGame::legal_moves`, the trial boards): every candidate is played
//! on a full copy of the game, and the extended attack is found by brute
//! force: every regular move of every enemy piece is played on a copy of
//! the board, then every square its checkers can pay king steps to is
//! walked, without pruning.

use chesskit_core::cards::{Card, Meaning};
use chesskit_core::chess::notation::UciAction;
use chesskit_core::chess::{Bitboard, Color, Move, MoveList, Position, Role, Square};
use chesskit_core::view::Journal;
use shakmaty::{attacks, CastlingSide};

use super::table::{self, Stacks};
use super::BoosterGame;

/// Squares reached from `from` by one to `steps` king steps, never onto
/// `blocked` squares.
fn walk(from: Square, steps: u32, blocked: Bitboard) -> Bitboard {
    let mut reached = Bitboard::EMPTY;
    let mut edge = Bitboard::from_square(from);
    for _ in 0..steps {
        let mut next = Bitboard::EMPTY;
        for sq in edge {
            next |= attacks::king_attacks(sq) & !blocked;
        }
        reached |= next;
        edge = next;
    }
    reached
}

/// Our ruling (docs/games/booster.md): `color` attacks `target` when one of its pieces could
/// capture there in its next turn: a regular move onto it, a pawn's (or
/// hobbled piece's) capture diagonal, or king steps after a regular move,
/// as many as the piece's own checkers once that move is made (a capture,
/// en passant too, brings the captured piece's checkers).
pub fn attacked(pos: &Position, stacks: &Stacks, target: Square, color: Color) -> bool {
    let mut side = pos.clone();
    if side.turn() != color {
        side.set_turn(color);
        side.set_ep_square(None);
    }
    for m in table::regular_moves(&side, stacks, color) {
        if m.to() == target {
            return true;
        }
        let (mut after, mut checkers) = (side.clone(), stacks.clone());
        let arrival = table::play_move(&mut after, &mut checkers, m, color);
        let steps = checkers.get(arrival.to, color);
        let blocked = after.board().by_color(color).without(arrival.to);
        if walk(arrival.to, steps, blocked).contains(target) {
            return true;
        }
    }
    let board = pos.board();
    for from in board.by_color(color) {
        let pawn = board.role_at(from) == Some(Role::Pawn);
        let hobbled = table::hobbled(board, stacks, from);
        if (pawn || hobbled) && !(pawn && hobbled) && attacks::pawn_attacks(color, from).contains(target) {
            return true;
        }
    }
    false
}

fn king_attacked(game: &BoosterGame, color: Color) -> bool {
    match game.pos.king_of(color) {
        Some(king) => attacked(&game.pos, &game.stacks, king, color.other()),
        None => true,
    }
}

/// The legal regular moves: every regular move and every castling the
/// squares allow, kept when the king carries no checkers, the rook is not
/// boosted, the king crosses no attacked square, and the king is not
/// attacked afterwards.
pub fn legal_moves(game: &BoosterGame) -> Vec<Move> {
    let us = game.mover;
    let mut moves = table::regular_moves(&game.pos, &game.stacks, us);
    let mut castles = MoveList::new();
    game.pos.castling_moves(false, &mut castles);
    for m in castles {
        let Move::Castle { king, rook } = m else { continue };
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let to = side.king_to(us);
        let path = attacks::between(king, to).with(king).with(to);
        let barred = game.stacks.loaded().contains(king) || game.stacks.get(rook, us) > 0;
        if !barred && !path.into_iter().any(|sq| attacked(&game.pos, &game.stacks, sq, us.other())) {
            moves.push(m);
        }
    }
    moves.retain(|&m| !king_attacked(&game.after_move(m, &mut Journal::muted()), us));
    moves
}

/// The legal booster steps of the piece that may spend.
pub fn legal_steps(game: &BoosterGame) -> Vec<UciAction> {
    let super::Phase::Spend(sq) = game.phase else { return Vec::new() };
    game.step_candidates(sq)
        .into_iter()
        .filter(|&s| !king_attacked(&game.after_step(s, &mut Journal::muted()), game.mover))
        .collect()
}

/// Whether `card` matches the piece on `sq`, read square by square from
/// the rule (docs/games/booster.md): a checkers card matches any piece of
/// its colour; a piece card matches that piece, or any piece of its
/// colour when none of that piece is left on the board.
fn card_matches(game: &BoosterGame, card: Card, sq: Square) -> bool {
    let board = game.pos.board();
    let Some(piece) = board.piece_at(sq) else { return false };
    match card.meaning() {
        Some(Meaning::Checker(colour)) => piece.color == colour,
        Some(Meaning::Piece(wanted)) => {
            let on_board = !(board.by_color(wanted.color) & board.by_role(wanted.role)).is_empty();
            if on_board {
                piece == wanted
            } else {
                piece.color == wanted.color
            }
        }
        None => false,
    }
}

/// The legal card plays.
pub fn legal_plays(game: &BoosterGame) -> Vec<(Card, Square)> {
    if game.phase != super::Phase::Add || game.reserve[super::index(game.mover)] == 0 {
        return Vec::new();
    }
    let mut cards = game.hands[super::index(game.mover)].clone();
    cards.sort();
    cards.dedup();
    let mut plays = Vec::new();
    for card in cards {
        for sq in Square::ALL {
            if card_matches(game, card, sq) && !king_attacked(&game.after_play(card, sq), game.mover) {
                plays.push((card, sq));
            }
        }
    }
    plays
}
