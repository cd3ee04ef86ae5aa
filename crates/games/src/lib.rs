//! chesskit-games: one module per Chess Kit game, each reading like its
//! rule book, and the [`registry`] that names them.

#![forbid(unsafe_code)]

pub mod adrenaline;
pub mod booster;
pub mod borrowed;
pub mod chess;
pub mod cloak_and_dagger;
mod clone_fields;
pub mod connection;
pub mod cooperative;
pub mod cooperative2;
pub mod crowded_house;
pub mod examples;
pub mod golf;
pub mod gravity;
pub mod half_alice;
pub mod masquerade;
pub mod neighbour;
pub mod parade;
pub mod registry;
pub mod split_brain;
pub mod telepathy;
#[cfg(test)]
mod testing;
pub mod zombie;

pub use registry::{create, names, replay, variant, variants, VariantInfo};
