//! shakmaty as an oracle: on positions reached by random play (from the
//! orthodox start and from random Chess960 starts), our legal moves, check
//! detection, game end and FEN must agree with shakmaty's exactly.

use std::collections::HashSet;

use chesskit_core::chess::fen::{parse_fen, to_fen, CastlingNotation};
use chesskit_core::chess::{chess960, Move, Position};
use chesskit_core::rng::GameRng;
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

fn oracle_of(pos: &Position) -> Chess {
    let fen = to_fen(pos, CastlingNotation::Shredder);
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn agree(pos: &Position) {
    let oracle = oracle_of(pos);
    let ours: HashSet<Move> = pos.legal_moves().into_iter().collect();
    let theirs: HashSet<Move> = oracle.legal_moves().into_iter().collect();
    let fen = to_fen(pos, CastlingNotation::Shredder);
    assert_eq!(ours, theirs, "legal moves differ in {fen}");
    assert_eq!(pos.is_check(), oracle.is_check(), "check differs in {fen}");
    assert_eq!(pos.is_checkmate(), oracle.is_checkmate(), "{fen}");
    assert_eq!(pos.is_stalemate(), oracle.is_stalemate(), "{fen}");
    assert_eq!(pos.is_insufficient_material(), oracle.is_insufficient_material(), "{fen}");
    let their_fen = Fen::from_position(&oracle, EnPassantMode::Legal).to_string();
    assert_eq!(to_fen(pos, CastlingNotation::XFen), their_fen, "FEN differs");
    let reread = parse_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(to_fen(&reread, CastlingNotation::Shredder), fen, "FEN round trip");
}

fn random_walk(mut pos: Position, seed: u64, plies: usize) {
    let mut rng = GameRng::from_seed(seed);
    for _ in 0..plies {
        agree(&pos);
        let moves = pos.legal_moves();
        let Some(&m) = rng.choose(&moves) else { break };
        pos.play_unchecked(m);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn orthodox_games_agree_with_shakmaty(seed in any::<u64>()) {
        random_walk(Position::startpos(), seed, 200);
    }

    #[test]
    fn chess960_games_agree_with_shakmaty(number in 0u32..960, seed in any::<u64>()) {
        random_walk(chess960::position(number).unwrap(), seed, 200);
    }
}

#[test]
fn tricky_positions_agree_with_shakmaty() {
    for fen in [
        // En passant that would expose the king along the rank.
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
        // Double check, pins, promotions with capture.
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        // Chess960 castling where the rook stands on the king's destination.
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "8/8/8/8/8/8/8/RK4kr w A - 0 1",
    ] {
        let pos = parse_fen(fen).unwrap();
        random_walk(pos, 1, 60);
    }
}
