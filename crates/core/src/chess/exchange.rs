//! Static exchange evaluation: what a move wins in material if both sides
//! then take on its square, each with its least valuable piece, for as
//! long as taking pays. The search orders captures by it (a queen taking
//! a defended pawn goes after the quiet moves) and skips, past its depth,
//! the captures that lose material: a shallow search spends most of its
//! nodes on such captures and their recaptures.
//!
//! Pins and checks are not read: the exchange is the board's, as every
//! engine's static exchange is, and the search plays the real moves.

use shakmaty::{Bitboard, Color, Role, Square};

use crate::chess::eval::role_value;
use crate::chess::Position;

/// What a king is worth in an exchange: more than every other piece
/// together, so that a king takes only where no enemy piece can take it.
const KING_IN_EXCHANGE: f64 = 100.0;

/// The most captures one square can see: every piece of both sides.
const MOST_CAPTURES: usize = 32;

/// The roles from the cheapest to the dearest: the order a side brings
/// its pieces into an exchange.
const CHEAPEST_FIRST: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

fn exchange_value(role: Role) -> f64 {
    match role {
        Role::King => KING_IN_EXCHANGE,
        other => role_value(other),
    }
}

/// The material, in pawns, that moving the piece on `from` to `to`
/// (promoting to `promotion`) wins for its side if both sides then take on
/// `to` as long as it pays: negative when the move loses material (a queen
/// taking a pawn-defended knight gives 9 for 3.2). Pieces behind a piece
/// that takes join the exchange in turn (a rook behind a rook). Zero for an
/// empty `from`, and for castling (the king's move onto its own rook).
pub fn static_exchange(pos: &Position, from: Square, to: Square, promotion: Option<Role>) -> f64 {
    let board = pos.board();
    let Some(mover) = board.piece_at(from) else { return 0.0 };
    if board.color_at(to) == Some(mover.color) {
        return 0.0;
    }
    let mut occupied = board.occupied() ^ Bitboard::from(from);
    let mut first_gain = board.role_at(to).map_or(0.0, exchange_value);
    if mover.role == Role::Pawn && pos.ep_square() == Some(to) && first_gain == 0.0 && from.file() != to.file() {
        // En passant: the pawn taken stands beside the mover, not on `to`.
        let taken = Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from(taken);
        first_gain = role_value(Role::Pawn);
    }
    let on_square = match promotion {
        Some(role) => {
            first_gain += role_value(role) - role_value(Role::Pawn);
            exchange_value(role)
        }
        None => exchange_value(mover.role),
    };
    replies_value(pos, to, !mover.color, occupied, first_gain, on_square)
}

/// The exchange on `to` after its first capture (which gained
/// `first_gain`, and left a piece worth `on_square` there): the sides take
/// in turn, `side` first, each with its cheapest piece that reaches `to`
/// through `occupied`; then, from the last capture back, each side keeps
/// the better of taking and stopping.
fn replies_value(
    pos: &Position,
    to: Square,
    mut side: Color,
    mut occupied: Bitboard,
    first_gain: f64,
    on_square: f64,
) -> f64 {
    let mut gains = [0.0; MOST_CAPTURES];
    gains[0] = first_gain;
    let mut on_square = on_square;
    let mut depth = 0;
    while depth + 1 < MOST_CAPTURES {
        let Some((square, role)) = cheapest_attacker(pos, to, side, occupied) else { break };
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        on_square = exchange_value(role);
        occupied ^= Bitboard::from(square);
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -f64::max(-gains[depth - 1], gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// `side`'s least valuable piece among those in `occupied` that attack
/// `to` through `occupied` (so a piece behind one that has taken joins in).
fn cheapest_attacker(pos: &Position, to: Square, side: Color, occupied: Bitboard) -> Option<(Square, Role)> {
    let attackers = pos.attackers_to(to, side, occupied);
    if attackers.is_empty() {
        return None;
    }
    let board = pos.board();
    CHEAPEST_FIRST.iter().find_map(|&role| (attackers & board.by_role(role)).first().map(|square| (square, role)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::parse_fen;

    fn exchange(fen: &str, uci: &str) -> f64 {
        let pos = parse_fen(fen).expect("a valid position");
        let from: Square = uci[0..2].parse().expect("a square");
        let to: Square = uci[2..4].parse().expect("a square");
        let promotion = uci.chars().nth(4).and_then(Role::from_char);
        static_exchange(&pos, from, to, promotion)
    }

    fn assert_near(found: f64, expected: f64) {
        assert!((found - expected).abs() < 1e-9, "found {found}, expected {expected}");
    }

    #[test]
    fn a_pawn_defended_piece_taken_by_the_queen_loses_the_queen_for_it() {
        // Qxe5 dxe5: a knight (3.2) for the queen (9).
        assert_near(exchange("4k3/8/3p4/4n3/8/8/8/4Q1K1 w - - 0 1", "e1e5"), 3.2 - 9.0);
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        assert_near(exchange("4k3/8/8/4n3/8/8/8/4Q1K1 w - - 0 1", "e1e5"), 3.2);
    }

    #[test]
    fn the_rook_behind_the_rook_joins_the_exchange_by_x_ray() {
        // Rxe5 Rxe5 Rxe5: the pawn, as the second rook retakes.
        let doubled = "4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1";
        assert_near(exchange(doubled, "e2e5"), 1.0);
        // Without the rook on e1, Rxe5 Rxe5 gives the rook for the pawn.
        assert_near(exchange("4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5"), 1.0 - 5.0);
    }

    #[test]
    fn the_classic_rook_exchange_and_knight_exchange_examples() {
        // Chess programming's standard cases: Rxe5 wins a pawn; Nxe5 in the
        // second is met by a cascade (Nxe5 Nxe5 Rxe5 Bxe5 Qxe5 Qxe5) and
        // gives the knight for the pawn.
        assert_near(exchange("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 1.0);
        assert_near(exchange("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), 1.0 - 3.2);
    }

    #[test]
    fn a_side_stops_taking_when_the_next_capture_would_lose() {
        // Bxd5 wins the knight; Black's queen does not retake into the rook.
        assert_near(exchange("3qk3/8/8/3n4/8/8/B7/3RK3 w - - 0 1", "a2d5"), 3.2);
    }

    #[test]
    fn the_king_takes_only_an_undefended_piece() {
        assert_near(exchange("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "e1d2"), 9.0);
        // Defended by the rook on d8: the king may not take, so SEE stops.
        assert_near(exchange("3rk3/8/8/8/8/8/3n4/4K3 w - - 0 1", "e1d2"), 3.2 - KING_IN_EXCHANGE);
    }

    #[test]
    fn en_passant_takes_the_pawn_beside_and_promotion_counts_the_new_piece() {
        assert_near(exchange("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 1.0);
        // e8=Q on a square the rook guards: a pawn given, the queen lost.
        assert_near(exchange("r6k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"), -1.0);
        assert_near(exchange("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 8.0);
    }

    #[test]
    fn castling_onto_the_own_rook_and_an_empty_square_give_nothing() {
        assert_near(exchange("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1"), 0.0);
        assert_near(exchange("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "a3a4"), 0.0);
    }
}
