//! What each viewer sees: the board with the opponent's checkers hidden
//! (numbers only) and the viewer's own checkers shown with their identity
//! and a "cloaked" marker; the deduction grids; the captured pieces; the
//! public log; and the viewer's own setup as a private note.

use chesskit_core::chess::fen::color_name;
use chesskit_core::chess::{Color, Square};
use chesskit_core::game::{SeatInfo, Viewer};
use chesskit_core::view::{BoardView, Marker, PieceView, SquareView, TableView, View};

use super::knowledge::{Cell, CHECKER_KINDS};
use super::{color_of, colour_word, CloakAndDagger, Step};

pub fn view(game: &CloakAndDagger, viewer: Viewer) -> View {
    let me = viewer.seat().filter(|&s| s < 2).map(color_of);
    let mut view = View {
        board: Some(board(game, me)),
        tables: tables(game, me),
        log: game.journal.for_viewer(viewer, &SeatInfo::white_black()),
        notes: notes(game, me),
        prompt: prompt(game, me),
        last_move: game.last_move.iter().map(Square::to_string).collect(),
        ..View::default()
    };
    if game.outcome.is_none() && game.step != Step::Setup {
        let turn = game.pos.turn();
        if game.in_visible_check(turn) {
            view.check = game.pos.king_of(turn).map(|k| k.to_string());
        }
    }
    view
}

/// The board: pawns and uncloaked pieces for everyone; a cloaked checker is
/// a hidden piece with its number, except to its owner once placed.
fn board(game: &CloakAndDagger, me: Option<Color>) -> BoardView {
    let board = game.pos.board();
    let squares = Square::ALL
        .into_iter()
        .filter_map(|square| {
            let piece = board.piece_at(square)?;
            let checker = game.checker_at(piece.color, square);
            let mut markers = Vec::new();
            let mut shown = PieceView::from_piece(piece);
            if let Some(index) = checker {
                let cloaked = game.checkers.get(piece.color)[index].cloaked;
                let known = me == Some(piece.color) && game.placement.get(piece.color).is_some();
                if cloaked {
                    markers.push(Marker::new("cloaked").colour(colour_word(piece.color)));
                    if !known {
                        shown = PieceView::hidden(piece.color);
                    }
                }
                shown.label = Some((index + 1).to_string());
            }
            Some(SquareView { square: square.to_string(), piece: Some(shown), markers })
        })
        .collect();
    BoardView { files: 8, ranks: 8, active: None, squares }
}

/// The deduction grids (the viewer's own first), and the captured pieces.
fn tables(game: &CloakAndDagger, me: Option<Color>) -> Vec<TableView> {
    let order = match me {
        Some(color) => [color, color.other()],
        None => [Color::White, Color::Black],
    };
    let mut tables: Vec<TableView> = order.into_iter().map(|color| grid(game, color, me == Some(color))).collect();
    tables.push(captured(game));
    tables
}

/// "Write a circle for each piece you know, and an X for each piece you
/// know is impossible. You might want to write X's for your own pieces as
/// your opponent learns which of your combinations are impossible." Rows
/// are the kinds, columns the checker numbers. The owner's grid has circles
/// for the true identities and X's for what the opponent has ruled out;
/// everyone else's has what the public clues and the Chess960 restrictions
/// prove.
fn grid(game: &CloakAndDagger, color: Color, own: bool) -> TableView {
    let public = game.clues.get(color).grid();
    let setup = game.placement.get(color).filter(|_| own);
    let rows = CHECKER_KINDS
        .iter()
        .enumerate()
        .map(|(row, &role)| {
            let mut cells = vec![role.upper_char().to_string()];
            for (checker, cell) in public[row].iter().enumerate() {
                let mark = match (setup, cell) {
                    (Some(setup), _) if setup[checker] == role => "O",
                    (Some(_), Cell::Impossible) => "X",
                    (Some(_), _) => "",
                    (None, Cell::Known) => "O",
                    (None, Cell::Impossible) => "X",
                    (None, Cell::Open) => "",
                };
                cells.push(mark.to_string());
            }
            cells
        })
        .collect();
    let title = if own {
        format!("{}'s checkers (yours: X where your opponent has ruled a piece out)", color_name(color))
    } else {
        format!("{}'s checkers (O known, X impossible)", color_name(color))
    };
    let mut columns = vec!["piece".to_string()];
    columns.extend((1..=8).map(|n| n.to_string()));
    TableView { title, columns, rows }
}

/// "If one of your checkers is captured, tell your opponent which piece
/// they captured": each player's captured checkers, and the pawns each may
/// take back with a bonus move.
fn captured(game: &CloakAndDagger) -> TableView {
    let rows = Color::ALL
        .into_iter()
        .map(|color| {
            let lost: Vec<String> = game
                .checkers
                .get(color)
                .iter()
                .enumerate()
                .filter(|(_, c)| c.square.is_none())
                .map(|(i, _)| {
                    let role = game.identity(color, i).map_or('?', |r| r.upper_char());
                    format!("{}={role}", i + 1)
                })
                .collect();
            vec![color_name(color).to_string(), lost.join(" "), game.hands.get(color).to_string()]
        })
        .collect();
    TableView {
        title: "Captured".to_string(),
        columns: vec!["player".to_string(), "checkers lost".to_string(), "pawns to take back".to_string()],
        rows,
    }
}

fn notes(game: &CloakAndDagger, me: Option<Color>) -> Vec<String> {
    let Some(color) = me else { return Vec::new() };
    match game.placement.get(color) {
        Some(setup) => {
            let letters: Vec<String> = setup.iter().map(|r| r.upper_char().to_string()).collect();
            vec![format!("Your checkers 1 to 8 are {} (they started on files a to h).", letters.join(" "))]
        }
        None => Vec::new(),
    }
}

fn prompt(game: &CloakAndDagger, me: Option<Color>) -> Option<String> {
    if game.outcome.is_some() {
        return None;
    }
    if game.step == Step::Setup {
        return Some(match me {
            Some(color) if game.placement.get(color).is_none() => "Place your checkers in secret: name checkers 1 \
                to 8 (files a to h), like place RNBQKBNR. Place your king between your rooks and your bishops \
                on squares of both colours."
                .to_string(),
            Some(color) => format!("Waiting for {} to place their checkers.", color_name(color.other())),
            None => "Both players place their checkers in secret.".to_string(),
        });
    }
    let turn = game.pos.turn();
    if me != Some(turn) {
        return Some(format!("{} to play.", color_name(turn)));
    }
    Some(match game.step {
        Step::Start if game.bonus_for == Some(turn) => "Your opponent guessed wrong: you may first make a bonus \
            move (bonus e4e5, or drop d2 to take back a pawn). Then you may guess one of your opponent's checkers \
            (guess c8 N) and make your move."
            .to_string(),
        Step::Start => {
            "Your turn: you may guess one of your opponent's checkers (guess c8 N), then make your move.".to_string()
        }
        Step::Guessed { .. } => "Make your move.".to_string(),
        Step::Bonus => "Your guess was right: make a bonus move (bonus e4e5, or drop d2), uncloak checkers \
            (uncloak c1), or end your turn (done)."
            .to_string(),
        Step::Uncloak | Step::Setup => {
            "End of your turn: uncloak any of your checkers (uncloak c1), then end your turn (done).".to_string()
        }
    })
}
