//! The integration tests of the chesskit command, one module per file, in one test binary: the
//! binary links once, and the harness runs every test of the crate side by
//! side. A test's name is its module path (`cargo test --test it telepathy::`).

mod adrenaline;
mod booster;
mod cli;
mod common;
mod cooperative;
mod cooperative2;
mod crowded_house;
mod gravity;
mod half_alice;
mod neighbour;
mod parade;
mod referee;
mod serve_host;
mod server_postgres;
mod server_restart;
mod split_brain;
mod telepathy;
