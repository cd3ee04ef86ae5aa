//! Board diagrams for the terminal.

use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

/// The Unicode chess symbol of a piece.
pub fn symbol(piece: Piece) -> char {
    let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
    let i = piece.role as usize - 1;
    match piece.color {
        Color::White => white[i],
        Color::Black => black[i],
    }
}

/// A diagram with rank 8 at the top (or rank 1 when `flipped`), files and
/// ranks labelled; `mark` may add a one-character marker after a square.
pub fn diagram(board: &Board, flipped: bool, mark: &dyn Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    let ranks: Vec<u32> = if flipped { (0..8).collect() } else { (0..8).rev().collect() };
    let files: Vec<u32> = if flipped { (0..8).rev().collect() } else { (0..8).collect() };
    for &r in &ranks {
        out.push_str(&format!("{} ", r + 1));
        for &f in &files {
            let sq = Square::from_coords(File::new(f), Rank::new(r));
            let c = board.piece_at(sq).map_or(if (f + r) % 2 == 0 { '·' } else { ' ' }, symbol);
            out.push(' ');
            out.push(c);
            out.push(mark(sq).unwrap_or(' '));
        }
        out.push('\n');
    }
    out.push_str("  ");
    for &f in &files {
        out.push(' ');
        out.push(File::new(f).char());
        out.push(' ');
    }
    out.push('\n');
    out
}

/// The name of a role in words.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}
