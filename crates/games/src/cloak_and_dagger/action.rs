//! The actions of Cloak and Dagger Chess and their canonical texts.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::parse_square;
use chesskit_core::chess::notation::UciAction;
use chesskit_core::game::GameAction;
use chesskit_core::view::{ActionInfo, Pick};
use shakmaty::{Role, Square};

use super::knowledge::{Setup, CHECKER_KINDS};

/// What an offered action means for the player who may take it, beyond the
/// action itself: said in its button label, so that a client can tell
/// apart two actions on the same squares (a pawn move as the bonus move or
/// as the regular move) and grey a guess that cannot be right.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Note {
    /// Nothing to add.
    #[default]
    Plain,
    /// A bonus move made before the turn: the player keeps the turn (the
    /// guess and the regular move are still to come).
    KeepsTurn,
    /// Taking this action gives up a bonus move the player is owed.
    GivesUpBonus,
    /// A guess the player's own deduction grid already rules out.
    RuledOut,
}

/// One step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloakAction {
    /// `place RNBQKBNR`: the secret identities of checkers 1 to 8 (files a to h).
    Place(Setup),
    /// `guess c8 N`: at the start of the turn, guess that the opponent's
    /// checker on c8 is a knight.
    Guess { square: Square, role: Role },
    /// `e2e4`, `g1f3`, `e7e8q`, castling as the king taking its rook (`e1h1`):
    /// the regular move.
    Move(UciAction),
    /// `bonus e4e5`: a pawn move as the bonus move.
    Bonus(UciAction),
    /// `drop d2`: the bonus move that takes back a captured pawn and drops it
    /// on an empty square of the own second rank.
    Drop(Square),
    /// `uncloak c1`: at the end of the turn, replace the own checker on c1 by
    /// its chess piece.
    Uncloak(Square),
    /// `done`: end the turn without (more) bonus move or uncloaking.
    Done,
}

/// Hashed as one word, its kind and its squares and pieces packed: the
/// search hashes every action it lists, and at the placement that is 960
/// setups of eight pieces each, which hashed piece by piece made the
/// hashing most of a node's cost. A setup is its eight roles as the eight
/// bytes of the word (read at once, where packing them three bits a role
/// took a shift and an or each); a role is at most 6, so the top three
/// bits stay free for the kind.
impl Hash for CloakAction {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let role = |role: Role| role as u64;
        let uci = |m: UciAction| m.from as u64 | (m.to as u64) << 6 | m.promotion.map_or(0, role) << 12;
        let (kind, parts) = match *self {
            CloakAction::Place(setup) => (0, u64::from_le_bytes(setup.map(|r| r as u8))),
            CloakAction::Guess { square, role: guessed } => (1, square as u64 | role(guessed) << 6),
            CloakAction::Move(m) => (2, uci(m)),
            CloakAction::Bonus(m) => (3, uci(m)),
            CloakAction::Drop(square) => (4, square as u64),
            CloakAction::Uncloak(square) => (5, square as u64),
            CloakAction::Done => (6, 0),
        };
        state.write_u64(kind << 61 | parts);
    }
}

/// The text of a setup: `RNBQKBNR`.
pub fn setup_letters(setup: &Setup) -> String {
    setup.iter().map(|r| r.upper_char()).collect()
}

/// Read a setup written as eight letters, either case.
pub fn parse_setup_letters(text: &str) -> Result<Setup, String> {
    let roles: Vec<Role> = text
        .chars()
        .map(|c| {
            Role::from_char(c)
                .filter(|r| CHECKER_KINDS.contains(r))
                .ok_or_else(|| format!("{c:?} is not a piece a checker can be (K, Q, R, B or N)"))
        })
        .collect::<Result<_, _>>()?;
    roles.try_into().map_err(|roles: Vec<Role>| {
        format!(
            "a placement names 8 pieces, one for each checker 1 to 8 (files a to h), like RNBQKBNR; found {}",
            roles.len()
        )
    })
}

/// A checker's kind from a letter or a name: `N`, `n`, `knight`.
pub fn parse_kind(text: &str) -> Result<Role, String> {
    let lower = text.to_ascii_lowercase();
    let role = if lower.chars().count() == 1 {
        lower.chars().next().and_then(Role::from_char)
    } else {
        CHECKER_KINDS.iter().copied().find(|&r| role_name(r) == lower)
    };
    role.filter(|r| CHECKER_KINDS.contains(r))
        .ok_or_else(|| format!("{text:?} is not a piece a checker can be (K, Q, R, B or N)"))
}

fn parse_square_word(word: &str) -> Result<Square, String> {
    parse_square(&word.to_ascii_lowercase()).ok_or_else(|| format!("{word:?} is not a square"))
}

impl fmt::Display for CloakAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CloakAction::Place(setup) => write!(f, "place {}", setup_letters(setup)),
            CloakAction::Guess { square, role, .. } => write!(f, "guess {square} {}", role.upper_char()),
            CloakAction::Move(m) => write!(f, "{m}"),
            CloakAction::Bonus(m) => write!(f, "bonus {m}"),
            CloakAction::Drop(square) => write!(f, "drop {square}"),
            CloakAction::Uncloak(square) => write!(f, "uncloak {square}"),
            CloakAction::Done => f.write_str("done"),
        }
    }
}

const FORMS: &str = "expected a move (e2e4), place RNBQKBNR, guess c8 N, bonus e4e5, drop d2, uncloak c1 or done";

impl FromStr for CloakAction {
    type Err = String;

    fn from_str(text: &str) -> Result<CloakAction, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let word = |i: usize| words.get(i).copied();
        let arity = |n: usize, example: &str| {
            if words.len() == n {
                Ok(())
            } else {
                Err(format!("{:?} takes {} word(s) after it, like {example}", words[0], n - 1))
            }
        };
        match word(0).map(str::to_ascii_lowercase).as_deref() {
            None => Err(format!("empty action: {FORMS}")),
            Some("place") => {
                arity(2, "place RNBQKBNR")?;
                Ok(CloakAction::Place(parse_setup_letters(words[1])?))
            }
            Some("guess") => {
                arity(3, "guess c8 N")?;
                Ok(CloakAction::Guess { square: parse_square_word(words[1])?, role: parse_kind(words[2])? })
            }
            Some("bonus") => {
                arity(2, "bonus e4e5")?;
                Ok(CloakAction::Bonus(words[1].parse()?))
            }
            Some("drop") => {
                arity(2, "drop d2")?;
                Ok(CloakAction::Drop(parse_square_word(words[1])?))
            }
            Some("uncloak") => {
                arity(2, "uncloak c1")?;
                Ok(CloakAction::Uncloak(parse_square_word(words[1])?))
            }
            Some("done") => {
                arity(1, "done")?;
                Ok(CloakAction::Done)
            }
            Some(_) if words.len() == 1 => {
                let uci = words[0].to_ascii_lowercase().parse().map_err(|_| format!("{text:?}: {FORMS}"))?;
                Ok(CloakAction::Move(uci))
            }
            Some(_) => Err(format!("{text:?}: {FORMS}")),
        }
    }
}

/// A move in words for a label: `e2-e4`, `e7-e8, promoting to a queen`.
pub fn move_words(m: &UciAction) -> String {
    match m.promotion {
        Some(role) => format!("{}-{}, promoting to a {}", m.from, m.to, role_name(role)),
        None => format!("{}-{}", m.from, m.to),
    }
}

/// What a note adds to a label.
fn with_note(label: String, note: Note) -> String {
    match note {
        Note::Plain => label,
        Note::KeepsTurn => format!("{label} (you keep your turn)"),
        Note::GivesUpBonus => format!("{label} (gives up your bonus move)"),
        Note::RuledOut => format!("{label} (already ruled out)"),
    }
}

fn move_info(text: String, m: &UciAction, label: Option<String>) -> ActionInfo {
    ActionInfo {
        text,
        from: Some(m.from.to_string()),
        to: Some(m.to.to_string()),
        promotion: m.promotion.map(|r| r.char().to_string()),
        label,
        ..ActionInfo::default()
    }
}

/// What uncloaking means, asked before it is sent: "An uncloaked checker
/// cannot be re-cloaked" (docs/games/cloak-and-dagger.md).
pub const UNCLOAK_WARNING: &str = "This cannot be undone: your opponent will see this piece for the rest of the game.";

/// The pick of the actions offered behind one button of their own, chosen
/// over the board: the bonus moves, the uncloakings.
fn group(name: &str, caption: &str) -> Option<Pick> {
    Some(Pick::Group { name: name.to_string(), caption: caption.to_string() })
}

fn square_info(text: String, square: Square, label: String) -> ActionInfo {
    ActionInfo { text, square: Some(square.to_string()), label: Some(label), ..ActionInfo::default() }
}

impl CloakAction {
    /// The action offered with `note`: its label says in words what it does,
    /// and what it costs. A regular move has no label of its own (a client
    /// shows it by its squares) unless it gives up a bonus move. The note
    /// depends on the game's state, so the game supplies it (see
    /// `Game::describe_action`); it is never part of the action itself.
    pub fn info_with(&self, note: Note) -> ActionInfo {
        let text = self.to_string();
        match self {
            CloakAction::Place(setup) => {
                let names: Vec<&str> = setup.iter().map(|&r| role_name(r)).collect();
                ActionInfo {
                    label: Some(format!("Checkers 1 to 8 (files a to h): {}", names.join(", "))),
                    pick: Some(Pick::Placement { roles: setup_letters(setup) }),
                    ..ActionInfo::text_only(text)
                }
            }
            CloakAction::Guess { square, role, .. } => square_info(
                text,
                *square,
                with_note(format!("Guess: the checker on {square} is a {}", role_name(*role)), note),
            ),
            CloakAction::Move(m) => {
                let label =
                    (note != Note::Plain).then(|| with_note(format!("{} as your regular move", move_words(m)), note));
                move_info(text, m, label)
            }
            CloakAction::Bonus(m) => ActionInfo {
                pick: group("bonus", "Make your bonus move…"),
                ..move_info(text, m, Some(with_note(format!("{} as your bonus move", move_words(m)), note)))
            },
            CloakAction::Drop(square) => square_info(
                text,
                *square,
                with_note(format!("Take back a pawn onto {square} as your bonus move"), note),
            ),
            CloakAction::Uncloak(square) => ActionInfo {
                confirm: Some(UNCLOAK_WARNING.to_string()),
                pick: group("uncloak", "Uncloak a checker…"),
                ..square_info(text, *square, with_note(format!("Uncloak your checker on {square}"), note))
            },
            CloakAction::Done => {
                ActionInfo { label: Some(with_note("End your turn".to_string(), note)), ..ActionInfo::text_only(text) }
            }
        }
    }
}

/// Offered with no note: the plain description, for programs and logs.
impl GameAction for CloakAction {
    fn info(&self) -> ActionInfo {
        self.info_with(Note::Plain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_texts_round_trip() {
        for text in
            ["place RNBQKBNR", "guess c8 N", "e2e4", "e7e8q", "e1h1", "bonus e4e5", "drop d2", "uncloak c1", "done"]
        {
            let action: CloakAction = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
        let lenient: CloakAction = "Guess C8 knight".parse().unwrap();
        assert_eq!(lenient.to_string(), "guess c8 N");
        assert_eq!("place rnbqkbnr".parse::<CloakAction>().unwrap().to_string(), "place RNBQKBNR");
    }

    #[test]
    fn malformed_actions_name_the_problem() {
        assert!("place RNBQKBN".parse::<CloakAction>().unwrap_err().contains("names 8 pieces"));
        assert!("place RNBQKBNP".parse::<CloakAction>().unwrap_err().contains("'P'"));
        assert!("guess c8 P".parse::<CloakAction>().unwrap_err().contains("not a piece a checker can be"));
        assert!("guess z9 N".parse::<CloakAction>().unwrap_err().contains("not a square"));
        assert!("drop".parse::<CloakAction>().unwrap_err().contains("like drop d2"));
        assert!("fly away".parse::<CloakAction>().unwrap_err().contains("expected a move"));
    }

    /// The uncloaking is asked first (it is for good: nothing re-cloaks a
    /// checker) and sits behind its own button with the bonus moves'
    /// beside it, as the view declares: the browser reads no action text.
    #[test]
    fn uncloak_at_the_end_of_the_turn_is_asked_first_and_bonus_moves_have_their_own_button() {
        let uncloak = "uncloak c1".parse::<CloakAction>().unwrap().info();
        assert_eq!(uncloak.confirm.as_deref(), Some(UNCLOAK_WARNING));
        assert!(matches!(&uncloak.pick, Some(Pick::Group { name, .. }) if name == "uncloak"), "{uncloak:?}");
        let bonus = "bonus e4e5".parse::<CloakAction>().unwrap().info();
        assert!(matches!(&bonus.pick, Some(Pick::Group { name, .. }) if name == "bonus"), "{bonus:?}");
        assert_eq!(bonus.confirm, None, "a bonus move is not asked first");
        let regular = "e4e5".parse::<CloakAction>().unwrap().info();
        assert_eq!((regular.pick, regular.confirm), (None, None), "the regular move is a plain board move");
    }

    /// The placement is chosen on a picture of the numbered checkers: its
    /// pick names checker 1 to 8's pieces, as the text does.
    #[test]
    fn the_placement_names_checkers_1_to_8_in_its_pick() {
        let info = "place RNBKQBNR".parse::<CloakAction>().unwrap().info();
        assert_eq!(info.pick, Some(Pick::Placement { roles: "RNBKQBNR".to_string() }));
    }

    #[test]
    fn guesses_and_drops_carry_a_square_and_a_label() {
        let info = "guess c8 N".parse::<CloakAction>().unwrap().info();
        assert_eq!(info.square.as_deref(), Some("c8"));
        assert!(info.label.unwrap().contains("knight"));
        let info = "drop d2".parse::<CloakAction>().unwrap().info();
        assert_eq!(info.square.as_deref(), Some("d2"));
        let info = "g1f3".parse::<CloakAction>().unwrap().info();
        assert_eq!((info.from.as_deref(), info.to.as_deref()), (Some("g1"), Some("f3")));
    }
}
