//! Orthodox chess on any board mask, Chess960, and chess notation.

pub mod chess960;
pub mod diagram;
pub mod eval;
pub mod exchange;
pub mod fen;
pub mod notation;
pub mod pgn;
pub mod position;

pub use fen::{parse_fen, to_fen, CastlingNotation};
pub use position::{perft, Geometry, Position, RoleSet};
pub use shakmaty::{Bitboard, Board, Color, File, Move, MoveList, Piece, Rank, Role, Square};
