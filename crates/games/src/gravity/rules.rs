//! The board rules of Gravity Chess: which pieces are stacked, and where
//! an active piece may move. Both colours move down the board, towards
//! rank 1 (docs/games/gravity.md, "Rulings": "Bottom" is rank 1).
//!
//! Pure functions of the board, shared by the referee and the computer
//! player's evaluation.

use shakmaty::{attacks, Bitboard, Board, Color, Piece, Rank, Role, Square};

/// The row a piece enters on: the top row.
pub const TOP: Rank = Rank::Eighth;

/// The row number of a square, 1 (the bottom) to 8 (the top).
pub fn row(square: Square) -> u32 {
    u32::from(square.rank()) + 1
}

/// Stacked pieces: "If a piece reaches the bottom row, it becomes stacked,
/// and can't be moved or captured. If all possible downward moves for a
/// piece are blocked by stacked pieces, then that piece is also stacked."
///
/// Every downward move ends on a lower row, so the rows are settled from
/// the bottom up. A downward move is blocked only by a stacked piece on
/// its first square (for a slider) or its target (for a leaper); an empty
/// square or an unstacked piece (which may move away, or be captured)
/// leaves the move possible. A pawn's diagonal captures are possible moves
/// only above row 2: everything on row 1 is stacked, so a pawn can never
/// capture there (our ruling; the book is silent).
///
/// This is [`stacked_square_by_square`] worked out a whole row at a time
/// with shifts (the referee and the search ask for it at every node): a square's
/// neighbour below is stacked when the stacked set shifted up onto the
/// square holds it, and a neighbour off the board blocks nothing.
pub fn stacked(board: &Board) -> Bitboard {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_B: u64 = FILE_A << 1;
    const FILE_G: u64 = FILE_A << 6;
    const FILE_H: u64 = FILE_A << 7;
    const RANK_1: u64 = 0xff;
    const RANK_2: u64 = RANK_1 << 8;
    let occupied = board.occupied().0;
    let (pawns, knights, bishops) = (board.pawns().0, board.knights().0, board.bishops().0);
    let (rooks, queens, kings) = (board.rooks().0, board.queens().0, board.kings().0);
    let mut s = occupied & RANK_1;
    for rank in 1..8 {
        // Every piece has a downward square on the row just below, so
        // above a row with nothing stacked nothing is stacked.
        if s & (RANK_1 << (8 * (rank - 1))) == 0 {
            break;
        }
        let row = occupied & (RANK_1 << (8 * rank));
        // Whether the square one row down (straight, left, right) is
        // stacked, or is off the board.
        let down = s << 8;
        let down_left = (s << 9) | FILE_A;
        let down_right = (s << 7) | FILE_H;
        let diagonals = down_left & down_right;
        let step_down = down & diagonals;
        let knight_down = ((s << 17) | FILE_A | RANK_1 | RANK_2)
            & ((s << 15) | FILE_H | RANK_1 | RANK_2)
            & ((s << 10) | FILE_A | FILE_B | RANK_1)
            & ((s << 6) | FILE_G | FILE_H | RANK_1);
        let pawn_down = if rank == 1 { down } else { step_down };
        s |= row
            & ((pawns & pawn_down)
                | (knights & knight_down)
                | (bishops & diagonals)
                | (rooks & down)
                | ((queens | kings) & step_down));
    }
    Bitboard(s)
}

/// [`stacked`] as the book says it, one square at a time: the reference
/// the fast version is tested against.
pub fn stacked_square_by_square(board: &Board) -> Bitboard {
    let mut stacked = board.occupied() & Bitboard::from_rank(Rank::First);
    for rank in Rank::ALL.into_iter().skip(1) {
        for square in board.occupied() & Bitboard::from_rank(rank) {
            let piece = board.piece_at(square).expect("occupied");
            if downward_squares(piece, square).is_subset(stacked) {
                stacked.add(square);
            }
        }
    }
    stacked
}

/// The squares whose stacked pieces would block every downward move of
/// `piece` on `square` (see [`stacked`]).
fn downward_squares(piece: Piece, square: Square) -> Bitboard {
    let step_down = attacks::king_attacks(square) & row_below(square);
    match piece.role {
        Role::Pawn => {
            let straight = Bitboard::from_iter(square.offset(-8));
            if square.rank() == Rank::Second {
                straight
            } else {
                step_down
            }
        }
        Role::Knight => attacks::knight_attacks(square) & rows_below(square),
        Role::King => step_down,
        Role::Rook => Bitboard::from_iter(square.offset(-8)),
        Role::Bishop => step_down & !Bitboard::from_file(square.file()),
        Role::Queen => step_down,
    }
}

/// The squares the piece on `from` may move to now: "the only legal moves
/// are ones that end up at least one row closer to the bottom", except
/// that a capture may end on the same row; stacked pieces may not be
/// captured. Pawns step one square down (two from the top row, their
/// first move, when both are empty) and capture one square diagonally
/// down. Kings have no check and no castling: they move and are captured
/// like any piece. `stacked` is [`stacked`] of the board. A stacked piece
/// has no moves.
pub fn moves_from(board: &Board, stacked: Bitboard, from: Square) -> Bitboard {
    let Some(piece) = board.piece_at(from) else { return Bitboard::EMPTY };
    if stacked.contains(from) {
        return Bitboard::EMPTY;
    }
    role_moves(piece.role, from, board.occupied(), board.by_color(!piece.color) & !stacked)
}

/// [`moves_from`] for an active piece of `role` on `from`, given the
/// occupied squares and the opponent's pieces that may be captured (not
/// stacked): worked out once per board when every piece of a side is
/// asked about.
pub fn role_moves(role: Role, from: Square, occupied: Bitboard, capturable: Bitboard) -> Bitboard {
    let empty = !occupied;
    let below = rows_below(from);
    let reach = match role {
        Role::Pawn => return pawn_moves(from, empty, capturable),
        Role::Knight => attacks::knight_attacks(from),
        Role::Bishop => attacks::bishop_attacks(from, occupied),
        Role::Rook => attacks::rook_attacks(from, occupied),
        Role::Queen => attacks::queen_attacks(from, occupied),
        Role::King => attacks::king_attacks(from),
    };
    let same_or_below = below | Bitboard::from_rank(from.rank());
    (reach & empty & below) | (reach & capturable & same_or_below)
}

/// Whether `piece` on `square` is stacked, given the stacked pieces below
/// it: true on the bottom row, or when every downward square holds a
/// stacked piece. `stacked` need be right only on the rows below.
pub fn is_stacked_on(piece: Piece, square: Square, stacked: Bitboard) -> bool {
    // Every piece has a downward square on the row just below (the
    // cheap test first).
    square.rank() == Rank::First
        || ((stacked & row_below(square)).any() && downward_squares(piece, square).is_subset(stacked))
}

/// A pawn's moves, downward for both colours.
fn pawn_moves(from: Square, empty: Bitboard, capturable: Bitboard) -> Bitboard {
    let mut moves = Bitboard::EMPTY;
    if let Some(one) = from.offset(-8).filter(|s| empty.contains(*s)) {
        moves.add(one);
        if from.rank() == TOP {
            if let Some(two) = one.offset(-8).filter(|s| empty.contains(*s)) {
                moves.add(two);
            }
        }
    }
    let diagonals = attacks::king_attacks(from) & row_below(from) & !Bitboard::from_file(from.file());
    moves | (diagonals & capturable)
}

/// Every square on a lower row than `square`.
fn rows_below(square: Square) -> Bitboard {
    Bitboard((1u64 << (8 * u32::from(square.rank()))) - 1)
}

/// The squares of the row just below `square` (none on the bottom row).
fn row_below(square: Square) -> Bitboard {
    let rank = u32::from(square.rank());
    if rank == 0 {
        Bitboard::EMPTY
    } else {
        Bitboard::from_rank(Rank::new(rank - 1))
    }
}

/// The active pieces of `colour`: on the board and not stacked.
pub fn active(board: &Board, stacked: Bitboard, colour: Color) -> Bitboard {
    board.by_color(colour) & !stacked
}

/// The points of `colour`'s stacked pieces: one per row number.
pub fn stacked_points(board: &Board, stacked: Bitboard, colour: Color) -> u32 {
    (stacked & board.by_color(colour)).into_iter().map(row).sum()
}

/// `colour`'s stacked pieces per row, the top row first: the tie-break.
pub fn rows_top_down(board: &Board, stacked: Bitboard, colour: Color) -> [u32; 8] {
    let mut rows = [0; 8];
    for square in stacked & board.by_color(colour) {
        rows[7 - u32::from(square.rank()) as usize] += 1;
    }
    rows
}

/// Where each unstacked piece would come to rest if every piece fell
/// straight down its file: on the top stacked piece below it, or on the
/// pieces falling beneath it. For the computer's estimate only.
///
/// File by file, only the occupied squares, bottom up (a file's squares
/// in square order): the search asks at every node.
pub fn landing_rows(board: &Board, stacked: Bitboard) -> [u32; 64] {
    let mut landing = [0; 64];
    for file in shakmaty::File::ALL {
        let mut next = 1;
        for square in board.occupied() & Bitboard::from_file(file) {
            if stacked.contains(square) {
                next = row(square) + 1;
            } else {
                landing[square as usize] = next;
                next += 1;
            }
        }
    }
    landing
}

/// What `colour`'s unstacked pieces may still score, roughly: the row each
/// would land on (see [`landing_rows`]), discounted because it may be
/// captured or land lower, plus a little for each row it still stands
/// above that, while turns remain (a piece kept high may land on a stack
/// that grows meanwhile); nothing for a pawn (one row a turn, two from the
/// top) that has too few turns left to get there.
pub fn potential(board: &Board, stacked: Bitboard, colour: Color, turns_left: u32) -> f64 {
    if turns_left == 0 {
        return 0.0;
    }
    let landing = landing_rows(board, stacked);
    active(board, stacked, colour)
        .into_iter()
        .map(|square| {
            let land = landing[square as usize].min(row(square));
            let piece = board.piece_at(square).expect("occupied");
            let drop = row(square) - land;
            let needed =
                if piece.role == Role::Pawn { drop.saturating_sub(u32::from(square.rank() == TOP)) } else { 1 };
            if needed > turns_left {
                0.0
            } else {
                let spare = turns_left.saturating_sub(needed).min(drop);
                LANDING_WEIGHT * f64::from(land) + HEIGHT_WEIGHT * f64::from(spare)
            }
        })
        .sum()
}

/// The weights of [`potential`]: a landing row is worth less than a
/// stacked one; each row kept in hand with a turn to spare, a little.
const LANDING_WEIGHT: f64 = 0.6;
const HEIGHT_WEIGHT: f64 = 0.15;
