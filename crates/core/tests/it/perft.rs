//! The perft suites of crates/core/testdata/perft: node counts of the move
//! tree, the standard test of a move generator.

use std::path::PathBuf;

use chesskit_core::chess::fen::parse_fen;
use chesskit_core::chess::perft;

struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/perft")
}

/// Read the `id` / `epd` / `perft DEPTH COUNT` format.
fn read_cases(name: &str) -> Vec<Case> {
    let path = fixtures().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "id" => cases.push(Case { id: value.to_string(), fen: String::new(), counts: Vec::new() }),
            "epd" => cases.last_mut().expect("id first").fen = value.to_string(),
            "perft" => {
                let (depth, count) = value.split_once(' ').expect("depth count");
                cases.last_mut().expect("id first").counts.push((depth.parse().unwrap(), count.parse().unwrap()));
            }
            other => panic!("unknown key {other}"),
        }
    }
    cases
}

fn run(name: &str, max_nodes: u64, max_depth: u32) {
    let cases = read_cases(name);
    assert!(!cases.is_empty());
    for case in cases {
        let pos = parse_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in case.counts.iter().filter(|(d, n)| *n <= max_nodes && *d <= max_depth) {
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn standard_positions() {
    run("standard_cpw.perft", 5_000_000, 99);
}

#[test]
fn all_960_chess960_starts_to_depth_4() {
    run("chess960_startpos_d5.perft", u64::MAX, 4);
}

#[test]
#[ignore = "deep: about a minute in release"]
fn standard_positions_deep() {
    run("standard_cpw.perft", 200_000_000, 99);
}

#[test]
#[ignore = "deep: all 960 starts to depth 5"]
fn all_960_chess960_starts_to_depth_5() {
    run("chess960_startpos_d5.perft", u64::MAX, 5);
}
