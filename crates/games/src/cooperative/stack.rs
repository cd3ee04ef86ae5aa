//! A stack of cards of the 32-card deck held in place, without
//! allocation: the hands, piles, stacks and lines of the cooperative
//! games, so that the copies a search or perft makes at every node are
//! plain copies. Reads as a slice (bottom or first card first).

use std::ops::Deref;

use chesskit_core::cards::{Card, Suit};

/// The most cards a stack holds: the whole deck.
pub const CAPACITY: usize = 32;

/// What fills the unused slots (cleared on removal, so that equal stacks
/// compare equal slot for slot).
const FILLER: Card = Card { rank: 2, suit: Suit::Spades };

#[derive(Clone, Copy)]
pub struct CardStack {
    cards: [Card; CAPACITY],
    len: u8,
}

impl CardStack {
    pub const fn new() -> CardStack {
        CardStack { cards: [FILLER; CAPACITY], len: 0 }
    }

    /// Add `card` at the end (the top). More than the deck cannot occur:
    /// every card is in one place at a time.
    pub fn push(&mut self, card: Card) {
        assert!(self.len() < CAPACITY, "more cards than the deck holds");
        self.cards[self.len()] = card;
        self.len += 1;
    }

    /// Take the last card (the top).
    pub fn pop(&mut self) -> Option<Card> {
        let last = self.len().checked_sub(1)?;
        self.len -= 1;
        Some(std::mem::replace(&mut self.cards[last], FILLER))
    }

    /// Take the card at `index`, closing the gap.
    pub fn remove(&mut self, index: usize) -> Card {
        let len = self.len();
        assert!(index < len, "no card at {index} of {len}");
        let card = self.cards[index];
        self.cards.copy_within(index + 1..len, index);
        self.cards[len - 1] = FILLER;
        self.len -= 1;
        card
    }

    /// Put `card` at `index`, moving the rest along.
    pub fn insert(&mut self, index: usize, card: Card) {
        let len = self.len();
        assert!(index <= len && len < CAPACITY, "no place {index} in {len} cards");
        self.cards.copy_within(index..len, index + 1);
        self.cards[index] = card;
        self.len += 1;
    }

    pub fn clear(&mut self) {
        *self = CardStack::new();
    }
}

impl Default for CardStack {
    fn default() -> CardStack {
        CardStack::new()
    }
}

impl Deref for CardStack {
    type Target = [Card];

    fn deref(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl From<&[Card]> for CardStack {
    fn from(cards: &[Card]) -> CardStack {
        let mut stack = CardStack::new();
        for &card in cards {
            stack.push(card);
        }
        stack
    }
}

impl From<Vec<Card>> for CardStack {
    fn from(cards: Vec<Card>) -> CardStack {
        CardStack::from(cards.as_slice())
    }
}

impl PartialEq for CardStack {
    fn eq(&self, other: &CardStack) -> bool {
        **self == **other
    }
}

impl Eq for CardStack {}

/// The cards in play only, as [`PartialEq`] compares them.
impl std::hash::Hash for CardStack {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl std::fmt::Debug for CardStack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a CardStack {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn a_stack_behaves_as_a_list_of_cards() {
        let mut stack = CardStack::from(cards("2h 3h 4h"));
        stack.push("5d".parse().unwrap());
        assert_eq!(*stack, cards("2h 3h 4h 5d"));
        assert_eq!(stack.remove(1), "3h".parse().unwrap());
        stack.insert(0, "qs".parse().unwrap());
        assert_eq!(*stack, cards("qs 2h 4h 5d"));
        assert_eq!(stack.pop(), Some("5d".parse().unwrap()));
        assert_eq!(stack, CardStack::from(cards("qs 2h 4h")));
        stack.clear();
        assert_eq!(stack.pop(), None);
        assert!(stack.is_empty());
    }

    #[test]
    fn the_whole_deck_fits() {
        let deck = chesskit_core::cards::piece_deck();
        assert_eq!(deck.len(), CAPACITY);
        assert_eq!(*CardStack::from(deck.clone()), deck);
    }
}
