//! Embeds every game's rules document, docs/games/<variant>.md, in the
//! server, so `GET /api/variants/{name}/rules` answers wherever the binary
//! runs. Writes `$OUT_DIR/rules.rs`: a table of (variant name, text) with
//! one `include_str!` per document, sorted by name.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let docs = Path::new(&manifest).join("../../docs/games");
    // A directory is scanned for changes: a new, edited or removed document rebuilds.
    println!("cargo:rerun-if-changed={}", docs.display());
    println!("cargo:rerun-if-changed=build.rs");

    let mut documents: Vec<(String, PathBuf)> = Vec::new();
    // Outside the workspace (a packaged crate) there are no documents: the table is empty.
    if let Ok(entries) = std::fs::read_dir(&docs) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "md") && path.is_file() {
                let name = path.file_stem().and_then(|s| s.to_str()).map(str::to_string);
                match (name, std::fs::canonicalize(&path)) {
                    (Some(name), Ok(full)) if full.to_str().is_some() => documents.push((name, full)),
                    _ => println!("cargo:warning=skipping {}: its name or path is not UTF-8", path.display()),
                }
            }
        }
    }
    documents.sort();

    let mut table = String::from("/// Every rules document: (variant name, markdown text), sorted by name.\n");
    table.push_str("pub static RULES: &[(&str, &str)] = &[\n");
    for (name, path) in &documents {
        let path = path.to_str().expect("checked above");
        writeln!(table, "    ({name:?}, include_str!({path:?})),").expect("writing to a String");
    }
    table.push_str("];\n");
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("rules.rs");
    std::fs::write(&out, table).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
