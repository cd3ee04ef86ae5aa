//! `chesskit chess960`: a Chess960 setup by number, at random, or from cards.

use chesskit_core::chess::chess960;
use chesskit_core::chess::diagram::diagram;
use chesskit_core::chess::fen::{to_fen, CastlingNotation};
use chesskit_core::rng::GameRng;

/// How the setup is chosen.
pub enum Choice {
    Id(u32),
    Random(u64),
    Cards(String),
}

pub fn run(choice: Choice) -> Result<String, String> {
    let n = match choice {
        Choice::Id(n) if n < chess960::COUNT => n,
        Choice::Id(n) => return Err(format!("no Chess960 position {n}: positions are numbered 0 to 959")),
        Choice::Random(seed) => chess960::random_number(&mut GameRng::from_seed(seed)),
        Choice::Cards(cards) => {
            let rank = chess960::from_cards(&cards).map_err(|e| format!("bad cards: {e}"))?;
            chess960::number_of(&rank).expect("a card layout is a Chess960 start")
        }
    };
    let pos = chess960::position(n).expect("checked range");
    let rank = chess960::back_rank(n).expect("checked range");
    Ok(format!(
        "Chess960 position {n}: {}\nX-FEN:    {}\nShredder: {}\n\n{}",
        chess960::rank_letters(&rank),
        to_fen(&pos, CastlingNotation::XFen),
        to_fen(&pos, CastlingNotation::Shredder),
        diagram(pos.board(), false, &|_| None)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_number_fen_and_diagram() {
        let out = run(Choice::Id(518)).unwrap();
        assert!(out.starts_with("Chess960 position 518: RNBQKBNR"));
        assert!(out.contains("X-FEN:    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        assert!(out.contains("♜"));
    }

    #[test]
    fn from_cards_and_errors() {
        assert!(run(Choice::Cards("1 6 N R Q R N R".into())).unwrap().contains("BNRQKBNR"));
        assert!(run(Choice::Id(960)).unwrap_err().contains("0 to 959"));
        assert!(run(Choice::Cards("1 3 N R Q R N R".into())).unwrap_err().starts_with("bad cards"));
    }
}
