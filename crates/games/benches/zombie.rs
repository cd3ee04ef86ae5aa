//! Zombie Chess with a horde: how long the referee takes to open a
//! position (`new`), list the legal actions (`legal`), draw a seat's view
//! (`view`) and apply an action (`act`: the slowest of every legal action,
//! or the refused action the position names), on positions with 4 to 16
//! zombies. Every request should take under 10 ms.
//!
//! Hand-made positions: the horde of the bug report (the zombie knight on
//! b1 shields the king, only Rg7-g1 saves it; `a2b3` is refused), with one
//! more free zombie, and its stalemate (no rook to save the king), and
//! hordes of mixed zombies that block their own regular pieces. Positions
//! of random games: the first position of a seeded random game with at
//! least N zombies on the board.
//!
//! Run: `cargo bench -p chesskit-games --bench zombie`

mod common;

use std::time::Duration;

use chesskit_core::game::{Game, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_games::zombie::ZombieGame;
use common::best_of_three;

const EMPTY_LINES: &str = "\nwhite burials: -\nblack burials: -\ngraveyard: -\ndust bin: -";

/// Name, position (FEN with `{z}`), and an action to time instead of every legal one.
const HAND_MADE: &[(&str, &str, Option<&str>)] = &[
    ("report, 4 free", "7k/3N{z}2R1/8/3N{z}1N{z}2/4N{z}3/pp6/PP6/KN{z}5r w - - 0 1", Some("a2b3")),
    ("report", "7k/3N{z}2R1/2N{z}1N{z}3/3N{z}1N{z}2/4N{z}3/pp6/PP6/KN{z}5r w - - 0 1", Some("a2b3")),
    ("report, 7 free", "7k/3N{z}2R1/2N{z}1N{z}3/3N{z}1N{z}1N{z}/4N{z}3/pp6/PP6/KN{z}5r w - - 0 1", Some("a2b3")),
    (
        "report, g-file blocked",
        "7k/3N{z}2R1/2N{z}1N{z}3/3N{z}1N{z}2/4N{z}1N{z}1/pp6/PP6/KN{z}5r w - - 0 1",
        Some("a2b3"),
    ),
    ("report, stalemate", "7k/3N{z}4/2N{z}1N{z}3/3N{z}1N{z}2/4N{z}1N{z}1/pp6/PP6/KN{z}5r w - - 0 1", None),
    // Every zombie shields the king on a line of an opponent's rook or queen:
    // all of them are searched (the worst case of the exact search).
    ("siege", "r3k2q/8/8/8/R{z}7/N{z}1B{z}5/P{z}N{z}5P/KN{z}B{z}R{z}3r w - - 0 1", None),
    // Nine zombie knights on the three lines to a boxed-in king: every one
    // is searched, and no turn completes (stalemate): the exact search's worst.
    ("knights' siege", "r3k2q/8/8/8/N{z}2N{z}4/N{z}1N{z}5/N{z}N{z}6/KN{z}N{z}N{z}3r w - - 0 1", None),
    // The same without the pawn: only the king may make the regular move.
    ("siege, king only", "r3k2q/8/8/8/R{z}7/N{z}1B{z}5/P{z}N{z}6/KN{z}B{z}R{z}3r w - - 0 1", None),
    ("mixed horde", "r3k2r/ppp2ppp/2n5/3q4/8/2N{z}1B{z}N{z}2/P{z}P{z}P{z}Q{z}1P{z}P{z}P{z}/R{z}3K2R w Kkq - 0 1", None),
    (
        "boxed in",
        "rnbqkbnr/pppppppp/8/8/8/2N{z}2N{z}2/P{z}P{z}P{z}P{z}P{z}P{z}P{z}P{z}/R{z}N{z}B{z}Q{z}KB{z}N{z}R w kq - 0 1",
        None,
    ),
];

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Times the four requests on one position and prints a row.
fn measure(name: &str, text: &str, act: Option<&str>) -> Duration {
    let options = Options::new();
    let (game, new) = best_of_three(|| ZombieGame::from_position(text, &options, 0).expect("a valid position"));
    let seat = game.to_act().seats().first().copied().unwrap_or(0);
    let (actions, legal) = best_of_three(|| game.legal_actions(seat));
    let (_, view) = best_of_three(|| game.view(Viewer::Seat(seat)));
    let texts: Vec<String> = match act {
        Some(text) => vec![text.to_string()],
        None => actions.iter().map(ToString::to_string).collect(),
    };
    let mut slowest = Duration::ZERO;
    for text in &texts {
        let (_, took) = best_of_three(|| {
            let mut next = game.clone();
            let action = next.parse_action(seat, text);
            action.and_then(|a| next.apply(seat, &a)).is_ok()
        });
        slowest = slowest.max(took);
    }
    let zombies = game.zombies().count();
    println!(
        "{name:<22} {zombies:>7} {:>8} {:>9.2} {:>9.2} {:>9.2} {:>9.2}",
        actions.len(),
        ms(new),
        ms(legal),
        ms(view),
        ms(slowest)
    );
    new.max(legal).max(view).max(slowest)
}

/// The first position of a seeded random game with at least `zombies`
/// zombies on the board, at the start of a turn with ten actions or more.
fn random_game_position(zombies: usize, seeds: std::ops::Range<u64>) -> Option<(u64, String)> {
    for seed in seeds {
        let mut game = ZombieGame::new(&Options::new(), seed).expect("a new game");
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..3000 {
            let Some(&seat) = game.to_act().seats().first() else { break };
            let position = game.position();
            let at_turn_start = !position.contains("\nleft:") && !position.contains("step: bury");
            let actions = game.legal_actions(seat);
            if at_turn_start && game.zombies().count() >= zombies && actions.len() >= 10 {
                return Some((seed, position));
            }
            // Zombies move whenever they can, so that hordes grow.
            let moves: Vec<_> = actions.iter().filter(|a| a.to_string() != "done").copied().collect();
            let pool = if moves.is_empty() { &actions } else { &moves };
            let action = *rng.choose(pool).expect("an action");
            game.apply(seat, &action).expect("a legal action");
        }
    }
    None
}

fn main() {
    println!(
        "{:<22} {:>7} {:>8} {:>9} {:>9} {:>9} {:>9}",
        "position", "zombies", "actions", "new ms", "legal ms", "view ms", "act ms"
    );
    let mut worst = Duration::ZERO;
    for &(name, fen, act) in HAND_MADE {
        worst = worst.max(measure(name, &format!("{fen}{EMPTY_LINES}"), act));
    }
    for zombies in [4, 6, 8, 10, 12] {
        match random_game_position(zombies, 0..60) {
            Some((seed, text)) => worst = worst.max(measure(&format!("random #{seed}, {zombies}+"), &text, None)),
            None => println!("random games with {zombies} zombies: none found"),
        }
    }
    println!("slowest request: {:.2} ms", ms(worst));
}
