//! Generic code names no game (issue 25, "Properties declared, not
//! guessed"): the computer players of crates/ai, the server and the
//! browser client reach every game through what it declares (the Game
//! trait, the registry's variant info), so a new game needs no change
//! there, and no game gets a behaviour the others cannot declare.
//!
//! What counts as naming a game, in code (comments and Rust test modules
//! are not read: a comment may say why, a test may play a game by name):
//!
//! * a string literal that is a registered variant name (`"golf"`,
//!   `'half-alice'`);
//! * an identifier that is the variant's module or type (`golf`,
//!   `half_alice`, `HalfAlice`, `GolfGame`), as in `chesskit_games::golf`.
//!
//! A word that happens to be a variant name but means something else (the
//! chess rules library `chesskit_core::chess`) names no game, and is
//! allowed where it is used, listed in [`ALLOWED_NAMINGS`] with the reason.
//! So is the `mod` line that declares a file of [`ALLOWED_FILES`].
//!
//! The browser client also reads no game's words (issue 25, "the web
//! client draws from the view"): it offers an action as its `pick` says,
//! never by its text (`uncloak c1`, `bonus e4e5`), and draws a marker's
//! declared layers (`draw`), never by its kind (`stacked`, `burial`).

use std::path::{Path, PathBuf};

/// Files that name games by nature, and why.
const ALLOWED_FILES: [(&str, &str); 5] = [
    ("crates/ai/src/golf.rs", "Chess Golf's tools: the solver's benchmark table and statistics"),
    ("crates/ai/src/neighbour.rs", "Neighbour Chess Solitaire's solver"),
    ("crates/ai/src/parade.rs", "Parade Chess Solitaire's solver"),
    ("crates/ai/src/cooperative2.rs", "Cooperative Chess 2's solver"),
    ("crates/ai/src/solvers.rs", "the one place solvers register, naming the variants they solve"),
];

/// Namings of a variant name that name no game, per file, and why.
const ALLOWED_NAMINGS: [(&str, &str, &str); 1] = [(
    "crates/server/src/games.rs",
    "the identifier chess",
    "chesskit_core::chess, the chess rules library (its PGN tags), for every game that exports PGN",
)];

/// The folders of generic code, and the file ending read in each.
const GENERIC: [(&str, &str); 3] = [("crates/ai/src", ".rs"), ("crates/server/src", ".rs"), ("web/src", ".ts")];

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files_under(dir: &Path, ending: &str, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            files_under(&path, ending, found);
        } else if path.to_string_lossy().ends_with(ending) {
            found.push(path);
        }
    }
}

/// What a file's code says: its string literals (and TypeScript's regular
/// expressions, as `/source/`) and its identifiers, comments left out.
#[derive(Default)]
struct Code {
    literals: Vec<String>,
    identifiers: Vec<String>,
}

/// Reads `text` as Rust (`rust`) or TypeScript: skips comments, collects
/// string literals (and TypeScript's '...' and `...`) and identifiers.
/// Rust's character literals and lifetimes are told apart so that a `'"'`
/// opens no string.
fn read_code(text: &str, rust: bool) -> Code {
    let chars: Vec<char> = text.chars().collect();
    let mut code = Code::default();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if rust && c == 'r' && (next == Some('"') || next == Some('#')) && is_raw_string(&chars, i) {
            i = read_raw_string(&chars, i, &mut code);
        } else if !rust && c == '/' && opens_regex(&chars, i) {
            i = read_regex(&chars, i, &mut code);
        } else if c == '"' || (!rust && (c == '\'' || c == '`')) {
            i = read_string(&chars, i, c, &mut code);
        } else if rust && c == '\'' {
            i = skip_char_or_lifetime(&chars, i);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            code.identifiers.push(chars[start..i].iter().collect());
        } else {
            i += 1;
        }
    }
    code
}

/// Whether the `/` at `at` opens a TypeScript regular expression rather
/// than dividing: it does where a value is expected, after an operator, an
/// opening bracket or the start of the text.
fn opens_regex(chars: &[char], at: usize) -> bool {
    let before: String = chars[..at].iter().collect();
    let before = before.trim_end();
    before.is_empty() || before.ends_with("return") || before.ends_with(|c| "(,=:[!&|?{};".contains(c))
}

/// A regular expression from `at` (its opening `/`), kept as `/source/`;
/// returns where it ends (after its flags). A `/` inside a `[...]` class
/// or escaped does not close it.
fn read_regex(chars: &[char], at: usize, code: &mut Code) -> usize {
    let mut i = at + 1;
    let mut in_class = false;
    while i < chars.len() && chars[i] != '\n' && (in_class || chars[i] != '/') {
        match chars[i] {
            '\\' => i += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            _ => {}
        }
        i += 1;
    }
    code.literals.push(chars[at..(i + 1).min(chars.len())].iter().collect());
    i += 1;
    while i < chars.len() && chars[i].is_ascii_alphabetic() {
        i += 1;
    }
    i
}

fn is_raw_string(chars: &[char], at: usize) -> bool {
    let before_is_ident = at > 0 && (chars[at - 1].is_alphanumeric() || chars[at - 1] == '_');
    let mut j = at + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    !before_is_ident && chars.get(j) == Some(&'"')
}

/// A Rust raw string from `at` (its `r`); returns where it ends.
fn read_raw_string(chars: &[char], at: usize, code: &mut Code) -> usize {
    let mut i = at + 1;
    let mut hashes = 0;
    while chars[i] == '#' {
        hashes += 1;
        i += 1;
    }
    let start = i + 1;
    let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
    let mut end = start;
    while end < chars.len() && !chars[end..].starts_with(&closing) {
        end += 1;
    }
    code.literals.push(chars[start..end.min(chars.len())].iter().collect());
    end + closing.len()
}

/// A string literal opened by `quote` at `at`; returns where it ends.
fn read_string(chars: &[char], at: usize, quote: char, code: &mut Code) -> usize {
    let mut i = at + 1;
    let mut literal = String::new();
    while i < chars.len() && chars[i] != quote {
        if chars[i] == '\\' {
            i += 1;
        }
        if let Some(&c) = chars.get(i) {
            literal.push(c);
        }
        i += 1;
    }
    code.literals.push(literal);
    i + 1
}

/// A Rust `'x'`, `'\n'` or a lifetime `'a`; returns where it ends.
fn skip_char_or_lifetime(chars: &[char], at: usize) -> usize {
    if chars.get(at + 1) == Some(&'\\') {
        let mut i = at + 2;
        while i < chars.len() && chars[i] != '\'' {
            i += 1;
        }
        return i + 1;
    }
    if chars.get(at + 2) == Some(&'\'') {
        return at + 3;
    }
    at + 1
}

/// The Rust source before its first test module.
fn without_tests(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |at| &text[..at])
}

/// The identifiers a variant's code goes by: its module (`half_alice`),
/// its name in camel case (`HalfAlice`) and its game type (`HalfAliceGame`).
fn identifiers_of(variant: &str) -> Vec<String> {
    let module = variant.replace('-', "_");
    let camel: String = variant
        .split('-')
        .map(|word| {
            let mut letters = word.chars();
            letters.next().map(|first| first.to_uppercase().chain(letters).collect::<String>()).unwrap_or_default()
        })
        .collect();
    vec![module, format!("{camel}Game"), camel]
}

/// Whether `identifier` follows `mod` and names a module whose file, beside
/// `relative`, is allowed: the line that declares a solver module.
fn declares_allowed_module(relative: &str, previous: Option<&String>, identifier: &str) -> bool {
    let folder = relative.rsplit_once('/').map_or("", |(folder, _)| folder);
    let file = format!("{folder}/{identifier}.rs");
    previous.is_some_and(|p| p == "mod") && ALLOWED_FILES.iter().any(|(allowed, _)| *allowed == file)
}

/// Every naming of a game in `text` (the file `relative`), as
/// "file: what".
fn namings(relative: &str, text: &str, variants: &[&str]) -> Vec<String> {
    let rust = relative.ends_with(".rs");
    let code = read_code(if rust { without_tests(text) } else { text }, rust);
    let mut found = Vec::new();
    for &variant in variants {
        if code.literals.iter().any(|l| l == variant) {
            found.push(format!("the string {variant:?}"));
        }
        let names = identifiers_of(variant);
        let named = code.identifiers.iter().enumerate().filter(|(_, id)| names.contains(id));
        for (at, identifier) in named {
            let naming = format!("the identifier {identifier}");
            if !declares_allowed_module(relative, at.checked_sub(1).map(|p| &code.identifiers[p]), identifier)
                && !found.contains(&naming)
            {
                found.push(naming);
            }
        }
    }
    found.retain(|naming| !ALLOWED_NAMINGS.iter().any(|(file, allowed, _)| *file == relative && allowed == naming));
    found.into_iter().map(|naming| format!("{relative}: {naming}")).collect()
}

fn generic_files(root: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (dir, ending) in GENERIC {
        files_under(&root.join(dir), ending, &mut files);
    }
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
            (relative, text)
        })
        .filter(|(relative, _)| !ALLOWED_FILES.iter().any(|(file, _)| file == relative))
        .collect()
}

#[test]
fn generic_code_names_no_game() {
    let variants = chesskit_games::names();
    let files = generic_files(&repository_root());
    assert!(files.len() >= 30, "found only {} generic files: is the root right?", files.len());
    let found: Vec<String> = files.iter().flat_map(|(relative, text)| namings(relative, text, &variants)).collect();
    assert!(found.is_empty(), "generic code names games; declare the property instead:\n{}", found.join("\n"));
}

/// The check sees every form of naming it promises, and not comments,
/// tests or strings that only contain a name.
#[test]
fn the_check_finds_literals_and_identifiers_and_skips_comments_and_tests() {
    let variants = ["golf", "half-alice"];
    let rust = r#"
        // "golf" in a comment
        /* half_alice */
        fn f(v: &str) -> bool { v == "golf" }
        use chesskit_games::half_alice::HalfAliceGame;
        const C: char = '"'; fn g<'a>(s: &'a str) {}
        const S: &str = "a golf course";
        #[cfg(test)] mod tests { const T: &str = "golf"; }
    "#;
    assert_eq!(
        namings("x.rs", rust, &variants),
        ["x.rs: the string \"golf\"", "x.rs: the identifier half_alice", "x.rs: the identifier HalfAliceGame",]
    );
    let ts = "// 'golf'\nif (variant === 'half-alice') {}\nconst kind = `golf`;\n";
    assert_eq!(namings("x.ts", ts, &variants), ["x.ts: the string \"golf\"", "x.ts: the string \"half-alice\""]);
    let solver_modules = "pub mod parade;\nfn f() { parade::solve(); }\n";
    assert_eq!(
        namings("crates/ai/src/lib.rs", solver_modules, &["parade"]),
        ["crates/ai/src/lib.rs: the identifier parade"],
        "declaring a solver module is allowed, using it is not"
    );
}

/// The first words of game actions' texts a client might be tempted to
/// recognise (`uncloak c1`, `bonus e4e5`, `assign KR QK RN BB NQ`, `place
/// RNBQKBNR`, `guess c8 N`, `bury c6`): the game says instead how each is
/// picked (`ActionInfo::pick`) and asked first (`ActionInfo::confirm`).
const ACTION_WORDS: [&str; 6] = ["uncloak", "bonus", "assign", "place", "guess", "bury"];

/// The marker kinds of the games (crates/games), which say what a marker
/// means; the browser draws a marker's declared layers (`Marker::draw`)
/// instead. Two kinds are left out as words the client uses for other
/// things: `label` (an HTML element) and `checker` (a piece giving check,
/// the view's `checkers`).
const MARKER_KINDS: [&str; 10] =
    ["zombie", "checkers", "mirror", "stacked", "chosen", "burial", "cloaked", "circle", "zone", "capturer"];

/// Every game word in the TypeScript `text` (the file `relative`), as
/// "file: what": a string literal that is an action word or starts an
/// action's text with one (`'uncloak '`), a regular expression anchored on
/// one (`/^uncloak\b/`), or a string literal that is a marker kind.
fn game_words(relative: &str, text: &str) -> Vec<String> {
    let code = read_code(text, false);
    let mut found = Vec::new();
    for literal in &code.literals {
        let action_word = ACTION_WORDS.iter().find(|&&word| {
            literal == word || literal.starts_with(&format!("{word} ")) || literal.starts_with(&format!("/^{word}"))
        });
        if let Some(word) = action_word {
            found.push(format!("{relative}: the action word {word:?} in {literal:?}"));
        }
        if MARKER_KINDS.contains(&literal.as_str()) {
            found.push(format!("{relative}: the marker kind {literal:?}"));
        }
    }
    found
}

#[test]
fn the_web_client_reads_no_action_words_and_no_marker_kinds() {
    let files = generic_files(&repository_root());
    let web: Vec<&(String, String)> = files.iter().filter(|(relative, _)| relative.starts_with("web/src/")).collect();
    assert!(web.len() >= 20, "found only {} files under web/src: is the root right?", web.len());
    let found: Vec<String> = web.iter().flat_map(|(relative, text)| game_words(relative, text)).collect();
    assert!(
        found.is_empty(),
        "the web client reads games' words; declare a pick or a drawing in the view instead:\n{}",
        found.join("\n")
    );
}

/// The check finds an action word however the client matches it, and a
/// marker kind, and not words that only contain them or comments.
#[test]
fn the_word_check_finds_action_words_regexes_and_marker_kinds() {
    let ts = "// /^uncloak/ in a comment\nconst a = /^uncloak\\b/i;\nif (t.startsWith('bonus ')) {}\n\
              switch (m.kind) { case 'stacked': }\nconst x = y / 2 / z;\nh('h3', {}, 'Place your checkers');\n";
    assert_eq!(
        game_words("x.ts", ts),
        [
            "x.ts: the action word \"uncloak\" in \"/^uncloak\\\\b/\"",
            "x.ts: the action word \"bonus\" in \"bonus \"",
            "x.ts: the marker kind \"stacked\"",
        ]
    );
}
