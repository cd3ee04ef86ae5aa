//! Chess Golf tools built on the rules and the solver of
//! `chesskit_games::golf`: the puzzle generator behind `chesskit golf new`
//! and the designer's statistics behind `chesskit golf stats`.

use chesskit_core::cards::{officer_deck, Card};
use chesskit_core::rng::GameRng;
use chesskit_games::golf::{layout_cards, Cards, Puzzle};

/// A puzzle dealt as the book does: the 16 cards shuffled and laid out,
/// shuffled again, and `cards` drawn as the chosen cards.
#[derive(Clone, Debug)]
pub struct Deal {
    pub puzzle: Puzzle,
    /// The layout cards in the order drawn.
    pub layout: Vec<Card>,
    /// The chosen cards in the order drawn.
    pub chosen: Vec<Card>,
}

/// Deal a puzzle with `cards` chosen cards (2 to 16) from `seed`.
pub fn deal(seed: u64, cards: usize) -> Result<Deal, String> {
    if !(2..=16).contains(&cards) {
        return Err(format!("a puzzle has 2 to 16 chosen cards, not {cards}"));
    }
    let mut rng = GameRng::from_seed(seed);
    let mut layout = officer_deck();
    rng.shuffle(&mut layout);
    let board = layout_cards(&layout)?;
    let mut deck = officer_deck();
    rng.shuffle(&mut deck);
    let chosen: Vec<Card> = deck[..cards].to_vec();
    let picked = Cards::from_pieces(chosen.iter().map(|c| c.piece().expect("officer cards are pieces")));
    Ok(Deal { puzzle: Puzzle::new(board, picked), layout, chosen })
}
