//! A second, deliberately simple move generator for the tests: Los Alamos
//! chess on b2 to g7 written out from the rule book, square by square,
//! with nothing shared with the core's generator but the act of playing a
//! move (`Position::play_unchecked`). A move is legal when the piece can
//! reach the square by its own movement inside the 6x6 and the own king
//! is not attacked afterwards (tried out one by one).

use chesskit_core::chess::{Color, Move, Piece, Position, Role, Square};

/// Whether (file, rank) lies on the inner 6x6, b2 to g7.
fn inside(file: i32, rank: i32) -> bool {
    (1..=6).contains(&file) && (1..=6).contains(&rank)
}

fn square(file: i32, rank: i32) -> Square {
    Square::new((rank * 8 + file) as u32)
}

fn coords(sq: Square) -> (i32, i32) {
    (u32::from(sq.file()) as i32, u32::from(sq.rank()) as i32)
}

const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// The squares a piece on `from` attacks (captures on), walking rays one
/// square at a time and stopping at the first piece or the edge of the 6x6.
fn attacked(pos: &Position, from: Square, piece: Piece) -> Vec<Square> {
    let (f, r) = coords(from);
    let mut out = Vec::new();
    let ray = |dirs: &[(i32, i32)], slide: bool, out: &mut Vec<Square>| {
        for &(df, dr) in dirs {
            let (mut x, mut y) = (f + df, r + dr);
            while inside(x, y) {
                out.push(square(x, y));
                if !slide || pos.board().piece_at(square(x, y)).is_some() {
                    break;
                }
                x += df;
                y += dr;
            }
        }
    };
    match piece.role {
        Role::Pawn => {
            let dr = if piece.color == Color::White { 1 } else { -1 };
            ray(&[(1, dr), (-1, dr)], false, &mut out);
        }
        Role::Knight => ray(&KNIGHT, false, &mut out),
        Role::Bishop => ray(&DIAGONAL, true, &mut out),
        Role::Rook => ray(&ROOK, true, &mut out),
        Role::Queen => {
            ray(&ROOK, true, &mut out);
            ray(&DIAGONAL, true, &mut out);
        }
        Role::King => {
            ray(&ROOK, false, &mut out);
            ray(&DIAGONAL, false, &mut out);
        }
    }
    out
}

fn king_attacked(pos: &Position, colour: Color) -> bool {
    let Some(king) = pos.king_of(colour) else { return false };
    pos.board()
        .clone()
        .into_iter()
        .filter(|(_, p)| p.color != colour)
        .any(|(sq, p)| attacked(pos, sq, p).contains(&king))
}

/// Every legal move of the side to move, by brute force.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let mut candidates = Vec::new();
    for (from, piece) in pos.board().clone().into_iter().filter(|(_, p)| p.color == us) {
        let mut targets: Vec<(Square, Option<Role>)> = Vec::new();
        if piece.role == Role::Pawn {
            let (f, r) = coords(from);
            let dr = if us == Color::White { 1 } else { -1 };
            // One step forward, never two (no double step in Los Alamos).
            if inside(f, r + dr) && pos.board().piece_at(square(f, r + dr)).is_none() {
                targets.push((square(f, r + dr), None));
            }
            for to in attacked(pos, from, piece) {
                if pos.board().piece_at(to).is_some_and(|p| p.color != us) {
                    targets.push((to, pos.board().role_at(to)));
                }
            }
        } else {
            for to in attacked(pos, from, piece) {
                match pos.board().piece_at(to) {
                    Some(p) if p.color == us => {}
                    other => targets.push((to, other.map(|p| p.role))),
                }
            }
        }
        for (to, capture) in targets {
            let capture = if piece.role == Role::Pawn { pos.board().role_at(to) } else { capture };
            let last_rank = if us == Color::White { 6 } else { 1 };
            let promotes = piece.role == Role::Pawn && coords(to).1 == last_rank;
            // No promotion to bishop.
            let promotions: &[Option<Role>] =
                if promotes { &[Some(Role::Knight), Some(Role::Rook), Some(Role::Queen)] } else { &[None] };
            for &promotion in promotions {
                candidates.push(Move::Normal { role: piece.role, from, capture, to, promotion });
            }
        }
    }
    candidates
        .into_iter()
        .filter(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            !king_attacked(&after, us)
        })
        .collect()
}
