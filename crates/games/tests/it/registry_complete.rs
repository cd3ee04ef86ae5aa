//! A registered variant is more than its module: docs/adding-a-game.md lists
//! every place a new game touches. These tests check the ones a newcomer
//! forgets without anything failing, for every variant the registry holds:
//!
//! * its page, docs/games/<variant>.md, with the two sections the browser's
//!   rules panel serves ("The rules in our words" and "Rulings"), linked from
//!   the README's table of games;
//! * a browser test that plays it (web/tests/).
//!
//! (Its run in the random-games test is checked there:
//! random_games.rs, `every_registered_variant_has_its_random_games_test`.)
//!
//! They read the repository's own files, found from this crate's folder.

use std::fs;
use std::path::{Path, PathBuf};

use chesskit_games::names;

/// Registered variants that no browser test plays yet. The list may only
/// shrink: a variant named here that has a browser test fails
/// [`every_registered_variant_has_a_browser_test`], so the entry is removed
/// when the gap closes. Every variant has one now (chess960's is
/// web/tests/e2e-chess960.test.ts).
const WITHOUT_A_BROWSER_TEST_YET: [&str; 0] = [];

/// The sections of a rules page that the server sends to the rules panel.
const PLAYER_SECTIONS: [&str; 2] = ["## The rules in our words", "## Rulings"];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(relative: &str) -> String {
    let path = repository().join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Fails with every problem found, one a line, and where to read how to fix them.
fn assert_none(problems: &[String]) {
    assert!(problems.is_empty(), "{}\n(docs/adding-a-game.md lists what a game needs)", problems.join("\n"));
}

/// What is missing from `variant`'s rules page: the page itself, a section
/// the rules panel serves, or the README's link to it.
fn page_problems(variant: &str, readme: &str) -> Vec<String> {
    let page = format!("docs/games/{variant}.md");
    let Ok(text) = fs::read_to_string(repository().join(&page)) else {
        return vec![format!("{variant}: no rules page {page}")];
    };
    let mut problems: Vec<String> = PLAYER_SECTIONS
        .iter()
        .filter(|section| !text.lines().any(|line| line.trim_end() == **section))
        .map(|section| format!("{variant}: {page} has no \"{section}\" section for the rules panel"))
        .collect();
    if !readme.contains(&format!("({page})")) {
        problems.push(format!("{variant}: README.md's table of games does not link {page}"));
    }
    problems
}

#[test]
fn every_registered_variant_has_its_rules_page_with_the_players_sections_linked_from_the_readme() {
    let readme = read("README.md");
    let problems: Vec<String> = names().into_iter().flat_map(|variant| page_problems(variant, &readme)).collect();
    assert_none(&problems);
}

/// The browser tests that run against a real server: web/tests/*e2e*.test.ts.
fn browser_tests() -> Vec<(String, String)> {
    let folder = repository().join("web/tests");
    let entries = fs::read_dir(&folder).unwrap_or_else(|e| panic!("cannot list {}: {e}", folder.display()));
    let mut tests: Vec<(String, String)> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.contains("e2e") && name.ends_with(".test.ts"))
        .map(|name| {
            let text = read(&format!("web/tests/{name}"));
            (name, text)
        })
        .collect();
    tests.sort();
    tests
}

/// Whether a browser test plays `variant`: a file of its own
/// (e2e-<variant>.test.ts), or its name as a quoted string in another
/// (a game created by name, as in e2e-games.test.ts).
fn has_browser_test(variant: &str, tests: &[(String, String)]) -> bool {
    let own_file = format!("e2e-{variant}.test.ts");
    let quoted = ['\'', '"', '`'].map(|quote| format!("{quote}{variant}{quote}"));
    tests.iter().any(|(name, text)| *name == own_file || quoted.iter().any(|q| text.contains(q.as_str())))
}

#[test]
fn every_registered_variant_has_a_browser_test() {
    let tests = browser_tests();
    let registered = names();
    let mut problems = Vec::new();
    for variant in &registered {
        let covered = has_browser_test(variant, &tests);
        let excused = WITHOUT_A_BROWSER_TEST_YET.contains(variant);
        if !covered && !excused {
            problems.push(format!("{variant}: no browser test (web/tests/e2e-{variant}.test.ts)"));
        }
        if covered && excused {
            problems.push(format!("{variant} has a browser test now: remove it from WITHOUT_A_BROWSER_TEST_YET"));
        }
    }
    for variant in WITHOUT_A_BROWSER_TEST_YET {
        if !registered.contains(&variant) {
            problems.push(format!("{variant} in WITHOUT_A_BROWSER_TEST_YET is not a registered variant"));
        }
    }
    assert_none(&problems);
}
