//! The integration tests of chesskit-ai, one module per file, in one test binary: the
//! binary links once, and the harness runs every test of the crate side by
//! side. A test's name is its module path (`cargo test --test it telepathy::`).

mod no_game_names;
mod no_peeking;
mod worlds;
