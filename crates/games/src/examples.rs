//! The rule books' worked examples as positions a player can try: each
//! ```` ```try ```` block of testdata/book-examples.md (embedded at build
//! time, read once) sets up the example's position, names the move(s) the
//! book describes and says what the referee answers. The examples are
//! played through the real games, here in the tests and on the server
//! (`GET /api/variants/{name}/examples`), so the referee stays the judge.

use std::sync::LazyLock;

use chesskit_core::game::{GameError, Seat, ToAct};
use chesskit_core::options::Options;
use chesskit_core::session::DynGame;

/// The book's examples as text: diagrams, prose, and the `try` blocks.
pub const BOOK_EXAMPLES: &str = include_str!("../testdata/book-examples.md");

/// One worked example a player can try.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// The registry name of the game it is played in.
    pub variant: String,
    /// The heading of its section in book-examples.md (the game and its book).
    pub section: String,
    pub title: String,
    /// The rule the example shows, in the book's words.
    pub clause: String,
    /// What the player is asked to do.
    pub prompt: String,
    /// The position text the referee loads.
    pub position: String,
    /// The book's move(s), as action text, in order.
    pub moves: Vec<String>,
    /// What the referee answers once they are made, in words.
    pub answer: String,
    /// The position text the moves lead to, if the example states it.
    pub after: Option<String>,
    /// The reason the game ends with, if the moves end it ("checkmate").
    pub outcome: Option<String>,
}

static EXAMPLES: LazyLock<Vec<Example>> =
    LazyLock::new(|| parse(BOOK_EXAMPLES).unwrap_or_else(|e| panic!("testdata/book-examples.md: {e}")));

/// Every example of the books, in the file's order.
pub fn all() -> &'static [Example] {
    &EXAMPLES
}

/// The examples of `variant`, in the file's order (none for a game the
/// books give no example of).
pub fn of(variant: &str) -> Vec<&'static Example> {
    all().iter().filter(|e| e.variant == variant).collect()
}

/// The headings of book-examples.md's sections, in order: each names a
/// game and the book its examples come from.
pub fn sections(text: &str) -> Vec<&str> {
    text.lines().filter_map(|line| line.strip_prefix("## ")).map(str::trim).collect()
}

/// Read every `try` block of `text`: ```` ```try <variant> ```` opens it,
/// `key: value` lines fill it, and `position:`/`after:` take the `| `
/// lines that follow them (a position may span lines, as Gravity's does).
pub fn parse(text: &str) -> Result<Vec<Example>, String> {
    let mut examples = Vec::new();
    let mut section = String::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        if let Some(heading) = line.strip_prefix("## ") {
            section = heading.trim().to_string();
        }
        let Some(variant) = line.strip_prefix("```try ") else { continue };
        let mut block = Vec::new();
        for (_, line) in lines.by_ref() {
            if line.starts_with("```") {
                break;
            }
            block.push(line);
        }
        let example = parse_block(variant.trim(), &section, &block).map_err(|e| format!("line {}: {e}", n + 1))?;
        examples.push(example);
    }
    Ok(examples)
}

fn parse_block(variant: &str, section: &str, block: &[&str]) -> Result<Example, String> {
    let mut fields: Vec<(&str, String)> = Vec::new();
    for line in block {
        if let Some(continued) = line.strip_prefix("| ").or_else(|| (line.trim() == "|").then_some("")) {
            let (key, value) = fields.last_mut().ok_or("a `| ` line before any key")?;
            if !matches!(*key, "position" | "after") {
                return Err(format!("`{key}` takes one line, not `| ` lines"));
            }
            value.push_str(continued);
            value.push('\n');
        } else if let Some((key, value)) = line.split_once(':') {
            fields.push((key.trim(), value.trim().to_string()));
        } else if !line.trim().is_empty() {
            return Err(format!("neither `key: value` nor `| ` position line: {line:?}"));
        }
    }
    let known = ["title", "clause", "prompt", "position", "moves", "answer", "after", "outcome"];
    if let Some((unknown, _)) = fields.iter().find(|(key, _)| !known.contains(key)) {
        return Err(format!("unknown key `{unknown}` (known: {})", known.join(", ")));
    }
    let field = |name: &str| fields.iter().find(|(key, _)| *key == name).map(|(_, value)| value.clone());
    let required = |name: &str| field(name).filter(|v| !v.is_empty()).ok_or(format!("no `{name}:` in a try block"));
    let moves: Vec<String> = required("moves")?.split(',').map(|m| m.trim().to_string()).collect();
    if moves.iter().any(String::is_empty) {
        return Err("an empty move in `moves:`".into());
    }
    let (title, clause, prompt) = (required("title")?, required("clause")?, required("prompt")?);
    let (position, answer) = (required("position")?, required("answer")?);
    if field("after").is_none() && field("outcome").is_none() {
        return Err("neither `after:` nor `outcome:`: nothing to check the referee's answer against".into());
    }
    Ok(Example {
        variant: variant.to_string(),
        section: section.to_string(),
        title,
        clause,
        prompt,
        position,
        moves,
        answer,
        after: field("after"),
        outcome: field("outcome"),
    })
}

/// What the referee made of the moves a player tried on an example.
pub struct Tried {
    /// The game after the accepted moves.
    pub game: Box<dyn DynGame>,
    /// The seat whose view the example's board shows: the one to act
    /// next, so that in an example where both sides move (Zombie's
    /// rising, Masquerade's assignment) the player can make each side's
    /// move in turn; once the book's moves are all made, the one that
    /// made the last, so the player sees its result from the side that
    /// made it.
    pub seat: Seat,
    pub verdict: Verdict,
}

/// The referee's answer to the moves tried so far.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The book's moves so far, with more to make.
    Continue,
    /// All the book's moves, and the referee answers as the example says.
    Correct,
    /// The referee refused this move (the game is as before it).
    Refused { action: String, reason: String },
    /// A legal move the book's example does not make.
    Different { action: String, expected: String },
    /// The book's moves, but the referee's answer is not the example's:
    /// a bug of the example or of the referee.
    Disagrees(String),
}

impl Example {
    /// The game set up at the example's position.
    pub fn start(&self) -> Result<Box<dyn DynGame>, GameError> {
        crate::create(&self.variant, Options::new(), 0, Some(&self.position))
    }

    /// Play `actions` from the example's position, each by the seat to
    /// act, stopping at the first the referee refuses or the book does
    /// not make.
    pub fn try_moves(&self, actions: &[String]) -> Result<Tried, GameError> {
        let mut game = self.start()?;
        let mut seat =
            acting_seat(&game.to_act()).ok_or_else(|| GameError::new("the example's game is already over"))?;
        for (n, action) in actions.iter().enumerate() {
            let Some(mover) = acting_seat(&game.to_act()) else {
                let reason = "the game is over".to_string();
                return Ok(Tried { game, seat, verdict: Verdict::Refused { action: action.clone(), reason } });
            };
            seat = mover;
            let played = match game.apply(mover, action) {
                Ok(played) => played,
                Err(e) => {
                    let verdict = Verdict::Refused { action: action.clone(), reason: e.to_string() };
                    return Ok(Tried { game, seat, verdict });
                }
            };
            let expected = self.moves.get(n).cloned().unwrap_or_default();
            if played != expected && *action != expected {
                return Ok(Tried { game, seat, verdict: Verdict::Different { action: played, expected } });
            }
        }
        let more_to_make = actions.len() < self.moves.len();
        let seat = if more_to_make { acting_seat(&game.to_act()).unwrap_or(seat) } else { seat };
        let verdict = if more_to_make {
            Verdict::Continue
        } else {
            match self.check_answer(game.as_ref()) {
                Ok(()) => Verdict::Correct,
                Err(e) => Verdict::Disagrees(e),
            }
        };
        Ok(Tried { game, seat, verdict })
    }

    /// Whether `game`, after the book's moves, is as the example says.
    pub fn check_answer(&self, game: &dyn DynGame) -> Result<(), String> {
        if let Some(after) = &self.after {
            let position = game.position();
            if !same_text(&position, after) {
                return Err(format!("the position is\n{position}\nnot\n{after}"));
            }
        }
        let reason = game.to_act().outcome().map(|o| o.reason.clone());
        if reason != self.outcome {
            return Err(format!("the game ends with {reason:?}, not {:?}", self.outcome));
        }
        Ok(())
    }
}

/// Whether two position texts say the same, line by line: spaces at a
/// line's end and blank lines at either end do not count (a `| ` line of
/// book-examples.md cannot keep them, while golf writes `discard: ` with
/// its trailing space).
fn same_text(a: &str, b: &str) -> bool {
    let lines = |text: &str| text.trim().lines().map(str::trim_end).map(String::from).collect::<Vec<_>>();
    lines(a) == lines(b)
}

/// The seat that makes the example's next move; None once the game is over.
fn acting_seat(to_act: &ToAct) -> Option<Seat> {
    to_act.seats().first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_of_book_examples_is_listed_as_examples_to_try() {
        for section in sections(BOOK_EXAMPLES) {
            assert!(all().iter().any(|e| e.section == section), "{section}: no `try` block");
        }
    }

    #[test]
    fn every_example_played_through_its_game_gives_the_answer_the_book_states() {
        assert!(!all().is_empty());
        for example in all() {
            let tried = example.try_moves(&example.moves).unwrap_or_else(|e| panic!("{}: {e}", example.title));
            assert_eq!(tried.verdict, Verdict::Correct, "{} ({})", example.title, example.variant);
        }
    }

    #[test]
    fn every_example_is_of_a_registered_game_and_starts_unfinished() {
        for example in all() {
            let game = example.start().unwrap_or_else(|e| panic!("{}: {e}", example.title));
            assert!(acting_seat(&game.to_act()).is_some(), "{}: nothing to try", example.title);
        }
    }

    #[test]
    fn a_move_the_book_does_not_make_is_answered_as_different_and_a_refused_one_with_the_reason() {
        let example = of("gravity").into_iter().next().expect("a Gravity example");
        let tried = example.try_moves(&["e8 stays".to_string()]).unwrap();
        assert!(matches!(tried.verdict, Verdict::Different { .. }), "{:?}", tried.verdict);
        let tried = example.try_moves(&["e7e1".to_string()]).unwrap();
        let Verdict::Refused { action, reason } = tried.verdict else { panic!("{:?}", tried.verdict) };
        assert_eq!(action, "e7e1");
        assert!(!reason.is_empty());
        assert_eq!(tried.game.position(), example.start().unwrap().position(), "a refused move changes nothing");
    }

    #[test]
    fn in_an_example_where_both_sides_move_the_board_shows_the_seat_to_act_next() {
        let example = of("zombie").into_iter().next().expect("a Zombie example");
        let white = example.try_moves(&[]).unwrap().seat;
        let after_white = example.try_moves(&example.moves[..2]).unwrap();
        assert_eq!(after_white.verdict, Verdict::Continue);
        assert_ne!(after_white.seat, white, "Black makes the next move: the board is Black's");
        assert_eq!(after_white.seat, acting_seat(&after_white.game.to_act()).unwrap());
        let done = example.try_moves(&example.moves).unwrap();
        assert_eq!(done.seat, after_white.seat, "Black made the last move: its result is shown to Black");
    }

    #[test]
    fn a_try_block_with_a_missing_field_or_an_unknown_key_is_an_error_naming_it() {
        let block = "## Game\n```try chess\ntitle: T\nclause: C\nprompt: P\nmoves: e2e4\nanswer: A\n```\n";
        assert!(parse(block).unwrap_err().contains("no `position:`"));
        let block = block.replace("answer: A", "answer: A\nposition:\n| 8/8\ncolour: red");
        assert!(parse(&block).unwrap_err().contains("unknown key `colour`"));
        let block = block.replace("colour: red", "");
        assert!(parse(&block).unwrap_err().contains("neither `after:` nor `outcome:`"));
        assert_eq!(parse(&block.replace("answer: A", "answer: A\noutcome: checkmate")).unwrap()[0].position, "8/8\n");
    }
}
