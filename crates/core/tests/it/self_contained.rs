//! The repository stands on its own: no code, test, build script or CI
//! script may read a file outside it. A clone has nothing beside it (the
//! team's reference folder of rule books and fixtures included), so a test
//! that reads the reference folder passes on a team machine and fails for everyone
//! else. Facts a test needs are copied into a `testdata/` folder with a note
//! of where they came from.
//!
//! The check reads every source, build and CI file and looks for two things:
//! a mention of the team's reference folder, and a relative path whose `../`
//! steps climb above the repository root from where the path is resolved
//! (the file's folder for `include_str!` and web code, the crate's folder for
//! paths joined to `CARGO_MANIFEST_DIR`, the root for CI scripts).

use std::path::{Component, Path, PathBuf};

/// Folders never scanned: build outputs and installed packages.
const SKIPPED_DIRS: [&str; 6] = ["target", "node_modules", "dist", ".git", "test-results", "testdata"];

/// File endings that hold code, build or CI instructions.
const SOURCE_ENDINGS: [&str; 8] = [".rs", ".ts", ".mjs", ".js", ".toml", ".sh", ".json", ".yml"];

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root")
}

/// CI scripts live in `.ci/` and need no ending.
fn in_ci_folder(path: &Path) -> bool {
    path.parent().and_then(|p| p.file_name()).is_some_and(|d| d == ".ci")
}

fn is_source(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    in_ci_folder(path) || (SOURCE_ENDINGS.iter().any(|ending| name.ends_with(ending)) && name != "package-lock.json")
}

fn source_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if !SKIPPED_DIRS.iter().any(|skip| name == *skip) {
                source_files(&path, found);
            }
        } else if is_source(&path) {
            found.push(path);
        }
    }
}

/// How many folders below the root `dir` is.
fn depth_below_root(root: &Path, dir: &Path) -> usize {
    dir.strip_prefix(root)
        .map(|rel| rel.components().filter(|c| matches!(c, Component::Normal(_))).count())
        .unwrap_or(0)
}

/// The crate folder (the one with Cargo.toml) that holds `file`, if any.
fn crate_dir(root: &Path, file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .take_while(|dir| dir.starts_with(root))
        .find(|dir| dir.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
}

/// Where a relative path on this line is resolved from.
fn base_dir(root: &Path, file: &Path, line: &str) -> PathBuf {
    if in_ci_folder(file) {
        return root.to_path_buf();
    }
    if line.contains("CARGO_MANIFEST_DIR") {
        if let Some(dir) = crate_dir(root, file) {
            return dir;
        }
    }
    file.parent().unwrap_or(root).to_path_buf()
}

/// The longest run of `../` steps on the line.
fn longest_climb(line: &str) -> usize {
    let mut longest = 0;
    for (start, _) in line.match_indices("../") {
        let steps = line.as_bytes()[start..].chunks(3).take_while(|chunk| *chunk == b"../").count();
        longest = longest.max(steps);
    }
    longest
}

/// What is wrong with one line of `file`, if anything.
fn problem(root: &Path, file: &Path, line: &str) -> Option<String> {
    // Spelled in two halves so that this file does not name it itself.
    let reference_folder = ["sha", "red/"].concat();
    if line.contains(&format!("../{reference_folder}")) || line.contains(&format!("{reference_folder}fixtures")) {
        return Some("names the team's reference folder".to_string());
    }
    let climb = longest_climb(line);
    let base = base_dir(root, file, line);
    let depth = depth_below_root(root, &base);
    (climb > depth)
        .then(|| format!("climbs {climb} folders up from {}, which is {depth} below the root", base.display()))
}

fn offences(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    source_files(root, &mut files);
    let mut found = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        for (number, line) in text.lines().enumerate() {
            if let Some(why) = problem(root, &file, line) {
                let name = file.strip_prefix(root).unwrap_or(&file).display();
                found.push(format!("{name}:{}: {why}: {}", number + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn nothing_reads_outside_the_repository() {
    let found = offences(&repository_root());
    assert!(
        found.is_empty(),
        "these lines read outside the repository; copy the data into a testdata/ folder:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_catches_a_path_that_climbs_out_of_a_crate() {
    let root = repository_root();
    let test_file = root.join("crates/games/tests/example.rs");
    // The examples are built from pieces, so that this file passes its own check.
    let up = |steps: usize| "../".repeat(steps);
    let escaping = format!(r#"PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("{}elsewhere/data.md")"#, up(3));
    assert!(problem(&root, &test_file, &escaping).is_some());
    let inside = r#"PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/games")"#;
    assert_eq!(problem(&root, &test_file, inside), None);
}

#[test]
fn the_check_catches_include_str_and_the_reference_folder() {
    let root = repository_root();
    let module = root.join("crates/games/src/masquerade/tests.rs");
    let up = |steps: usize| "../".repeat(steps);
    assert_eq!(problem(&root, &module, &format!(r#"include_str!("{}docs/games/masquerade.md")"#, up(4))), None);
    assert!(problem(&root, &module, &format!(r#"include_str!("{}outside.md")"#, up(5))).is_some());
    let named = format!("read {}", ["../sha", "red/rules/rules.md"].concat());
    assert!(problem(&root, &root.join(".ci/run"), &named).is_some());
}
