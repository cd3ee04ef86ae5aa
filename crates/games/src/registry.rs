//! The registry: variant name -> constructor, options and rules, so that
//! the protocol, the server and generic players never name a game.

use serde::Serialize;

use chesskit_core::game::{Game, GameError};
use chesskit_core::options::{OptionKind, OptionSpec, Options};
use chesskit_core::session::{DynGame, GameRecord, Session};
use chesskit_core::view::Journal;

use crate::chess::{Chess960Game, ChessGame};
use crate::cloak_and_dagger::CloakAndDagger;
use crate::masquerade::MasqueradeGame;
use crate::zombie::ZombieGame;

/// What a client needs to offer a game.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct VariantInfo {
    pub name: &'static str,
    pub title: &'static str,
    /// The names of the seats, in seat order.
    pub seats: Vec<String>,
    pub options: Vec<OptionSpec>,
    /// Marked experimental by the books: Cloak and Dagger, the 2025
    /// booklet's new games ("in early development") and its broken games
    /// (Booster, Neighbour Chess Solitaire).
    pub experimental: bool,
    /// Whether any seat holds information the others may not see.
    pub hidden_information: bool,
    /// Whether its games export as PGN (the chess-like games).
    pub pgn: bool,
    /// A one-paragraph summary of the rules, from docs/games.
    pub summary: &'static str,
    /// The fewest and the most players a game may have: one seat each, the
    /// seats above unless an option sets their number (Chess Golf's 1 to
    /// 8, Cooperative Chess 2's solitaire), so a lobby can group the games
    /// by how many play.
    pub min_players: usize,
    pub max_players: usize,
}

type Starter = fn(Options, u64, Option<&str>) -> Result<Box<dyn DynGame>, GameError>;

struct Entry {
    /// The variant's name, known without building a game.
    name: &'static str,
    info: fn() -> VariantInfo,
    start: Starter,
}

fn start<G: Game>(options: Options, seed: u64, position: Option<&str>) -> Result<Box<dyn DynGame>, GameError> {
    Ok(Box::new(Session::<G>::start(options, seed, position)?))
}

fn info<G: Game>(experimental: bool, hidden_information: bool, summary: &'static str) -> VariantInfo {
    let sample = G::new(&Options::new(), 0).expect("every variant starts with default options");
    let seats = sample.seats().len();
    let (min_players, max_players) = players_range::<G>().unwrap_or((seats, seats));
    VariantInfo {
        min_players,
        max_players,
        name: G::VARIANT,
        title: G::TITLE,
        seats: sample.seats().into_iter().map(|s| s.name).collect(),
        options: G::option_specs(),
        experimental,
        hidden_information,
        pgn: sample.pgn(&Journal::default()).is_some(),
        summary,
    }
}

/// The fewest and the most seats a game of `G` may have when an option
/// sets their number: the bounds of that option among those the game
/// starts with (each bound tried), None when no option changes the seats.
fn players_range<G: Game>() -> Option<(usize, usize)> {
    G::option_specs().iter().find_map(|spec| {
        let OptionKind::Int { min, max } = spec.kind else { return None };
        let seats_with = |n: i64| {
            let options = Options::new().with(&spec.name, n);
            G::new(&options, 0).ok().map(|g| g.seats().len())
        };
        let (fewest, most) = (seats_with(min)?, seats_with(max)?);
        (fewest != most).then_some((fewest, most))
    })
}

macro_rules! entry {
    ($game:ty, experimental: $exp:expr, hidden: $hidden:expr, $summary:expr) => {
        Entry { name: <$game as Game>::VARIANT, info: || info::<$game>($exp, $hidden, $summary), start: start::<$game> }
    };
}

fn entries() -> Vec<Entry> {
    vec![
        entry!(ChessGame, experimental: false, hidden: false,
            "Orthodox chess: checkmate the king. Draws by stalemate, threefold repetition, the fifty-move rule and insufficient material are claimed by the referee."),
        entry!(Chess960Game, experimental: false, hidden: false,
            "Fischer random chess: the back rank is shuffled (bishops on both colours, king between the rooks); castling puts king and rook on their orthodox squares."),
        entry!(ZombieGame, experimental: false, hidden: true,
            "Every captured piece is secretly buried under one of the capturer's pieces and rises as its owner's zombie when the capturer moves off that square; zombies must move every turn or be destroyed. Checkmate wins."),
        entry!(MasqueradeGame, experimental: false, hidden: true,
            "Chess where each piece above pawns captures with a secret move: each player assigns the capture moves of the opponent's pieces, then deduces their own by attempting captures. No check; capture the king to win."),
        entry!(CloakAndDagger, experimental: true, hidden: true,
            "Pawns play as usual; every other piece is a numbered checker placed in secret under the Chess960 restrictions. Guess an enemy checker at the start of your turn for a bonus pawn move or pawn drop, uncloak your own at the end of it, and win by capturing a cloaked king or mating an uncloaked one."),
        entry!(crate::adrenaline::AdrenalineGame, experimental: false, hidden: false,
            "After every turn with a capture, the capturer puts a checker under one of the opponent's pieces. A piece with checkers makes its regular move, then may spend them on extra king steps, capturing on the way and taking over its victims' checkers. Checkmate wins, extra moves included."),
        entry!(crate::booster::BoosterGame, experimental: true, hidden: true,
            "Each player holds cards and checkers. A piece on its owner's checkers is boosted: after its move it may step like a king, spending a checker per step. A piece on the opponent's checkers is hobbled and moves like a pawn. After moving, play a card to add a checker under a matching piece; draw back up to one card per checker in front of you. Checkmate wins, booster moves included."),
        entry!(crate::half_alice::HalfAliceGame, experimental: false, hidden: false,
            "Alice Chess on one board: a piece on a checker stands on the other side of the mirror. Each move must be legal on the mover's side, then the moved piece switches side; pieces pass through and cannot capture pieces of the other side. Checkmate wins."),
        entry!(crate::telepathy::TelepathyGame, experimental: true, hidden: true,
            "Four players in two teams. On its turn a team's predictor plays a card face down, predicting which piece type the partner will move; the mover then makes any legal move. A right prediction pushes the coin on the trophy track towards the opponents, a move of the face-up card's type leaves it, any other pulls it back; a coin pushed off a side makes that team remove a piece. The roles swap every turn. Capture the king to win."),
        entry!(crate::crowded_house::CrowdedHouseGame, experimental: false, hidden: false,
            "Four players in two teams: king-side White, king-side Black, queen-side White, queen-side Black move in turn, each moving only pieces that start or end on their half (files e-h or a-d), passing when they cannot. A move is illegal only if the next player could then capture the mover's king. Checkmate a player and their team loses."),
        entry!(crate::golf::GolfGame, experimental: false, hidden: true,
            "A round of puzzles for 1 to 8 players: a piece may only borrow the move of a same-coloured neighbour, and one chosen piece must capture the others. Count your moves in secret, demonstrate the shortest path; lowest total after 9 holes wins."),
        entry!(crate::split_brain::SplitBrainGame, experimental: true, hidden: true,
            "Four players in two partnerships play Los Alamos chess on the inner 6x6 (no bishops, no double step, no castling). Each move is made by two partners: the chooser secretly circles a piece, the mover secretly circles a target; if they do not make a legal move, the opponents' chooser keeps the piece or the target and the closest legal move is played. The checker's corner decides who chooses; checkmate wins."),
        entry!(crate::neighbour::NeighbourGame, experimental: true, hidden: true,
            "A solitaire: two decks of cards add the pieces one by one, each a few squares right or up from the last, wrapping around the edge. Then spend a card per move, each piece moving only with the move of a same-coloured neighbour, until every piece is in one connected group. Your score is the cards left."),
        entry!(crate::parade::ParadeGame, experimental: false, hidden: true,
            "Solitaire with the 16 officers: eight are laid out with gaps, and each card of the other eight is spent on an order (a piece moves an opposite-coloured piece between two squares it attacks) or on adding the next piece. Form one orthogonally connected group; score the cards left, or negative points once they run out."),
        entry!(crate::cooperative::CooperativeGame, experimental: false, hidden: true,
            "Two partners against the game. Each turn: an optional non-capturing move, then a card played to your face-up discard stack, then captures with the same piece, each taking a partner's piece like the top card of the partner's stack with a piece like your card (a type gone from the board, or a double colour match, makes a card wild). Capture a king to score a point per piece type gone; run out of cards and you both lose."),
        entry!(crate::cooperative2::Cooperative2Game, experimental: true, hidden: true,
            "Two players on one team against the game (or one alone, as a solitaire). Each turn play a card to the face-up line, make a non-capturing move if you like, then as many captures as the line allows: a card like the capturing piece beside a card like the captured one, whose card is then discarded. King cards go to the line on sight. Capture a king to score a point per piece captured plus ten per type gone; 32 or more wins."),
        entry!(crate::gravity::GravityGame, experimental: true, hidden: true,
            "Both players start on the same side and every move falls towards rank 1. Each turn: flip a card from the deck of the opponent's pieces you hold, move every one of your active pieces at least one row down in the order you choose (captures may stay on their row), then add the flipped piece on the top row. Pieces on the bottom, or blocked only by stacked pieces, are stacked and score their row; captures score one."),
    ]
}

/// Every registered variant.
pub fn variants() -> Vec<VariantInfo> {
    entries().iter().map(|e| (e.info)()).collect()
}

/// The names of every registered variant.
pub fn names() -> Vec<&'static str> {
    entries().iter().map(|e| e.name).collect()
}

/// The registry entry named `variant`, or an error that lists the known names.
fn entry(variant: &str) -> Result<Entry, GameError> {
    entries()
        .into_iter()
        .find(|e| e.name == variant)
        .ok_or_else(|| GameError::new(format!("unknown variant {variant:?} (known: {})", names().join(", "))))
}

/// What a client needs to offer `variant`.
pub fn variant(variant: &str) -> Result<VariantInfo, GameError> {
    Ok((entry(variant)?.info)())
}

/// Start a game of `variant`: from its own start, or from a text position.
pub fn create(
    variant: &str,
    options: Options,
    seed: u64,
    position: Option<&str>,
) -> Result<Box<dyn DynGame>, GameError> {
    (entry(variant)?.start)(options, seed, position)
}

/// Rebuild a game from its record by replaying every action, with the
/// referee's findings stored with them, so that no search runs again.
pub fn replay(record: &GameRecord) -> Result<Box<dyn DynGame>, GameError> {
    let mut game = create(&record.variant, record.options.clone(), record.seed, record.position.as_deref())?;
    for (i, a) in record.actions.iter().enumerate() {
        game.apply_record(a).map_err(|e| {
            GameError::new(format!("action {} ({} by seat {}) no longer applies: {e}", i + 1, a.action, a.seat))
        })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Options are checked once, where a game starts (docs/adding-a-game.md):
    /// every variant refuses an option it does not have, from its own start
    /// and from a text position, and says which.
    #[test]
    fn every_variant_refuses_an_option_it_does_not_have_from_its_start_and_from_a_position() {
        let wrong = || Options::new().with("no_such_option", 1);
        for name in names() {
            let position = create(name, Options::new(), 0, None).unwrap().position();
            for start in [None, Some(position.as_str())] {
                let refused = create(name, wrong(), 0, start).err().unwrap_or_else(|| panic!("{name} took it"));
                assert!(refused.0.contains("unknown option \"no_such_option\""), "{name}: {refused}");
            }
        }
    }

    /// The provided `Game::new` and `Game::from_position` check options
    /// too, for the callers that start a typed game without a session.
    #[test]
    fn a_typed_game_started_without_a_session_refuses_an_option_it_does_not_have() {
        let wrong = Options::new().with("zombie_tun", 1);
        assert!(ZombieGame::new(&wrong, 0).is_err());
        let position = ZombieGame::new(&Options::new(), 0).unwrap().position();
        assert!(ZombieGame::from_position(&position, &wrong, 0).is_err());
    }

    /// new-rules-2025 lists Neighbour Chess Solitaire under "Broken Games":
    /// "This game might not be broken, but it inspired Chess Golf, and
    /// they're too similar to keep both" (docs/games/neighbour.md). Like
    /// Booster, from the same list, it is offered marked experimental.
    #[test]
    fn neighbour_listed_among_the_broken_games_might_not_be_broken_but_is_marked_experimental() {
        for name in ["neighbour", "booster"] {
            let info = variant(name).unwrap();
            assert!(info.experimental, "{name} is in the book's broken games");
        }
        assert!(!variant("golf").unwrap().experimental, "Chess Golf, which it inspired, is not");
    }

    /// A lobby groups the games by how many play and labels their options
    /// in words, from this list alone.
    #[test]
    fn every_variant_says_how_many_play_and_names_its_options_in_words() {
        let players = |name: &str| {
            let info = variant(name).unwrap();
            (info.min_players, info.max_players)
        };
        assert_eq!(players("chess"), (2, 2));
        assert_eq!(players("parade"), (1, 1));
        assert_eq!(players("crowded-house"), (4, 4));
        assert_eq!(players("golf"), (1, 8), "\"a round of puzzles for 1 to 8 players\"");
        assert_eq!(players("cooperative2"), (1, 2), "two partners, or the solitaire");
        for info in variants() {
            for option in &info.options {
                let label =
                    option.label.as_deref().unwrap_or_else(|| panic!("{}'s {} has no label", info.name, option.name));
                assert!(label.starts_with(char::is_uppercase) && label.contains(' '), "{}: {label:?}", info.name);
            }
            assert!(!info.summary.contains('='), "{}'s summary reads like a command line: {}", info.name, info.summary);
        }
    }
}
