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
        out.push_str(&render_markers(board));
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
    let recent = view.log.len().saturating_sub(12);
    if !view.log.is_empty() {
        let lines: Vec<String> = view.log[recent..]
            .iter()
            .map(|e| match e.seat.and_then(|s| view.seats.get(s)) {
                Some(seat) => format!("{}: {}", seat.name, e.text),
                None => e.text.clone(),
            })
            .collect();
        out.push_str(&format!("Log{}: {}\n", if recent > 0 { " (recent)" } else { "" }, lines.join(" | ")));
    }
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

/// One cell: the piece (or a dot for an empty square), then `*` for a
/// marked square, `!` for a king in check, `'` for the last move.
fn cell(square: &str, info: Option<&SquareView>, last_move: &[String], check: Option<&str>) -> String {
    let dark = {
        let b = square.as_bytes();
        (b[0] - b'a' + b[1] - b'1').is_multiple_of(2)
    };
    let body = match info.and_then(|s| s.piece.as_ref()) {
        Some(piece) => piece_char(piece),
        None => if dark { "·" } else { " " }.to_string(),
    };
    let flag = if check == Some(square) {
        '!'
    } else if info.is_some_and(|s| !s.markers.is_empty()) {
        '*'
    } else if last_move.iter().any(|s| s == square) {
        '\''
    } else {
        ' '
    };
    format!(" {body}{flag}")
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

/// Markers in words under the board: `c6: zombie; h7: 2 black checkers`.
fn render_markers(board: &BoardView) -> String {
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
                    if let Some(c) = &m.colour {
                        w.push_str(&format!("{c} "));
                    }
                    w.push_str(&m.kind);
                    if let Some(t) = &m.text {
                        w.push_str(&format!(" {t}"));
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
    use chesskit_core::view::Marker;

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

    #[test]
    fn an_open_draw_offer_is_said() {
        let seats = chesskit_core::SeatInfo::white_black();
        let view = View { seats, draw_offer: Some(1), prompt: Some("White to move".into()), ..View::default() };
        assert_eq!(render(&view, "Chess", false), "== Chess ==\nBlack offers a draw.\nWhite to move\n");
    }
}
