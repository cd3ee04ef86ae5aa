//! Drawing any game's generic view as text for the terminal.

use chesskit_core::chess::diagram::symbol;
use chesskit_core::chess::{Color, Piece, Role};
use chesskit_core::view::{BoardView, PieceView, SquareView, TableView, View};

/// The whole view as text: board, markers, cards, tables, the recent log,
/// notes, the outcome or the prompt.
pub fn render(view: &View, title: &str, flipped: bool) -> String {
    let mut out = format!("== {title} ==\n");
    if let Some(board) = &view.board {
        out.push_str(&render_board(board, flipped, &view.last_move, view.check.as_deref()));
        out.push_str(&render_key(board, &view.last_move, view.check.as_deref()));
        out.push_str(&render_markers(board, &seat_colours(view)));
    }
    for zone in &view.zones {
        let owner = zone.owner.and_then(|s| view.seats.get(s)).map(|s| format!(" ({})", s.name)).unwrap_or_default();
        let mut cards = zone.cards.join(" ");
        if zone.hidden > 0 {
            cards.push_str(&format!("{}[{} face down]", if cards.is_empty() { "" } else { " " }, zone.hidden));
        }
        out.push_str(&format!("{}{owner}: {}\n", zone.name, if cards.is_empty() { "-".into() } else { cards }));
    }
    for table in &view.tables {
        out.push_str(&render_table(table));
    }
    out.push_str(&render_clocks(view));
    out.push_str(&render_log(view));
    for note in &view.notes {
        out.push_str(&format!("Note: {note}\n"));
    }
    out.push_str(&render_chat(view));
    if let Some(seat) = view.draw_offer {
        let name = view.seats.get(seat).map_or_else(|| format!("Seat {seat}"), |s| s.name.clone());
        out.push_str(&format!("{name} offers a draw.\n"));
    }
    if let Some(outcome) = &view.outcome {
        let winners: Vec<&str> =
            outcome.winners.iter().filter_map(|&s| view.seats.get(s)).map(|s| s.name.as_str()).collect();
        let result =
            if winners.is_empty() { "no winner".to_string() } else { format!("{} won", winners.join(" and ")) };
        out.push_str(&format!("Game over: {result} ({})", outcome.reason));
        if let Some(scores) = &outcome.scores {
            out.push_str(&format!(", scores {scores:?}"));
        }
        out.push('\n');
    } else if let Some(prompt) = &view.prompt {
        out.push_str(&format!("{prompt}\n"));
    }
    out
}

/// How many of the log's entries are shown under the board.
const RECENT_LOG_ENTRIES: usize = 12;

/// The log's recent entries, one a line, numbered from the game's first
/// so that a reader can tell how far the game has gone and what was left
/// out: "Log (last 12 of 40):\n   29. White A: plays a card face down".
fn render_log(view: &View) -> String {
    if view.log.is_empty() {
        return String::new();
    }
    let first = view.log.len().saturating_sub(RECENT_LOG_ENTRIES);
    let mut out = if first > 0 {
        format!("Log (last {} of {}):\n", view.log.len() - first, view.log.len())
    } else {
        "Log:\n".to_string()
    };
    for (number, entry) in view.log.iter().enumerate().skip(first).map(|(i, e)| (i + 1, e)) {
        match entry.seat.and_then(|s| view.seats.get(s)) {
            Some(seat) => out.push_str(&format!("{number:>5}. {}: {}\n", seat.name, entry.text)),
            None => out.push_str(&format!("{number:>5}. {}\n", entry.text)),
        }
    }
    out
}

/// The clocks on one line, the running one marked, with each side's
/// coins: "Clocks: White 29:55, 1 coin <- running | Black 30:00".
fn render_clocks(view: &View) -> String {
    if view.clocks.is_empty() {
        return String::new();
    }
    let clocks: Vec<String> = view
        .clocks
        .iter()
        .map(|c| {
            let seconds = c.remaining_ms.div_ceil(1000);
            let mut text = format!("{} {}:{:02}", c.name, seconds / 60, seconds % 60);
            if let Some(coins) = c.coins {
                text.push_str(&format!(", {coins} coin{}", if coins == 1 { "" } else { "s" }));
            }
            if let Some(note) = &c.note {
                text.push_str(&format!(" ({note})"));
            }
            if c.running {
                text.push_str(" <- running");
            }
            text
        })
        .collect();
    format!(
        "Clocks: {}
",
        clocks.join(" | ")
    )
}

/// The table chat's last lines, one a line: "Talk: King-side Black: check?".
fn render_chat(view: &View) -> String {
    const SHOWN: usize = 5;
    let recent = view.chat.len().saturating_sub(SHOWN);
    view.chat[recent..]
        .iter()
        .map(|line| {
            let who = view.seats.get(line.seat).map_or_else(|| format!("Seat {}", line.seat), |s| s.name.clone());
            format!("Talk: {who}: {}\n", line.text)
        })
        .collect()
}

fn piece_char(piece: &PieceView) -> String {
    let colour = if piece.colour == "white" { Color::White } else { Color::Black };
    match piece.role.as_deref().and_then(role_from_name) {
        Some(role) => symbol(Piece { color: colour, role }).to_string(),
        None => if colour == Color::White { "○" } else { "●" }.to_string(),
    }
}

fn role_from_name(name: &str) -> Option<Role> {
    Some(match name {
        "pawn" => Role::Pawn,
        "knight" => Role::Knight,
        "bishop" => Role::Bishop,
        "rook" => Role::Rook,
        "queen" => Role::Queen,
        "king" => Role::King,
        _ => return None,
    })
}

/// The mark after a square's piece: `!` for a king in check, `*` for a
/// marked square, `'` for the last move (the first that applies), else a
/// space.
fn flag(square: &str, info: Option<&SquareView>, last_move: &[String], check: Option<&str>) -> char {
    if check == Some(square) {
        CHECK
    } else if info.is_some_and(|s| !s.markers.is_empty()) {
        MARKED
    } else if last_move.iter().any(|s| s == square) {
        LAST_MOVE
    } else {
        ' '
    }
}

const CHECK: char = '!';
const MARKED: char = '*';
const LAST_MOVE: char = '\'';

/// One cell: the piece (or a dot for an empty square), then its [`flag`].
fn cell(square: &str, info: Option<&SquareView>, last_move: &[String], check: Option<&str>) -> String {
    let dark = {
        let b = square.as_bytes();
        (b[0] - b'a' + b[1] - b'1').is_multiple_of(2)
    };
    let body = match info.and_then(|s| s.piece.as_ref()) {
        Some(piece) => piece_char(piece),
        None => if dark { "·" } else { " " }.to_string(),
    };
    format!(" {body}{}", flag(square, info, last_move, check))
}

/// The squares the board draws (a board may leave some out, like
/// Split-Brain's outer ring), by name.
fn drawn_squares(board: &BoardView) -> impl Iterator<Item = String> + '_ {
    (0..board.ranks)
        .flat_map(move |r| (0..board.files).map(move |f| format!("{}{}", (b'a' + f) as char, r + 1)))
        .filter(|square| board.active.as_ref().is_none_or(|a| a.contains(square)))
}

/// What the marks drawn on this board mean, only those it shows: the
/// terminal draws no colours, so a marker the game describes by colour
/// ("blue circle") is a `*` here, explained under the board.
fn render_key(board: &BoardView, last_move: &[String], check: Option<&str>) -> String {
    let drawn: Vec<(char, Option<&SquareView>)> = drawn_squares(board)
        .map(|square| (flag(&square, board.square(&square), last_move, check), board.square(&square)))
        .collect();
    let flags: Vec<char> = drawn.iter().map(|(flag, _)| *flag).collect();
    let listed = drawn
        .iter()
        .any(|(flag, info)| *flag == MARKED && info.is_some_and(|s| s.markers.iter().any(|m| m.kind != ZONE)));
    let mut meanings = Vec::new();
    if flags.contains(&MARKED) {
        meanings.push(if listed {
            format!("{MARKED} marked (see Marked)")
        } else {
            format!("{MARKED} {}", zone_name(board))
        });
    }
    if flags.contains(&LAST_MOVE) {
        meanings.push(format!("{LAST_MOVE} last move"));
    }
    if flags.contains(&CHECK) {
        meanings.push(format!("{CHECK} king in check"));
    }
    if meanings.is_empty() {
        String::new()
    } else {
        format!("Key: {}\n", meanings.join(", "))
    }
}

/// The region a [`ZONE`] marker shades, in words: "white zone".
fn zone_name(board: &BoardView) -> String {
    let colour =
        board.squares.iter().flat_map(|s| &s.markers).find(|m| m.kind == ZONE).and_then(|m| m.colour.as_deref());
    colour.map_or_else(|| "zone".to_string(), |c| format!("{c} zone"))
}

/// The colours of the seats' pieces ("white", "black"): a marker of such a
/// colour says whose it is, and keeps its colour in words.
fn seat_colours(view: &View) -> Vec<&str> {
    view.seats.iter().filter_map(|s| s.colour.as_deref()).collect()
}

fn render_board(board: &BoardView, flipped: bool, last_move: &[String], check: Option<&str>) -> String {
    let mut out = String::new();
    let ranks: Vec<u8> = if flipped { (0..board.ranks).collect() } else { (0..board.ranks).rev().collect() };
    let files: Vec<u8> = if flipped { (0..board.files).rev().collect() } else { (0..board.files).collect() };
    for &r in &ranks {
        out.push_str(&format!("{:>2}", r + 1));
        for &f in &files {
            let square = format!("{}{}", (b'a' + f) as char, r + 1);
            let active = board.active.as_ref().is_none_or(|a| a.contains(&square));
            if active {
                out.push_str(&cell(&square, board.square(&square), last_move, check));
            } else {
                out.push_str("   ");
            }
        }
        out.push('\n');
    }
    out.push_str("  ");
    for &f in &files {
        out.push_str(&format!(" {} ", (b'a' + f) as char));
    }
    out.push('\n');
    out
}

/// A marker that shades a region (the half of the player to move): shown by
/// the `*` of its squares, and too many to list.
const ZONE: &str = "zone";

/// Markers in words under the board: `c6: zombie; h7: 2 black checkers;
/// g4: circle (target)`. A colour is named only when it is a seat's
/// (whose checkers); any other colour is how a screen with colours draws
/// the marker, and means nothing here.
fn render_markers(board: &BoardView, seat_colours: &[&str]) -> String {
    let described: Vec<String> = board
        .squares
        .iter()
        .filter(|s| s.markers.iter().any(|m| m.kind != ZONE) || s.piece.as_ref().is_some_and(|p| p.label.is_some()))
        .map(|s| {
            let mut words: Vec<String> = s
                .markers
                .iter()
                .filter(|m| m.kind != ZONE)
                .map(|m| {
                    let mut w = String::new();
                    if let Some(n) = m.count {
                        w.push_str(&format!("{n} "));
                    }
                    if let Some(c) = m.colour.as_deref().filter(|c| seat_colours.contains(c)) {
                        w.push_str(&format!("{c} "));
                    }
                    w.push_str(&m.kind);
                    if let Some(t) = &m.text {
                        w.push_str(&format!(" ({t})"));
                    }
                    w
                })
                .collect();
            if let Some(label) = s.piece.as_ref().and_then(|p| p.label.as_ref()) {
                words.push(format!("label {label}"));
            }
            format!("{}: {}", s.square, words.join(", "))
        })
        .collect();
    if described.is_empty() {
        String::new()
    } else {
        format!("Marked: {}\n", described.join("; "))
    }
}

fn render_table(table: &TableView) -> String {
    let mut widths: Vec<usize> = table.columns.iter().map(|c| c.chars().count()).collect();
    for row in &table.rows {
        for (i, cell) in row.iter().enumerate() {
            if i >= widths.len() {
                widths.push(0);
            }
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:<w$}", w = widths.get(i).copied().unwrap_or(0)))
            .collect();
        format!("  {}\n", padded.join(" | ").trim_end())
    };
    let mut out = format!("{}:\n", table.title);
    out.push_str(&line(&table.columns));
    for row in &table.rows {
        out.push_str(&line(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesskit_core::chess::Position;
    use chesskit_core::view::{LogEntry, Marker};

    #[test]
    fn draws_the_start_position_with_markers() {
        let pos = Position::startpos();
        let board = BoardView::from_board(pos.board(), pos.mask(), &|sq| {
            if sq.to_string() == "c6" {
                vec![Marker::new("zombie")]
            } else {
                Vec::new()
            }
        });
        let view = View { board: Some(board), prompt: Some("White to move".into()), ..View::default() };
        let text = render(&view, "Chess", false);
        assert!(text.contains(" 8 ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜"), "{text}");
        assert!(text.contains("Marked: c6: zombie"));
        assert!(text.ends_with("White to move\n"));
    }

    /// The log's recent entries, `n` in all, by White.
    fn view_with_log(n: usize) -> View {
        let log = (1..=n).map(|i| LogEntry::new(Some(0), format!("move {i}"))).collect();
        View { seats: chesskit_core::SeatInfo::white_black(), log, ..View::default() }
    }

    #[test]
    fn the_log_is_one_numbered_entry_a_line_the_recent_ones_only() {
        let text = render(&view_with_log(15), "Chess", false);
        assert!(text.contains("Log (last 12 of 15):\n    4. White: move 4\n    5. White: move 5\n"), "{text}");
        assert!(text.contains("   15. White: move 15\n"), "{text}");
        assert!(!text.contains("move 3\n"), "older entries are left out: {text}");
        let short = render(&view_with_log(2), "Chess", false);
        assert!(short.contains("Log:\n    1. White: move 1\n    2. White: move 2\n"), "{short}");
    }

    #[test]
    fn the_key_names_each_mark_drawn_on_the_board_and_no_other() {
        let pos = Position::startpos();
        let marked = |sq: chesskit_core::chess::Square| {
            if sq.to_string() == "c6" {
                vec![Marker::new("circle").colour("blue").text("your circle")]
            } else {
                Vec::new()
            }
        };
        let board = BoardView::from_board(pos.board(), pos.mask(), &marked);
        let view = View { board: Some(board.clone()), last_move: vec!["e2".into(), "e4".into()], ..View::default() };
        let text = render(&view, "Chess", false);
        assert!(text.contains("Key: * marked (see Marked), ' last move\n"), "{text}");
        assert!(
            text.contains("Marked: c6: circle (your circle)\n"),
            "a colour the terminal cannot draw is not named: {text}"
        );
        let plain = View { board: Some(board), check: Some("e1".into()), ..View::default() };
        let text = render(&plain, "Chess", false);
        assert!(text.contains("Key: * marked (see Marked), ! king in check\n"), "{text}");
        let bare = render(
            &View { board: Some(BoardView::from_board(pos.board(), pos.mask(), &|_| Vec::new())), ..View::default() },
            "Chess",
            false,
        );
        assert!(!bare.contains("Key:"), "nothing drawn, nothing to explain: {bare}");
    }

    #[test]
    fn a_colour_that_is_a_seats_colour_says_whose_marker_it_is() {
        let pos = Position::startpos();
        let board = BoardView::from_board(pos.board(), pos.mask(), &|sq| {
            if sq.to_string() == "e4" {
                vec![Marker::new("checkers").colour("black").count(2)]
            } else {
                Vec::new()
            }
        });
        let view = View { seats: chesskit_core::SeatInfo::white_black(), board: Some(board), ..View::default() };
        assert!(render(&view, "Booster", false).contains("Marked: e4: 2 black checkers\n"));
    }

    /// Split-Brain from the start: the white chooser circles g2 (a rook
    /// with no move), the mover g4; f2 and g3 are equally near.
    fn split_brain_waiting_for_a_correction() -> Box<dyn chesskit_core::DynGame> {
        let mut game = chesskit_games::create("split-brain", chesskit_core::Options::new(), 1, None).unwrap();
        game.apply(0, "circle g2").unwrap();
        game.apply(2, "circle g4").unwrap();
        game
    }

    #[test]
    fn split_brain_the_opponents_chooser_is_told_the_nearest_valid_squares_by_name() {
        let game = split_brain_waiting_for_a_correction();
        let text = render(&game.view(chesskit_core::game::Viewer::Seat(1)), game.title(), true);
        let prompt = text.lines().last().unwrap();
        assert!(prompt.contains("f2 or g3"), "{text}");
        assert!(text.contains("g2: chosen (piece); g4: circle (target)"), "{text}");
    }

    #[test]
    fn split_brain_the_circling_prompts_say_circle_not_click() {
        let game = chesskit_games::create("split-brain", chesskit_core::Options::new(), 1, None).unwrap();
        for seat in [0, 2] {
            let text = render(&game.view(chesskit_core::game::Viewer::Seat(seat)), game.title(), false);
            let prompt = text.lines().last().unwrap();
            assert!(prompt.contains("circle") && !prompt.contains("click"), "{prompt}");
        }
    }

    #[test]
    fn an_open_draw_offer_is_said() {
        let seats = chesskit_core::SeatInfo::white_black();
        let view = View { seats, draw_offer: Some(1), prompt: Some("White to move".into()), ..View::default() };
        assert_eq!(render(&view, "Chess", false), "== Chess ==\nBlack offers a draw.\nWhite to move\n");
    }
}
