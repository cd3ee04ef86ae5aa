//! Chess960 starting positions: by number (0 to 959, 518 the orthodox
//! start), at random, and from cards by both methods of the books.

use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

use super::position::{Geometry, Position};
use crate::rng::GameRng;

/// The number of Chess960 starting positions.
pub const COUNT: u32 = 960;

/// The white back rank (files a to h) of position `n` in the standard
/// numbering. `None` when `n` is 960 or more.
pub fn back_rank(n: u32) -> Option<[Role; 8]> {
    if n >= COUNT {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let (n, light) = (n / 4, n % 4);
    rank[(light * 2 + 1) as usize] = Some(Role::Bishop);
    let (n, dark) = (n / 4, n % 4);
    rank[(dark * 2) as usize] = Some(Role::Bishop);
    let (n, queen) = (n / 6, n % 6);
    place_in_nth_empty(&mut rank, queen as usize, Role::Queen);
    let (first, second) = KNIGHT_PAIRS[n as usize];
    // Place the second knight first so the first's index is still counted among the empties.
    place_in_nth_empty(&mut rank, second, Role::Knight);
    place_in_nth_empty(&mut rank, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_in_nth_empty(&mut rank, 0, role);
    }
    Some(rank.map(|r| r.expect("every square filled")))
}

/// The ten ways to place two knights on five empty squares, in numbering order.
const KNIGHT_PAIRS: [(usize, usize); 10] =
    [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

fn place_in_nth_empty(rank: &mut [Option<Role>; 8], n: usize, role: Role) {
    let index = rank.iter().enumerate().filter(|(_, r)| r.is_none()).nth(n).map(|(i, _)| i).expect("enough empties");
    rank[index] = Some(role);
}

/// The number of a back rank, if it is a Chess960 start.
pub fn number_of(rank: &[Role; 8]) -> Option<u32> {
    (0..COUNT).find(|&n| back_rank(n).as_ref() == Some(rank))
}

/// The starting position `n`, with castling rights on both rooks.
pub fn position(n: u32) -> Option<Position> {
    let rank = back_rank(n)?;
    let mut board = Board::empty();
    let mut rooks = Bitboard::EMPTY;
    for (file, &role) in rank.iter().enumerate() {
        for color in Color::ALL {
            let back = Square::from_coords(File::new(file as u32), color.backrank());
            board.set_piece_at(back, role.of(color));
            let pawn_rank = color.fold_wb(Rank::Second, Rank::Seventh);
            board.set_piece_at(Square::from_coords(File::new(file as u32), pawn_rank), color.pawn());
            if role == Role::Rook {
                rooks.add(back);
            }
        }
    }
    Some(Position::from_parts(board, Color::White, rooks, None, 0, 1, Geometry::ORTHODOX))
}

/// A random start from the game's generator.
pub fn random_number(rng: &mut GameRng) -> u32 {
    rng.below(COUNT as usize) as u32
}

/// Build a back rank from cards, as both books describe.
///
/// The first two cards are the bishops' files (A or 1 to 8, a to h): one
/// odd, one even, so the bishops stand on squares of both colours. The next
/// six fill the empty squares from left to right: 8 or N a knight, 10 or R a
/// rook, Q a queen. Of the three rook cards the middle one is the king.
/// Suits may be written after a card (`ah 6s 8d 10c qh 10h 8s 10d`) and are
/// ignored, so the standard deck and the chess-card deck read alike.
pub fn from_cards(text: &str) -> Result<[Role; 8], String> {
    let cards: Vec<&str> = text.split([' ', ',']).filter(|t| !t.is_empty()).collect();
    if cards.len() != 8 {
        return Err(format!("expected 8 cards (2 bishop squares, then 6 pieces), found {}", cards.len()));
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut parities = Vec::new();
    for card in &cards[..2] {
        let n = bishop_card(card).ok_or_else(|| format!("bad bishop card {card:?}: expected A or 1 to 8"))?;
        parities.push(n % 2);
        if rank[n - 1].is_some() {
            return Err(format!("both bishop cards name square {n}"));
        }
        rank[n - 1] = Some(Role::Bishop);
    }
    if parities[0] == parities[1] {
        return Err("the bishop cards must be one odd and one even, so the bishops stand on both colours".to_string());
    }
    let mut rooks_seen = 0;
    for card in &cards[2..] {
        let role = piece_card(card).ok_or_else(|| format!("bad piece card {card:?}: expected 8/N, 10/R or Q"))?;
        let role = if role == Role::Rook {
            rooks_seen += 1;
            if rooks_seen == 2 {
                Role::King
            } else {
                Role::Rook
            }
        } else {
            role
        };
        place_in_nth_empty(&mut rank, 0, role);
    }
    let count = |role| rank.iter().filter(|&&r| r == Some(role)).count();
    if count(Role::Knight) != 2 || count(Role::Queen) != 1 || count(Role::King) != 1 || count(Role::Rook) != 2 {
        return Err(
            "the six piece cards must be two knights (8 or N), one queen (Q) and three rooks (10 or R)".to_string()
        );
    }
    Ok(rank.map(|r| r.expect("eight cards fill eight squares")))
}

fn strip_suit(card: &str) -> &str {
    let card = card.trim();
    match card.char_indices().last() {
        Some((i, c)) if card.len() > 1 && "shdcSHDC♠♥♦♣♡♢♤♧".contains(c) => &card[..i],
        _ => card,
    }
}

fn bishop_card(card: &str) -> Option<usize> {
    let card = strip_suit(card).to_ascii_lowercase();
    match card.as_str() {
        "a" | "1" => Some(1),
        _ => card.parse::<usize>().ok().filter(|n| (1..=8).contains(n)),
    }
}

fn piece_card(card: &str) -> Option<Role> {
    match strip_suit(card).to_ascii_lowercase().as_str() {
        "8" | "n" => Some(Role::Knight),
        "10" | "r" => Some(Role::Rook),
        "q" => Some(Role::Queen),
        _ => None,
    }
}

/// The back rank as letters, e.g. `BNRQKBNR`.
pub fn rank_letters(rank: &[Role; 8]) -> String {
    rank.iter().map(|r| r.upper_char()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::{to_fen, CastlingNotation};

    #[test]
    fn number_518_is_the_orthodox_start() {
        assert_eq!(position(518).unwrap(), Position::startpos());
    }

    #[test]
    fn numbering_agrees_with_shakmaty_for_all_960() {
        for n in 0..COUNT {
            let ours = position(n).unwrap();
            assert_eq!(ours.board(), &Board::chess960(n), "position {n}");
            assert_eq!(number_of(&back_rank(n).unwrap()), Some(n));
        }
        assert_eq!(back_rank(960), None);
    }

    #[test]
    fn book_card_example() {
        // rules.md: cards 1 and 6, then N R Q R N R give B N R Q K B N R.
        let rank = from_cards("1 6 N R Q R N R").unwrap();
        assert_eq!(rank_letters(&rank), "BNRQKBNR");
        assert_eq!(from_cards("Ah 6d 8s 10c Qh 10d 8h 10s").unwrap(), rank);
        let n = number_of(&rank).unwrap();
        assert_eq!(
            to_fen(&position(n).unwrap(), CastlingNotation::Shredder),
            "bnrqkbnr/pppppppp/8/8/8/8/PPPPPPPP/BNRQKBNR w HChc - 0 1"
        );
    }

    #[test]
    fn bad_card_lists_are_refused() {
        assert!(from_cards("1 3 N R Q R N R").unwrap_err().contains("one odd and one even"));
        assert!(from_cards("1 6 N R Q R N").unwrap_err().contains("expected 8 cards"));
        assert!(from_cards("1 6 N N Q R N R").unwrap_err().contains("two knights"));
        assert!(from_cards("9 6 N R Q R N R").unwrap_err().contains("bad bishop card"));
        assert!(from_cards("1 6 N R J R N R").unwrap_err().contains("bad piece card"));
    }
}
