//! The server's modules in layers, top to bottom, and a test that keeps
//! them so: a request goes from a handler to the action path, which asks
//! the cluster once who owns the game, then to the game's room, its state
//! in memory and the store. A module uses only modules of lower layers
//! (and leaves: errors, limits, tokens, background threads, the accept
//! loop), never one
//! above it, so that each can be read and changed knowing only what lies
//! below.

/// Top to bottom. Modules in one layer do not use each other, except the
/// leaves, which use nothing but other leaves.
#[cfg(test)]
const LAYERS: &[&[&str]] = &[
    // the test that writes web/src/types.gen.ts from the handlers' replies
    &["typescript"],
    // the assembly and opening the state
    &["lib", "open"],
    // the handlers
    &["games", "ws", "analysis", "variants", "examples", "web", "lobby"],
    // a finished game's next game and the lobby's seats, which the handlers offer
    &["rematch", "challenge"],
    // the one path every person's action takes
    &["play"],
    // who owns a game, with PostgreSQL; forwarding to the owner
    &["cluster"],
    // a game in motion: acting, computers, the clock
    &["room"],
    // the games in memory
    &["state"],
    // leaves
    &["error", "limits", "token", "background", "listen", "layers", "names", "listcache"],
    // the stores
    &["store", "postgres", "sqlite"],
];

#[cfg(test)]
mod tests {
    use super::LAYERS;
    use std::path::Path;

    fn layer_of(module: &str) -> usize {
        LAYERS
            .iter()
            .position(|layer| layer.contains(&module))
            .unwrap_or_else(|| panic!("module {module} is in no layer of crates/server/src/layers.rs: put it in one"))
    }

    /// The crate modules `source` uses in code (not in comments). The
    /// stores reach each other through `super::`, within one layer.
    fn uses(source: &str) -> Vec<String> {
        let mut used = Vec::new();
        for line in source.lines().filter(|line| !line.trim_start().starts_with("//")) {
            for (at, _) in line.match_indices("crate::") {
                let name: String = line[at + 7..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
                if !name.is_empty() {
                    used.push(name);
                }
            }
        }
        used
    }

    fn modules() -> Vec<(String, String)> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut found = Vec::new();
        for dir in [src.clone(), src.join("store")] {
            for file in std::fs::read_dir(&dir).unwrap() {
                let path = file.unwrap().path();
                if path.extension().is_some_and(|e| e == "rs") {
                    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
                    let module = if stem == "mod" { "store".to_string() } else { stem };
                    found.push((module, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        found
    }

    #[test]
    fn the_request_path_runs_one_way_no_module_uses_one_above_it() {
        let leaves = layer_of("error");
        let mut wrong = Vec::new();
        // This module's own test names modules in strings.
        for (module, source) in modules().into_iter().filter(|(module, _)| module != "layers") {
            let own = layer_of(&module);
            for used in uses(&source) {
                let theirs = layer_of(&used);
                let upward = theirs < own || (theirs == own && used != module && own != leaves);
                if upward {
                    wrong.push(format!("{module} (layer {own}) uses {used} (layer {theirs})"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn a_use_of_a_higher_layer_is_found() {
        assert_eq!(
            uses("use crate::play::act;\n// crate::cluster in words\nlet x = crate::room::y();"),
            ["play", "room"]
        );
        assert!(layer_of("state") > layer_of("play"));
    }
}
