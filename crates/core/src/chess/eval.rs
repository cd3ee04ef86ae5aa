//! A static evaluation of a chess board, in pawns, for the computer
//! players' search: material, plus small bonuses that steer a shallow
//! search toward sound play (knights and bishops toward the centre, pawns
//! forward, the king tucked away while queens are on). Every game played on
//! a chess board can start from it and add what its rules make valuable.

use shakmaty::{Board, Color, Role, Square};

/// What a piece is worth, in pawns.
pub fn role_value(role: Role) -> f64 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight => 3.2,
        Role::Bishop => 3.3,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// The board from `color`'s side: its pieces' worth minus the other side's.
pub fn evaluate_board(board: &Board, color: Color) -> f64 {
    let queens_on = board.queens().any();
    let mut score = 0.0;
    // Material alone, `color`'s then the other side's, for the king hunt.
    let (mut own, mut other) = (0.0, 0.0);
    for (square, piece) in board.iter() {
        let material = role_value(piece.role);
        let worth = material + placement(piece.role, piece.color, square, queens_on);
        if piece.color == color {
            score += worth;
            own += material;
        } else {
            score -= worth;
            other += material;
        }
    }
    score + king_hunt(board, color, own, other) - king_hunt(board, !color, other, own)
}

/// Material ahead (in pawns) from which a side hunts the other king.
const HUNT_LEAD: f64 = 4.0;
/// The most the hunted side may keep (in pawns: a rook) for the hunt to
/// be on; with more, a king walking up the board would be in danger.
const HUNT_PREY_MATERIAL: f64 = 5.0;

/// The bonus of `color` for driving a nearly bare king: its king to the
/// edge and the hunter's king close to it, where mates are. Without it a
/// shallow search, far ahead but with no mate in sight, finds every move
/// alike and shuffles until the fifty-move rule draws a won game. `own`
/// and `prey`: the two sides' material, `color`'s first.
fn king_hunt(board: &Board, color: Color, own: f64, prey: f64) -> f64 {
    if own - prey < HUNT_LEAD || prey > HUNT_PREY_MATERIAL {
        return 0.0;
    }
    let (Some(hunter), Some(hunted)) = (board.king_of(color), board.king_of(!color)) else { return 0.0 };
    let kings_apart = f64::from(hunter.distance(hunted));
    0.3 * (3.0 - centrality(hunted)) + 0.1 * (7.0 - kings_apart)
}

/// A small bonus for where a piece stands (at most a third of a pawn), so
/// that among equal trades the search prefers development and progress.
fn placement(role: Role, color: Color, square: Square, queens_on: bool) -> f64 {
    let centre = centrality(square);
    let advance = f64::from(color.fold_wb(u32::from(square.rank()), 7 - u32::from(square.rank())));
    match role {
        Role::Knight | Role::Bishop => 0.08 * centre,
        Role::Pawn => 0.04 * advance + 0.03 * centre,
        Role::Queen | Role::Rook => 0.02 * centre,
        // While queens are on, a king is safest at home; in the endgame it fights in the centre.
        Role::King if queens_on => -0.05 * advance,
        Role::King => 0.05 * centre,
    }
}

/// 0 on the rim to 3 in the four centre squares.
fn centrality(square: Square) -> f64 {
    let distance = |x: u32| if x < 4 { 3 - x } else { x - 4 };
    let file = distance(u32::from(square.file()));
    let rank = distance(u32::from(square.rank()));
    f64::from(3 - file.max(rank))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    #[test]
    fn the_start_is_even_and_a_missing_queen_costs_about_nine() {
        let start = Position::startpos();
        assert!(evaluate_board(start.board(), Color::White).abs() < 1e-9);
        let board: Board = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR".parse().unwrap();
        let white = evaluate_board(&board, Color::White);
        assert!((8.5..9.5).contains(&white), "{white}");
        assert!((evaluate_board(&board, Color::Black) + white).abs() < 1e-9, "the two sides see opposite scores");
    }

    #[test]
    fn far_ahead_a_side_drives_the_bare_king_to_the_edge() {
        // King and queen against a king: the lone king in the corner, with
        // the other king near, is worth more to the side with the queen.
        let cornered: Board = "k7/8/1K6/8/8/8/8/7Q".parse().unwrap();
        let centred: Board = "8/8/8/3k4/8/8/8/K6Q".parse().unwrap();
        assert!(evaluate_board(&cornered, Color::White) > evaluate_board(&centred, Color::White) + 0.5);
        // An even game knows no hunt.
        let even: Board = "k7/8/1K6/8/8/8/8/7q".parse().unwrap();
        assert!(evaluate_board(&even, Color::White) < -8.0);
    }

    #[test]
    fn a_centre_knight_beats_a_rim_knight() {
        let centre: Board = "4k3/8/8/8/3N4/8/8/4K3".parse().unwrap();
        let rim: Board = "4k3/8/8/8/N7/8/8/4K3".parse().unwrap();
        assert!(evaluate_board(&centre, Color::White) > evaluate_board(&rim, Color::White));
    }
}
