//! The integration tests of chesskit-server, one module per file, in one test binary: the
//! binary links once, and the harness runs every test of the crate side by
//! side. A test's name is its module path (`cargo test --test it telepathy::`).

mod analysis;
mod api;
mod clock;
mod common;
mod examples;
mod golf;
mod hostile;
mod lobby;
mod postgres;
mod rematch;
mod restart;
mod table;
mod ws;
