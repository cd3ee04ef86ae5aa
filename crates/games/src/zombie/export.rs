//! The PGN of a Zombie Chess game.
//!
//! Like every chess variant's PGN (`chesskit_core::chess::pgn`): one move
//! per turn in long algebraic notation, and everything else the log says
//! as comments. A Zombie turn may begin with steps before its regular move
//! (zombie moves, a promotion, `done` in a turn of zombie moves only):
//! those comments come after the turn's number, so that they read as part
//! of that turn: `4. {White: zombie Nb3-d4} Nf3xd4`.

use chesskit_core::chess::pgn::{self, journal_movetext, MovetextItem, PgnStart};
use chesskit_core::chess::Color;
use chesskit_core::game::{Outcome, Seat};
use chesskit_core::view::Journal;

/// Where the numbering starts: the first turn's number and who plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstTurn {
    pub fullmove: u32,
    pub mover: Color,
}

/// The whole PGN: the variants' tags, then the numbered movetext.
pub fn zombie_pgn(start: Option<&PgnStart>, first: FirstTurn, journal: &Journal, outcome: Option<&Outcome>) -> String {
    // The tags are the same as every variant's: take them from the shared export.
    let shared = pgn::variant_pgn("Zombie", start, vec![], &Journal::default(), outcome);
    let tags = shared.split_once("\n\n").map_or(shared.as_str(), |(tags, _)| tags);
    let mut words = movetext_words(first, journal);
    words.push(pgn::result_token(outcome).to_string());
    format!("{tags}\n\n{}", pgn::wrap(&words, 80))
}

/// One item of the journal's movetext, with the seat its entry concerns.
struct Item {
    seat: Option<Seat>,
    item: MovetextItem,
}

/// The journal's movetext items, each with its entry's seat.
fn items(journal: &Journal) -> Vec<Item> {
    let seat_name = |seat: Seat| if seat == 0 { "White".to_string() } else { "Black".to_string() };
    let mut rendered = journal_movetext(journal, &seat_name).into_iter();
    let mut items = Vec::new();
    for (_, entry, token) in journal.entries() {
        let Some(first) = rendered.next() else { break };
        items.push(Item { seat: entry.seat, item: first });
        // A move is followed by its log text as a comment when that says more.
        if token.is_some() && entry.text.trim_end_matches('.') != token.unwrap_or_default() {
            if let Some(comment) = rendered.next() {
                items.push(Item { seat: entry.seat, item: comment });
            }
        }
    }
    items
}

/// The numbered movetext as words. Comments of the player to move, before
/// that player's move token, are held back and written after the number.
fn movetext_words(first: FirstTurn, journal: &Journal) -> Vec<String> {
    let mut words = Vec::new();
    let (mut fullmove, mut turn) = (first.fullmove, first.mover);
    let mut held: Vec<String> = Vec::new();
    let mut number_black = true;
    let seat_of = |color: Color| -> Seat { color.fold_wb(0, 1) };
    for Item { seat, item } in items(journal) {
        match item {
            MovetextItem::Move(token) => {
                if turn.is_white() {
                    words.push(format!("{fullmove}."));
                } else if number_black || !held.is_empty() {
                    words.push(format!("{fullmove}..."));
                }
                for comment in held.drain(..) {
                    push_comment(&mut words, &comment);
                }
                words.push(token);
                number_black = false;
                if turn.is_black() {
                    fullmove += 1;
                }
                turn = turn.other();
            }
            MovetextItem::Comment(text) if seat == Some(seat_of(turn)) => held.push(text),
            MovetextItem::Comment(text) => {
                // Only the end of the game follows steps without a move.
                for comment in held.drain(..) {
                    push_comment(&mut words, &comment);
                }
                push_comment(&mut words, &text);
                number_black = true;
            }
        }
    }
    for comment in held {
        push_comment(&mut words, &comment);
    }
    words
}

/// A comment as words; it ends at the first closing brace, so its text has none.
fn push_comment(words: &mut Vec<String>, text: &str) {
    let comment = format!("{{{}}}", text.replace('}', ")").trim());
    words.extend(comment.split_whitespace().map(str::to_string));
}
