//! chesskit-games: one module per Chess Kit game, each reading like its
//! rule book, and the [`registry`] that names them.

pub mod chess;
pub mod golf;
pub mod registry;

pub use registry::{create, names, replay, variants, VariantInfo};
