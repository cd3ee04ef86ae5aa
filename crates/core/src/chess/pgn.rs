//! PGN export: orthodox games with their moves in SAN, and the chess
//! variants, whose movetext is one move per turn in long algebraic notation
//! with everything else the referee saw (burials, guesses, answers to
//! "Capture?") as comments, read from the game's journal.

use shakmaty::Color;

use super::fen::{to_fen, CastlingNotation};
use super::notation::to_san;
use super::position::Position;
use crate::game::{Outcome, Seat};
use crate::view::{Audience, Journal};

/// One item of PGN movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovetextItem {
    /// A move token (`Nf3`, `e2-e4`, or `--` for a turn in which nothing moved).
    Move(String),
    /// A comment, written between braces.
    Comment(String),
}

/// The move token of a turn in which no piece moved (a pass, a failed
/// capture attempt): the null move most PGN readers accept.
pub const NULL_MOVE: &str = "--";

/// A PGN game: the tags, then movetext numbered from `first_fullmove` with
/// `first_to_move` playing the first move, then the result token.
pub struct PgnText<'a> {
    pub tags: Vec<(&'a str, String)>,
    pub first_fullmove: u32,
    pub first_to_move: Color,
    pub movetext: Vec<MovetextItem>,
    pub result: &'a str,
}

impl PgnText<'_> {
    /// The game as PGN text: tags, a blank line, and movetext wrapped at 80
    /// columns. Black's move is numbered `N...` at the start and after a
    /// comment, as the PGN standard asks.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            out.push_str(&format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\"")));
        }
        out.push('\n');
        let mut words: Vec<String> = Vec::new();
        let (mut fullmove, mut turn) = (self.first_fullmove, self.first_to_move);
        let mut number_black = true;
        for item in &self.movetext {
            match item {
                MovetextItem::Move(token) => {
                    if turn.is_white() {
                        words.push(format!("{fullmove}."));
                    } else if number_black {
                        words.push(format!("{fullmove}..."));
                    }
                    words.push(token.clone());
                    number_black = false;
                    if turn.is_black() {
                        fullmove += 1;
                    }
                    turn = turn.other();
                }
                MovetextItem::Comment(text) => {
                    // A comment ends at the first closing brace: keep its text free of one.
                    let text = text.replace('}', ")");
                    let comment = format!("{{{}}}", text.trim());
                    words.extend(comment.split_whitespace().map(str::to_string));
                    number_black = true;
                }
            }
        }
        words.push(self.result.to_string());
        out.push_str(&wrap(&words, 80));
        out
    }
}

/// Words joined by spaces into lines of at most `width` columns (a longer
/// word has a line of its own), each line ending in a newline: PGN movetext
/// as exported, which games writing their own movetext share.
pub fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The PGN result token of a chess game in which even seats play White (seat 0
/// of two, or the team of seats 0 and 2 of four).
pub fn result_token(outcome: Option<&Outcome>) -> &'static str {
    // Seats of the chess games alternate colours: even seats play White,
    // odd seats Black, in two-player games and in four-seat teams alike.
    let all = |winners: &[usize], parity: usize| !winners.is_empty() && winners.iter().all(|s| s % 2 == parity);
    match outcome {
        None => "*",
        Some(o) if all(&o.winners, 0) => "1-0",
        Some(o) if all(&o.winners, 1) => "0-1",
        Some(_) => "1/2-1/2",
    }
}

/// The seven tags every PGN game starts with, for a game of `event`.
pub fn seven_tag_roster(event: &str, result: &str) -> Vec<(&'static str, String)> {
    vec![
        ("Event", event.to_string()),
        ("Site", "chesskit".to_string()),
        ("Date", "????.??.??".to_string()),
        ("Round", "-".to_string()),
        ("White", "White".to_string()),
        ("Black", "Black".to_string()),
        ("Result", result.to_string()),
    ]
}

/// `pgn` with the tag `name` set to `value`: the tag's line replaced where
/// it is, or added after the last tag. For PGN this module wrote (tags,
/// a blank line, movetext).
pub fn set_tag(pgn: &str, name: &str, value: &str) -> String {
    let (tags, movetext) = pgn.split_once("\n\n").unwrap_or((pgn.trim_end_matches('\n'), ""));
    let line = format!("[{name} \"{}\"]", value.replace('\\', "\\\\").replace('"', "\\\""));
    let prefix = format!("[{name} \"");
    let mut lines: Vec<String> = tags.lines().filter(|l| !l.is_empty()).map(str::to_string).collect();
    match lines.iter_mut().find(|l| l.starts_with(&prefix)) {
        Some(existing) => *existing = line,
        None => lines.push(line),
    }
    let mut out = lines.join("\n");
    out.push_str("\n\n");
    out.push_str(movetext);
    out
}

/// `pgn` ending otherwise: its result token (tag and movetext) replaced by
/// `result`, after a closing `comment`, the movetext wrapped again at 80
/// columns. For a game the players ended at the table (a resignation, an
/// agreed draw), which the game's own PGN does not know of.
pub fn end_with(pgn: &str, comment: &str, result: &str) -> String {
    let pgn = set_tag(pgn, "Result", result);
    let (tags, movetext) = pgn.split_once("\n\n").unwrap_or((&pgn, ""));
    let mut words: Vec<String> = movetext.split_whitespace().map(str::to_string).collect();
    if words.last().is_some_and(|w| matches!(w.as_str(), "*" | "1-0" | "0-1" | "1/2-1/2")) {
        words.pop();
    }
    let comment = format!("{{{}}}", comment.replace('}', ")").trim());
    words.extend(comment.split_whitespace().map(str::to_string));
    words.push(result.to_string());
    format!("{tags}\n\n{}", wrap(&words, 80))
}

/// The PGN `Date` tag's value (`YYYY.MM.DD`, UTC) of a time in unix seconds.
pub fn date_tag(unix_seconds: i64) -> String {
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let days = unix_seconds.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// An orthodox game: moves in SAN from `start`.
pub struct PgnGame<'a> {
    pub tags: Vec<(&'a str, String)>,
    pub start: Position,
    pub moves: &'a [shakmaty::Move],
    pub result: &'a str,
}

impl PgnGame<'_> {
    /// The game as PGN text: tags, a blank line, numbered SAN moves wrapped at 80 columns.
    pub fn render(&self) -> String {
        let mut pos = self.start.clone();
        let movetext = self
            .moves
            .iter()
            .map(|&m| {
                let san = to_san(&pos, m);
                pos.play_unchecked(m);
                MovetextItem::Move(san)
            })
            .collect();
        PgnText {
            tags: self.tags.clone(),
            first_fullmove: self.start.fullmoves(),
            first_to_move: self.start.turn(),
            movetext,
            result: self.result,
        }
        .render()
    }
}

/// The movetext of a variant from its whole journal, secrets included (a
/// game that hides information exports it only once it is over). Entries
/// that are a turn's move become move tokens, followed by their log text as
/// a comment when it says more; every other entry becomes a comment, headed
/// by the seat it concerns, and "privately" when only some seats read it.
pub fn journal_movetext(journal: &Journal, seat_name: &dyn Fn(Seat) -> String) -> Vec<MovetextItem> {
    let mut items = Vec::new();
    for (audience, entry, token) in journal.entries() {
        if let Some(token) = token {
            items.push(MovetextItem::Move(token.to_string()));
            if entry.text.trim_end_matches('.') != token {
                items.push(MovetextItem::Comment(entry.text.clone()));
            }
            continue;
        }
        let private = matches!(audience, Audience::Seats(_));
        let text = match entry.seat {
            Some(seat) => {
                let name = seat_name(seat);
                match (private, entry.text.starts_with(&name)) {
                    (true, _) => format!("{name}, privately: {}", entry.text),
                    (false, true) => entry.text.clone(),
                    (false, false) => format!("{name}: {}", entry.text),
                }
            }
            None if private => format!("privately: {}", entry.text),
            None => entry.text.clone(),
        };
        items.push(MovetextItem::Comment(text));
    }
    items
}

/// Where a variant's game started, when not from the orthodox start: the
/// FEN of its board for the `SetUp` and `FEN` tags, and the chesskit
/// position text, in a `ChesskitPosition` tag, when it says more than the
/// FEN (zombies, burials, a turn in progress).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnStart {
    fen: String,
    fullmove: u32,
    to_move: Color,
    position_text: Option<String>,
}

impl PgnStart {
    pub fn new(pos: &Position, notation: CastlingNotation, position_text: &str) -> PgnStart {
        let fen = to_fen(pos, notation);
        let position_text = (position_text.trim() != fen).then(|| position_text.trim().to_string());
        PgnStart { fen, fullmove: pos.fullmoves(), to_move: pos.turn(), position_text }
    }
}

/// A two-seat variant's game as PGN (seat 0 White, seat 1 Black): the
/// seven tags, `Variant`, the start, the variant's own `extra_tags` (its
/// secrets, once the game is over), and the movetext of its journal (see
/// [`journal_movetext`]).
pub fn variant_pgn(
    variant: &str,
    start: Option<&PgnStart>,
    extra_tags: Vec<(&'static str, String)>,
    journal: &Journal,
    outcome: Option<&Outcome>,
) -> String {
    let seat_name = |seat: Seat| ["White", "Black"].get(seat).map_or_else(|| format!("Seat {seat}"), |n| n.to_string());
    let result = result_token(outcome);
    let mut tags = seven_tag_roster(&format!("chesskit {variant} game"), result);
    tags.push(("Variant", variant.to_string()));
    tags.extend(extra_tags);
    let mut movetext = Vec::new();
    if let Some(start) = start {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", start.fen.clone()));
        if let Some(text) = &start.position_text {
            // A tag, not a comment: the text's `{z}` markers would end a comment.
            tags.push(("ChesskitPosition", text.replace('\n', " / ")));
        }
    }
    if let Some(outcome) = outcome {
        tags.push(("Termination", outcome.reason.clone()));
    }
    movetext.extend(journal_movetext(journal, &seat_name));
    PgnText {
        tags,
        first_fullmove: start.map_or(1, |s| s.fullmove),
        first_to_move: start.map_or(Color::White, |s| s.to_move),
        movetext,
        result,
    }
    .render()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen::parse_fen;

    fn pgn(first_to_move: Color, movetext: Vec<MovetextItem>) -> String {
        PgnText { tags: vec![("Event", "test".to_string())], first_fullmove: 7, first_to_move, movetext, result: "*" }
            .render()
    }

    #[test]
    fn black_moves_are_numbered_at_the_start_and_after_a_comment() {
        let text = pgn(
            Color::Black,
            vec![
                MovetextItem::Move("e7-e5".into()),
                MovetextItem::Move("Ng1-f3".into()),
                MovetextItem::Comment("White buries the black pawn".into()),
                MovetextItem::Move(NULL_MOVE.into()),
                MovetextItem::Move("d2-d4".into()),
            ],
        );
        assert_eq!(text, "[Event \"test\"]\n\n7... e7-e5 8. Ng1-f3 {White buries the black pawn} 8... -- 9. d2-d4 *\n");
    }

    #[test]
    fn a_comment_cannot_close_itself_early_and_long_movetext_wraps() {
        let text = pgn(Color::White, vec![MovetextItem::Comment("a } brace ".repeat(20))]);
        let movetext: Vec<&str> = text.lines().skip(2).collect();
        assert!(movetext.iter().all(|line| line.len() <= 80), "{text}");
        assert_eq!(movetext.concat().matches('}').count(), 1, "{text}");
    }

    #[test]
    fn tags_are_replaced_in_place_or_added_after_the_others() {
        let text = "[Event \"e\"]\n[White \"White\"]\n[Result \"*\"]\n\n1. e4 *\n";
        let text = set_tag(text, "White", "Computer (level3) \"x\"");
        let text = set_tag(&text, "Termination", "resignation");
        assert_eq!(
            text,
            "[Event \"e\"]\n[White \"Computer (level3) \\\"x\\\"\"]\n[Result \"*\"]\n[Termination \"resignation\"]\n\n1. e4 *\n"
        );
    }

    #[test]
    fn a_table_ending_replaces_the_result_and_closes_with_a_comment() {
        let text = "[Result \"*\"]\n\n1. e4 e5 *\n";
        assert_eq!(end_with(text, "Black resigns.", "1-0"), "[Result \"1-0\"]\n\n1. e4 e5 {Black resigns.} 1-0\n");
        let long = format!("[Result \"*\"]\n\n{} *\n", "1. e4 ".repeat(30).trim());
        let ended = end_with(&long, "Draw agreed.", "1/2-1/2");
        assert!(ended.lines().all(|l| l.len() <= 80), "{ended}");
        assert!(ended.ends_with("{Draw agreed.} 1/2-1/2\n"), "{ended}");
    }

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(951_782_400), "2000.02.29", "a leap day of a year divisible by 400");
        assert_eq!(date_tag(1_795_392_000 - 1), "2026.11.22");
        assert_eq!(date_tag(1_795_392_000), "2026.11.23");
        assert_eq!(date_tag(-86_400), "1969.12.31");
    }

    #[test]
    fn result_tokens_follow_the_winners() {
        assert_eq!(result_token(None), "*");
        assert_eq!(result_token(Some(&Outcome::win(vec![0], "checkmate"))), "1-0");
        assert_eq!(result_token(Some(&Outcome::win(vec![1], "checkmate"))), "0-1");
        assert_eq!(result_token(Some(&Outcome::draw("stalemate"))), "1/2-1/2");
        assert_eq!(result_token(Some(&Outcome::win(vec![2, 0], "checkmate"))), "1-0", "White's team");
        assert_eq!(result_token(Some(&Outcome::win(vec![1, 3], "checkmate"))), "0-1", "Black's team");
    }

    #[test]
    fn the_journal_gives_moves_and_headed_comments() {
        let mut journal = Journal::default();
        journal.public_move(0, "e2-e4", "e2-e4");
        journal.public_move(1, "d7-d5", "d7-d5");
        journal.public_move(0, "e4xd5", "e4xd5, capturing a pawn");
        journal.public(Some(0), "buries the black pawn");
        journal.private(&[0], Some(0), "you buried the black pawn under b2");
        journal.public(Some(1), "Black has no move and passes");
        journal.public(None, "game over: checkmate");
        let names = |seat: Seat| ["White", "Black"][seat].to_string();
        let items = journal_movetext(&journal, &names);
        let comment = |text: &str| MovetextItem::Comment(text.to_string());
        assert_eq!(
            items,
            vec![
                MovetextItem::Move("e2-e4".into()),
                MovetextItem::Move("d7-d5".into()),
                MovetextItem::Move("e4xd5".into()),
                comment("e4xd5, capturing a pawn"),
                comment("White: buries the black pawn"),
                comment("White, privately: you buried the black pawn under b2"),
                comment("Black has no move and passes"),
                comment("game over: checkmate"),
            ]
        );
    }

    #[test]
    fn a_variant_game_names_its_variant_start_and_ending() {
        let start = parse_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap();
        let start = PgnStart::new(&start, CastlingNotation::XFen, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\nburied: e2");
        let mut journal = Journal::default();
        journal.public_move(1, "Ke8-d7", "Ke8-d7");
        let outcome = Outcome::win(vec![1], "king captured");
        let text = variant_pgn("Zombie", Some(&start), vec![], &journal, Some(&outcome));
        for tag in [
            "[Event \"chesskit Zombie game\"]",
            "[Result \"0-1\"]",
            "[Variant \"Zombie\"]",
            "[SetUp \"1\"]",
            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]",
            "[Termination \"king captured\"]",
            "[ChesskitPosition \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30 / buried: e2\"]",
        ] {
            assert!(text.contains(tag), "{tag} in {text}");
        }
        assert!(text.ends_with("\n\n30... Ke8-d7 0-1\n"), "{text}");
    }

    #[test]
    fn an_orthodox_game_from_a_position_with_black_to_move() {
        let start = parse_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap();
        let moves = [shakmaty::Move::Normal {
            role: shakmaty::Role::King,
            from: shakmaty::Square::E8,
            capture: None,
            to: shakmaty::Square::D7,
            promotion: None,
        }];
        let text = PgnGame { tags: vec![], start, moves: &moves, result: "*" }.render();
        assert_eq!(text, "\n30... Kd7 *\n");
    }
}
