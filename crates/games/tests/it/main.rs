//! The integration tests of chesskit-games, one module per file, in one test binary: the
//! binary links once, and the harness runs every test of the crate side by
//! side. A test's name is its module path (`cargo test --test it telepathy::`).

mod golf_book;
mod golf_round;
mod golf_rules;
mod golf_solver;
mod random_games;
mod registry_complete;
