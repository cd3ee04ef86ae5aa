//! The rules of the parade on the board, with no cards and no turns: the
//! layout with gaps, the order one piece gives another, and the connected
//! group. The game ([`super::ParadeGame`]) and the solver share them.

use std::fmt;
use std::str::FromStr;

use chesskit_core::cards::{gap, Card};
use shakmaty::{attacks, Bitboard, Board, Piece, Role, Square};

/// Setup and Add a piece: the square of the next piece laid out, "leaving
/// the regular gap after the piece that is in the occupied rank farthest
/// from 1 and in the rightmost file of that rank" (a1 onwards on an empty
/// board). `None` when the gap runs past h8: the piece does not fit.
pub fn next_square(board: &Board, role: Role) -> Option<Square> {
    let last = board.occupied().last().map_or(-1, |sq| i32::from(u8::from(sq)));
    let index = last + gap(role) as i32 + 1;
    (index < 64).then(|| Square::new(index as u32))
}

/// Setup: the board after laying out `cards` in the order drawn, each piece
/// after the gap of Appendix A.
pub fn lay_out(cards: &[Card]) -> Result<Board, String> {
    let mut board = Board::empty();
    for &card in cards {
        let piece = officer(card)?;
        let square =
            next_square(&board, piece.role).ok_or_else(|| format!("{card} does not fit on the board after the gap"))?;
        board.set_piece_at(square, piece);
    }
    Ok(board)
}

/// The piece of a card of the parade deck (the 16 cards of the pieces that
/// are not pawns), or why the card is not one.
pub fn officer(card: Card) -> Result<Piece, String> {
    match card.piece() {
        Some(piece) if piece.role != Role::Pawn => Ok(piece),
        Some(_) => Err(format!("{card} is a pawn card; the parade puts the pawns away")),
        None => Err(format!("{card} is not a piece card of Appendix A")),
    }
}

/// Move a piece: the squares `by` could attack in regular chess, with the
/// piece on `lifted` already picked up. The piece being moved is lifted
/// before it is put down, so a line it blocked opens behind it (the book's
/// black bishop on e4 moves the white knight from f3 to g2, on the far side
/// of f3).
pub fn attacked(board: &Board, by: Square, lifted: Option<Square>) -> Bitboard {
    let Some(piece) = board.piece_at(by) else { return Bitboard::EMPTY };
    let mut occupied = board.occupied();
    if let Some(lifted) = lifted {
        occupied.discard(lifted);
    }
    attacks::attacks(by, piece, occupied)
}

/// One order: the piece on `by` moves the opposite-coloured piece on `from`
/// to the empty square `to`, both squares it attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Order {
    pub by: Square,
    pub from: Square,
    pub to: Square,
}

impl Order {
    pub fn new(by: Square, from: Square, to: Square) -> Order {
        Order { by, from, to }
    }
}

impl fmt::Display for Order {
    /// `e4:f3-g2`: the piece on e4 moves the piece on f3 to g2.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}-{}", self.by, self.from, self.to)
    }
}

impl FromStr for Order {
    type Err = String;

    /// `e4:f3-g2`, also `e4 f3 g2`, `e4:f3g2` or `e4 moves f3 to g2`.
    fn from_str(text: &str) -> Result<Order, String> {
        let cleaned = text.to_ascii_lowercase().replace("moves", " ").replace(" to ", " ");
        let squares: Vec<&str> =
            cleaned.split(|c: char| c.is_whitespace() || c == ':' || c == '-').filter(|w| !w.is_empty()).collect();
        let words: Vec<String> = match squares.as_slice() {
            [by, from, to] => vec![by.to_string(), from.to_string(), to.to_string()],
            [by, pair] if pair.len() == 4 && pair.is_ascii() => {
                vec![by.to_string(), pair[..2].to_string(), pair[2..].to_string()]
            }
            _ => {
                return Err(format!(
                "expected an order like e4:f3-g2 (the piece on e4 moves the piece on f3 to g2), or add; got {text:?}"
            ))
            }
        };
        let square = |w: &str| w.parse::<Square>().map_err(|_| format!("{w:?} is not a square (a1 to h8)"));
        Ok(Order { by: square(&words[0])?, from: square(&words[1])?, to: square(&words[2])? })
    }
}

/// Why `order` breaks the Move a piece rule on `board`, if it does.
pub fn check_order(board: &Board, order: Order) -> Result<(), String> {
    let Order { by, from, to } = order;
    let mover = board.piece_at(by).ok_or_else(|| format!("there is no piece on {by} to give the order"))?;
    let moved = board.piece_at(from).ok_or_else(|| format!("there is no piece on {from} to move"))?;
    if mover.color == moved.color {
        return Err(format!(
            "the {} on {by} may only move pieces of the opposite colour, and the {} on {from} is {}",
            piece_name(mover),
            piece_name(moved),
            moved.color
        ));
    }
    if !attacked(board, by, None).contains(from) {
        return Err(format!("the {} on {by} does not attack {from}", piece_name(mover)));
    }
    if board.occupied().contains(to) {
        return Err(format!("{to} is occupied; a piece is put down on an empty square"));
    }
    if !attacked(board, by, Some(from)).contains(to) {
        return Err(format!("the {} on {by} does not attack {to}", piece_name(mover)));
    }
    Ok(())
}

/// Carry out an order already checked.
pub fn carry_out(board: &mut Board, order: Order) {
    if let Some(piece) = board.remove_piece_at(order.from) {
        board.set_piece_at(order.to, piece);
    }
}

/// Every order the pieces on `board` can give, in square order.
pub fn orders(board: &Board) -> Vec<Order> {
    let mut out = Vec::new();
    for_each_order(board, |order| out.push(order));
    out
}

/// Call `f` with every legal order, without allocating (the solver's loop).
pub fn for_each_order(board: &Board, mut f: impl FnMut(Order)) {
    let occupied = board.occupied();
    for by in occupied {
        let Some(mover) = board.piece_at(by) else { continue };
        let targets = attacks::attacks(by, mover, occupied) & board.by_color(!mover.color);
        for from in targets {
            let dests = attacks::attacks(by, mover, occupied.without(from)) & !occupied;
            for to in dests {
                f(Order { by, from, to });
            }
        }
    }
}

/// Whether the pieces on `board` can give any order: [`orders`] not
/// empty, asked without listing them (the end of the game asks it after
/// every action).
pub fn any_order(board: &Board) -> bool {
    let occupied = board.occupied();
    occupied.into_iter().any(|by| {
        board.piece_at(by).is_some_and(|mover| {
            let targets = attacks::attacks(by, mover, occupied) & board.by_color(!mover.color);
            targets.into_iter().any(|from| (attacks::attacks(by, mover, occupied.without(from)) & !occupied).any())
        })
    })
}

/// The squares orthogonally next to the squares of `set`.
pub fn orthogonal_neighbours(set: Bitboard) -> Bitboard {
    let bits = set.0;
    let not_a = !0x0101_0101_0101_0101u64;
    let not_h = !0x8080_8080_8080_8080u64;
    Bitboard(((bits << 1) & not_a) | ((bits >> 1) & not_h) | (bits << 8) | (bits >> 8))
}

/// How many groups the pieces of `occupied` form, counting only orthogonal
/// neighbours as connected (the book: "Diagonal neighbours don't count";
/// docs/games/parade.md).
pub fn groups(occupied: Bitboard) -> u32 {
    crate::connection::group_count(occupied, |group| group | orthogonal_neighbours(group)) as u32
}

/// How scattered the pieces of `occupied` are: the squares between them
/// and their centre, plus four for each piece with no orthogonal
/// neighbour. The solver's beam and the search's estimate prefer the more
/// compact of two layouts with as many groups, which needs fewer orders
/// to form up.
pub fn spread(occupied: Bitboard) -> u64 {
    let n = occupied.count() as i64;
    if n == 0 {
        return 0;
    }
    let (sf, sr) = occupied.into_iter().fold((0i64, 0i64), |(f, r), sq| (f + sq.file() as i64, r + sq.rank() as i64));
    let total: i64 =
        occupied.into_iter().map(|sq| ((sq.file() as i64) * n - sf).abs() + ((sq.rank() as i64) * n - sr).abs()).sum();
    let lonely = (occupied & !orthogonal_neighbours(occupied)).count() as i64;
    (total / n + 4 * lonely).clamp(0, 0xF_FFFF) as u64
}

/// Winning: one connected group (any piece reaches any other stepping only
/// on orthogonal neighbours).
pub fn is_connected(board: &Board) -> bool {
    crate::connection::at_most_one_group(board.occupied(), |group| group | orthogonal_neighbours(group))
}

/// "white knight", for messages.
pub fn piece_name(piece: Piece) -> String {
    format!("{} {}", piece.color, chesskit_core::chess::diagram::role_name(piece.role))
}
