//! The integration tests of chesskit-core, one module per file, in one test binary: the
//! binary links once, and the harness runs every test of the crate side by
//! side. A test's name is its module path (`cargo test --test it telepathy::`).

mod oracle;
mod perft;
mod self_contained;
